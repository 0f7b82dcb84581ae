"""The mirror catches tampered answers and stays quiet on honest ones."""

from __future__ import annotations

import copy
import random

from sunbot.engines import keelhold as kh
from sunbot.games import get_game
from sunbot.mirror import Mirror, diff
from sunbot.server import TokenCodec
from sunbot.server.app import envelope

GAME = get_game("keelhold")
CODEC = TokenCodec()


def answer(state):
    return envelope(GAME, state, CODEC)


def honest_run(seed, n=80):
    s = kh.init(seed)
    out = [(None, answer(s))]
    rng = random.Random(seed)
    for _ in range(n):
        if kh.is_over(s):
            break
        a = (
            {"type": "CAST_OFF"}
            if s["phase"] == "port"
            else {"type": "PLACE", "bay": rng.choice(s["safeBays"])}
        )
        s = kh.step(s, a)
        out.append((a, answer(s)))
    return out


def test_honest_answers_have_no_divergence():
    for seed in (1, 7, 42):
        m = Mirror("keelhold")
        run = honest_run(seed, 150)
        assert m.check_init(run[0][1]) == []
        for i in range(1, len(run)):
            assert m.check_action(i, run[i - 1][1], run[i][0], run[i][1]) == []
        assert m.responses_checked == len(run) and not m.divergences


def _tampered(edit, step=5, seed=7):
    run = honest_run(seed)
    prev, (action, resp) = run[step - 1][1], run[step]
    bad = copy.deepcopy(resp)
    edit(bad)
    return Mirror("keelhold").check_action(step, prev, action, bad)


def test_tampered_trim_is_named():
    found = _tampered(lambda r: r["state"].__setitem__("trim", r["state"]["trim"] + 1))
    assert [d.path for d in found] == ["state.trim"]
    d = found[0]
    assert d.step == 5 and d.got == d.expected + 1


def test_tampered_score_in_state_and_envelope():
    def edit(r):
        r["state"]["score"] += 10
        r["score"] += 10

    paths = {d.path for d in _tampered(edit)}
    assert paths == {"state.score", "score"}


def test_tampered_hold_crate_weight():
    def edit(r):
        hold = r["state"]["hold"]
        b = next(i for i, h in enumerate(hold) if h)
        hold[b][0]["weight"] += 1

    paths = [d.path for d in _tampered(edit)]
    assert any(p.startswith("state.hold[") and p.endswith(".weight") for p in paths)
    assert "state.trim" not in paths  # trim is compared to the rules' trim, which is unchanged


def test_new_crate_out_of_range_is_flagged_but_any_in_range_crate_is_fine():
    def heavy(r):
        r["state"]["queue"][-1]["weight"] = 99

    assert any(d.path == "state.queue[2].weight" for d in _tampered(heavy))

    def other_draw(r):  # a different but legal draw: shape/range only, and derived fields follow
        for part in ("state", "observation"):
            c = r[part]["queue"][-1]
            c["weight"] = 1 if c["weight"] != 1 else 2

    assert _tampered(other_draw) == []


def test_wrong_safe_bays_and_legal_actions():
    found = _tampered(lambda r: r["state"].__setitem__("safeBays", []))
    assert [d.path for d in found] == ["state.safeBays"]
    found = _tampered(lambda r: r["legalActions"].pop())
    assert [d.path for d in found] == ["legalActions"]


def test_server_accepting_an_illegal_action():
    run = honest_run(7)
    prev, (_, resp) = run[3][1], run[4]
    found = Mirror("keelhold").check_action(4, prev, {"type": "PLACE", "bay": 0}, resp)
    assert found[0].path == "ok" and "refuse" in found[0].note


def test_server_refusing_a_legal_action_and_honest_refusal():
    run = honest_run(7)
    prev = run[3][1]
    legal = {"type": "PLACE", "bay": prev["state"]["safeBays"][0]}
    refusal = {"ok": False, "reason": "no", "legalActions": prev["legalActions"]}
    found = Mirror("keelhold").check_action(4, prev, legal, refusal)
    assert found[0].path == "ok" and found[0].expected is True
    assert Mirror("keelhold").check_action(4, prev, {"type": "PLACE", "bay": 0}, refusal) == []


def test_malformed_previous_answer_is_a_divergence_not_a_crash():
    run = honest_run(7)
    prev = copy.deepcopy(run[3][1])
    del prev["state"]["hold"]
    found = Mirror("keelhold").check_action(4, prev, run[4][0], run[4][1])
    assert found and found[0].path == "state"


def test_tampered_opening_is_caught():
    init = answer(kh.init(7))
    init["state"]["score"] = 50
    init["score"] = 50
    found = Mirror("keelhold").check_init(init)
    assert {d.path for d in found} >= {"state.score"}


def test_diff_is_strict_about_bools_and_lengths():
    assert diff({"a": True}, {"a": 1}, "s")[0].path == "s.a"
    assert diff([1, 2], [1, 2, 3], "s")[0].note == "length differs"
    assert diff({"a": 3}, {"a": 3.0}, "s") == []
    assert diff({"a": 1}, {}, "s")[0].got == "<missing>"
