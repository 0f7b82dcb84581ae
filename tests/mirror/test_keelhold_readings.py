"""Keelhold readings the rule text leaves open (issue 11, point 2; decisions in the field
table of docs/rules/keelhold.md): a squall's turns, cargo numbered from 1, and a voyage
sharing one condition with the previous one are not divergences; the values the text fixes
still are."""

from __future__ import annotations

import copy
import random
from typing import Any

from sunbot import strategies
from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import RNG_DRAWS, params_for
from sunbot.mirror.fields import pattern
from sunbot.mirror.keelhold import ReplayDraws
from tests.mirror.test_foreign_keelhold import check, foreign, run


def squall_run(seed: int, shift: int, steps: int) -> list[tuple[Any, dict[str, Any]]]:
    """A squall voyage whose squalls come ``shift`` turns later than our cadence's (the
    server's own turn count is not shown: ``voyageStartTurn`` is our bookkeeping)."""
    state = kh.init(seed)
    state["params"].update(conditions=["squall"], squallEvery=4, wind=3)
    state["voyageStartTurn"] = shift
    state["trim"] = kh.compute_trim(state)
    kh.refresh(state)
    bot = strategies.create("keelhold", "safe-greedy", random.Random(seed))

    def shown(s: dict[str, Any]) -> dict[str, Any]:
        answer = foreign(s)
        for part in (answer["state"], answer["observation"]):
            part.pop("voyageStartTurn", None)
        return answer

    out: list[tuple[Any, dict[str, Any]]] = [(None, shown(state))]
    while len(out) <= steps and not kh.is_over(state):
        action = bot.choose(out[-1][1]["observation"], out[-1][1]["legalActions"])
        state = kh.step(state, action)
        out.append((action, shown(state)))
    return out


def test_squalls_on_other_turns_are_the_servers_timing() -> None:
    answers = squall_run(5, 2, 30)
    winds = {a["state"]["params"]["wind"] for _, a in answers}
    assert {3, -3} <= winds and len(answers) > 12  # the wind did flip, on the server's turns
    assert check(answers).divergences == []


def test_a_wind_that_flips_the_wrong_way_is_still_flagged() -> None:
    answers = copy.deepcopy(squall_run(5, 2, 30))
    for part in (answers[6][1]["state"], answers[6][1]["observation"]):
        part["params"]["wind"] = 5  # neither the old wind nor its negation
    paths = {d.path for d in check(answers).divergences if d.step == 6}
    assert "state.params.wind" in paths


def _draws(cargo: int | None, prev_conditions: list[str], conds: list[str]) -> ReplayDraws:
    prev = kh.init(1)
    got = copy.deepcopy(prev)
    got["queue"] = [*prev["queue"][1:], {**prev["queue"][0], "id": 99, "cargo": cargo}]
    got["next"] = {**prev["next"], "conditions": conds}
    draws = ReplayDraws(prev, got)
    draws.crate(prev, prev["params"], ballast=False)
    draws.voyage(prev, 22, prev_conditions)
    return draws


def test_cargo_numbered_from_one_and_a_shared_condition_are_accepted() -> None:
    types = kh.init(1)["params"]["cargoTypes"]
    assert _draws(types, ["squall", "longBoom"], ["longBoom", "heavyLot"]).findings == []


def test_sticky_hatches_must_allow_two_jams() -> None:
    prev = kh.init(1)
    for most, flagged in ((1, True), (2, False)):
        got = copy.deepcopy(prev)
        got["next"] = {**prev["next"], "conditions": ["stickyHatches"], "maxJams": most}
        draws = ReplayDraws(prev, got)
        draws.voyage(prev, 22, ["squall"])
        assert ("state.next.maxJams" in {f.path for f in draws.findings}) is flagged


def test_cargo_past_the_types_and_the_same_conditions_again_are_flagged() -> None:
    types = kh.init(1)["params"]["cargoTypes"]
    draws = _draws(types + 1, ["squall", "longBoom"], ["longBoom", "squall"])
    assert {f.path for f in draws.findings} == {"state.queue[2].cargo", "state.next.conditions"}


def test_turns_counted_from_one_are_the_servers_numbering() -> None:
    answers = copy.deepcopy(run(7, 150))  # through port calls, jams and rush crates
    for _, answer in answers:
        for part in (answer["state"], answer["observation"]):
            part["turn"] += 1
            part["voyageStartTurn"] += 1
            part["jammedUntil"] = [u + 1 if u else 0 for u in part["jammedUntil"]]
            for crate in [*part["queue"], *(c for h in part["hold"] for c in h)]:
                if crate.get("due") is not None:
                    crate["due"] += 1
    assert any(a["state"]["jammedUntil"] != [0] * 7 for _, a in answers)
    assert check(answers).divergences == []


def test_a_voyage_start_of_the_servers_own_is_not_compared() -> None:
    answers = copy.deepcopy(run(7, 60))  # voyageStartTurn is our bookkeeping: not promised
    for i, (_, answer) in enumerate(answers):
        for part in (answer["state"], answer["observation"]):
            part["voyageStartTurn"] = 1000 + i
    assert check(answers).divergences == []


def _respelled(steps: int, change: Any) -> list[tuple[Any, dict[str, Any]]]:
    """A run whose every state and observation went through ``change(part)``."""
    answers = copy.deepcopy(run(7, steps))
    for _, answer in answers:
        for part in (answer["state"], answer["observation"]):
            change(part)
    return answers


def _other_spellings(part: dict[str, Any]) -> None:
    """What a faithful server may write otherwise (docs/rules/keelhold.md, field table)."""
    part["safeBays"].reverse()  # SAFETY lists the hatches in no stated order
    part["listingBays"].reverse()
    for crate in (c for h in part["hold"] for c in h):
        if crate["cargo"] is None:  # ballast aboard (an expired rush crate too): any values
            crate["rushWindow"], crate["due"] = 8, 3
    for crate in [*part["queue"], *(c for h in part["hold"] for c in h)]:
        for key in ("rushWindow", "due"):
            if crate.get(key) is None:
                crate.pop(key, None)  # only rush crates carry them
    for terms in (part["params"], part["next"]):
        if terms["jamEvery"] is None:
            del terms["jamEvery"]  # a voyage without jams
    if part["phase"] != "over":
        del part["cause"]
    if part["phase"] != "port":
        part["castOffSafe"] = False if part["turn"] % 2 else part.pop("castOffSafe")


def test_other_spellings_of_the_same_position_are_not_divergences() -> None:
    answers = _respelled(200, _other_spellings)
    states = [a["state"] for _, a in answers]
    assert sum(s["phase"] == "port" for s in states) >= 5  # port calls, castOffSafe exact there
    assert any(len(s["safeBays"]) > 1 for s in states)
    assert any("rushWindow" not in c for s in states for c in s["queue"])
    assert any(c.get("due") is not None for s in states for h in s["hold"] for c in h)
    assert any(c["cargo"] is None for s in states for h in s["hold"] for c in h)
    assert check(answers).divergences == []


def test_the_same_fields_still_flag_a_wrong_value() -> None:
    def wrong(part: dict[str, Any]) -> None:
        _other_spellings(part)
        if part["phase"] == "port":
            part["castOffSafe"] = not part["castOffSafe"]
        for crate in (c for h in part["hold"] for c in h):
            if crate["cargo"] is not None and crate.get("due") is not None:
                crate["due"] += 1
        if len(part["safeBays"]) > 1:
            part["safeBays"].pop()

    paths = {pattern(d.path) for d in check(_respelled(200, wrong)).divergences}
    assert {"state.castOffSafe", "state.hold[][].due", "state.safeBays"} <= paths


def _run_from(state: dict[str, Any], steps: int) -> list[tuple[Any, dict[str, Any]]]:
    bot = strategies.create("keelhold", "safe-greedy", random.Random(7))
    out: list[tuple[Any, dict[str, Any]]] = [(None, foreign(state))]
    while len(out) <= steps and not kh.is_over(state):
        action = bot.choose(out[-1][1]["observation"], out[-1][1]["legalActions"])
        state = kh.step(state, action)
        out.append((action, foreign(state)))
    return out


def test_a_server_opening_the_outer_hatches_on_voyage_1_is_flagged() -> None:
    """THE HULL shuts the two outer hatches on voyage 1: a server taking crates there is
    caught by its legal actions, whatever its own openBays says."""
    first = params_for(1, [], 0)
    first["openBays"] = list(range(7))
    answers = _run_from(kh.init_with_draws(7, RNG_DRAWS, first, [7]), 10)
    assert {"PLACE", 0} <= {v for a in answers[0][1]["legalActions"] for v in a.values()}
    flagged = {(d.step, d.path) for d in check(answers).divergences}
    assert (0, "legalActions") in flagged and (1, "state.safeBays") in flagged


def test_open_hatches_written_otherwise_are_not_read() -> None:
    def labels(part: dict[str, Any]) -> None:  # the hatch labels a player sees, 1..7
        for terms in (part["params"], part["next"]):
            terms["openBays"] = [b + 1 for b in terms["openBays"]]

    answers = _respelled(150, labels)
    assert any(a["state"]["voyage"] >= 2 for _, a in answers)
    assert check(answers).divergences == []
