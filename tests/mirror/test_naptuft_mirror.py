"""The Naptuft mirror checks what a player can (spec naptuft.md §3, §6) and nothing hidden."""

from __future__ import annotations

import copy
import json
import random

import pytest

from sunbot.engines import naptuft as nt
from sunbot.games import get_game
from sunbot.mirror import Mirror
from sunbot.mirror import naptuft as hooks
from sunbot.server import TokenCodec
from sunbot.server.app import envelope
from sunbot.strategies.naptuft import Balancer

GAME = get_game("naptuft")
CODEC = TokenCodec()
NEXT_DAY = {"type": "next-day"}


def care(name):
    return {"type": "care", "care": name}


def answer(state):
    """What the server sends, through JSON like on the wire (state and observation apart)."""
    return json.loads(json.dumps(envelope(GAME, state, CODEC)))


def run(seed, policy, steps, end=False):
    """Answers ``[(action, answer)]`` of ``steps`` actions of ``policy`` (then end-run)."""
    s = nt.init(seed)
    out = [(None, answer(s))]
    for _ in range(steps):
        if nt.is_over(s):
            break
        a = policy(nt.observation(s), nt.legal_actions(s))
        s = nt.step(s, a)
        out.append((a, answer(s)))
    if end and not nt.is_over(s):
        s = nt.step(s, {"type": "end-run"})
        out.append(({"type": "end-run"}, answer(s)))
    return out


def check_all(answers):
    m = Mirror("naptuft")
    found = list(m.check_init(answers[0][1]))
    for i in range(1, len(answers)):
        found += m.check_action(i, answers[i - 1][1], answers[i][0], answers[i][1])
    return m, found


def w1(n, end=False):
    """Seed 7's opening W1 (nap, feed, play, brush), the same order to the day break, on."""
    cares = ["nap", "feed", "play", "brush"] * 3

    def policy(obs, legal):
        return care(cares[obs["moment"]]) if obs["phase"] == "care" else NEXT_DAY

    return run(7, policy, n, end)


def test_honest_runs_have_no_divergence_across_days_breaks_and_endings():
    for seed in (1, 7, 42):
        bot = Balancer(random.Random(seed))
        answers = run(seed, bot.choose, 8 * 13, end=True)  # day 9: repeat rule, next-days
        m, found = check_all(answers)
        assert found == [] and m.responses_checked == len(answers)
        last = answers[-1][1]["state"]
        assert last["day"] == 9 and last["cause"] == "end-run"


def test_honest_fatal_and_day_break_end_runs_have_no_divergence():
    feed_only = run(7, lambda obs, legal: care("feed"), 40)  # joy and cleanliness empty
    last = feed_only[-1][1]
    assert last["state"]["result"] == "fatal" and last["gameOver"] is True
    assert check_all(feed_only)[1] == []
    ended = w1(12, end=True)  # end-run at the day break keeps the day bonus (§8.7)
    assert ended[-2][1]["state"]["phase"] == "dayBreak"
    assert ended[-1][1]["state"]["cause"] == "end-run" and ended[-1][1]["legalActions"] == []
    assert check_all(ended)[1] == []


def tampered(step, edit, answers=None):
    answers = answers or w1(14)
    prev, (action, resp) = answers[step - 1][1], answers[step]
    bad = copy.deepcopy(resp)
    edit(bad)
    return Mirror("naptuft").check_action(step, prev, action, bad)


def test_tampered_need_is_named_with_the_rules_value():
    # W1 m0: nap restores 30, decay 7 each -> energy 100 - 7 = 93
    found = tampered(1, lambda r: r["state"]["needs"].__setitem__("energy", 94))
    assert [(d.path, d.expected, d.got) for d in found] == [("state.needs.energy", 93, 94)]


def test_tampered_score_in_state_observation_and_envelope():
    # W1 m1: 40 + 36 (feed) + 10 (comfort) + 60*2*1 (wish [nap, feed]) = 206
    def edit(r):
        for part in (r["state"], r["observation"]):
            part["score"] = 216
        r["score"] = 216

    found = tampered(2, edit)
    assert {(d.path, d.expected, d.got) for d in found} == {
        ("state.score", 206, 216),
        ("observation.score", 206, 216),
        ("score", 206, 216),
    }


def test_tampered_wish_progress_and_streak():
    found = tampered(1, lambda r: r["state"]["wish"].__setitem__("progress", 0))
    assert [(d.path, d.expected, d.got) for d in found] == [("state.wish.progress", 1, 0)]
    found = tampered(2, lambda r: r["state"].__setitem__("wishStreak", 2))
    assert [(d.path, d.expected, d.got) for d in found] == [("state.wishStreak", 1, 2)]
    # after W1's wish is done the wish is null for the rest of window 0
    found = tampered(
        3, lambda r: r["state"].__setitem__("wish", {"actions": ["nap", "feed"], "progress": 1})
    )
    assert [d.path for d in found] == ["state.wish"]


def test_tampered_phase_and_legal_actions_at_the_day_break():
    answers = w1(14)
    assert answers[12][1]["state"]["phase"] == "dayBreak"
    found = tampered(12, lambda r: r["state"].__setitem__("phase", "care"), answers)
    assert [(d.path, d.expected, d.got) for d in found] == [("state.phase", "dayBreak", "care")]
    found = tampered(12, lambda r: r["legalActions"].insert(0, care("feed")), answers)
    assert [d.path for d in found] == ["legalActions"]
    assert found[0].expected == [NEXT_DAY, {"type": "end-run"}]
    found = tampered(12, lambda r: r.__setitem__("gameOver", True), answers)
    assert [(d.path, d.expected, d.got) for d in found] == [("gameOver", False, True)]


def test_next_day_adopts_any_well_formed_reveal_but_checks_window_0_and_the_wish():
    answers = w1(14)
    assert answers[13][0] == NEXT_DAY

    def other_reveal(r):
        for part in (r["state"], r["observation"]):
            part["forecast"][2] = {
                "wish": ["brush", "nap", "feed"],
                "pressure": {"food": 4, "joy": 0, "cleanliness": 3, "energy": 2},
            }
            part["nextWindow"]["wish"] = ["play"]

    assert tampered(13, other_reveal, answers) == []
    # window 0 of day 2 is day 1's nextWindow (descriptor 3 of seed 7: feed, 0/0/1/0)
    found = tampered(
        13, lambda r: r["state"]["forecast"][0]["pressure"].__setitem__("cleanliness", 0), answers
    )
    assert [(d.path, d.expected, d.got) for d in found] == [
        ("state.forecast[0].pressure.cleanliness", 1, 0)
    ]
    found = tampered(
        13, lambda r: r["state"].__setitem__("wish", {"actions": ["play"], "progress": 0}), answers
    )
    assert [(d.path, d.expected, d.got) for d in found] == [
        ("state.wish.actions[0]", "feed", "play")
    ]


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (
            lambda s: s["forecast"][2]["pressure"].__setitem__("joy", -1),
            "state.forecast[2].pressure.joy",
        ),
        (
            lambda s: s["forecast"][1].__setitem__("wish", ["feed", "feed"]),
            "state.forecast[1].wish",
        ),
        (lambda s: s["forecast"][1].__setitem__("wish", []), "state.forecast[1].wish"),
        (
            lambda s: s["nextWindow"]["pressure"].__setitem__("food", True),
            "state.nextWindow.pressure.food",
        ),
        (lambda s: s.pop("nextWindow"), "state.nextWindow"),
        (lambda s: s.__setitem__("forecast", {}), "state.forecast"),
        (lambda s: s["forecast"].append(s["forecast"][0]), "state.forecast"),
    ],
)
def test_malformed_revealed_window_is_reported_at_its_path(edit, path):
    def both(r):  # a consistent server: state and observation say the same
        edit(r["state"])
        edit(r["observation"])

    found = tampered(13, both, w1(14))
    assert [d.path for d in found] == [path]
    # a server whose observation disagrees with its state is reported there too
    found = tampered(13, lambda r: edit(r["state"]), w1(14))
    assert found[0].path == path and found[1:]
    assert all(d.path.startswith("observation.") for d in found[1:])


def test_server_accepting_a_repeat_on_day_7_is_caught():
    s = nt.init(3)
    for _ in range(6):
        for i in range(12):
            s = nt.step(s, care(nt.CARES[i % 4]))
        s = nt.step(s, NEXT_DAY)
    assert s["day"] == 7 and s["lastCare"] == "nap"
    prev = answer(s)
    forged = nt.step({**s, "day": 6}, care("nap")) | {"day": 7}  # what a lax server would do
    found = Mirror("naptuft").check_action(1, prev, care("nap"), answer(forged))
    assert [d.path for d in found] == ["ok"] and "repeatCare" in found[0].note
    refusal = {"ok": False, "reason": "repeatCare: no", "legalActions": prev["legalActions"]}
    assert Mirror("naptuft").check_action(1, prev, care("nap"), refusal) == []
    refusal["legalActions"] = [care("nap"), *prev["legalActions"]]
    assert [d.path for d in Mirror("naptuft").check_action(1, prev, care("nap"), refusal)] == [
        "legalActions"
    ]


def test_opening_values_and_shape():
    init = answer(nt.init(7))
    init["state"]["needs"]["food"] = 71  # the starting value is the server's choice
    init["state"]["wishStreak"] = 1
    found = hooks.check_initial(init["state"])
    assert [(d.path, d.expected) for d in found] == [("state.wishStreak", 0)]
    init["state"]["needs"]["joy"] = 0  # but no cat starts with a need at 0
    found = hooks.check_initial(init["state"])
    assert [d.path for d in found] == ["state"] and "fatal" in found[0].note
    broken = answer(nt.init(7))
    broken["state"]["window"] = 1  # moment 0 is in window 0
    found = Mirror("naptuft").check_init(broken)
    assert found[0].path == "state" and "window" in found[0].note
    assert hooks.check_initial(answer(nt.init(123))["state"]) == []


def test_expected_envelope_is_computed_from_the_observation():
    obs = nt.observation(nt.init(7))
    env = hooks.expected_envelope(obs)
    assert env == {
        "legalActions": nt.legal_actions(obs),
        "score": 0,
        "gameOver": False,
        "observation": obs,
    }


def test_an_unknown_field_in_a_revealed_window_is_listed_not_reported():
    answers = w1(14)
    prev, (action, resp) = answers[12][1], answers[13]
    bad = copy.deepcopy(resp)
    for part in (bad["state"], bad["observation"]):
        part["nextWindow"]["mood"] = 1
    mirror = Mirror("naptuft")
    assert mirror.check_action(13, prev, action, bad) == []
    assert mirror.unknown_fields == {"state.nextWindow.mood", "observation.nextWindow.mood"}


def test_the_wording_of_cause_is_the_servers_but_the_ending_is_checked():
    answers = w1(14)
    state = nt.init(7)
    fatal = None
    for _ in range(200):  # nap only from day 7 is refused; play nap/feed till a need hits 0
        legal = nt.legal_actions(state)
        if not legal:
            break
        pick = next((a for a in legal if a.get("care") == "play"), legal[0])
        if pick["type"] == "end-run":
            pick = next((a for a in legal if a["type"] != "end-run"), pick)
        nxt = nt.step(state, pick)
        if nxt["phase"] == "over":
            fatal = (state, pick, nxt)
            break
        state = nxt
    assert fatal is not None and fatal[2]["result"] == "fatal"
    prev, action, end = answer(fatal[0]), fatal[1], answer(fatal[2])
    for part in (end["state"], end["observation"]):
        part["cause"] = "the cat ran out of energy"
    assert Mirror("naptuft").check_action(1, prev, action, end) == []
    for part in (end["state"], end["observation"]):
        part["cause"] = None  # over without a cause: a divergence
    assert {d.path for d in Mirror("naptuft").check_action(1, prev, action, end)} >= {"state.cause"}
    del answers


def test_a_pressure_past_the_loss_cap_is_a_servers_choice():
    # the text gives no range for the household modifier, only the loss cap of 8: a server
    # showing 12 (loss min(6 + 12, 8) = 8) is as faithful as our 0..4
    def high(r):
        for part in (r["state"], r["observation"]):
            part["forecast"][2]["pressure"]["joy"] = 12
            part["nextWindow"]["pressure"]["food"] = 30

    assert tampered(13, high) == []


def both(edit):
    def apply(r):
        edit(r["state"])
        edit(r["observation"])

    return apply


def test_the_words_of_result_are_the_servers_but_not_the_other_ending():
    answers = w1(14, end=True)  # end-run on day 2, moment 0
    step = len(answers) - 1
    assert answers[step][1]["state"]["result"] == "ended"
    assert tampered(step, both(lambda s: s.__setitem__("result", "banked")), answers) == []
    found = tampered(step, both(lambda s: s.__setitem__("result", "fatal")), answers)
    assert {(d.path, d.expected, d.got) for d in found} == {
        ("state.result", "ended", "fatal"),
        ("observation.result", "ended", "fatal"),
    }
    found = tampered(step, both(lambda s: s.__setitem__("result", None)), answers)
    assert {d.path for d in found} == {"state.result", "observation.result"}


def test_a_completed_or_expired_wish_may_be_shown_the_servers_way():
    # W1: [nap, feed] is completed at m1 (score 206); ours shows null for the rest of window 0
    done = {"actions": ["nap", "feed"], "progress": 2}
    answers = w1(14, end=True)

    def shown(r):
        for part in (r["state"], r["observation"]):
            if part["phase"] == "dayBreak":
                part["wish"] = {"actions": ["play"], "progress": 0}  # window 2's, expired
            elif part["wish"] is None:  # the window's own wish, every step done
                cares = part["forecast"][part["window"]]["wish"]
                part["wish"] = {"actions": cares, "progress": len(cares)}

    def dropped(r):
        for part in (r["state"], r["observation"]):
            if part["wish"] is None:
                del part["wish"]

    for edit in (shown, dropped):
        edited = copy.deepcopy(answers)
        for _, resp in edited:
            edit(resp)
        assert check_all(edited)[1] == []
        # the later steps are still checked: W1's m3 pays 298, not 300
        edited[4][1]["state"]["score"] = 300
        first = check_all(edited)[1][0]
        assert (first.step, first.path, first.expected, first.got) == (4, "state.score", 298, 300)
    # a wish shown as still open after it was completed is not a way of showing none
    found = tampered(2, both(lambda s: s.__setitem__("wish", {**done, "progress": 1})))
    assert {d.path for d in found} == {"state.wish", "observation.wish"}


def test_end_run_after_a_completed_wish_keeps_it_as_the_server_showed_it():
    answers = w1(2)  # m1 completes W1's wish
    s = nt.step(nt.step(nt.init(7), care("nap")), care("feed"))
    assert s["wish"] is None
    prev = copy.deepcopy(answers[2][1])
    for part in (prev["state"], prev["observation"]):
        part["wish"] = {"actions": ["nap", "feed"], "progress": 2}
    end = answer(nt.step(s, {"type": "end-run"}))
    for part in (end["state"], end["observation"]):
        part["wish"] = {"actions": ["nap", "feed"], "progress": 2}
    assert Mirror("naptuft").check_action(3, prev, {"type": "end-run"}, end) == []
    for part in (end["state"], end["observation"]):
        part["wish"] = {"actions": ["nap", "feed"], "progress": 0}
    found = Mirror("naptuft").check_action(3, prev, {"type": "end-run"}, end)
    assert {d.path for d in found} == {"state.wish.progress", "observation.wish.progress"}


def test_a_missing_phase_is_reported_once_per_answer_and_the_replay_goes_on():
    answers = w1(14, end=True)
    for _, resp in answers:
        for part in (resp["state"], resp["observation"]):
            del part["phase"]
    answers[1][1]["state"]["needs"]["energy"] = 94  # W1 m0: 100 - 7 = 93
    found = check_all(answers)[1]
    assert [d.step for d in found if d.path == "state.phase"] == list(range(len(answers)))
    rules = [(d.step, d.path, d.expected, d.got) for d in found if d.path != "state.phase"]
    assert rules[0] == (1, "state.needs.energy", 93, 94)  # the rest follows the server's 94
