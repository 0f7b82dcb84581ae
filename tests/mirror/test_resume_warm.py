"""A resumed run's mirror re-checks the transcript first (issue 11): what it tracks itself
(here Naptuft's wish streak, which a server may hide) is then known, not guessed as 0."""

from __future__ import annotations

import random

from sunbot.engines import naptuft as nt
from sunbot.games import get_game
from sunbot.mirror import Mirror
from sunbot.server import TokenCodec
from sunbot.server.app import envelope

GAME = get_game("naptuft")
CODEC = TokenCodec()


def _hidden(state):
    """Our answer with ``wishStreak`` and ``lastCare`` left out (the text never shows them)."""
    out = envelope(GAME, state, CODEC)
    for part in ("state", "observation"):
        if isinstance(out.get(part), dict):
            out[part].pop("wishStreak", None)
            out[part].pop("lastCare", None)
    return out


def _run(seed, n=400):
    s = nt.init(seed)
    rng = random.Random(seed)
    states, steps = [s], []
    while not nt.is_over(s) and len(steps) < n:
        a = rng.choice(nt.legal_actions(s))
        s = nt.step(s, a)
        states.append(s)
        steps.append(a)
    return states, steps


def _cut():
    """A seed, its run and a step after which the streak is above 0 and still rises."""
    for seed in range(1, 40):
        states, steps = _run(seed)
        for k in range(1, len(states) - 1):
            if (
                states[k]["wishStreak"] > 0
                and states[k + 1 :]
                and any(s["wishStreak"] > states[k]["wishStreak"] for s in states[k + 1 :])
            ):
                return states, steps, k
    raise AssertionError("no run with a growing wish streak")


def test_a_resumed_mirror_knows_a_hidden_streak():
    states, steps, k = _cut()
    answers = [_hidden(s) for s in states]
    recorded = list(zip(steps[:k], answers[1 : k + 1], strict=True))

    cold = Mirror("naptuft")  # the old way: the streak is taken as 0 at the resume
    found = [
        d
        for i in range(k, len(steps))
        for d in cold.check_action(i + 1, answers[i], steps[i], answers[i + 1])
    ]
    assert any(d.path.endswith("score") for d in found)  # the false divergence it gave

    warm = Mirror("naptuft")
    warm.warm(answers[0], recorded)
    assert warm.responses_checked == 0 and warm.divergences == []
    found = [
        d
        for i in range(k, len(steps))
        for d in warm.check_action(i + 1, answers[i], steps[i], answers[i + 1])
    ]
    assert found == []
