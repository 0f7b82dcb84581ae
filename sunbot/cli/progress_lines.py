"""Progress of long work as plain lines, for when the output is not a terminal.

``sunbot bench ... > log`` has no live bar to look at (rich draws none off a terminal), so
:class:`ProgressLines` writes one line to standard error every ``every_s`` seconds or every
~5% of the jobs, whichever comes first (jobs done, rate, ETA), but never two within
``min_gap_s`` seconds except the last (a run of fast jobs wrote one line per job), and an
up-front estimate of
the whole once two waves of jobs (one per worker each) have finished, from the second wave's
pace (the first one includes the workers' start-up: a tournament's first match on one worker
took 0.7 s and its others 0.03 s). Used as a context
manager, a daemon thread writes the time-driven lines even while no job finishes (a wave of
long jobs), and stops when the block ends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType

__all__ = ["ProgressLines", "duration"]


def duration(seconds: float) -> str:
    """``45 s``, ``12 min 5 s``, ``2 h 3 min``: a duration in whole seconds, for people."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class ProgressLines:
    """Counts finished jobs and says how far along they are, in lines given to ``write``
    (e.g. ``print`` to standard error).

    Args:
        label: what runs (the run label), at the start of each line.
        total: jobs to run (> 0).
        workers: jobs running at once, for the up-front estimate (``workers`` jobs finish
            together: one wave of ``total / workers``).
        write: called with each line (no trailing newline).
        every_s: seconds between time-driven lines.
        step: fraction of ``total`` between count-driven lines (0.05: every ~5%).
        min_gap_s: seconds at least between two count-driven lines (the last job's line
            is always written).
        clock: seconds, monotonic (tests pass a fake one).
    """

    def __init__(
        self,
        label: str,
        total: int,
        workers: int,
        write: Callable[[str], object],
        *,
        every_s: float = 30.0,
        step: float = 0.05,
        min_gap_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label, self.total, self.workers = label, max(1, total), max(1, workers)
        self.write, self.every_s, self.clock = write, every_s, clock
        self.min_gap_s = min_gap_s
        self.stride = max(1, round(self.total * step))
        self.started = clock()
        self.done = 0
        self._last_time = self.started
        self._last_done = 0
        self._estimated = False
        self._first_wave: tuple[float, int] | None = None  # (seconds, jobs) when it ended
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> ProgressLines:
        self._ticker = threading.Thread(target=self._tick_loop, name="progress", daemon=True)
        self._ticker.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=5)

    def _tick_loop(self) -> None:
        while not self._stop.wait(min(self.every_s, 1.0)):
            self.tick()

    def tick(self) -> None:
        """Write a progress line if ``every_s`` seconds passed since the last one."""
        with self._lock:
            now = self.clock()
            if self.done < self.total and now - self._last_time >= self.every_s:
                self._line(now, now - self.started)

    def advance(self, n: int = 1) -> None:
        """``n`` more jobs finished: write the estimate or a progress line when due."""
        with self._lock:
            self._advance(n)

    def _advance(self, n: int) -> None:
        self.done += n
        now = self.clock()
        elapsed = now - self.started
        if self._first_wave is None and self.done >= self.workers:
            self._first_wave = (elapsed, self.done)
        elif not self._estimated and self._first_wave and self.done >= 2 * self.workers:
            # from the second wave's rate: the first one also paid the workers' start-up
            self._estimated = True
            first_s, first_n = self._first_wave
            if self.done < self.total:
                rate_s = (elapsed - first_s) / (self.done - first_n)
                whole = first_s + rate_s * (self.total - first_n)
                self.write(
                    f"{self.label}: the first {self.done:,} of {self.total:,} jobs took"
                    f" {duration(elapsed)}: the whole run should take about {duration(whole)}"
                )
        since = now - self._last_time
        counted = self.done - self._last_done >= self.stride and since >= self.min_gap_s
        if counted or since >= self.every_s or self.done >= self.total:
            self._line(now, elapsed)

    def _line(self, now: float, elapsed: float) -> None:
        self._last_time, self._last_done = now, self.done
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = "done" if not left else f"ETA {duration(left / rate)}" if rate > 0 else "ETA unknown"
        self.write(
            f"{self.label}: {self.done:,}/{self.total:,} jobs ({100 * self.done / self.total:.0f}%)"
            f" · {rate:,.2f} jobs/s · {duration(elapsed)} elapsed · {eta}"
        )
