"""Best-first search on deterministic simulators with an estimate: a plan found is
followed; a search too short for the goal goes on next decision from where it was."""

from __future__ import annotations

from typing import Any

from sunbot.search.bestfirst import BestFirst
from tests.search.test_mcts import Corridor, Race


class Estimated(Race):
    def value(self, s: tuple[int, int], *, leaf: bool) -> float:
        left = 10 - s[0]
        return -(s[1] + (left + 2) // 3) if leaf else -s[1]  # moves + the fewest left


def test_a_plan_to_the_end_is_found_and_followed() -> None:
    sim = Estimated(0)
    search = BestFirst(sim)
    action, stats = search.run(1000)
    assert stats.stopped == "solved" and stats.best == -4
    line = [action]
    while True:
        sim.start += line[-1]
        if sim.start == 10:
            break
        search.reroot(line[-1], str(sim.start))
        action, stats = search.run(1000)
        assert stats.stopped == "plan"
        line.append(action)
    assert sum(line) == 10 and len(line) == 4


def test_a_misleading_estimate_is_searched_past() -> None:
    action, stats = BestFirst(Corridor()).run(100)
    assert (action, stats.stopped) == (1, "solved")


def test_a_short_budget_keeps_searching_across_decisions() -> None:
    class Walk(Corridor):
        def __init__(self) -> None:
            self.at = 4

        def root(self) -> tuple[int, int]:
            return (self.at, 0)

    sim = Walk()
    search = BestFirst(sim)
    played: list[Any] = []
    for _ in range(30):
        action, _ = search.run(2)  # two expansions a decision
        played.append(action)
        sim.at += action
        if sim.at == 9:
            break
        search.reroot(action, str(sim.at))
    assert sim.at == 9, played


class Line:
    """Cells ``0..last`` on a line, start at 3, a step left or right; ``ends`` maps the
    cells that end the game to their score; every open cell is estimated 50 (higher is
    better), so the search meets the cells in the order it finds them."""

    deterministic = True
    costly = False

    def __init__(self, ends: dict[int, float], last: int) -> None:
        self.ends, self.last = ends, last

    def root(self) -> int:
        return 3

    def legal(self, s: int) -> list[int]:
        return [d for d in (-1, 1) if 0 <= s + d <= self.last]

    def expand(self, s: int, actions: list[int]) -> list[Any]:
        return [s + d for d in actions]

    def over(self, s: int) -> bool:
        return s in self.ends

    def value(self, s: int, *, leaf: bool) -> float:
        return self.ends.get(s, 50.0)

    def key(self, s: int) -> str:
        return str(s)


def test_a_lost_end_met_first_is_not_the_plan_while_something_open_looks_better() -> None:
    # the loss on cell 0 is reached first (the left is searched first); the win on cell 6
    # is three steps right, as far
    sim = Line({0: 0.0, 6: 100.0}, 6)
    action, stats = BestFirst(sim).run(100)
    assert (action, stats.stopped, stats.best) == (1, "solved", 100.0)


def test_an_end_that_waited_is_the_plan_once_nothing_open_beats_it() -> None:
    # a draw (25) on the left; the right is a dead end without any end of the game
    search = BestFirst(Line({0: 25.0}, 5))
    action, stats = search.run(100)
    assert (action, stats.stopped, stats.best) == (-1, "solved", 25.0)
    assert [a for a, _ in search.plan] == [-1, -1, -1]
