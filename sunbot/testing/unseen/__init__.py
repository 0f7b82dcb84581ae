"""A Gameboard-compatible server of three small games sunbot has no engine for.

``tic-tac-toe`` (against a house bot; plain ``state`` and a ``stateToken`` both given),
``hidden-number`` (higher/lower; the state is a server-side id) and ``take-away`` (Nim
against a house bot; the ``{state}`` form only), each with a served ``spec`` whose action
grammar sits under another key (``actionSchema``, ``actionGrammar``, ``actions``), unknown
extra fields in every answer, and 429s on request. It exists to test that sunbot plays a
game on the protocol alone (``docs/guide-any-game.md``); serve it on loopback with
``python -m sunbot.testing.unseen --port 8002``.
"""

from sunbot.testing.unseen.app import SALT, create_unseen_app

__all__ = ["SALT", "create_unseen_app"]
