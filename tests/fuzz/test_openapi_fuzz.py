"""Every route of the local server, fuzzed from its OpenAPI schema: never a 500."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from sunbot.server import TokenCodec, create_app

schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(TokenCodec()))


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_route_answers_500(case):
    case.call_and_validate(checks=[not_a_server_error])
