"""Forward models of games sunbot has no engine for: a *modelled* game.

- :mod:`sunbot.forward.contract`: the contract a model class keeps (six methods on its
  states, optional ``stochastic``, ``estimate`` and ``key``).
- :mod:`sunbot.forward.load`: ``--engine FILE.py:Class`` (or an installed entry point)
  loaded, hashed, and its certificate found (:mod:`sunbot.forward.certificate`).
- :mod:`sunbot.forward.predict`: a model's predictions of a server's answers and their
  comparison with them ("rules exact, choices tolerant").

Built on them, one layer up each: the run checks of a modelled game
(:mod:`sunbot.generic.model_checks`), ``search`` (:mod:`sunbot.search`), and ``sunbot
certify`` and ``sunbot engine draft`` (:mod:`sunbot.certify`). Guide:
``docs/guide-forward-models.md``.
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
