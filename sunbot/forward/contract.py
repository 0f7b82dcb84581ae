"""The forward-model contract: what a model of a game sunbot has no engine for provides.

A forward model answers "what happens if" for one game, on the information a player has:

- ``from_observation(observation) -> state``: the position as the player sees it (the
  server's ``observation``; a model may also declare ``score`` and ``legal_actions``
  keywords to receive the envelope's, which the player sees too). A game with hidden parts
  (a shuffled layout, a secret word) fills them from the model's ``random.Random``: each call
  is one guess of what the player cannot see.
- ``legal_actions(state) -> list``: the actions the rules accept there, as the server lists
  them (objects with a ``type``).
- ``step(state, action) -> state``: the position after ``action``, the house's reply
  included where the server plays one in the same request. It never changes ``state``.
  What the game draws (a spawned tile, a dealt card, a house bot's random move) comes from
  the injected ``random.Random``; set ``stochastic = True`` on such a model.
- ``observation(state) -> dict``: what the server would show (the fields the model predicts;
  a server's extra fields are not compared).
- ``score(state) -> float`` and ``is_over(state) -> bool``: the served ``score`` and
  ``gameOver``.

Optional:

- ``stochastic = True`` (class attribute): ``from_observation`` or ``step`` draw from the
  ``random.Random``. ``sunbot certify`` then compares exactly only what every draw agrees on
  and the rest by shape; search samples the draws anew on each of its iterations.
- ``estimate(state) -> float``: the score the game would end with from here, as well as the
  model can guess (in the score's own units: for a score that counts down, a smaller
  number). Search uses it where it stops short of the end of the game instead of the
  score so far, which is what makes a long puzzle or a long game searchable.
- ``game = "slug"`` (or ``games = (...)``): the games the model is for; another game is
  refused at load time.

A model class is built with the run's ``random.Random`` when its constructor takes an
argument (as a strategy is), else with none. States are any Python values; the models in
``examples/forward_models/`` keep them as plain dicts. ``docs/guide-forward-models.md`` is
the guide, with a complete worked example.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

State = Any
Action = Any

#: The methods every forward model has.
REQUIRED = ("from_observation", "legal_actions", "step", "observation", "score", "is_over")


@runtime_checkable
class ForwardModel(Protocol):
    """The contract (see the module doc): six methods on a model's states."""

    def from_observation(self, observation: dict[str, Any]) -> State:
        """The position as the player sees it (hidden parts drawn from the model's rng)."""
        ...

    def legal_actions(self, state: State) -> list[Action]:
        """The actions the rules accept in ``state``."""
        ...

    def step(self, state: State, action: Action) -> State:
        """The position after ``action`` (the house's reply included); ``state`` unchanged."""
        ...

    def observation(self, state: State) -> dict[str, Any]:
        """What the server would show of ``state``."""
        ...

    def score(self, state: State) -> float:
        """The served score of ``state``."""
        ...

    def is_over(self, state: State) -> bool:
        """The served ``gameOver`` of ``state``."""
        ...


def missing_methods(obj: object) -> list[str]:
    """The :data:`REQUIRED` methods ``obj`` (a class or an instance) lacks or has as
    something that is not callable."""
    return [name for name in REQUIRED if not callable(getattr(obj, name, None))]


def is_stochastic(model: object) -> bool:
    """Whether ``model`` says it draws (``stochastic = True``)."""
    return getattr(model, "stochastic", False) is True


__all__ = ["REQUIRED", "Action", "ForwardModel", "State", "is_stochastic", "missing_methods"]
