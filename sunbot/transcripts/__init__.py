"""Transcripts: one JSON Lines file per run (:mod:`~sunbot.transcripts.jsonl`: write, read,
name), its schema (:mod:`~sunbot.transcripts.schema`), the offline re-check
(:mod:`~sunbot.transcripts.replay`), CSV export (:mod:`~sunbot.transcripts.export`) and
``--resume`` (:mod:`~sunbot.transcripts.resume`). The format: ``docs/transcripts.md``.

The names of the former module ``sunbot.transcripts`` (:class:`TranscriptWriter`,
:func:`read_transcript`, ...) are importable from here as before."""

from sunbot.transcripts.jsonl import *  # noqa: F403
from sunbot.transcripts.jsonl import __all__ as __all__
