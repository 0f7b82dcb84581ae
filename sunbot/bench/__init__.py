"""``sunbot bench``: benchmark strategies on many seeds, on the engines directly (no HTTP).

Modules, each named for what it does:

- :mod:`.jobs`: one job ``(game, strategy, seed, cap)`` -> one :class:`~.jobs.Result` row;
  deterministic (the same job gives the same row except its timings). Harvest Watch jobs
  are whole matches, played by :mod:`.engine_match` (the one engine beat loop).
- :mod:`.store`: the SQLite results store (one table, one row per job) and CSV export.
- :mod:`.backends`: where jobs run: a local process pool or Ray; the same job function.
- :mod:`.stats`: summaries, survival, paired comparisons, Wilson intervals (SciPy/NumPy).
- :mod:`.analysis`: a run's statistics per strategy and pair, and the tables' text.
- :mod:`.report`: ``report.html`` with the plots of :mod:`.plots` inline as SVG.
- :mod:`.replays`: ``--replays N``: transcripts and replay pages of some jobs.
- :mod:`.cli`: the ``sunbot bench`` command (its helpers serve ``sunbot tournament`` too);
  what it prints is :mod:`sunbot.cli.bench_output`.
- Tournaments (``sunbot tournament``, :mod:`sunbot.cli.tournament`): :mod:`.tournament`
  (who plays where, a drawn match as a job), :mod:`.ratings` (OpenSkill, crosstable,
  paired ranking), :mod:`.tournament_standings` (rows -> standings and their JSON) and
  :mod:`.tournament_report` (the page).

- :mod:`.run`: ``sunbot.bench(game, strategies, seeds, cap, workers)`` from Python: the
  package itself is callable (``sunbot.bench("naptuft", ["balancer"], range(1, 11))``),
  returning a :class:`~.result.BenchResult` (the rows and their statistics, the verdict);
  ``sunbot.run_bench`` is the same function, typed; ``sunbot.tournament(...)`` returns a
  :class:`~.result.TournamentResult`.
- :mod:`.result`: those results; :mod:`.verdict`: their one-sentence verdicts and the
  W-L-T notation.
- :mod:`.reference`: measured reference means, the yardstick of ``sunbot play``'s summary.

Only :mod:`.jobs` (with :mod:`.engine_match`) is imported by workers;
it stays free of SciPy and matplotlib.
"""

import sys
import types
from typing import Any


class _CallableBench(types.ModuleType):
    """This package, callable: ``sunbot.bench(...)`` is :func:`sunbot.bench.run.bench`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from sunbot.bench.run import bench

        return bench(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableBench
