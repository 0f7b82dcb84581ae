"""Self-contained HTML replay pages: one file per transcript, watched step by step in a browser.

:func:`replay_page` turns a :class:`~sunbot.transcripts.jsonl.Transcript` into one HTML document
(inline CSS, JS and SVG, the run embedded as JSON, no network access); :func:`write_replay_page`
writes it. One module per game (``keelhold``, ``sunloaf``, ``naptuft``, ``harvest_watch``)
says what of a position is drawn; ``steps`` walks a transcript into steps; ``page`` builds the
document around the ``assets/`` scripts.
"""

from __future__ import annotations

from sunbot.html.page import is_replay_page, replay_page, write_replay_page

__all__ = ["is_replay_page", "replay_page", "write_replay_page"]
