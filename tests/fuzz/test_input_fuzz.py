"""Malformed actions and plain states: the engine refuses cleanly, the server never 500s."""

from __future__ import annotations

import copy
import json

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sunbot.engines import IllegalAction
from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_schema import check_state
from sunbot.server import TokenCodec, create_app

CLIENT = TestClient(create_app(TokenCodec()))
BASE = kh.init(7)
TOKEN = CLIENT.get("/api/games/keelhold/init", params={"seed": 7}).json()["stateToken"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
actions = json_values | st.fixed_dictionaries(
    {"type": st.sampled_from(["PLACE", "CAST_OFF", "END_RUN", "place", ""])},
    optional={"bay": json_values, "extra": json_values},
)

FIELDS = sorted(BASE)


@st.composite
def mangled_states(draw):
    s = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(FIELDS))
        how = draw(st.sampled_from(["drop", "replace", "nested"]))
        if how == "drop":
            s.pop(key, None)
        elif how == "replace" or not isinstance(s.get(key), dict | list):
            s[key] = draw(json_values)
        elif isinstance(s[key], list) and s[key]:
            s[key][draw(st.integers(0, len(s[key]) - 1))] = draw(json_values)
        elif isinstance(s[key], dict) and s[key]:
            s[key][draw(st.sampled_from(sorted(s[key])))] = draw(json_values)
    return s


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=actions)
def test_engine_refuses_any_malformed_action_cleanly(action):
    before = copy.deepcopy(BASE)
    try:
        nxt = kh.step(BASE, action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        assert action in kh.legal_actions(BASE) and nxt["turn"] == 1
    assert before == BASE


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(state=mangled_states())
def test_check_state_only_ever_raises_value_error(state):
    try:
        check_state(state)
    except ValueError as exc:
        assert str(exc)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(state=mangled_states(), action=actions)
def test_server_never_500s_on_plain_states(state, action):
    r = CLIENT.post("/api/games/keelhold/action", json={"state": state, "action": action})
    assert r.status_code in (200, 400), r.text
    assert r.json()["ok"] in (True, False)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=actions)
def test_server_never_500s_on_actions_with_a_good_token(action):
    r = CLIENT.post("/api/games/keelhold/action", json={"stateToken": TOKEN, "action": action})
    assert r.status_code in (200, 400), r.text


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.binary(max_size=64) | json_values.map(lambda v: json.dumps(v).encode()))
def test_server_never_500s_on_arbitrary_bodies(body):
    r = CLIENT.post(
        "/api/games/keelhold/action", content=body, headers={"content-type": "application/json"}
    )
    assert r.status_code in (200, 400, 422), r.text
