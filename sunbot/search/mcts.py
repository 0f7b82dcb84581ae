"""Anytime Monte Carlo tree search (UCT) over a :class:`Simulator`, for one decision.

The shape of OpenSpiel's MCTS (``open_spiel/python/algorithms/mcts.py``) for the one player
sunbot plays: selection by UCB1 over the children's mean values, expansion of one untried
action (all of them at once on a costly simulator, whose steps are server requests),
evaluation by a random rollout to a depth (or the end), or by the simulator's estimate, and
backup of the value along the path. An opponent that replies inside the step (G-Bot) is
part of the simulator, so single-agent search applies.

- **Chance and hidden parts** (a stochastic simulator): the tree is *open loop*, its nodes
  keyed by the actions from the root, and every iteration draws a fresh root (the hidden
  parts sampled anew) and fresh chance outcomes on its way down: the nodes average over
  the draws, as sampled chance outcomes do in OpenSpiel's chance nodes.
- **Deterministic simulators** keep each node's state, prune a position already reached
  earlier in the tree (a transposition: sliding a tile back, walking back in a maze), stop
  visiting a subtree whose every line is known (the whole tree searched out ends the
  search), and choose the action whose subtree found the best value (a puzzle's solution,
  once found, is followed); a stochastic one chooses the most visited action.

Values are the objective's (:mod:`sunbot.search.objective`), higher better, normalised to
[0, 1] by the smallest and largest seen before UCB1 compares them. The search is anytime:
it stops at its iteration budget, its deadline, or when the simulator runs out of budget
(:class:`OutOfBudget`), and answers with the best action so far.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

#: UCB1's exploration constant (on values normalised to [0, 1]): sqrt(2), UCT's own.
EXPLORATION = 1.414
#: How much less a novelty one step further away counts (the nearer new thing first).
NEAR = 0.9
#: How often (iterations) the clock is read.
_CLOCK_EVERY = 16


class OutOfBudget(Exception):
    """The simulator may not be stepped any more in this decision (a request budget)."""


class Simulator(Protocol):
    """What the search steps. States are opaque to it.

    Attributes:
        deterministic: ``step`` and ``root`` give the same result every time.
        costly: a step is expensive (a request): expand every action of a node at once
            (:meth:`expand`) and evaluate without rollouts.
    """

    deterministic: bool
    costly: bool

    def root(self) -> Any:
        """The position to decide from (a fresh draw of its hidden parts, if any)."""
        ...

    def legal(self, state: Any) -> list[Any]:
        """The legal actions in ``state``."""
        ...

    def expand(self, state: Any, actions: list[Any]) -> list[Any]:
        """The positions after each of ``actions`` from ``state`` (one per action; an
        action the simulator could not step gives ``None``).

        Raises:
            OutOfBudget: the simulator may not step any more.
        """
        ...

    def over(self, state: Any) -> bool:
        """Whether the game is over in ``state``."""
        ...

    def value(self, state: Any, *, leaf: bool) -> float:
        """The objective's value of ``state`` (``leaf``: where the search stopped short of
        the end, so an estimate of the end may stand in for it)."""
        ...

    def key(self, state: Any) -> str | None:
        """A transposition key of ``state`` (``None``: no key)."""
        ...

    def novelty(self, state: Any) -> float:
        """What ``state`` holds that the run has not seen (:mod:`sunbot.search.novelty`;
        0 when the simulator does not tell)."""
        ...

    # Optional on a costly simulator: ``room(state, actions) -> int``, how many of
    # ``actions`` (taken from the end) it can still step in this decision; a node with more
    # actions than that is expanded in parts, one part an iteration.


@dataclass
class Node:
    """One node of the tree: ``action`` led here from the parent."""

    action: Any = None
    depth: int = 0
    state: Any = None
    visits: int = 0
    total: float = 0.0
    best: float = -math.inf
    solved: float = -math.inf
    novel: float = 0.0
    children: list[Node] = field(default_factory=list)
    untried: list[Any] | None = None
    over: bool = False
    done: bool = False

    @property
    def mean(self) -> float:
        """The mean value of the iterations through this node."""
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Stats:
    """What one decision's search did."""

    iterations: int = 0
    nodes: int = 0
    rollout_steps: int = 0
    pruned: int = 0
    best: float = -math.inf
    stopped: str = "iterations"


class Search:
    """Anytime UCT over ``sim`` (module doc), its randomness from ``rng``.

    Args:
        sim: the simulator.
        rng: the search's only source of randomness (a seeded run replays exactly when the
            budget is iterations, not time).
        rollout_depth: random steps after a new node before it is valued (0: value it as
            it is); a costly simulator never rolls out.
        exploration: UCB1's constant.
    """

    def __init__(
        self,
        sim: Simulator,
        rng: random.Random,
        *,
        rollout_depth: int = 30,
        exploration: float = EXPLORATION,
        max_backup: bool = True,
    ) -> None:
        self.sim = sim
        self.rng = rng
        self.rollout_depth = 0 if sim.costly else rollout_depth
        self.exploration = exploration
        self.max_backup = max_backup
        self.root: Node | None = None
        self.low, self.high = math.inf, -math.inf
        self.seen: dict[str, int] = {}

    # -- the tree across decisions -------------------------------------------------------

    def reroot(self, action: Any, state_key: str | None) -> None:
        """Keep the subtree of ``action`` when the position now decided from is the one
        it predicted (deterministic simulators only); else start afresh."""
        root = self.root
        self.root = None
        if root is None or not self.sim.deterministic or state_key is None:
            return
        for child in root.children:
            if child.action == action and child.state is not None:
                if self.sim.key(child.state) == state_key:
                    self.root = child
                    self._shift(child)
                return

    def _shift(self, root: Node) -> None:
        """Make ``root`` depth 0, rebuild the transposition table from its subtree, and
        value its nodes' novelty anew (the run has stood on more since)."""
        self.seen = {}
        novelty = getattr(self.sim, "novelty", None)
        order: list[Node] = []
        stack = [(root, 0)]
        while stack:
            node, depth = stack.pop()
            node.depth = depth
            order.append(node)
            if node.state is not None and (k := self.sim.key(node.state)) is not None:
                self.seen[k] = min(depth, self.seen.get(k, depth))
            stack.extend((c, depth + 1) for c in node.children)
        for node in reversed(order):  # children before their parent
            own = novelty(node.state) if novelty is not None and node.state is not None else 0
            node.novel = max([own * NEAR**node.depth, *(c.novel for c in node.children)])

    # -- one decision --------------------------------------------------------------------

    def run(self, iterations: int, deadline: float | None = None) -> tuple[Any, Stats]:
        """Search until ``iterations`` more iterations ran, ``deadline`` (a
        :func:`time.monotonic` instant) passed or the simulator ran out of budget; return
        the chosen action (``None`` when none could be searched) and the stats."""
        stats = Stats()
        state = self.sim.root()
        root = self.root
        if root is not None and self.sim.deterministic:
            kept = root.state is not None and self.sim.key(root.state) == self.sim.key(state)
            stale = root.done and not root.over  # searched out from above: search it anew
            root = root if kept and not stale and self.sim.key(state) is not None else None
        if root is None or not self.sim.deterministic:
            root = self.root = Node(state=state if self.sim.deterministic else None)
            root.over = self.sim.over(state)
            self.seen = {}
            if self.sim.deterministic and (k := self.sim.key(state)) is not None:
                self.seen[k] = 0
        try:
            for i in range(iterations):
                if deadline is not None and i % _CLOCK_EVERY == 0 and time.monotonic() >= deadline:
                    stats.stopped = "deadline"
                    break
                if root.done:
                    stats.stopped = "exhausted"
                    break
                if not self.sim.deterministic and _settled(root, iterations - i):
                    stats.stopped = "settled"
                    break
                self._iterate(root, stats)
                stats.iterations += 1
        except OutOfBudget:
            stats.stopped = "budget"
        stats.best = root.best
        return self._choose(root), stats

    def _choose(self, root: Node) -> Any:
        live = [c for c in root.children if c.visits]
        if not live:
            return None
        if self.sim.deterministic:
            return max(live, key=_rank).action
        return max(live, key=lambda c: (c.visits, c.mean)).action

    def _ucb(self, parent: Node, child: Node) -> float:
        """UCB1 on the child's value: its best line's on a deterministic simulator (a
        line found is there to be played again, as in single-player MCTS), its mean on a
        stochastic one."""
        span = self.high - self.low
        value = child.best if self.sim.deterministic and self.max_backup else child.mean
        q = (value - self.low) / span if span > 0 and math.isfinite(value) else 0.5
        return q + self.exploration * math.sqrt(math.log(parent.visits + 1) / child.visits)

    def _iterate(self, root: Node, stats: Stats) -> None:
        sim = self.sim
        node = root
        path = [root]
        state = root.state if sim.deterministic else sim.root()
        ended = False
        while True:
            if node.over:
                value, ended = sim.value(state, leaf=False), True
                break
            if node.untried is None:
                node.untried = list(sim.legal(state))
                self.rng.shuffle(node.untried)
            if node.untried:
                value, ended, node = self._expand(node, state, path, stats)
                break
            live = [c for c in node.children if not c.done]
            if not live:  # nothing left to learn below (a deterministic simulator's)
                node.done = True
                value = node.best if node.visits else -math.inf
                break
            node = max(live, key=lambda c: self._ucb(path[-1], c))
            state = node.state if sim.deterministic else self._step(state, node.action)
            path.append(node)
            if state is None:  # the simulator could not step it
                node.done = True
                value = -math.inf
                break
        self._backup(path, value, ended)
        if sim.deterministic:
            self._settle(path)

    @staticmethod
    def _settle(path: list[Node]) -> None:
        """Mark done, bottom up, the nodes of ``path`` below which every line is known: an
        end of the game, or every child done (deterministic simulators: a done line gives
        the same value every time, so it is visited no more)."""
        for node in reversed(path):
            whole = node.untried == [] and all(c.done for c in node.children)
            if node.over or whole:
                node.done = True
            if not node.done:
                return

    def _step(self, state: Any, action: Any) -> Any:
        got = self.sim.expand(state, [action])
        return got[0] if got else None

    def _expand(
        self, node: Node, state: Any, path: list[Node], stats: Stats
    ) -> tuple[float, bool, Node]:
        """Expand ``node``: one untried action (every one on a costly simulator); returns
        the value to back up, whether it is a game's end, and the node it belongs to
        (appended to ``path``)."""
        sim = self.sim
        assert node.untried is not None
        room = getattr(sim, "room", None) if sim.costly else None
        fits = room(state, node.untried) if callable(room) else len(node.untried)
        take = node.untried[-max(fits, 1) :] if sim.costly else node.untried[-1:]
        actions = list(take)
        states = sim.expand(state, actions)
        del node.untried[len(node.untried) - len(actions) :]
        made: list[tuple[Node, tuple[float, bool]]] = []
        for action, after in zip(actions, states, strict=True):
            if after is None:
                continue
            depth = node.depth + 1
            if sim.deterministic:
                k = sim.key(after)
                if k is not None:
                    if k in self.seen and self.seen[k] < depth:
                        stats.pruned += 1
                        continue
                    self.seen[k] = depth
            child = Node(action, depth, after if sim.deterministic else None)
            child.over = sim.over(after)
            child.done = child.over and sim.deterministic
            novelty = getattr(sim, "novelty", None) if sim.deterministic else None
            child.novel = novelty(after) * NEAR**depth if novelty is not None else 0.0
            node.children.append(child)
            stats.nodes += 1
            made.append((child, self._evaluate(after, child.over, stats)))
        if not made:
            if not node.untried and not node.children:
                node.done = True
            return (node.best if node.visits else -math.inf), False, node
        for child, (value, ended) in made[:-1]:  # a costly expansion values every new child
            self._backup([*path, child], value, ended)
        child, (value, ended) = made[-1]
        path.append(child)
        return value, ended, child

    def _evaluate(self, state: Any, over: bool, stats: Stats) -> tuple[float, bool]:
        """The value of a new node's ``state`` and whether it is a game's end: as it is
        (an end, or no rollouts), else after a random rollout."""
        sim = self.sim
        if over or self.rollout_depth == 0:
            return sim.value(state, leaf=not over), over
        for _ in range(self.rollout_depth):
            legal = sim.legal(state)
            if not legal:
                break
            nxt = sim.expand(state, [self.rng.choice(legal)])[0]
            if nxt is None:
                break
            state = nxt
            stats.rollout_steps += 1
            if sim.over(state):
                return sim.value(state, leaf=False), True
        return sim.value(state, leaf=True), False

    def _backup(self, path: list[Node], value: float, ended: bool = False) -> None:
        """Add ``value`` to every node of ``path`` (``ended``: the value of a game's end,
        which a deterministic simulator reaches again by the same actions: ``solved``); a
        path that found nothing (a dead end, a step the simulator could not make) counts as
        the worst value seen so far."""
        finite = math.isfinite(value)
        if finite:
            self.low, self.high = min(self.low, value), max(self.high, value)
        else:
            value = self.low if math.isfinite(self.low) else 0.0
        novel = path[-1].novel if path else 0.0
        for node in path:
            node.visits += 1
            node.total += value
            node.novel = max(node.novel, novel)
            if finite:
                node.best = max(node.best, value)
                if ended:
                    node.solved = max(node.solved, value)


def _settled(root: Node, left: int) -> bool:
    """Whether a stochastic simulator's choice (the most visited action) is already made:
    every action is tried and the most visited leads the next by more visits than the
    ``left`` iterations could give it (or it is the only action), so the rest of the
    budget cannot change what is played."""
    if root.untried is None or root.untried or not root.children:
        return False
    if len(root.children) == 1:
        return True
    visits = sorted((c.visits for c in root.children), reverse=True)
    return visits[0] - (visits[1] if len(visits) > 1 else 0) > left


def _rank(child: Node) -> tuple[bool, float, bool, float, float, int]:
    """How a deterministic simulator's actions rank: one whose subtree reached an end of
    the game first (the best end found), then one with lines left unsearched, then the
    best value found below it, then the most novelty below it, then visits. A subtree
    searched out without an end leads nowhere (a dead end of a maze), whatever its
    estimates said."""
    solved = math.isfinite(child.solved)
    return (
        solved, child.solved if solved else 0.0, not child.done, child.best, child.novel,
        child.visits,
    )  # fmt: skip


__all__ = ["EXPLORATION", "Node", "OutOfBudget", "Search", "Simulator", "Stats"]
