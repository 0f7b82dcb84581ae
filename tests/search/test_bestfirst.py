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
