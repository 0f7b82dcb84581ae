"""The simulator search steps over a forward model (:mod:`sunbot.forward.contract`): a
user's model given with ``--engine``, or our engine of a known game
(:class:`EngineModel`). The server as a simulator is :mod:`sunbot.search.lookahead`.

A model search is honest by construction: its root is rebuilt from the observation alone
(``from_observation``, hidden parts drawn from the model's ``random.Random``).
"""

from __future__ import annotations

import json
import logging
import random
from typing import Any

from sunbot._text.safe import describe
from sunbot.forward.contract import is_stochastic
from sunbot.forward.predict import View, detach_view, rebuild
from sunbot.search.novelty import Novelty
from sunbot.search.objective import Objective

log = logging.getLogger("sunbot.search")


class ModelSim:
    """A forward model as the search's simulator, rooted at the position ``view``.

    A model's ``estimate(state)`` (the final score it expects from there) values the
    positions where the search stops short of the end; ``key(state)`` (a short key of the
    position) finds its transpositions, else the state's JSON does.

    Attributes:
        errors: steps the model raised on (the step is left out of the search).
    """

    costly = False

    def __init__(
        self, model: Any, objective: Objective, view: View, novelty: Novelty | None = None
    ) -> None:
        self.model = model
        self.objective = objective
        self.view = view
        self.deterministic = not is_stochastic(model)
        estimate = getattr(model, "estimate", None)
        self._estimate = estimate if callable(estimate) else None
        key = getattr(model, "key", None)
        self._key = key if callable(key) else None
        self._novelty = novelty if self._estimate is None else None  # an estimate guides
        self.errors = 0
        #: the model's own copy of the view, made once a decision: what it edits is its
        #: own, and the run's answer stays as served
        self._own = detach_view(view)

    def root(self) -> Any:
        """The position rebuilt from the model's copy of the observation (a fresh draw of
        its hidden parts)."""
        return rebuild(self.model, self._own, handed=True)

    def legal(self, state: Any) -> list[Any]:
        """The model's legal actions (none when it raises)."""
        try:
            return list(self.model.legal_actions(state))
        except Exception as exc:
            self._failed("legal_actions", exc)
            return []

    def expand(self, state: Any, actions: list[Any]) -> list[Any]:
        """``model.step`` of each action (``None`` where it raised)."""
        out = []
        for action in actions:
            try:
                out.append(self.model.step(state, action))
            except Exception as exc:
                self._failed("step", exc)
                out.append(None)
        return out

    def over(self, state: Any) -> bool:
        """``model.is_over`` (a model that raises ends the line there)."""
        try:
            return bool(self.model.is_over(state))
        except Exception as exc:
            self._failed("is_over", exc)
            return True

    def value(self, state: Any, *, leaf: bool) -> float:
        """The objective's value of the model's score (its estimate at a leaf, if any)."""
        try:
            if leaf and self._estimate is not None:
                return self.objective.estimate(float(self._estimate(state)))
            obs = self.model.observation(state) if self.objective.win_first else None
            return self.objective.value(float(self.model.score(state)), not leaf, obs)
        except Exception as exc:
            self._failed("score", exc)
            return float("-inf")

    def key(self, state: Any) -> str | None:
        """The model's ``key(state)``, else the state's JSON (``None`` when it has none)."""
        try:
            if self._key is not None:
                return str(self._key(state))
            return json.dumps(state, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError):
            return None
        except Exception as exc:
            self._failed("key", exc)
            return None

    def novelty(self, state: Any) -> float:
        """What the model's observation of ``state`` holds that the run has not seen
        (without an ``estimate`` only: an estimate guides the search instead)."""
        if self._novelty is None:
            return 0.0
        try:
            return self._novelty.count(self.model.observation(state))
        except Exception as exc:
            self._failed("observation", exc)
            return 0.0

    def _failed(self, method: str, exc: Exception) -> None:
        self.errors += 1
        if self.errors <= 3:
            log.info("the model's %s raised %s", method, describe(exc))


class EngineModel:
    """A known single-player game's rules engine as a forward model (``search`` on Keelhold
    or Sunloaf without ``--engine``): the observation is the engine's state but for the
    random cursor ``rng``, which is drawn when the observation leaves it out (the model is
    then stochastic: the crates or rooms to come are guesses).

    Raises:
        ValueError: the game hides more than the cursor (Naptuft's deck), so no state can
            be rebuilt from its observation.
    """

    def __init__(self, rng: random.Random, game: str) -> None:
        from sunbot.games import get_game

        info = get_game(game)
        if info.kind != "single" or info.hidden:
            raise ValueError(
                f"{game} hides more than a random cursor: search needs a forward model of it"
                " (--engine FILE.py:Class)"
            )
        self.rng = rng
        self.engine = info.engine
        opening = self.engine.init(0)
        self.stochastic = "rng" not in self.engine.observation(opening)
        #: the engine keeps its cursor as a list (Keelhold: ``[cursor, *bag]``)
        self._listed = isinstance(opening.get("rng"), list)

    def from_observation(self, observation: dict[str, Any]) -> Any:
        """The observation as an engine state, its ``rng`` drawn when not shown: a cursor
        in the engine's own form (Keelhold's ``[cursor]``, its crate bag then drawn anew;
        Sunloaf's integer)."""
        state = dict(observation)
        if "rng" not in state:
            cursor = self.rng.getrandbits(32)
            state["rng"] = [cursor] if self._listed else cursor
        return state

    def legal_actions(self, state: Any) -> list[Any]:
        """The engine's legal actions."""
        return list(self.engine.legal_actions(state))

    def step(self, state: Any, action: Any) -> Any:
        """The engine's step."""
        return self.engine.step(state, action)

    def observation(self, state: Any) -> dict[str, Any]:
        """The engine's observation."""
        return dict(self.engine.observation(state))

    def score(self, state: Any) -> float:
        """The engine's score."""
        return float(self.engine.score(state))

    def is_over(self, state: Any) -> bool:
        """The engine's ``is_over``."""
        return bool(self.engine.is_over(state))


__all__ = ["EngineModel", "ModelSim"]
