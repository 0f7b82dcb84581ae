"""Test servers of fourteen of the live platform's games, built from their published rule
pages: ``checkers`` and ``dots-and-boxes`` against G-Bot; ``memory-match``,
``word-guess`` and ``solitaire`` with hidden information; ``tile-merge`` and ``dice-dash``
with seeded chance; and the puzzles ``sliding-puzzle``, ``sudoku``, ``crate-push``,
``maze-runner``, ``pipe-connect``, ``pixel-puzzle`` and ``word-search``.

Each serves the platform's envelope and a self-documenting ``spec`` (goal, scoring,
``scoreOrder`` where the page says which way is better, rules in our words, the action
grammar as a JSON Schema); each module's docstring says what its ``state`` carries beyond
the ``observation`` and every choice the page left open. They are test fixtures: sunbot
has no engine, strategy or view for any of them. Serve them on loopback with
``python -m sunbot.testing.platform --port 8003``; in tests, :func:`create_platform_app`
gives the ASGI app.
"""

from sunbot.testing.platform.app import SALT, create_platform_app

__all__ = ["SALT", "create_platform_app"]
