"""What the lookahead learns from the server's answers so that its requests go further:
step counters left out of the transposition key, positions the run stood on left out of
the search, and a node wider than the decision's requests expanded in parts."""

from __future__ import annotations

import random
from typing import Any

from sunbot.search.lookahead import COUNTER_STEPS, Counters, Lookahead, ServerSim, _key
from sunbot.search.mcts import Search as Tree
from sunbot.search.objective import resolve

MIN = resolve({"scoreOrder": "ascending"})


def _answer(n: int, moves: int, goal: int, widest: int) -> dict[str, Any]:
    """Count to ``goal`` adding 1..``widest``, or ``reset`` to 0 (which counts the moves
    off, as a puzzle's reset does); the score is the moves."""
    legal: list[Any] = [{"type": "add", "n": k} for k in range(1, widest + 1) if n + k <= goal]
    if n > 0:
        legal.append({"type": "reset"})
    over = n == goal
    return {
        "state": {"n": n, "moves": moves},
        "observation": {"n": n, "moves": moves},
        "legalActions": [] if over else legal,
        "score": moves,
        "gameOver": over,
    }


class _Local(Lookahead):
    """A lookahead whose "server" is :func:`_answer`, counting the questions asked."""

    def __init__(self, per_decision: int, goal: int = 10, widest: int = 3) -> None:
        super().__init__("http://127.0.0.1:9", "count", per_decision=per_decision)
        self.goal, self.widest = goal, widest

    def step_many(self, pairs: list[tuple[dict[str, Any], Any]]) -> list[dict[str, Any] | None]:
        left = self.per_decision - self.decision_requests
        asked = [
            p for p in pairs if (_key({"state": p[0]["state"]}), _key(p[1])) not in self._cache
        ]
        if len(asked) > left:
            from sunbot.search.mcts import OutOfBudget

            raise OutOfBudget("the request budget")
        out = []
        for answer, action in pairs:
            k = (_key({"state": answer["state"]}), _key(action))
            if k not in self._cache:
                self.requests += 1
                self.decision_requests += 1
                s = answer["state"]
                got = (
                    _answer(0, 0, self.goal, self.widest)
                    if action["type"] == "reset"
                    else _answer(s["n"] + action["n"], s["moves"] + 1, self.goal, self.widest)
                )
                self._cache[k] = got
            out.append(self._cache[k])
        return out


def test_a_number_that_went_up_by_one_on_every_step_is_a_counter() -> None:
    c = Counters()
    for m in range(COUNTER_STEPS):
        c.observe({"n": 5, "moves": m, "turn": m}, {"n": 6 + m, "moves": m + 1, "turn": m + 1})
        assert c.paths == (frozenset({"moves", "turn"}) if m == COUNTER_STEPS - 1 else frozenset())
    c.observe({"n": 1, "moves": 7, "turn": 3}, {"n": 1, "moves": 6, "turn": 4})  # an undo
    assert c.paths == frozenset({"turn"})  # n jumped, then stayed; moves fell
    assert c.strip({"n": 1, "moves": 6, "turn": 4}) == {"n": 1, "moves": 6}
    assert c.strip([1, 2]) == [1, 2]


def test_the_same_position_reached_later_is_one_position() -> None:
    look = _Local(per_decision=50)
    root = _answer(2, 2, 10, 3)
    sim = ServerSim(look, root, MIN)
    for m in range(COUNTER_STEPS):  # the run learns that moves count steps
        look.counters.observe({"n": 2, "moves": m}, {"n": 2 + (m > 0), "moves": m + 1})
    assert sim.key(_answer(4, 3, 10, 3)) == sim.key(_answer(4, 9, 10, 3))
    assert sim.key(_answer(4, 3, 10, 3)) != sim.key(_answer(5, 3, 10, 3))


def test_a_step_back_to_a_position_the_run_stood_on_is_left_out() -> None:
    look = _Local(per_decision=50)
    opening = _answer(0, 0, 10, 3)
    ServerSim(look, opening, MIN)  # the run stood on the opening
    sim = ServerSim(look, _answer(3, 1, 10, 3), MIN)
    root = sim.root()
    got = sim.expand(root, root["legalActions"])
    assert [a is None for a in got] == [False, False, False, True]  # reset: the opening again
    assert look.failures == 0  # not a failure: a cycle


def test_a_node_wider_than_the_decision_is_expanded_in_parts() -> None:
    look = _Local(per_decision=5, goal=40, widest=20)
    sim = ServerSim(look, _answer(0, 0, 40, 20), MIN)
    look.start_decision(None)
    tree = Tree(sim, random.Random(1), rollout_depth=0)
    action, stats = tree.run(100)
    assert stats.stopped == "budget"
    assert action is not None  # before: the 20 actions never fit 5 requests: no child
    assert tree.root is not None and len(tree.root.children) == 5
    assert look.requests == 5
    asked = [(sim.root(), c.action) for c in tree.root.children]
    unasked = next(
        a for a in sim.root()["legalActions"] if all(a != c.action for c in tree.root.children)
    )
    assert look.room(asked) == 5  # answered from the cache: no request left needed
    assert look.room([*asked, (sim.root(), unasked)]) == 0
