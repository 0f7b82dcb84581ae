"""The report of ``sunbot check-bot`` (:func:`sunbot.checkbot.check.check_bot`): one
:class:`RunRecord` per run, one :class:`GameCheck` per game, one :class:`BotCheck` per bot,
and what makes a game fit to bench (:meth:`GameCheck.problems`)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["DEFAULT_MOVE_TIMEOUT", "FIRST_SEED", "BotCheck", "GameCheck", "RunRecord"]

#: Seconds one decision may take by default (the move clock's deadline).
DEFAULT_MOVE_TIMEOUT = 1.0
#: The first seed of every check; the first seed is played twice.
FIRST_SEED = 1


@dataclass(frozen=True)
class RunRecord:
    """One run of a check: its ``seed``, ``score``, ``steps``, ``refused`` actions,
    ``timeouts`` (decisions past the deadline), ``ended_by`` and ``error`` (the run's
    one-line error, ``None`` when it ended well); ``repeat``: the first seed's second run."""

    seed: int
    score: float
    steps: int
    refused: int
    timeouts: int
    ended_by: str
    error: str | None
    repeat: bool = False


def _rank(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile of ``values`` (``None`` when empty)."""
    ordered = sorted(values)
    if not ordered:
        return None
    return round(ordered[max(math.ceil(q * len(ordered)) - 1, 0)], 3)


@dataclass
class GameCheck:
    """What the runs of one game showed; :meth:`problems` says what keeps it from being fit.

    Attributes:
        game: the slug.
        where: ``"engine"``, ``"embedded"`` or the server's URL (without credentials).
        deadline_s: the move clock's deadline, seconds.
        runs: every run, the repeat of the first seed last.
        times_ms: every decision's time, milliseconds (the bot's own time, measured around
            its ``choose``).
        deterministic: both runs of the first seed chose the same actions (``None``: not
            checked, the game was skipped).
        differs_at: the first decision (1-based) where they did not.
        skipped: why the game was not played (then nothing else is filled).
    """

    game: str
    where: str = ""
    deadline_s: float = DEFAULT_MOVE_TIMEOUT
    runs: list[RunRecord] = field(default_factory=list)
    times_ms: list[float] = field(default_factory=list)
    deterministic: bool | None = None
    differs_at: int | None = None
    skipped: str | None = None

    @property
    def p50_ms(self) -> float | None:
        """Median decision time, ms (nearest rank)."""
        return _rank(self.times_ms, 0.5)

    @property
    def p95_ms(self) -> float | None:
        """95th percentile of the decision times, ms (nearest rank)."""
        return _rank(self.times_ms, 0.95)

    @property
    def refused(self) -> int:
        """Refused actions over every run."""
        return sum(r.refused for r in self.runs)

    @property
    def timeouts(self) -> int:
        """Decisions past the deadline over every run."""
        return sum(r.timeouts for r in self.runs)

    def problems(self) -> list[str]:
        """Why the game is not fit, one line each (empty: fit)."""
        if self.skipped is not None:
            return []
        out = [f"seed {r.seed}: {r.error}" for r in self.runs if r.error is not None]
        if self.refused:
            out.append(f"{self.refused} refused actions (not legal when sent)")
        if self.timeouts:
            out.append(f"{self.timeouts} decisions past the {self.deadline_s:g} s deadline")
        p95 = self.p95_ms
        if p95 is not None and p95 >= self.deadline_s * 1000:
            out.append(f"p95 {p95:g} ms is not under the {self.deadline_s:g} s deadline")
        if self.deterministic is False:
            seed = self.runs[0].seed if self.runs else FIRST_SEED
            out.append(f"not deterministic: seed {seed} chose otherwise at decision "
                       f"{self.differs_at} when played again")  # fmt: skip
        return out

    @property
    def fit(self) -> bool:
        """Played, and no problem."""
        return self.skipped is None and not self.problems()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the fields (but ``times_ms``), plus ``decisions``, ``p50Ms``,
        ``p95Ms``, ``maxMs``, ``refused``, ``timeouts``, ``problems`` and ``fit``."""
        out = {k: v for k, v in asdict(self).items() if k != "times_ms"}
        out.update(
            decisions=len(self.times_ms), p50Ms=self.p50_ms, p95Ms=self.p95_ms,
            maxMs=round(max(self.times_ms), 3) if self.times_ms else None,
            refused=self.refused, timeouts=self.timeouts, problems=self.problems(), fit=self.fit,
        )  # fmt: skip
        return out


@dataclass
class BotCheck:
    """The check of one bot: ``bot`` as it may be shown (:func:`shown_bot`), one
    :class:`GameCheck` per game."""

    bot: str
    games: list[GameCheck] = field(default_factory=list)

    @property
    def fit(self) -> bool:
        """At least one game played and every game played fit to bench."""
        played = [g for g in self.games if g.skipped is None]
        return bool(played) and all(g.fit for g in played)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{bot, fit, games: [GameCheck.to_dict(), ...]}``."""
        return {"bot": self.bot, "fit": self.fit, "games": [g.to_dict() for g in self.games]}
