"""What a finished run says of itself: :class:`RunSummary` (one per run or match) and the
transcript's ``result`` line built from it (``docs/transcripts.md``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from sunbot._text.safe import clip
from sunbot.mirror import Divergence

EndedBy = Literal["rules", "cap", "strict", "error", "interrupted"]


@dataclass(frozen=True)
class MatchSeat:
    """One of our seats in a finished match (Harvest Watch): ``seat`` (0-5), ``rank``
    (1 is best; ``None`` if the match did not finish), ``food`` (its final store in food
    units, 0.0 once out; ``None`` if unseen), ``alive`` (still in at the end), ``out_night``
    (the night it went out, ``None`` while in or when unseen)."""

    seat: int
    rank: int | None
    food: float | None
    alive: bool | None
    out_night: int | None


@dataclass
class RunSummary:
    """How a run went. ``ended_by``: ``rules`` (the game ended), ``cap`` (the run's cap),
    ``interrupted`` (the user stopped it; ``--resume`` continues it),
    ``strict`` (first divergence under ``--strict``) or ``error`` (see ``error``, and
    ``error_traceback``, the Python traceback when the error was an exception).
    Match games (Harvest Watch) also fill ``match_id``, ``ranks`` (one per seat at the
    table, index = seat, 1 is best), ``seats`` (our seats, one :class:`MatchSeat` each) and
    ``outcome`` (who ranked first and why, in words); their ``score`` is the number of seats
    at the table ranked strictly below our best seat (0 to 5; our own other seats count).
    ``strategy_ended``: the game ended on the strategy's own end action (Keelhold's
    END_RUN, Naptuft's end-run), not the cap's. ``checks``: what checked the answers:
    ``"rules"`` (the game's mirror), ``"generic"`` (the platform's envelope and the served
    action grammar only) or ``"none"``. ``timeouts``: decisions past the move deadline,
    played by the fallback action. ``agent``: the agent's own totals (a language model's
    calls and tokens, an external bot's counters), ``{}`` for an in-process strategy.
    ``cut_fields``: unknown fields of the server's answers cut for their size
    (:mod:`sunbot.transcripts.bounds`; their paths are in ``unknown_fields`` too).
    ``stop_reason``: why an ``interrupted`` run stopped when no one stopped it: a daily
    spend cap reached (:mod:`sunbot.spend`), in one line."""

    game: str
    seed: int | None
    strategy: str
    score: int | float = 0
    steps: int = 0
    refused: int = 0
    game_over: bool = False
    ended_by: EndedBy = "rules"
    error: str | None = None
    final_state: dict[str, Any] | None = None
    responses_checked: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    retries: int = 0
    elapsed_s: float = 0.0
    transcript: Path | None = None
    unknown_fields: list[str] = field(default_factory=list)
    error_traceback: str | None = None
    match_id: str | None = None
    ranks: list[int] | None = None
    strategy_ended: bool = False
    seats: list[MatchSeat] = field(default_factory=list)
    outcome: str | None = None
    checks: str = "rules"
    timeouts: int = 0
    agent: dict[str, Any] = field(default_factory=dict)
    cut_fields: int = 0
    stop_reason: str | None = None

    @property
    def cause(self) -> str | None:
        """The game's own word for how it ended (``cause`` or ``result``), if any."""
        st = self.final_state if isinstance(self.final_state, dict) else {}
        value = st.get("cause") or st.get("result")
        return str(value) if value is not None else None

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready values: every field (``divergences`` as their
        JSON form, ``transcript`` as a string) plus ``cause``."""
        out = asdict(self)
        out["divergences"] = [d.to_json() for d in self.divergences]
        out["transcript"] = str(self.transcript) if self.transcript is not None else None
        out["cause"] = self.cause
        return out

    def _repr_html_(self) -> str:
        """A small table in a notebook cell instead of one huge dict."""
        import html

        why = self.error or self.stop_reason
        rows = {
            "game": self.game, "seed": self.seed, "strategy": self.strategy,
            "score": self.score, "steps": self.steps, "ended by": self.ended_by
            + (f" ({why})" if why else ""), "refused": self.refused,
            "timeouts": self.timeouts, "checks": self.checks,
            "checked": self.responses_checked, "divergences": len(self.divergences),
            "time": f"{self.elapsed_s:.2f} s",
        }  # fmt: skip
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
            f"<td style='text-align:left'>{html.escape(str(v))}</td></tr>"
            for k, v in rows.items()
        )
        return f"<table>{body}</table>"

    def __repr__(self) -> str:
        return (
            f"RunSummary(game={self.game!r}, seed={self.seed!r}, strategy={self.strategy!r}, "
            f"score={self.score!r}, steps={self.steps!r}, ended_by={self.ended_by!r}, "
            f"divergences={len(self.divergences)})"
        )


@dataclass(repr=False)
class MatchSummary(RunSummary):
    """How a match went (Harvest Watch): a :class:`RunSummary` whose match fields
    (``match_id``, ``ranks``, ``seats``, ``outcome``) are filled, plus the match mirror's
    ``beats_checked`` (beats whose resolution it recomputed) and ``nights_undecided``
    (nights it could not decide from one seat's views), ``result``: the transcript's
    ``result`` record as written (``docs/transcripts.md``), ``final_view``: the last view
    read (its seat token redacted), and ``transcript_error``: why the transcript could not
    be written whole (a full disk), ``None`` when it was."""

    beats_checked: int = 0
    nights_undecided: int = 0
    result: dict[str, Any] = field(default_factory=dict)
    final_view: dict[str, Any] | None = None
    transcript_error: str | None = None

    def __repr__(self) -> str:
        return (
            f"MatchSummary(game={self.game!r}, seed={self.seed!r}, strategy={self.strategy!r}, "
            f"score={self.score!r}, ranks={self.ranks!r}, ended_by={self.ended_by!r}, "
            f"divergences={len(self.divergences)})"
        )


#: Unknown field paths a result line lists (a server may send thousands of names).
MAX_LISTED = 100


def listed(paths: list[str]) -> list[str]:
    """The first :data:`MAX_LISTED` of ``paths``, each clipped to 120 characters."""
    return [clip(p, 120) for p in paths[:MAX_LISTED]]


#: Counters of an agent's totals whose pooled value is the largest seat's, not the sum.
_POOLED_BY_MAX = ("maxMs",)
#: Percentiles: kept only when every seat's is the same, else ``None``.
_PERCENTILES = ("p50Ms", "p95Ms")


def merge_agent_totals(totals: list[dict[str, Any]]) -> dict[str, Any]:
    """One ``agent`` record for several seats' totals (a match's ``agent``; each seat keeps
    its own). One seat's totals are returned as they are; ``{}`` ones are left out. Over
    several: a value every seat shares is kept (``kind``, ``model``); numbers are summed
    (calls, tokens, ``costUsd``, decisions, timeouts), ``maxMs`` is the largest; booleans
    are true only when true for all (``structured``); nested records (``clock``) merge the
    same way; anything else that differs is ``None``, the percentiles ``p50Ms``/``p95Ms``
    included (they cannot be pooled from per-seat figures)."""
    given = [t for t in totals if t]
    if len(given) <= 1:
        return dict(given[0]) if given else {}
    out: dict[str, Any] = {}
    for key in dict.fromkeys(k for t in given for k in t):
        values = [t[key] for t in given if key in t]
        out[key] = _merged(key, values)
    return out


def _merged(key: str, values: list[Any]) -> Any:
    if all(isinstance(v, dict) for v in values):
        return merge_agent_totals(values)
    if all(isinstance(v, bool) for v in values):
        return all(values)
    if all(_number(v) for v in values):
        if key in _POOLED_BY_MAX:
            return max(values)
        if key in _PERCENTILES:
            return values[0] if all(v == values[0] for v in values) else None
        return _sum(values)
    return values[0] if all(v == values[0] for v in values) else None


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _sum(values: list[Any]) -> int | float:
    total = sum(values)
    return total if isinstance(total, int) else round(total, 6)


def result_record(s: RunSummary) -> dict[str, Any]:
    """The transcript's ``result`` line for ``s`` (``docs/transcripts.md``)."""
    record: dict[str, Any] = {
        "type": "result",
        "score": s.score,
        "gameOver": s.game_over,
        "steps": s.steps,
        "divergences": len(s.divergences),
        "endedBy": s.ended_by,
        "cause": s.cause,
        "refused": s.refused,
        "responsesChecked": s.responses_checked,
        "retries": s.retries,
        "elapsedMs": round(s.elapsed_s * 1000, 1),
        "error": s.error,
        "errorTraceback": s.error_traceback,
        "unknownFields": listed(s.unknown_fields),
    }
    if len(s.unknown_fields) > MAX_LISTED:
        record["unknownFieldsNotListed"] = len(s.unknown_fields) - MAX_LISTED
    if s.cut_fields:
        record["cutFields"] = s.cut_fields
    if s.checks != "rules":
        record["checks"] = s.checks
    if s.timeouts:
        record["timeouts"] = s.timeouts
    if s.agent:
        record["agent"] = s.agent
    if s.stop_reason:
        record["stopReason"] = s.stop_reason
    return record
