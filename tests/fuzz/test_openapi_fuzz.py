"""Every route of the local server, the match routes included, fuzzed from its OpenAPI
schema with all of schemathesis's checks: no 500, every status and body as documented,
valid input accepted, invalid input refused, the Allow header of a 405 true."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig

from sunbot.server import TokenCodec, create_app

load_all_checks()
ALL_CHECKS = CHECKS.get_all()
#: A schema-valid action body can still carry a token this server never minted (or a state
#: that breaks the rules): only the server's key and engine can tell, no schema can, so a 400
#: there is a correct refusal, not "valid data rejected" (schemathesis ST202).
CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-path": "/api/games/{slug}/action",
                "include-method": "POST",
                "checks": {
                    "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "404"]}
                },
            }
        ]
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(TokenCodec()), config=CONFIG)


def test_the_document_declares_every_route_body_and_status():
    doc = create_app(TokenCodec()).openapi()
    ops = {(m.upper(), p): op for p, item in doc["paths"].items() for m, op in item.items()}
    assert {p for _, p in ops} == {
        "/api/games", "/api/games/{slug}/spec", "/api/games/{slug}/init",
        "/api/games/{slug}/action", "/api/matches/{name}", "/api/matches/{match_id}/join",
        "/api/matches/{match_id}/commands",
    }  # fmt: skip
    for key in [("POST", "/api/matches/{name}"), ("POST", "/api/matches/{match_id}/commands")]:
        body = ops[key]["requestBody"]["content"]["application/json"]["schema"]
        assert body["type"] == "object" and "$ref" not in str(body)
    assert ops[("POST", "/api/matches/{match_id}/commands")]["requestBody"]["required"] is True
    assert set(ops[("POST", "/api/matches/{name}")]["responses"]) >= {"200", "400", "404", "429"}
    assert set(ops[("GET", "/api/matches/{name}")]["responses"]) >= {"200", "403", "404"}
    assert all("422" not in op["responses"] for op in ops.values())
    assert len(ALL_CHECKS) > 10


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_passes_every_check(case):
    case.call_and_validate(checks=ALL_CHECKS)
