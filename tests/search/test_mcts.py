"""The tree search on small simulators whose best lines are known by hand."""

from __future__ import annotations

import random
import time
from typing import Any

from sunbot.search.mcts import OutOfBudget, Search
from sunbot.search.objective import resolve


class Race:
    """Reach exactly 10 from ``start`` adding 1, 2 or 3; fewer moves are better (the
    fewest: ceil((10 - start) / 3)). States are ``(n, moves)``."""

    deterministic = True
    costly = False

    def __init__(self, start: int = 0, budget: int | None = None) -> None:
        self.start = start
        self.objective = resolve({"scoreOrder": "ascending"})
        self.budget = budget
        self.steps = 0

    def root(self) -> tuple[int, int]:
        return (self.start, 0)

    def legal(self, s: tuple[int, int]) -> list[int]:
        return [k for k in (1, 2, 3) if s[0] + k <= 10]

    def expand(self, s: tuple[int, int], actions: list[int]) -> list[Any]:
        if self.budget is not None and self.steps + len(actions) > self.budget:
            raise OutOfBudget("budget")
        self.steps += len(actions)
        return [(s[0] + k, s[1] + 1) for k in actions]

    def over(self, s: tuple[int, int]) -> bool:
        return s[0] == 10

    def value(self, s: tuple[int, int], *, leaf: bool) -> float:
        return self.objective.value(s[1], self.over(s))

    def key(self, s: tuple[int, int]) -> str:
        return str(s[0])


def play_out(sim: Race, iterations: int) -> list[int]:
    tree = Search(sim, random.Random(1), rollout_depth=10)
    line: list[int] = []
    while not sim.over(sim.root()):
        action, _ = tree.run(iterations)
        line.append(action)
        tree.reroot(action, str(sim.start + action))
        sim.start += action
    return line


def test_it_finds_a_shortest_line() -> None:
    line = play_out(Race(0), 200)
    assert sum(line) == 10 and len(line) == 4  # 3 + 3 + 3 + 1 in some order


def test_the_best_found_solution_is_followed_from_a_reused_tree() -> None:
    sim = Race(4)
    tree = Search(sim, random.Random(3))
    first, stats = tree.run(300)
    assert first == 3 and stats.best == -2  # 4 + 3 + 3
    tree.reroot(first, "7")
    assert tree.root is not None and tree.root.depth == 0 and tree.root.visits > 0


def test_transpositions_are_pruned() -> None:
    sim = Race(0)
    _, stats = Search(sim, random.Random(0)).run(500)
    assert stats.pruned > 0
    assert stats.stopped == "exhausted"  # 11 positions, every one reached: nothing left


def test_it_stops_at_the_budget_and_at_the_deadline() -> None:
    action, stats = Search(Race(0, budget=5), random.Random(0), rollout_depth=0).run(1000)
    assert stats.stopped == "budget" and action in (1, 2, 3)

    class Slow(Race):
        def expand(self, s, actions):
            time.sleep(0.002)
            return super().expand(s, actions)

    started = time.monotonic()
    _, stats = Search(Slow(0), random.Random(0)).run(10**6, deadline=time.monotonic() + 0.2)
    assert stats.stopped in ("deadline", "exhausted")
    assert time.monotonic() - started < 1.5


class Coin:
    """A stochastic choice: ``safe`` scores 1; ``bet`` scores 3 with probability 1/2, else
    0 (mean 1.5): the most visited action should be ``bet``."""

    deterministic = False
    costly = False

    def __init__(self) -> None:
        self.rng = random.Random(5)
        self.objective = resolve(None)

    def root(self) -> str:
        return "start"

    def legal(self, s: str) -> list[str]:
        return ["safe", "bet"] if s == "start" else []

    def expand(self, s: str, actions: list[str]) -> list[str]:
        return [
            ("won" if self.rng.random() < 0.5 else "lost") if a == "bet" else "safe"
            for a in actions
        ]

    def over(self, s: str) -> bool:
        return s != "start"

    def value(self, s: str, *, leaf: bool) -> float:
        return {"won": 3.0, "lost": 0.0, "safe": 1.0}.get(s, 0.0)

    def key(self, s: str) -> None:
        return None


def test_a_stochastic_simulator_chooses_by_visits_over_fresh_draws() -> None:
    search = Search(Coin(), random.Random(2))
    action, stats = search.run(400)
    assert action == "bet"
    # it stopped once the iterations left could no longer change the most visited action
    assert (stats.stopped, stats.iterations) == ("settled", 329)
    assert search.root is not None
    bet, safe = sorted((c.visits for c in search.root.children), reverse=True)
    assert 0 < (bet - safe) - (400 - stats.iterations) <= 2  # checked every iteration


class OneWay(Coin):
    """A stochastic position with one legal action."""

    def legal(self, s: str) -> list[str]:
        return ["bet"] if s == "start" else []


def test_a_stochastic_simulator_with_one_action_stops_at_once() -> None:
    action, stats = Search(OneWay(), random.Random(2)).run(400)
    assert (action, stats.stopped, stats.iterations) == ("bet", "settled", 1)


class Corridor:
    """Cells 0..9 on a line, start at 4, the goal at 9; the estimate (moves + distance to
    cell 0) wrongly says cell 0 is the goal, a dead end: once the left side is searched out
    without an end, the right must be taken."""

    deterministic = True
    costly = False

    def root(self) -> tuple[int, int]:
        return (4, 0)

    def legal(self, s: tuple[int, int]) -> list[int]:
        return [d for d in (-1, 1) if 0 <= s[0] + d <= 9]

    def expand(self, s: tuple[int, int], actions: list[int]) -> list[Any]:
        return [(s[0] + d, s[1] + 1) for d in actions]

    def over(self, s: tuple[int, int]) -> bool:
        return s[0] == 9

    def value(self, s: tuple[int, int], *, leaf: bool) -> float:
        return -(s[1] + (s[0] if leaf else 0)) - (0 if self.over(s) else 1000)

    def key(self, s: tuple[int, int]) -> str:
        return str(s[0])


def test_a_searched_out_subtree_without_an_end_is_a_dead_end() -> None:
    action, stats = Search(Corridor(), random.Random(0), rollout_depth=0).run(200)
    assert action == 1
    assert stats.stopped == "exhausted"
