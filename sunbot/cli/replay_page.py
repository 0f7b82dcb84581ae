"""``sunbot play --html``: the run's replay page, written from its transcript once it ends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from sunbot.cli.console import Exit
from sunbot.html import write_replay_page
from sunbot.transcripts.jsonl import read_transcript


def write_page_of(transcript: Path, out: Path, console: Console) -> bool:
    """Write the replay page of the transcript file ``transcript`` to ``out`` and say so;
    on failure print one warning line instead (the run itself is not affected).

    Returns:
        Whether the page was written.
    """
    try:
        t = read_transcript(transcript)
        size = write_replay_page(t, out, source=transcript)
    except (ValueError, KeyError, OSError) as exc:
        why = exc.args[0] if isinstance(exc, KeyError) else exc
        console.print(f"[yellow]no replay page:[/] {escape(str(why))}", soft_wrap=True)
        return False
    console.print(f"replay page: {escape(str(out))} ({size / 1e6:.2f} MB)", highlight=False)
    return True


def after_run(out: Path | None, transcript: Path | None, console: Console) -> bool:
    """After a run: when ``out`` is set, write the replay page of ``transcript`` there, if
    the run wrote one (nothing happens otherwise). Returns ``False`` only when a page was
    asked for and could not be written (the warning is printed)."""
    if out is not None and transcript is not None and transcript.exists():
        return write_page_of(transcript, out, console)
    return True


@contextmanager
def page_after_run(out: Path | None, transcript: Path | None, console: Console) -> Iterator[None]:
    """Around a run: :func:`after_run` once it ends, whichever way (an interrupt included).
    A run that ended well but whose page could not be written exits 1 (``typer.Exit``)."""
    try:
        yield
    except BaseException:
        after_run(out, transcript, console)
        raise
    if not after_run(out, transcript, console):
        raise typer.Exit(Exit.ERROR)


__all__ = ["after_run", "page_after_run", "write_page_of"]
