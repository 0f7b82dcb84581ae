"""``sunbot play`` for match games (Harvest Watch): not built yet.

Issue 5 replaces this module with the real match loop; until then the command says so.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console


def play_match_command(
    *,
    game: str,
    seed: int | None,
    strategy: str | None,
    server: str | None,
    match_id: str | None,
    seats: int,
    transcript: Path | None,
    write_transcript: bool,
    strict: bool,
    quiet: bool,
    console: Console,
) -> int:
    """Play a match from the CLI; returns the exit code (here: 1, not available yet)."""
    console.print(f"[red]error:[/] playing {game} matches is not available yet")
    return 1
