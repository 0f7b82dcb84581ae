"""The Sunloaf mirror: whole-state checks within a day; after NEXT_DAY (and at init) the
rules-fixed fields, the generated room's shape (§9) and dayPar replayed on the served room."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_gen as gen
from sunbot.games import get_game
from sunbot.mirror import Mirror
from sunbot.mirror import sunloaf as hooks
from sunbot.server import TokenCodec
from sunbot.server.app import envelope

GAME = get_game("sunloaf")
CODEC = TokenCodec()
REST = {"type": "REST"}
DOZE = {"type": "DOZE"}
NEXT = {"type": "NEXT_DAY"}
END = {"type": "END_RUN"}


def answer(state: dict[str, Any]) -> dict[str, Any]:
    """What the server sends, through JSON as on the wire."""
    return json.loads(json.dumps(envelope(GAME, state, CODEC)))


def serve(state: dict[str, Any]) -> dict[str, Any]:
    """A hand-edited day-start state made self-consistent again (dogs, dayPar, dayQuota) and
    answered, so that only the edit itself can be a divergence."""
    s = copy.deepcopy(state)
    s["dogs"] = [loop[0] for loop in s["layout"]["dogLoops"]]
    s["dayPar"] = gen.day_par(s)
    s["dayQuota"] = gen.quota(s["dayPar"], s["day"])
    return answer(s)


def sunset_before(seed: int, day: int) -> dict[str, Any]:
    """A sunset position just before ``day`` (day 1's room, faked as day ``day-1`` cleared)."""
    s = sl.init(seed)
    s.update(day=day - 1, phase="sunset", turn=s["turnsInDay"])
    return s


def policy(rnd: random.Random):
    """Mostly the reference policy, with random moves, DOZEs and RESTs mixed in."""

    def choose(s: dict[str, Any]) -> dict[str, Any]:
        if s["phase"] == "sunset":
            return NEXT
        c = rnd.random()
        if c < 0.15:
            return DOZE
        if c < 0.3:
            return rnd.choice(sl.legal_actions(s)[:-1])
        return sl.reference_action(s)

    return choose


def honest(start: dict[str, Any], steps: int, seed: int, end: bool = True):
    """``[(action, answer)]`` from ``start``: ``steps`` actions, then END_RUN if asked."""
    choose = policy(random.Random(seed))
    s = start
    out: list[tuple[Any, dict[str, Any]]] = [(None, answer(s))]
    for _ in range(steps):
        if sl.is_over(s):
            break
        a = choose(s)
        s = sl.step(s, a)
        out.append((a, answer(s)))
    if end and not sl.is_over(s):
        s = sl.step(s, END)
        out.append((END, answer(s)))
    return out


def check_run(answers, with_init: bool = True):
    m = Mirror("sunloaf")
    found = list(m.check_init(answers[0][1])) if with_init else []
    for i in range(1, len(answers)):
        found += m.check_action(i, answers[i - 1][1], answers[i][0], answers[i][1])
    return m, found


def next_day_answer(seed: int, day: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(previous answer at sunset, honest answer to NEXT_DAY opening ``day``)."""
    prev = sunset_before(seed, day)
    return answer(prev), answer(sl.step(prev, NEXT))


def paths_after_next_day(prev: dict[str, Any], got: dict[str, Any]) -> list[str]:
    return [d.path for d in Mirror("sunloaf").check_action(1, prev, NEXT, got)]


# ---------------------------------------------------------------- honest play


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_honest_runs_from_init_have_no_divergence(seed):
    answers = honest(sl.init(seed), 120, seed)
    days = sum(1 for a, _ in answers if a == NEXT)
    m, found = check_run(answers)
    assert found == [] and m.responses_checked == len(answers) and days >= 4


@pytest.mark.parametrize("day", [6, 8, 15, 16, 20, 24])
def test_honest_late_days_have_no_divergence(day):
    """Dogs (6+), the fifth cat (8), double serves (15), the lattice (16), two dogs (20) and
    dog speed 2 (24): NEXT_DAY answers and whole days after them."""
    answers = honest(sunset_before(day, day), 40, day)
    assert answers[1][0] == NEXT and answers[1][1]["state"]["day"] == day
    m, found = check_run(answers, with_init=False)
    assert found == [] and m.responses_checked == len(answers) - 1


def test_opening_positions_pass_for_many_seeds():
    for seed in [*range(30), -5, 2**40]:
        assert hooks.check_initial(answer(sl.init(seed))["state"]) == []


def test_a_different_but_well_formed_room_is_adopted():
    """Another generator (here: another cursor) may build another room: shape checks pass,
    par is replayed on that room, and nothing diverges."""
    prev = sunset_before(3, 8)
    other = copy.deepcopy(prev)
    other["rng"] = 12345
    got = answer(sl.step(other, NEXT))
    ours = sl.step(prev, NEXT)
    assert got["state"]["layout"] != ours["layout"]
    assert Mirror("sunloaf").check_action(1, answer(prev), NEXT, got) == []


# ---------------------------------------------------------------- within a day


def _mid_day(seed: int = 7, day: int = 6):
    answers = honest(sunset_before(seed, day), 12, seed, end=False)
    k = next(i for i in range(2, len(answers)) if answers[i][0] != NEXT)
    return answers[k - 1][1], answers[k][0], answers[k][1]


def test_tampered_settled_is_named():
    prev, action, got = _mid_day()
    got["state"]["cats"][1]["settled"] += 1
    found = Mirror("sunloaf").check_action(5, prev, action, got)
    assert [(d.step, d.path) for d in found] == [(5, "state.cats[1].settled")]
    assert found[0].got == found[0].expected + 1


def test_tampered_score_in_state_and_envelope():
    prev, action, got = _mid_day()
    got["state"]["score"] += 10
    got["score"] += 10
    found = Mirror("sunloaf").check_action(5, prev, action, got)
    assert {d.path for d in found} == {"state.score", "score"}


def test_tampered_dog_and_legal_actions():
    prev, action, got = _mid_day()
    assert got["state"]["dogs"], "day 6 has a dog"
    got["state"]["dogs"][0] = (got["state"]["dogs"][0] + 1) % 49
    got["legalActions"].pop(0)
    found = Mirror("sunloaf").check_action(5, prev, action, got)
    assert [d.path for d in found] == ["state.dogs[0]", "legalActions"]


def test_server_accepting_a_move_onto_furniture():
    prev, _, got = _mid_day()
    s = prev["state"]
    tile = s["layout"]["furniture"][0]
    bad = {"type": "MOVE", "cat": 0, "tile": tile}
    found = Mirror("sunloaf").check_action(5, prev, bad, got)
    assert [d.path for d in found] == ["ok"] and "refuse" in found[0].note


# ---------------------------------------------------------------- after NEXT_DAY: fixed fields


@pytest.mark.parametrize(
    ("field", "delta", "path"),
    [
        ("chain", 1, "state.chain"),
        ("score", 5, "state.score"),
        ("dayPar", 10, "state.dayQuota"),  # dayPar is theirs; the quota it fixes is not
        ("dayQuota", 1, "state.dayQuota"),
        ("turn", 1, "state.turn"),
        ("dayCosyRaw", 3, "state.dayCosyRaw"),
        ("mult", 35, "state.mult"),
        ("day", 1, "state.day"),
    ],
)
def test_next_day_fixed_fields_are_compared(field, delta, path):
    prev, got = next_day_answer(4, 9)
    got["state"][field] += delta
    assert path in paths_after_next_day(prev, got)


def test_next_day_old_cats_may_stand_elsewhere_and_keep_streaks():
    # the text never says where cats stand when a day opens, nor that streaks restart
    # overnight (docs/rules/sunloaf.md): both are the server's, within the board's rules
    prev_state = sunset_before(4, 9)
    for c in prev_state["cats"]:
        c["settled"] = 7
    prev = answer(prev_state)
    state = sl.step(prev_state, NEXT)
    assert paths_after_next_day(prev, answer(state)) == []
    furniture = state["layout"]["furniture"]
    free = next(
        x
        for x in range(49)
        if x not in furniture
        and x not in [c["tile"] for c in state["cats"]]
        and x not in [b["mat"] for b in state["bowls"]]
        and x != state["layout"]["hearth"]
    )
    state["cats"][0]["settled"] = 7
    state["cats"][1]["tile"] = free
    assert paths_after_next_day(prev, serve(state)) == []
    got = answer(state)
    got["state"]["cats"][1]["tile"] = furniture[0]  # a cat under furniture is not
    got["state"]["cats"][0]["settled"] = -1  # nor a negative streak
    found = paths_after_next_day(prev, got)
    assert {"state.layout.furniture[0]", "state.cats[0].settled"} <= set(found)


def test_next_day_dogs_start_on_their_loops():
    prev, got = next_day_answer(2, 20)
    loops = got["state"]["layout"]["dogLoops"]
    assert len(loops) == 2
    got["state"]["dogs"][1] = loops[1][1]
    assert paths_after_next_day(prev, got) == ["state.dogs[1]"]


# ---------------------------------------------------------------- after NEXT_DAY: room shape


def _room(seed: int, day: int):
    prev_state = sunset_before(seed, day)
    return answer(prev_state), sl.step(prev_state, NEXT), [c["tile"] for c in prev_state["cats"]]


def test_furniture_under_a_cat_is_reported():
    prev, s, old = _room(5, 4)
    furn = s["layout"]["furniture"]
    furn[0] = old[0]
    furn.sort()
    got = serve(s)
    assert paths_after_next_day(prev, got) == [f"state.layout.furniture[{furn.index(old[0])}]"]


def test_a_room_of_other_local_choices_is_adopted():
    """Counts, order, placement and par are the server's generator's: none is a divergence."""
    prev, s, old = _room(5, 21)
    lay = s["layout"]
    lay["furniture"] = sorted(lay["furniture"])[:-2][::-1]  # fewer pieces, descending
    lay["cloudTurns"] = [0]  # one cloud at the first turn
    lay["shadeLength"] = 1
    lay["dogLoops"] = [loop[::-1] for loop in lay["dogLoops"]]  # walked the other way round
    s["bowls"] = s["bowls"][:1]  # a single serve
    s["cats"][-1]["tile"] = lay["hearth"] if lay["hearth"] not in old else s["cats"][-1]["tile"]
    got = serve(s)
    got["state"]["dayPar"] += 7  # another reference policy: its par, and the quota it fixes
    got["state"]["dayQuota"] = gen.quota(got["state"]["dayPar"], got["state"]["day"])
    got["observation"] = got["state"]
    assert paths_after_next_day(prev, got) == []


@pytest.mark.parametrize(
    ("day", "edit", "path"),
    [
        (
            4,
            lambda s: s["layout"]["furniture"].append(s["layout"]["furniture"][0]),
            "state.layout.furniture",
        ),
        (
            4,
            lambda s: s["layout"].__setitem__("hearth", s["layout"]["furniture"][0]),
            "state.layout.hearth",
        ),
        (5, lambda s: s["cats"][3].__setitem__("range", 4), "state.cats[3].range"),
        (5, lambda s: s["cats"][3].__setitem__("big", 1), "state.cats[3].big"),
        (7, lambda s: s["bowls"][-1].__setitem__("serveTurn", s["turnsInDay"]), None),
        (
            9,
            lambda s: s["layout"].__setitem__("cloudTurns", [s["turnsInDay"]]),
            "state.layout.cloudTurns",
        ),
        (10, lambda s: s["layout"].__setitem__("latticeParity", 1), "state.layout.latticeParity"),
        (
            16,
            lambda s: s["layout"].__setitem__("latticeParity", None),
            "state.layout.latticeParity",
        ),
        (24, lambda s: s["layout"].__setitem__("dogSpeed", 1), "state.layout.dogSpeed"),
        (
            12,
            lambda s: s["layout"]["dogLoops"].append(s["layout"]["dogLoops"][0]),
            "state.layout.dogLoops",
        ),
        (
            12,
            lambda s: s["layout"]["dogLoops"][0].reverse() or s["layout"]["dogLoops"][0].append(0),
            "state.layout.dogLoops[0]",
        ),
    ],
)
def test_what_the_rule_text_fixes_of_a_room_is_checked(day, edit, path):
    prev, s, _ = _room(8, day)
    edit(s)
    if path is None:  # a serve past the day's end
        path = f"state.bowls[{len(s['bowls']) - 1}].serveTurn"
        assert path in paths_after_next_day(prev, answer(s))
        return
    assert path in paths_after_next_day(prev, serve(s))


def test_day_15_serves_two_mats_on_every_second_serve():
    prev, s, _ = _room(8, 15)
    s["bowls"] = [b for b in s["bowls"] if b != s["bowls"][2]]
    assert "state.bowls" in paths_after_next_day(prev, serve(s))


def test_the_cursor_is_not_checked():
    for bad in (-1, 2**32, 1.5, True):
        prev, s, _ = _room(11, 4)
        s["rng"] = bad
        assert paths_after_next_day(prev, answer(s)) == [], bad
    prev, s, _ = _room(11, 4)
    got = answer(s)
    del got["state"]["rng"], got["observation"]["rng"]
    assert paths_after_next_day(prev, got) == []


def test_broken_room_is_reported_not_a_crash():
    prev, s, _ = _room(12, 6)
    got = answer(s)
    del got["state"]["layout"]
    found = Mirror("sunloaf").check_action(1, prev, NEXT, got)
    assert "state.layout" in [d.path for d in found]
    prev, s, _ = _room(12, 6)
    got = answer(s)
    got["state"]["layout"]["furniture"] = "lots"
    found = Mirror("sunloaf").check_action(1, prev, NEXT, got)
    assert "state.layout.furniture" in [d.path for d in found]


# ---------------------------------------------------------------- the opening


def test_tampered_opening_is_caught():
    init = answer(sl.init(7))
    init["state"]["score"] = 50
    init["score"] = 50
    # the envelope is compared with the served state: its observation still says 0
    found = {d.path for d in Mirror("sunloaf").check_init(init)}
    assert found == {"state.score", "observation.score"}
    s = sl.init(7)
    s["cats"][0]["tile"] = s["layout"]["furniture"][0]
    found = [f.path for f in hooks.check_initial(serve(s)["state"])]
    assert found == ["state.cats[0].tile"]
    s = sl.init(7)
    s["dayQuota"] += 1
    assert [f.path for f in hooks.check_initial(s)] == ["state.dayQuota"]
    s = sl.init(7)
    s["cats"].append({**s["cats"][1], "id": 2, "range": 4})
    assert "state.cats" in [f.path for f in hooks.check_initial(s)]  # a run opens with 2


def test_unknown_opening_fields_are_listed_not_reported():
    init = answer(sl.init(7))
    init["state"]["extra"] = 1
    init["state"]["layout"]["theme"] = "attic"
    mirror = Mirror("sunloaf")
    assert mirror.check_init(init) == []
    assert mirror.unknown_fields == {"state.extra", "state.layout.theme"}


def test_opening_that_cannot_be_checked_is_one_finding():
    found = hooks.check_initial({"day": 1})
    assert found and all(f.path.startswith("state") for f in found)
    assert hooks.check_initial({"day": 1, "cats": "x", "layout": 3}) != []


def test_a_run_without_what_the_text_does_not_promise_is_checked_to_the_end():
    answers = copy.deepcopy(honest(sl.init(3), 70, seed=2))
    assert any(a == NEXT for a, _ in answers)
    for _, ans in answers:
        for part in (ans["state"], ans["observation"]):
            for key in ("rng", "seed", "dogs", "bandWidth"):
                part.pop(key, None)
            part["weather"] = "sunny"
        legal = ans["legalActions"]  # the MOVEs lead in order; the rest in any order
        moves = [a for a in legal if a["type"] == "MOVE"]
        ans["legalActions"] = moves + [a for a in legal if a["type"] != "MOVE"][::-1]
    m, found = check_run(answers)
    assert found == [] and m.responses_checked == len(answers)
    assert m.unknown_fields == {"state.weather", "observation.weather"}
    answers[-2][1]["state"]["score"] += 1  # a planted wrong award late in the run
    _, found = check_run(answers)
    assert [d.path for d in found][:1] == ["state.score"]


# ---------------------------------------------------------------- spec re-check (spec-sunloaf)


@pytest.mark.parametrize("day", [1, 6, 24])
def test_keys_of_ours_inside_the_room_may_be_left_out(day):
    """layout.dogSpeed (a key §3 added; the text fixes the speed by the day), latticeParity
    before day 16 and cats[].big (the text never says which cat is big) are not promised:
    a run without them, NEXT_DAY included, has 0 divergences and is checked to the end."""
    start = sl.init(day) if day == 1 else sunset_before(day, day)
    answers = copy.deepcopy(honest(start, 45, day))
    assert any(a == NEXT for a, _ in answers)
    for _, ans in answers:
        for part in (ans["state"], ans["observation"]):
            part["layout"].pop("dogSpeed")
            if part["day"] < 16:
                part["layout"].pop("latticeParity")
            for cat in part["cats"]:
                cat.pop("big")
    m, found = check_run(answers, with_init=day == 1)
    assert found == [] and m.unchecked == 0
    answers[-2][1]["state"]["layout"]["dogSpeed"] = 3  # a wrong speed, sent, is still one
    m, found = check_run(answers, with_init=day == 1)
    assert "state.layout.dogSpeed" in [d.path for d in found]


def test_legal_moves_come_first_in_cat_then_tile_order():
    """The text's MOVING paragraph fixes that MOVEs lead, by cat then tile; the order of
    REST, DOZE and END_RUN after them is the server's."""
    prev, action, got = _mid_day()
    legal = got["legalActions"]
    moves = [a for a in legal if a["type"] == "MOVE"]
    assert len(moves) >= 2
    got["legalActions"] = moves + legal[len(moves) :][::-1]
    assert Mirror("sunloaf").check_action(5, prev, action, got) == []
    got["legalActions"] = [moves[1], moves[0], *legal[2:]]  # two MOVEs swapped
    assert [d.path for d in Mirror("sunloaf").check_action(5, prev, action, got)] == [
        "legalActions"
    ]
    got["legalActions"] = [legal[-1], *legal[:-1]]  # END_RUN before the MOVEs
    assert [d.path for d in Mirror("sunloaf").check_action(5, prev, action, got)] == [
        "legalActions"
    ]


def test_refusal_legal_actions_are_checked_for_order_too():
    prev, _, _ = _mid_day()
    legal = sl.legal_actions(prev["state"])
    refusal = {"ok": False, "reason": "no", "legalActions": legal}
    assert Mirror("sunloaf").check_action(5, prev, NEXT, refusal) == []
    refusal["legalActions"] = legal[::-1]
    assert [d.path for d in Mirror("sunloaf").check_action(5, prev, NEXT, refusal)] == [
        "legalActions"
    ]


def test_band_width_adopted_at_init_holds_over_next_day():
    """A server lighting 3 lines (the text does not say how many) keeps 3 every day: no
    divergence at NEXT_DAY; a width that changes overnight is one."""
    s = sl.init(5)
    s["bandWidth"] = 3
    answers = [(None, serve(s))]
    choose = policy(random.Random(2))
    s = answers[0][1]["state"]
    while sum(1 for a, _ in answers if a == NEXT) < 2 and not sl.is_over(s):
        a = choose(s)
        s = sl.step(s, a)
        if a == NEXT:
            s["bandWidth"] = 3
            s = serve(s)["state"]
        answers.append((a, answer(s)))
    assert s["bandWidth"] == 3 and not sl.is_over(s)
    m, found = check_run(answers)
    assert found == [] and m.responses_checked == len(answers)
    k = next(i for i, (a, _) in enumerate(answers) if a == NEXT)
    answers[k][1]["state"]["bandWidth"] = 2
    _, found = check_run(answers[: k + 1])
    assert [d.path for d in found] == ["state.bandWidth"]


def test_a_null_hearth_is_accepted():
    prev, s, _ = _room(9, 7)
    s["layout"]["hearth"] = None
    assert paths_after_next_day(prev, serve(s)) == []


@pytest.mark.parametrize(("day", "keep"), [(6, 0), (20, 1), (21, 0)])
def test_fewer_dogs_than_the_text_gives_is_reported(day, keep):
    """DOGS: a dog from day 6 and a second from day 20. Fewer only when no clear
    rectangle is left (our G8 stop), which this room does not have."""
    prev, s, _ = _room(8, day)
    s["layout"]["dogLoops"] = s["layout"]["dogLoops"][:keep]
    assert paths_after_next_day(prev, serve(s)) == ["state.layout.dogLoops"]
