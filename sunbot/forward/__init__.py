"""Forward models of games sunbot has no engine for: a *modelled* game.

- :mod:`sunbot.forward.contract`: the contract a model class keeps (six methods on its
  states, optional ``stochastic`` and ``estimate``).
- :mod:`sunbot.forward.load`: ``--engine FILE.py:Class`` (or an installed entry point)
  loaded, hashed, and its certificate found (:mod:`sunbot.forward.certificate`).
- :mod:`sunbot.forward.predict` and :mod:`sunbot.forward.checks`: a model's predictions of
  each answer and the run checks built on them (``checks: model``).
- :mod:`sunbot.forward.certify`: ``sunbot certify``, seeded trajectories on a server with
  every answer predicted.

Guide: ``docs/guide-forward-models.md``.
"""

from sunbot.forward.contract import REQUIRED, ForwardModel, missing_methods
from sunbot.forward.load import LoadedModel, ModelIdentity, ModelNotLoaded, load_model

__all__ = [
    "REQUIRED",
    "ForwardModel",
    "LoadedModel",
    "ModelIdentity",
    "ModelNotLoaded",
    "load_model",
    "missing_methods",
]
