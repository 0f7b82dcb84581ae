"""The Keelhold mirror against answers shaped like another server's: no cursor, no crate
counters, unknown fields everywhere (issue 11). An honest run has no divergence; a planted
rule bug is flagged at its step, and the mirror keeps checking every later step."""

from __future__ import annotations

import copy
import random
from typing import Any

from sunbot import strategies
from sunbot.engines import keelhold as kh
from sunbot.games import get_game
from sunbot.mirror import Mirror

GAME = get_game("keelhold")
OURS_ONLY = ("rng", "drawn", "nextCrateId")


def foreign(state: dict[str, Any]) -> dict[str, Any]:
    """Our answer for ``state`` as another server might send it."""
    answer: dict[str, Any] = {"ok": True, **copy.deepcopy(GAME.served_fields(state))}
    answer["serverTime"] = 1234
    for part in (answer["state"], answer["observation"]):
        for key in OURS_ONLY:
            part.pop(key, None)
        part["rev"] = 7
        for crate in part["queue"]:
            crate["tag"] = "x"
    answer["observation"]["tip"] = "mind the lurch"
    return answer


def run(seed: int, steps: int) -> list[tuple[Any, dict[str, Any]]]:
    """``steps`` answers of a safe-greedy run that sees only the foreign observations."""
    bot = strategies.create("keelhold", "safe-greedy", random.Random(seed))
    state = kh.init(seed)
    out: list[tuple[Any, dict[str, Any]]] = [(None, foreign(state))]
    while len(out) <= steps and not kh.is_over(state):
        answer = out[-1][1]
        action = bot.choose(answer["observation"], answer["legalActions"])
        state = kh.step(state, action)
        out.append((action, foreign(state)))
    return out


def check(answers: list[tuple[Any, dict[str, Any]]]) -> Mirror:
    mirror = Mirror("keelhold")
    mirror.check_init(answers[0][1])
    for i in range(1, len(answers)):
        mirror.check_action(i, answers[i - 1][1], answers[i][0], answers[i][1])
    return mirror


def test_an_honest_foreign_run_has_no_divergence_and_lists_unknown_fields_once() -> None:
    answers = run(7, 150)  # through port calls (voyage 3+: jams, ballast)
    assert any(a["state"]["voyage"] >= 3 for _, a in answers)
    mirror = check(answers)
    assert mirror.divergences == []
    assert mirror.responses_checked == len(answers)
    assert mirror.unknown_fields == {
        "serverTime",
        "state.rev",
        "state.queue[].tag",
        "observation.rev",
        "observation.tip",
        "observation.queue[].tag",
    }


def test_planted_bugs_are_flagged_at_their_step_and_later_steps_still_checked() -> None:
    answers = run(3, 60)
    answers = copy.deepcopy(answers)
    for part in (answers[5][1]["state"], answers[5][1]["observation"]):
        part["trim"] += 1  # the rules fix trim exactly
    answers[20][1]["score"] += 10  # a wrong award in the envelope
    mirror = check(answers)
    flagged = sorted({(d.step, d.path) for d in mirror.divergences})
    assert (5, "state.trim") in flagged and (5, "observation.trim") in flagged
    assert (20, "score") in flagged
    assert {step for step, _ in flagged} <= {5, 6, 20}  # step 6 replays from the bad trim


def test_a_missing_promised_field_is_a_divergence_but_our_bookkeeping_is_not() -> None:
    answers = copy.deepcopy(run(11, 3))
    answers[2][1]["state"].pop("safeBays")
    answers[2][1]["state"].pop("chain")  # not named by the rule text: our expectation fills it
    mirror = check(answers)
    assert [(d.step, d.path) for d in mirror.divergences] == [(2, "state.safeBays")]


def test_safe_greedy_chooses_the_same_without_the_cursor() -> None:
    bot = strategies.create("keelhold", "safe-greedy", random.Random(1))
    state = kh.init(5)
    for _ in range(40):
        if kh.is_over(state):
            break
        obs = kh.observation(state)
        bare = {k: v for k, v in obs.items() if k not in OURS_ONLY}
        legal = kh.legal_actions(state)
        assert bot.choose(bare, legal) == bot.choose(obs, legal)
        state = kh.step(state, bot.choose(obs, legal))


def test_expired_jams_left_in_the_past_and_legal_actions_in_another_order() -> None:
    answers = copy.deepcopy(run(7, 150))
    last = [0] * 7
    jams_seen = 0
    for _, answer in answers:
        for part in (answer["state"], answer["observation"]):
            jams = part["jammedUntil"]
            for h in range(7):
                if jams[h] == 0 and 0 < last[h] <= part["turn"]:
                    jams[h] = last[h]  # the expired end stays: a reading the rules allow
        last = list(answer["state"]["jammedUntil"])
        jams_seen += sum(1 for u in last if u > answer["state"]["turn"])
        answer["legalActions"].reverse()
    assert jams_seen > 0
    assert check(answers).divergences == []


def test_a_jam_on_the_keel_is_flagged() -> None:
    answers = copy.deepcopy(run(7, 150))
    i = next(i for i, (_, a) in enumerate(answers) if i and a["state"]["phase"] == "loading")
    for part in (answers[i][1]["state"], answers[i][1]["observation"]):
        part["jammedUntil"][3] = part["turn"] + 4
    assert "state.jammedUntil[3]" in {d.path for d in check(answers).divergences}
