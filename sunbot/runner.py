"""One run of a single-player game: observe → choose → act → mirror → transcript.

The runner talks to a server only through :class:`~sunbot.client.GameboardClient`, whether
the server is in-process, on loopback or live. The server is authoritative: play always
continues from its answer, and the mirror only reports. Nothing that goes wrong mid-run
(an exhausted retry budget, a malformed answer, a strategy error) loses the transcript: the
runner writes a ``result`` line saying how the run ended and returns a summary.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from sunbot.atomic_write import WriteFailed
from sunbot.client import GameboardClient, Position, Rejected, RetryInterrupted
from sunbot.client.http import public_url
from sunbot.client.models import Envelope
from sunbot.games import get_game
from sunbot.mirror import Divergence, Mirror
from sunbot.resume import Resume
from sunbot.safe_text import safe, traceback_text
from sunbot.strategies import Outcome, Strategy, notify_end, notify_start
from sunbot.transcripts import TranscriptWriter

log = logging.getLogger("sunbot.runner")

EndedBy = Literal["rules", "cap", "strict", "error", "interrupted"]
#: Refusals in a row after which a run is abandoned (a strategy that keeps sending
#: illegal actions would otherwise loop forever).
MAX_REFUSALS_IN_A_ROW = 3
#: Accepted actions in a row that leave the position exactly as it was, after which the
#: server is taken to have stopped advancing the game (every action of the four games
#: moves a clock, a counter or a cursor, so one repeat is already odd).
MAX_SAME_POSITION = 20
#: Most steps of one run (real runs take hundreds): a server that never says gameOver
#: must not make a run, and its transcript, grow forever.
MAX_STEPS = 100_000


class ServerMisbehaved(RuntimeError):
    """The server's answers cannot be played on: the message names what it did wrong."""


class StrategyFailed(RuntimeError):
    """The strategy's ``choose`` raised on an answer of this game: the bot's bug, not the
    server's. The original exception is the ``__cause__``; ``step`` is the step (1-based)."""

    def __init__(self, step: int) -> None:
        super().__init__(f"the strategy raised at step {step}")
        self.step = step


OnPosition = Callable[[Position, int, list[Divergence]], None]


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
    END_RUN, Naptuft's end-run), not the cap's."""

    game: str
    seed: int | None
    strategy: str
    score: int = 0
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

    @property
    def cause(self) -> str | None:
        """The game's own word for how it ended (``cause`` or ``result``), if any."""
        st = self.final_state or {}
        value = st.get("cause") or st.get("result")
        return str(value) if value is not None else None


async def play_run(
    client: GameboardClient,
    slug: str,
    seed: int | None,
    strategy: Strategy,
    *,
    strategy_name: str = "",
    cap: int | None = None,
    strict: bool = False,
    mirror: Mirror | None = None,
    transcript: TranscriptWriter | None = None,
    server_label: str = "local",
    on_position: OnPosition | None = None,
    resume: Resume | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_steps: int = MAX_STEPS,
) -> RunSummary:
    """Play one run of ``slug`` from ``seed`` with ``strategy`` until it ends.

    Args:
        cap: end the run (the game's end action) once this many voyages/days are done.
        strict: stop at the first mirror divergence (``ended_by == "strict"``).
        should_stop: polled before every action; when it answers true the run stops there
            (``ended_by == "interrupted"``), its transcript whole and resumable.
        on_position: called after every answer (live views).
        resume: continue the run recorded in a transcript (:mod:`sunbot.resume`) instead of
            starting one: no init, the strategy replays the recorded history first, and the
            transcript gets a ``resume`` line (then steps and the result as usual).
        max_steps: the run ends with an error past this many steps; it also ends when the
            server answers the same position after :data:`MAX_SAME_POSITION` accepted
            actions in a row, or an answer that is not one of this game (it lacks the
            game's ``answer_fields``; :class:`ServerMisbehaved`). An exception raised by
            the strategy's ``choose`` ends the run with ``error`` = its type and message,
            naming the strategy and the step.

    Returns:
        The :class:`RunSummary`; it is also written as the transcript's ``result`` line.
    """
    game = get_game(slug)
    summary = RunSummary(game=slug, seed=seed, strategy=strategy_name, transcript=None)
    if transcript is not None:
        summary.transcript = transcript.path
        if resume is None:
            identity = await identify(client)
            label = public_url(server_label)
            transcript.header(slug, seed, strategy_name, label, cap=cap, identity=identity)
    started = time.perf_counter()
    pos: Position | None = None
    base_checked, base_divergences = 0, []
    try:
        notify_start(strategy, slug, seed, cap)
        if resume is None:
            t0 = time.perf_counter()
            pos = await client.init(slug, seed)
            found = mirror.check_init(pos.raw) if mirror else []
            _log(transcript, {"type": "init", "response": pos.raw}, found, t0)
            _report(on_position, pos, 0, found)
        else:
            pos = _resume(strategy, resume, summary, transcript)
            if mirror is not None:
                mirror.warm(resume.init, resume.recorded)
            base_checked, base_divergences = resume.checked, resume.divergences
            _report(on_position, pos, summary.steps, [])
        in_a_row = same = 0
        last = _fingerprint(pos)
        while not pos.game_over:
            if strict and mirror and mirror.divergences:
                summary.ended_by = "strict"
                break
            if should_stop is not None and should_stop():
                summary.ended_by = "interrupted"
                break
            action = game.cap_action(pos.observation, cap)
            capped = action is not None
            if summary.steps >= max_steps:
                raise ServerMisbehaved(f"no end after {max_steps} steps (gameOver never true)")
            if action is None:
                action = _choose(strategy, pos, summary.steps + 1, slug)
            summary.steps += 1
            t0 = time.perf_counter()
            try:
                answer = await client.act(slug, pos, action)
            except BaseException:  # never answered: not a step (the transcript has none)
                summary.steps -= 1
                raise
            raw = answer.raw
            found = mirror.check_action(summary.steps, pos.raw, action, raw) if mirror else []
            record = {"type": "step", "index": summary.steps, "action": action, "response": raw}
            _log(transcript, record, found, t0)
            if isinstance(answer, Rejected):
                summary.refused += 1
                in_a_row += 1
                if in_a_row >= MAX_REFUSALS_IN_A_ROW:
                    raise RuntimeError(
                        f"{in_a_row} refused actions in a row: {safe(answer.reason)}"
                    )
                continue
            in_a_row = 0
            now = _fingerprint(answer)
            same, last = (same + 1 if now == last else 0), now
            if same >= MAX_SAME_POSITION:
                raise ServerMisbehaved(
                    f"the server answered the same position after {same} accepted actions "
                    f"in a row (step {summary.steps}): it is not advancing the game"
                )
            pos = answer
            _report(on_position, pos, summary.steps, found)
            if capped and pos.game_over:
                summary.ended_by = "cap"
            elif pos.game_over and game.end_action is not None and isinstance(action, dict):
                summary.strategy_ended = action.get("type") == game.end_action.get("type")
        if strict and mirror and mirror.divergences:
            summary.ended_by = "strict"
    except RetryInterrupted:  # Ctrl-C during a retry wait (GameboardClient.interrupt)
        summary.ended_by = "interrupted"
    except StrategyFailed as exc:  # the bot's bug: its own exception, named as the bot's
        cause = exc.__cause__ or exc
        log.debug("the strategy raised", exc_info=cause)
        summary.ended_by = "error"
        where = f"raised by the strategy {strategy_name or type(strategy).__name__}"
        summary.error = f"{one_line(cause)} ({where} at step {exc.step})"
        summary.error_traceback = traceback_text("".join(traceback.format_exception(cause)))
    except WriteFailed as exc:  # the transcript cannot grow (a full disk): one line says so
        summary.ended_by = "error"
        summary.error = str(exc)
    except Exception as exc:  # keep the transcript whole whatever failed; say what it was
        log.debug("run stopped by an error", exc_info=True)
        summary.ended_by = "error"
        summary.error = one_line(exc)  # secrets out, a server's long text cut
        summary.error_traceback = traceback_text(traceback.format_exc())
    except (KeyboardInterrupt, asyncio.CancelledError):  # stopped hard: still resumable
        summary.ended_by = "interrupted"
        raise
    finally:
        summary.elapsed_s = time.perf_counter() - started
        summary.retries = client.retries
        if pos is not None:
            summary.score = pos.score
            summary.game_over = pos.game_over
            summary.final_state = pos.state or pos.observation
        if mirror is not None:
            summary.responses_checked = base_checked + mirror.responses_checked
            summary.divergences = [*base_divergences, *mirror.divergences]
            summary.unknown_fields = sorted(mirror.unknown_fields)
        outcome: Outcome = {
            "game": slug, "score": summary.score, "endedBy": summary.ended_by,
            "error": summary.error,
        }  # fmt: skip
        notify_end(strategy, pos.observation if pos is not None else None, outcome)
        if transcript is not None and transcript.failed is None:
            transcript.write(_result_record(summary))
    return summary


async def identify(client: GameboardClient) -> dict[str, Any] | None:
    """What the server says of itself in ``GET /api/games``: ``{service, localChoices}``.

    Recorded in the transcript header so that ``sunbot replay`` re-plays a run through our
    engines only when it came from a server with our local choices
    (:data:`sunbot.games.LOCAL_CHOICES`). ``None`` when the index cannot be read (a run
    does not need it).
    """
    try:  # no retries but a rate limit's: a broken server must not cost a second budget
        index = await client.games(retry=False)
    except Exception as exc:  # an index we cannot read only costs the re-play
        log.info("server index not read (%s): transcripts will be mirrored, not re-played", exc)
        return None
    extra = index.model_extra or {}
    choices = extra.get("localChoices")
    return {"service": index.service, "localChoices": choices if isinstance(choices, str) else None}


def one_line(exc: BaseException) -> str:
    """``"Type: message"`` of ``exc`` on one line (a summary row, a CSV cell), every secret
    we hold redacted and cut to :data:`~sunbot.safe_text.MAX_TEXT` characters (a server's
    reason may echo a token or run to a megabyte)."""
    return safe(" ".join(f"{type(exc).__name__}: {exc}".split()))


def _choose(strategy: Strategy, pos: Position, step: int, slug: str) -> Any:
    """The strategy's action.

    Raises:
        ServerMisbehaved: no legal actions while the game goes on, or ``choose`` failed on
            an answer that lacks the game's ``answer_fields`` (not an answer of this game).
        StrategyFailed: ``choose`` raised on an answer of this game (the bot's bug).
    """
    if not pos.legal_actions:
        raise ServerMisbehaved(f"step {step}: no legal actions, yet gameOver is false")
    try:
        return strategy.choose(pos.observation, pos.legal_actions)
    except Exception as exc:
        missing = [f for f in get_game(slug).answer_fields if f not in pos.observation]
        if missing:
            raise ServerMisbehaved(
                f"step {step}: the server's answer has no {', '.join(missing)}, so the "
                f"strategy cannot read it ({one_line(exc)}); is it an answer of {slug}?"
            ) from exc
        raise StrategyFailed(step) from exc


def _fingerprint(pos: Position) -> str:
    """What must change when the game advances: the state (or observation), the score,
    the legal actions and gameOver (never the token, which may differ for one state)."""
    seen = [pos.state or pos.observation, pos.score, pos.legal_actions, pos.game_over]
    return json.dumps(seen, sort_keys=True, default=str)


def _resume(
    strategy: Strategy, resume: Resume, summary: RunSummary, transcript: TranscriptWriter | None
) -> Position:
    """Bring the strategy up to date with the recorded history; return the last position."""
    differed = 0
    for observation, legal, action in resume.history:
        if strategy.choose(observation, legal) != action:
            differed += 1
    if differed:
        log.warning(
            "the strategy chose differently on %d of the recorded steps (not deterministic)",
            differed,
        )
    summary.steps = resume.last_index
    summary.refused = resume.refused
    if transcript is not None:
        when = datetime.now(UTC).isoformat()
        transcript.write({"type": "resume", "fromStep": resume.last_index, "at": when})
    return Position(Envelope.model_validate(resume.answer), resume.answer)


def _log(
    transcript: TranscriptWriter | None, record: dict[str, Any], found: list[Divergence], t0: float
) -> None:
    if transcript is None:
        return
    record["mirror"] = {"ok": not found, "divergences": [d.to_json() for d in found]}
    record["elapsedMs"] = round((time.perf_counter() - t0) * 1000, 3)
    transcript.write(record)


def _report(cb: OnPosition | None, pos: Position, step: int, found: list[Divergence]) -> None:
    if cb is not None:
        cb(pos, step, found)


def result_record(s: RunSummary) -> dict[str, Any]:
    """The transcript's ``result`` line for ``s`` (``docs/transcripts.md``)."""
    return _result_record(s)


def _result_record(s: RunSummary) -> dict[str, Any]:
    return {
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
        "unknownFields": s.unknown_fields,
    }
