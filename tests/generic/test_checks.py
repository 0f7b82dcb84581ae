"""GenericChecks on hand-made answers: exactly the expected findings, none on a faithful one."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from sunbot.generic import GenericChecks
from sunbot.generic.grammar import MAX_SCHEMA_BYTES
from sunbot.mirror import Divergence

GRAMMAR = {
    "type": "object",
    "properties": {
        "type": {"const": "take"},
        "count": {"type": "integer", "minimum": 1, "maximum": 3},
    },
    "required": ["type", "count"],
    "additionalProperties": False,
}
LEGAL = [{"type": "take", "count": n} for n in (1, 2, 3)]
INIT: dict[str, Any] = {
    "ok": True,
    "state": {"pile": 5},
    "observation": {"pile": 5},
    "legalActions": LEGAL,
    "score": 0,
    "gameOver": False,
    "spec": {"goal": "g", "actionSchema": GRAMMAR},
    "extra": {"anything": 1},
}
STEP = {k: v for k, v in INIT.items() if k != "spec"}


def init(**changes: Any) -> dict[str, Any]:
    answer = copy.deepcopy(INIT)
    for key, value in changes.items():
        if value is ...:
            answer.pop(key)
        else:
            answer[key] = value
    return answer


def found(ds: list[Divergence]) -> list[tuple[str, str]]:
    """(path, check name) of each finding."""
    out = []
    for d in ds:
        assert d.note.startswith("generic check "), d.note
        out.append((d.path, d.note.removeprefix("generic check ").split(":")[0]))
    return out


def test_a_faithful_run_has_no_findings():
    checks = GenericChecks("take-away")
    assert checks.check_init(init()) == []
    assert checks.check_action(1, init(), LEGAL[0], {**STEP, "state": {"pile": 2}}) == []
    refusal = {"ok": False, "reason": "take 1 to 3 stones", "legalActions": LEGAL}
    assert checks.check_action(2, STEP, {"type": "take", "count": 9}, refusal) == []
    assert checks.divergences == [] and checks.responses_checked == 3
    assert checks.refusals == [(2, "take 1 to 3 stones")]
    assert checks.kind == "generic" and checks.unknown_fields == set()  # extra: not reported
    assert checks.grammar_at == "spec.actionSchema"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"observation": ...}, [("observation", "envelope.observation")]),
        ({"score": ...}, [("score", "envelope.score")]),
        ({"score": float("nan")}, [("score", "envelope.score")]),
        ({"score": float("inf")}, [("score", "envelope.score")]),
        ({"score": True}, [("score", "envelope.score")]),
        ({"score": "3"}, [("score", "envelope.score")]),
        ({"gameOver": ...}, [("gameOver", "envelope.gameOver")]),
        ({"gameOver": "no"}, [("gameOver", "envelope.gameOver")]),
        ({"legalActions": ...}, [("legalActions", "envelope.legalActions")]),
        ({"legalActions": {"a": 1}}, [("legalActions", "envelope.legalActions")]),
        ({"state": ...}, [("state", "envelope.position")]),
        ({"state": ..., "stateToken": 12}, [("stateToken", "envelope.position")]),
        ({"ok": "yes"}, [("ok", "envelope.ok")]),
        ({"spec": ...}, [("spec", "envelope.spec")]),
        ({"spec": {"goal": "no grammar"}}, [("spec", "grammar")]),
        ({"gameOver": True}, [("legalActions", "gameOver.legalActions")]),
        ({"legalActions": []}, [("legalActions", "gameOver.legalActions")]),
    ],
)
def test_missing_and_wrong_fields_give_exactly_one_finding(changes, expected):
    checks = GenericChecks()
    assert found(checks.check_init(init(**changes))) == expected


def test_a_score_may_be_a_float_and_the_position_a_token_or_an_id():
    checks = GenericChecks()
    assert checks.check_init(init(score=7.5)) == []
    assert checks.check_init(init(state=..., stateToken="")) == []  # any JSON string
    assert checks.check_init(init(state="hn-1")) == []
    assert checks.check_init(init(state={"id": "g1"}, stateToken="t")) == []


def test_legal_actions_without_type_are_one_finding_with_a_count():
    legal = [{"type": "take", "count": 1}, {"count": 2}, "take-3", {"type": 3}]
    checks = GenericChecks()
    ds = checks.check_init(init(spec={"goal": "no grammar here", "rules": []}, legalActions=legal))
    assert found(ds) == [("spec", "grammar"), ("legalActions[1]", "action.type")]
    assert "3 of 4 legal actions" in ds[1].note and ds[1].got == {"count": 2}


def test_legal_actions_against_the_grammar():
    legal = [*LEGAL, {"type": "take", "count": 4}, {"type": "take", "count": 1, "x": 0}]
    checks = GenericChecks()
    ds = checks.check_init(init(legalActions=legal))
    assert found(ds) == [("legalActions[3]", "grammar.action")]
    assert "2 of 5 legal actions do not match spec.actionSchema" in ds[0].note
    assert "greater than the maximum of 3" in ds[0].note and ds[0].got == legal[3]


@pytest.mark.parametrize("key", ["actionSchema", "actionGrammar", "grammar", "actions", "schema"])
def test_the_grammar_is_found_under_each_documented_key(key):
    checks = GenericChecks()
    bad = [{"type": "take", "count": 0}]
    ds = checks.check_init(init(spec={"actions": ["words"], key: GRAMMAR}, legalActions=bad))
    assert (
        found(ds) == [("legalActions[0]", "grammar.action")] and checks.grammar_at == f"spec.{key}"
    )


@pytest.mark.parametrize(
    ("schema", "needle"),
    [
        ({"type": 12}, "not a valid JSON Schema at /type"),
        ({"minimum": "one"}, "not a valid JSON Schema at /minimum"),
        ({"pattern": "("}, "pattern Python cannot read"),
        ([1, 2], "spec.actionSchema is not a JSON Schema object"),
    ],
)
def test_an_invalid_schema_is_one_finding_and_no_grammar(schema, needle):
    checks = GenericChecks()
    ds = checks.check_init(init(spec={"actionSchema": schema}))
    assert found(ds) == [("spec", "grammar")] and needle in ds[0].note
    assert checks.grammar is None
    assert checks.check_action(1, init(), LEGAL[0], STEP) == []  # the run goes on unchecked


def test_a_huge_schema_is_one_finding():
    schema = {"type": "object", "description": "x" * MAX_SCHEMA_BYTES}
    checks = GenericChecks()
    t0 = time.perf_counter()
    ds = checks.check_init(init(spec={"actionSchema": schema}))
    assert time.perf_counter() - t0 < 1.0
    assert (
        found(ds) == [("spec", "grammar")]
        and f"more than the {MAX_SCHEMA_BYTES} read" in ds[0].note
    )


def test_a_schema_of_exponential_references_is_stopped_once():
    defs: dict[str, Any] = {
        f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(40)
    }
    defs["d40"] = {"type": "object"}
    checks = GenericChecks()
    t0 = time.perf_counter()
    ds = checks.check_init(init(spec={"actionSchema": {"$defs": defs, "$ref": "#/$defs/d0"}}))
    assert found(ds) == [("legalActions[0]", "grammar")] and "schema steps" in ds[0].note
    assert checks.grammar is None and checks.check_action(1, init(), LEGAL[0], STEP) == []
    assert time.perf_counter() - t0 < 2.0


def test_a_catastrophic_pattern_is_not_run_and_is_no_divergence(caplog):
    """A valid schema whose pattern would take for ever is the server's right: the pattern
    is skipped (logged), the rest of the grammar still checks every action."""
    schema = {**GRAMMAR, "properties": {**GRAMMAR["properties"], "type": {"pattern": "^(a+)+$"}}}
    legal = [{"type": "a" * 40 + "!", "count": 1}]
    checks = GenericChecks()
    caplog.set_level("INFO", logger="sunbot.generic")
    t0 = time.perf_counter()
    ds = checks.check_init(init(spec={"actionSchema": schema}, legalActions=legal))
    assert time.perf_counter() - t0 < 1.0
    assert found(ds) == []
    assert any("^(a+)+$" in r.getMessage() and "not run" in r.getMessage() for r in caplog.records)
    bad = checks.check_init(init(spec={"actionSchema": schema}, legalActions=[{"type": "a"}]))
    assert ("legalActions[0]", "grammar.action") in found(bad)  # count is still required


def test_a_remote_reference_is_never_fetched():
    checks = GenericChecks()
    ds = checks.check_init(init(spec={"actionSchema": {"$ref": "https://example.invalid/a.json"}}))
    assert found(ds) == [("legalActions[0]", "grammar")] and "Unresolvable" in ds[0].note


@pytest.mark.parametrize(
    ("refusal", "action", "expected"),
    [
        ({"ok": False, "legalActions": LEGAL}, {"type": "x"}, [("reason", "refusal.reason")]),
        ({"ok": False, "reason": "no"}, {"type": "x"}, [("legalActions", "refusal.legalActions")]),
        (
            {"ok": False, "reason": "no", "legalActions": LEGAL[:2]},
            {"type": "x"},
            [("legalActions", "refusal.legalActions")],
        ),
        (
            {"ok": False, "reason": "no", "legalActions": LEGAL},
            LEGAL[1],
            [("ok", "refusal.listed")],
        ),
        ({"ok": False, "reason": "no", "legalActions": LEGAL[::-1]}, {"type": "x"}, []),
    ],
)
def test_refusals(refusal, action, expected):
    checks = GenericChecks()
    checks.check_init(init())
    assert found(checks.check_action(4, STEP, action, refusal)) == expected
    assert checks.refusals == [(4, refusal.get("reason", "<no reason>"))]


def test_a_long_refusal_reason_is_clipped():
    checks = GenericChecks()
    checks.check_action(
        1, STEP, {"type": "x"}, {"ok": False, "reason": "r" * 5000, "legalActions": LEGAL}
    )
    assert len(checks.refusals[0][1]) < 400 and checks.refusals[0][1].startswith("rrr")


def test_an_answer_that_is_not_an_object():
    checks = GenericChecks()
    assert found(checks.check_action(1, STEP, LEGAL[0], [1, 2])) == [("answer", "envelope.ok")]  # type: ignore[arg-type]


def test_warm_compiles_the_recorded_grammar_and_starts_counting_again():
    checks = GenericChecks()
    bad = {**STEP, "legalActions": [{"type": "take", "count": 9}]}
    checks.warm(
        init(), [(LEGAL[0], STEP), ({"type": "x"}, {"ok": False, "reason": "no"}), (LEGAL[0], bad)]
    )
    assert checks.divergences == [] and checks.responses_checked == 0 and checks.refusals == []
    assert checks.grammar_at == "spec.actionSchema"
    assert found(checks.check_action(4, STEP, LEGAL[0], bad)) == [
        ("legalActions[0]", "grammar.action")
    ]


def test_findings_are_json_and_bounded():
    checks = GenericChecks()
    ds = checks.check_init(init(legalActions=[{"type": "take", "count": 9, "pad": "x" * 10_000}]))
    text = json.dumps([d.to_json() for d in ds])
    assert len(text) < 2_000
