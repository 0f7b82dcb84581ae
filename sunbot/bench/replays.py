"""``sunbot bench --replays N``: keep a transcript and a replay page for some jobs.

Bench jobs run on the engines without transcripts (:mod:`sunbot.bench.jobs`). For the
report to link a row to its replay page, the first ``N`` jobs of each strategy (lowest
seeds) are played again through :func:`sunbot.play` on the embedded server, with the same
seed, strategy and cap, writing ``transcripts/<strategy>-seed<N>.jsonl`` under the run's
folder, and their pages to ``replays/<strategy>-seed<N>.html``
(:func:`sunbot.bench.report.replay_name`), which the report links; ``<strategy>`` is
:func:`sunbot.bench.report.file_part` of the spec (a bot file's ``bot_Bot-1a2b3c``), so
a bot file's path never leaves the run's folder. A page is written only
when the re-played run ends with the row's own score and voyage/day: a strategy that is not
deterministic (a wall-clock budget) would otherwise link a different run. Match games are
not re-played (a bench match seats house bots the served match does not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from sunbot.bench.jobs import Result
from sunbot.bench.report import file_part, replay_name
from sunbot.games import get_game
from sunbot.html import write_replay_page
from sunbot.transcripts.jsonl import read_transcript


def keep_replays(
    results: Sequence[Result], where: Path, per_strategy: int, warn: Callable[[str], None]
) -> int:
    """Re-play and page the first ``per_strategy`` jobs of each strategy (see the module
    docstring); calls ``warn`` with one line (plain text, a strategy name in it) for each
    job, or a whole match game, that gets no page. Returns the pages written.

    Raises:
        OSError: ``where`` cannot be written.
    """
    if per_strategy <= 0 or not results:
        return 0
    game = get_game(results[0].game)
    if game.kind == "match":
        warn("match games are not re-played; no replay pages")
        return 0
    from sunbot.api import play

    written = 0
    by_strategy: dict[str, list[Result]] = {}
    for r in results:
        by_strategy.setdefault(r.strategy, []).append(r)
    for name, rows in by_strategy.items():
        for r in sorted(rows, key=lambda r: r.seed)[:per_strategy]:
            log = where / "transcripts" / f"{file_part(name)}-seed{r.seed}.jsonl"
            log.parent.mkdir(parents=True, exist_ok=True)
            if not log.exists():
                voyages = r.cap if r.progress_field == "voyage" else None
                days = r.cap if r.progress_field == "day" else None
                play(r.game, seed=r.seed, strategy=name, transcript=log, max_voyages=voyages,
                     max_days=days)  # fmt: skip
            t = read_transcript(log)
            got = (t.result or {}).get("score")
            if got != r.score:
                said = f"re-played to score {got}, not the row's {r.score}: no replay page"
                warn(f"{name} seed {r.seed} {said}")
                continue
            page = where / replay_name(name, r.seed)
            page.parent.mkdir(parents=True, exist_ok=True)  # the bench's own folder
            write_replay_page(t, page, source=log)
            written += 1
    return written
