"""``search``: anytime Monte Carlo tree search for any game, over a forward model.

What it searches (:mod:`sunbot.search`):

- a forward model given with ``--engine FILE.py:Class`` (local and fast; honest: its root is
  rebuilt from the observation alone, hidden parts drawn);
- on a game sunbot knows without a hidden deck (Keelhold, Sunloaf), our rules engine
  (:class:`sunbot.search.simulators.EngineModel`) when no model is given;
- only when asked with ``--lookahead N``: the server itself, at most ``N`` requests a
  decision and ``--lookahead-budget`` a run, each position first passed by the peek guard
  (:mod:`sunbot.search.peek`): a server whose answers hold what the player cannot see is
  refused unless ``--allow-peek``, and a run that looked anyway says ``clairvoyant: true``
  in its totals (the transcript, the summary, bench rows and ratings show it).

The objective (the served spec's score order, or ``--objective``) is recorded in the totals.
Guide: ``docs/guide-forward-models.md``.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from sunbot.forward.load import ModelIdentity, build, identity_of, load_model
from sunbot.forward.predict import View, detached, served_view
from sunbot.search.bestfirst import BestFirst
from sunbot.search.mcts import Search as Tree
from sunbot.search.mcts import Stats
from sunbot.search.novelty import Novelty
from sunbot.search.objective import Objective, resolve
from sunbot.search.peek import PeekRefused, Verdict, classify, decision
from sunbot.strategies import Action, Observation

#: Iterations a decision searches a model, and the random steps after a new node when the
#: model gives no ``estimate``.
ITERATIONS, ROLLOUT_DEPTH = 400, 20
#: Positions best-first search expands a decision, per iteration of :data:`ITERATIONS`
#: (an expansion costs about what an iteration of the tree search does, less its rollout).
BEST_FIRST_FACTOR = 10
#: The share of a decision's time left over before its deadline (the answer's margin).
MARGIN = 0.1


def no_model(game: str) -> str:
    """The one line refusing a search of ``game`` with nothing to search through (a game
    sunbot has no engine for, without ``--engine`` or ``--lookahead``)."""
    return (
        f"search has no forward model of {game}: give --engine FILE.py:Class"
        " (docs/guide-forward-models.md), or --lookahead N to look ahead through the server"
    )


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class Search:
    """The ``search`` strategy (module doc). Built with the run's ``random.Random``; the
    options come from ``--engine``, ``--lookahead``, ``--lookahead-budget``,
    ``--allow-peek`` and ``--objective`` (``sunbot.play(..., engine=, lookahead=, ...)``).

    Args:
        rng: the strategy's only randomness.
        game: the game's slug (else the one ``on_start`` names).
        engine: a forward model, ``FILE.py:Class`` or an installed model's name.
        model: a forward model object or class given in Python (instead of ``engine``).
        lookahead: requests a decision may send to the server (``None``: no lookahead).
        lookahead_budget: requests the run may send (default
            :data:`sunbot.search.lookahead.DEFAULT_BUDGET`).
        allow_peek: look ahead even where the peek guard finds hidden information.
        objective: ``max``, ``min`` or ``win`` (default: the spec's score order).
        server: the run's server (``None``: the embedded one) for the lookahead.
        iterations: iterations a model search runs a decision (default :data:`ITERATIONS`).
        transport: the lookahead client's httpx transport (tests).

    Raises:
        ValueError: both ``engine`` and ``lookahead``, or a budget below 1.
    """

    games = ("*",)
    kind = "search"

    def __init__(
        self,
        rng: random.Random,
        *,
        game: str | None = None,
        engine: str | None = None,
        model: Any = None,
        lookahead: int | None = None,
        lookahead_budget: int | None = None,
        allow_peek: bool = False,
        objective: str | None = None,
        server: str | None = None,
        iterations: int | None = None,
        transport: Any = None,
        seed: int | None = None,
    ) -> None:
        if lookahead is not None and (engine is not None or model is not None):
            raise ValueError("search: give a forward model (--engine) or --lookahead, not both")
        if lookahead is not None and lookahead < 1:
            raise ValueError(f"--lookahead must be at least 1, got {lookahead}")
        if lookahead_budget is not None and lookahead is None:
            raise ValueError("--lookahead-budget applies with --lookahead N")
        if allow_peek and lookahead is None:
            raise ValueError("--allow-peek applies with --lookahead N (a model never peeks)")
        if objective is not None:
            resolve(None, objective)  # a bad name fails before the run
        self.rng = rng
        self.game = game
        self.engine = engine
        self.given_model = model
        self.lookahead_n = lookahead
        self.allow_peek = allow_peek
        self.objective_option = objective
        self.iterations = iterations or ITERATIONS
        self.blocking = lookahead is not None  # lookahead waits on the network
        self.objective: Objective = resolve(None, objective)
        self.model: Any = None
        self.identity: ModelIdentity | None = None
        self.verdict: Verdict | None = None
        self.clairvoyant = False
        self.answer: dict[str, Any] | None = None
        self.decisions = 0
        self.total_iterations = 0
        self.off_list = 0
        self._tree: Tree | BestFirst | None = None
        self.novelty = Novelty()
        self._played: Any = None
        self._last: dict[str, Any] | None = None
        self.lookahead: Any = None
        if lookahead is not None:
            from sunbot.search.lookahead import DEFAULT_BUDGET, Lookahead

            self.lookahead = Lookahead(
                server, game or "", per_decision=lookahead,
                budget=lookahead_budget or DEFAULT_BUDGET, transport=transport,
                plain_only=not allow_peek,
            )  # fmt: skip

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        """Read the objective from ``spec`` and load the forward model.

        Raises:
            ValueError: no model to search (a game sunbot does not know, without
                ``--engine`` or ``--lookahead``), or the model cannot be loaded or built.
        """
        from sunbot.games import GAMES

        self.game = game
        known = game if game in GAMES else None  # a game whose rules sunbot knows
        self.objective = resolve(spec, self.objective_option, known=known)
        if self.lookahead is not None:
            self.lookahead.slug = game
            return
        model_rng = random.Random(self.rng.getrandbits(64))
        if self.given_model is not None:
            self.model = build(self.given_model, model_rng, "the model")
            self.identity = identity_of(self.model)
        elif self.engine is not None:
            loaded = load_model(self.engine, game)
            self.model, self.identity = loaded.build(model_rng), loaded.identity
        else:
            from sunbot.games import GAMES
            from sunbot.search.simulators import EngineModel

            if game not in GAMES:
                raise ValueError(no_model(game))
            self.model = EngineModel(model_rng, game)

    def on_answer(self, answer: dict[str, Any]) -> None:
        """The answer about to be decided on (its state, token and score)."""
        self.answer = answer

    def choose(self, observation: Observation, legal_actions: list[Action], /) -> Action:
        """:meth:`choose_by` without a deadline."""
        return self.choose_by(observation, legal_actions, None)

    def choose_by(
        self, observation: Observation, legal_actions: list[Action], deadline: float | None, /
    ) -> Action:
        """Search from this position until the iterations, the request budget or the
        deadline (less a margin) run out; the best action found.

        Raises:
            ValueError: no legal action.
            PeekRefused: the position holds what the player cannot see and
                ``--allow-peek`` was not given.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        self.decisions += 1
        stop = None
        if deadline is not None:
            stop = deadline - MARGIN * max(deadline - time.monotonic(), 0.0)
        self.novelty.visit(observation)
        answer = self.answer or {
            "observation": observation, "legalActions": legal_actions, "score": 0,
            "gameOver": False,
        }  # fmt: skip
        sim: Any
        if self.lookahead is not None:
            from sunbot.search.lookahead import ServerSim

            self.verdict = classify(answer)
            if self.verdict.peeks and not self.allow_peek:
                raise PeekRefused(decision(self.verdict, False))
            self.clairvoyant = self.clairvoyant or self.verdict.peeks
            self.lookahead.start_decision(stop)
            sim = ServerSim(self.lookahead, answer, self.objective, self.novelty)
            iterations = 4 * self.lookahead.per_decision + 64
        else:
            from sunbot.search.simulators import ModelSim

            if self.model is None:
                self.on_start(self.game or "", None)
            view = served_view(answer)
            sim = ModelSim(
                self.model, self.objective, View(observation, legal_actions, view.score, False),
                self.novelty,
            )  # fmt: skip
            iterations = self.iterations
        tree = self._tree
        if tree is None:
            estimated = callable(getattr(self.model, "estimate", None))
            if estimated and sim.deterministic and self.lookahead is None:
                tree = self._tree = BestFirst(sim)
                iterations = self.iterations * BEST_FIRST_FACTOR
            else:  # a model's estimate values a new node as it is; else random steps first
                depth = 0 if estimated else ROLLOUT_DEPTH
                tree = self._tree = Tree(sim, self.rng, rollout_depth=depth)
        elif isinstance(tree, BestFirst):
            iterations = self.iterations * BEST_FIRST_FACTOR
        tree.sim = sim
        if self._played is not None and sim.deterministic:
            tree.reroot(self._played, sim.key(sim.root()))
        before = self.lookahead.requests if self.lookahead is not None else 0
        action, stats = tree.run(iterations, stop)
        self.total_iterations += stats.iterations
        keys = {_key(a): a for a in legal_actions}
        chosen: Action | None = keys.get(_key(action)) if action is not None else None
        if chosen is None:  # nothing searched, or an action the server does not list
            self.off_list += action is not None
            chosen = legal_actions[0]
        self._played = chosen
        self._last = self._record(stats, before)
        sent: Action = detached(chosen)  # the server's legal action, a copy nothing else holds
        return sent

    def _record(self, stats: Stats, before: int) -> dict[str, Any]:
        record: dict[str, Any] = {
            "iterations": stats.iterations,
            "nodes": stats.nodes,
            "stopped": stats.stopped,
        }
        if self.lookahead is not None:
            record["requests"] = self.lookahead.requests - before
        return record

    def last_decision(self) -> dict[str, Any] | None:
        """The search's record of the decision just made."""
        return self._last

    def totals(self) -> dict[str, Any]:
        """``{kind: search, decisions, iterations, objective, model | lookahead,
        clairvoyant, guard}`` for the run's summary."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "decisions": self.decisions,
            "iterations": self.total_iterations,
            "objective": self.objective.name,
            "objectiveSource": self.objective.said,
            "clairvoyant": self.clairvoyant,
        }
        if self.identity is not None:
            out["model"] = self.identity.to_json()
        if self.off_list:
            out["offList"] = self.off_list
        if self.lookahead is not None:
            totals = self.lookahead.totals()
            totals["requestsPerDecision"] = round(totals["requests"] / max(self.decisions, 1), 2)
            out["lookahead"] = totals
            if self.verdict is not None:
                out["guard"] = decision(self.verdict, self.allow_peek)
        return out

    def close(self) -> None:
        """Close the lookahead's client."""
        if self.lookahead is not None:
            self.lookahead.close()
