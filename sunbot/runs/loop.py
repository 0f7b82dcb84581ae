"""The loop: observe → decide → act → check → record, for every run of every game.

``sunbot play``, :func:`sunbot.play`, a ``sunbot bench`` job and an RL episode all step their
runs through :meth:`Run.step` here, on any :class:`~sunbot.runs.backends.Backend` (the engine
in-process, or a server through the client). Caps, the refusal limit, the same-position and
step guards, the strategy's hooks, decision timing, the move deadline, the stop checks and
the transcript's lines live in this one place, so a feature lands once.

The server (or engine) is authoritative: play continues from its answer, and the checks
(the mirror for a known game, the generic checks for any other) only report. Nothing that
goes wrong mid-run (an exhausted retry budget, a malformed answer, a strategy error) loses
the transcript: the loop writes a ``result`` line saying how the run ended and returns a
summary.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from sunbot._text.atomic_write import WriteFailed
from sunbot._text.safe import safe, traceback_text
from sunbot.agents.clock import BotEscape, Decider, default_fallback
from sunbot.forward.predict import detached
from sunbot.games import GAMES, GameInfo
from sunbot.generic.outcome import outcome_line
from sunbot.mirror import Divergence
from sunbot.runs.backends import Action, Answer, Backend, EngineBackend
from sunbot.runs.summary import RunSummary, result_record
from sunbot.spend.meter import SpendCapReached
from sunbot.strategies import Outcome, Strategy, notify_end, notify_start
from sunbot.transcripts.bounds import AnswerCutter, Cut

if TYPE_CHECKING:
    from sunbot.transcripts.jsonl import TranscriptWriter
    from sunbot.transcripts.resume import Resume

log = logging.getLogger("sunbot.runner")

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
#: Largest ``agent`` record of one step in a transcript (bytes of JSON); a bigger one is
#: replaced by a note saying how big it was.
MAX_AGENT_RECORD = 65_536

#: ``on_position(answer, step, found)``: after every answer (live views).
OnPosition = Callable[[Answer, int, list[Divergence]], None]


class ServerMisbehaved(RuntimeError):
    """The server's answers cannot be played on: the message names what it did wrong."""


class StrategyFailed(RuntimeError):
    """The strategy's ``choose`` raised on an answer of this game: the bot's bug, not the
    server's. The original exception is the ``__cause__``; ``step`` is the step (1-based)."""

    def __init__(self, step: int) -> None:
        super().__init__(f"the strategy raised at step {step}")
        self.step = step


class Interrupted(Exception):
    """A backend's wait was cut short by a stop request (Ctrl-C during a retry wait)."""


class Checks(Protocol):
    """What checks a run's answers: the game's mirror (:class:`sunbot.mirror.Mirror`) or
    the generic checks of a game sunbot has no engine for. ``kind`` is ``"rules"`` or
    ``"generic"``."""

    divergences: list[Divergence]
    responses_checked: int

    @property
    def unknown_fields(self) -> Any:
        """Field paths seen that the game's rules do not name."""
        ...

    def check_init(self, raw: dict[str, Any]) -> list[Divergence]:
        """Findings on the opening answer."""
        ...

    def check_action(
        self, step: int, before: dict[str, Any], action: Any, after: dict[str, Any]
    ) -> list[Divergence]:
        """Findings on the answer to ``action``."""
        ...

    def warm(self, init: dict[str, Any], recorded: list[tuple[Any, dict[str, Any]]]) -> None:
        """Catch up on a recorded run before checking its continuation."""
        ...


def one_line(exc: BaseException) -> str:
    """``"Type: message"`` of ``exc`` on one line (a summary row, a CSV cell), every secret
    we hold redacted and cut to :data:`~sunbot.safe_text.MAX_TEXT` characters (a server's
    reason may echo a token or run to a megabyte)."""
    return safe(" ".join(f"{type(exc).__name__}: {exc}".split()))


class Run:
    """One run in progress: the position, the counters and the records.

    :meth:`start` plays the opening (or takes up a recorded run), :meth:`step` plays one
    action; both check, record and count. :func:`play_loop` drives a run with an agent; an
    RL environment drives it with the learner's actions.

    Args:
        backend: where positions come from.
        slug: the game.
        seed: the run's seed (``None``: the server's choice).
        strategy_name: the label in the transcript and the summary.
        cap: the game's run cap (voyages or days; the loop sends the end action there).
        checks: re-check every answer (``None``: unchecked, e.g. the trusted engine).
        transcript: where the lines go (``None``: nowhere).
        about: what the transcript's header records of the run's setup besides its game,
            seed, strategy and server (``model``: the forward model used, with its file's
            hash; ``lookahead``: the server lookahead asked for).

    Every answer's unknown fields larger than
    :data:`~sunbot.transcripts.bounds.MAX_UNKNOWN_FIELD_BYTES` are cut before it is
    checked, recorded or held (:class:`~sunbot.transcripts.bounds.AnswerCutter`, with the
    mirror's template of the fields the rules name); the line says so in ``cut`` and the
    summary counts them in ``cut_fields``.
    """

    def __init__(
        self,
        backend: Backend,
        slug: str,
        seed: int | None,
        *,
        strategy_name: str = "",
        cap: int | None = None,
        checks: Checks | None = None,
        transcript: TranscriptWriter | None = None,
        on_position: OnPosition | None = None,
        about: dict[str, Any] | None = None,
    ) -> None:
        self.backend = backend
        self.about = dict(about or {})
        self.slug = slug
        self.game: GameInfo | None = GAMES.get(slug)
        self.cap = cap
        self.checks = checks
        self.transcript = transcript
        self.on_position = on_position
        self.summary = RunSummary(game=slug, seed=seed, strategy=strategy_name)
        self.summary.checks = "none" if checks is None else str(getattr(checks, "kind", "rules"))
        if transcript is not None:
            self.summary.transcript = transcript.path
        self.position: Answer | None = None
        #: The checks' findings on the latest answer (refusals included).
        self.last_found: list[Divergence] = []
        self.refused_in_a_row = 0
        self._same = 0
        self._last = ""
        self._base_checked = 0
        self._base_divergences: list[Divergence] = []
        self._pid = os.getpid()
        self.cutter = AnswerCutter(getattr(checks, "template", None))
        #: our engine backend itself (not a subclass), stepped without a coroutine
        self._engine = backend if type(backend) is EngineBackend else None
        #: The opening's served ``spec`` (a game sunbot does not know: its result line).
        self.spec: dict[str, Any] | None = None

    async def header(self) -> None:
        """Write the transcript's header line (the server's identity included)."""
        if self.transcript is None:
            return
        identity = await self.backend.identify()
        s = self.summary
        self.transcript.header(
            self.slug, s.seed, s.strategy, self.backend.label, cap=self.cap, identity=identity,
            extra=self.about,
        )  # fmt: skip

    async def start(self) -> Answer:
        """Play the opening: ``init`` of the run's seed, checked and recorded."""
        quick = self.start_now()
        if quick is not None:
            return quick
        seed = self.summary.seed
        t0 = time.perf_counter()
        if self._engine is not None and seed is not None:
            opening = self._engine.start(seed)  # init() without its coroutine
        else:
            opening = await self.backend.init(self.slug, seed)
        pos, cut = self._cut(opening) if opening.raw is not None else (opening, None)
        found = self.checks.check_init(pos.raw or {}) if self.checks else []
        self.last_found = found
        self._log({"type": "init", "response": pos.raw}, found, t0, cut)
        self.spec = _spec_of(pos.raw)
        self._take(pos, found)
        if not self.backend.trusted:
            self._last = _fingerprint(pos)
        return pos

    def take_up(self, strategy: Strategy, resume: Resume) -> Answer:
        """Continue a recorded run: the strategy replays the recorded history (its choices
        are discarded), the checks catch up, the transcript gets a ``resume`` line."""
        # a blocking agent (a model, another process) is not asked again: each recorded step
        # would cost a model call or a round trip, and its answers are not ours to replay
        history = [] if getattr(strategy, "blocking", False) else resume.history
        differed = sum(
            strategy.choose(observation, legal) != action for observation, legal, action in history
        )
        if differed:
            log.warning(
                "the strategy chose differently on %d of the recorded steps (not deterministic)",
                differed,
            )
        s = self.summary
        s.steps, s.refused = resume.last_index, resume.refused
        if self.transcript is not None:
            when = datetime.now(UTC).isoformat()
            self.transcript.write({"type": "resume", "fromStep": resume.last_index, "at": when})
        pos = self.backend.resume_at(resume.answer)
        if self.checks is not None:
            self.checks.warm(resume.init, resume.recorded)
        self.spec = _spec_of(resume.init)
        self._base_checked, self._base_divergences = resume.checked, resume.divergences
        self._take(pos, [])
        if not self.backend.trusted:
            self._last = _fingerprint(pos)
        return pos

    async def step(self, action: Action, agent_record: dict[str, Any] | None = None) -> Answer:
        """Send ``action`` from the current position; check, record and count its answer.

        A refusal counts (``refused``, :attr:`refused_in_a_row`) and leaves the position as
        it was. ``agent_record`` (what the agent says of this decision) goes into the
        step's transcript line under ``agent``.

        Raises:
            RuntimeError: before :meth:`start`.
            sunbot._text.atomic_write.WriteFailed: the step's line could not be written (a
                full disk, the transcript's size limit): the step is not counted and its
                answer not taken.
            ServerMisbehaved: the server answered the same position after
                :data:`MAX_SAME_POSITION` accepted actions in a row.
            Exception: what the backend raised (the action was never answered: not a step).
        """
        quick = self.step_now(action)
        if quick is not None:
            return quick
        pos = self.position
        if pos is None:
            raise RuntimeError("start the run before stepping it")
        # what is sent, checked and recorded is the action as the strategy returned it: a
        # copy of its own, which the strategy (or a model it holds) can no longer change
        action = detached(action)
        s = self.summary
        engine = self._engine
        s.steps += 1
        t0 = time.perf_counter()
        try:
            if engine is not None:  # its act() is play() in a coroutine: 1 us saved
                answer = engine.play(pos, action)
            else:
                answer = await self.backend.act(self.slug, pos, action)
        except BaseException:  # never answered: not a step (the transcript has none)
            s.steps -= 1
            raise
        cut = None
        if answer.raw is not None:  # an engine's answer has no raw answer to cut
            answer, cut = self._cut(answer, opening=False)
        found = (
            self.checks.check_action(s.steps, pos.raw or {}, action, answer.raw or {})
            if self.checks
            else []
        )
        self.last_found = found
        if self.transcript is not None:
            record: dict[str, Any] = {
                "type": "step", "index": s.steps, "action": action, "response": answer.raw
            }  # fmt: skip
            if agent_record:
                record["agent"] = bounded_record(agent_record)
            try:
                self._log(record, found, t0, cut)
            except WriteFailed:  # not recorded, so not taken: a resume sends the action again
                s.steps -= 1
                raise
        if answer.refused is not None:
            s.refused += 1
            self.refused_in_a_row += 1
            return answer
        self.refused_in_a_row = 0
        if not self.backend.trusted:
            now = _fingerprint(answer)
            self._same, self._last = (self._same + 1 if now == self._last else 0), now
            if self._same >= MAX_SAME_POSITION:
                raise ServerMisbehaved(
                    f"the server answered the same position after {self._same} accepted "
                    f"actions in a row (step {s.steps}): it is not advancing the game"
                )
        self._take(answer, found)
        return answer

    def start_now(self) -> Answer | None:
        """:meth:`start` without a coroutine where it needs none (as :meth:`step_now`): the
        engine's opening alone; ``None`` for any other run (await :meth:`start`)."""
        seed = self.summary.seed
        if self._engine is None or seed is None or not self._unwatched():
            return None
        self.last_found = []  # the engine's opening alone: nothing to cut, check or log
        self.position = opening = self._engine.start(seed)
        return opening

    def step_now(self, action: Action) -> Answer | None:
        """:meth:`step` without a coroutine where it needs none: a run on our engine that
        nothing checks, records or shows (an RL environment's), whose step is the engine's
        answer and the counters alone. ``None`` for any other run (await :meth:`step`).

        Raises:
            RuntimeError: before :meth:`start`.
            Exception: what the engine raised (not a step).
        """
        engine = self._engine
        if engine is None or not self._unwatched():
            return None
        pos = self.position
        if pos is None:
            raise RuntimeError("start the run before stepping it")
        answer = engine.play(pos, action)  # a refusal is an answer; a raise: no step
        self.summary.steps += 1
        self.last_found = []
        if answer.refused is not None:
            self.summary.refused += 1
            self.refused_in_a_row += 1
            return answer
        self.refused_in_a_row = 0
        self.position = answer
        return answer

    def _unwatched(self) -> bool:
        """Nothing checks, records or shows this run's answers (an RL environment's run on
        the engine, a bench job's): a step is its answer and the counters alone."""
        return self.checks is None and self.transcript is None and self.on_position is None

    def _take(self, pos: Answer, found: list[Divergence]) -> None:
        self.position = pos
        if self.on_position is not None:
            self.on_position(pos, self.summary.steps, found)

    def _cut(self, answer: Answer, opening: bool = True) -> tuple[Answer, Cut | None]:
        """``answer`` without its oversized unknown fields (the position rebuilt from the
        cut answer, so nothing of them is held), and what was cut (``None``: nothing);
        ``opening=False`` for an action's answer (its ``spec`` is unknown there)."""
        raw, cut = self.cutter.cut(answer.raw, opening=opening)
        if cut is None or raw is None:
            return answer, None
        if answer.refused is None:
            return self.backend.resume_at(raw), cut
        return dataclasses.replace(answer, raw=raw), cut

    def _log(
        self, record: dict[str, Any], found: list[Divergence], t0: float, cut: Cut | None = None
    ) -> None:
        if self.transcript is None:
            return
        record["mirror"] = {"ok": not found, "divergences": [d.to_json() for d in found]}
        record["elapsedMs"] = round((time.perf_counter() - t0) * 1000, 3)
        if cut is not None:
            record["cut"] = cut.to_json()
        self.transcript.write(record)

    def finish(
        self, started: float, strategy: object | None = None, decider: Any = None
    ) -> RunSummary:
        """Fill the summary's totals, call the strategy's ``on_end`` and write the result
        line (not from a forked child, which must leave no second result line)."""
        s = self.summary
        s.elapsed_s = time.perf_counter() - started
        s.retries = self.backend.retries
        pos = self.position
        if pos is not None:
            s.score = pos.score
            s.game_over = pos.game_over
            s.final_state = pos.state if isinstance(pos.state, dict) else pos.observation
            if self.game is None:  # a game sunbot does not know: what its server says
                s.outcome = outcome_line(
                    self.spec, pos.observation, pos.state, pos.score, pos.game_over
                )
        if self.checks is not None:
            s.responses_checked = self._base_checked + self.checks.responses_checked
            s.divergences = [*self._base_divergences, *self.checks.divergences]
        unknown = set(self.checks.unknown_fields) if self.checks is not None else set()
        s.unknown_fields = sorted(unknown | self.cutter.patterns)
        s.cut_fields = self.cutter.fields
        if strategy is not None:
            own = callable(getattr(strategy, "totals", None))
            clocked = decider is not None and (decider.move_timeout_s or decider.blocking)
            if own or clocked:
                try:
                    s.agent = dict(decider.totals() if decider is not None else {})
                except Exception:
                    log.warning("the agent's totals() failed", exc_info=True)
            s.clairvoyant = s.clairvoyant or s.agent.get("clairvoyant") is True
            outcome: Outcome = {
                "game": self.slug, "score": s.score, "endedBy": s.ended_by, "error": s.error,
            }  # fmt: skip
            notify_end(strategy, pos.observation if pos is not None else None, outcome)
        if os.getpid() != self._pid:  # a forked bot's child: the parent writes the result
            os._exit(1)
        if self.transcript is not None and self.transcript.failed is None:
            self.transcript.write(result_record(s))
        return s


async def play_loop(
    run: Run,
    strategy: Strategy,
    *,
    strict: bool = False,
    resume: Resume | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_steps: int = MAX_STEPS,
    step_cap: int | None = None,
    move_timeout: float | None = None,
    fallback: Callable[[Any, list[Any]], Any] | None = None,
    timings: list[float] | None = None,
    spec: dict[str, Any] | None = None,
) -> RunSummary:
    """Play ``run`` with ``strategy`` until it ends; the one loop of every single-player run.

    Args:
        strict: stop at the first divergence (``ended_by == "strict"``).
        resume: continue the run recorded in a transcript (:mod:`sunbot.transcripts.resume`)
            instead of
            starting one: no init, the strategy replays the recorded history first, and the
            transcript gets a ``resume`` line (then steps and the result as usual).
        should_stop: polled before every action; when it answers true the run stops there
            (``ended_by == "interrupted"``), its transcript whole and resumable. A daily
            spend cap (:mod:`sunbot.spend`) reached before a model's decision or a request
            to the server stops the run the same way, its reason in ``stop_reason``.
        max_steps: the run ends with an error past this many steps; it also ends when the
            server answers the same position after :data:`MAX_SAME_POSITION` accepted
            actions in a row, or an answer that is not one of this game (it lacks the
            game's ``answer_fields``; :class:`ServerMisbehaved`).
        step_cap: end the run (``ended_by == "cap"``) after this many steps without an end
            action (``--max-steps``: any game, known or not).
        move_timeout: seconds one decision may take (``None``: no clock). Decisions go
            through :class:`sunbot.agents.clock.Decider`: a plain strategy without a clock
            is called directly; with a clock, or a ``blocking`` agent, ``choose`` runs on a
            worker thread and a decision past the deadline plays ``fallback(observation,
            legal_actions)`` (default: :func:`sunbot.agents.clock.default_fallback`, a
            safe action where the game knows one) and counts in ``timeouts``. A bot's
            ``SystemExit``, ``KeyboardInterrupt``, ``os._exit`` or ``fork`` ends the run as
            its error.
        timings: if given, each ``choose`` call's duration (seconds) is appended.
        spec: the game's served ``spec``, for a strategy whose ``on_start`` declares
            ``spec`` (read from the init answer when not given).

    Returns:
        The :class:`RunSummary`; it is also written as the transcript's ``result`` line. An
        exception raised by the strategy ends the run with ``error`` = its type and message,
        naming the strategy and the step.
    """
    s = run.summary
    if resume is None:
        await run.header()  # a header that cannot be written is the caller's to report
    started = time.perf_counter()
    game = run.game
    decider = Decider(strategy, move_timeout_s=move_timeout)
    try:
        if resume is None:
            pos = await run.start()
            if spec is None and pos.raw is not None and isinstance(pos.raw.get("spec"), dict):
                spec = pos.raw["spec"]
            notify_start(strategy, run.slug, s.seed, run.cap, spec=spec)
        else:
            notify_start(strategy, run.slug, s.seed, run.cap, spec=spec)
            pos = run.take_up(strategy, resume)
        checks = run.checks
        while not pos.game_over:
            if strict and checks and checks.divergences:
                s.ended_by = "strict"
                break
            if should_stop is not None and should_stop():
                s.ended_by = "interrupted"
                break
            if step_cap is not None and s.steps >= step_cap:
                s.ended_by = "cap"
                break
            action = game.cap_action(pos.observation, run.cap) if game is not None else None
            capped = action is not None
            if s.steps >= max_steps:
                raise ServerMisbehaved(f"no end after {max_steps} steps (gameOver never true)")
            record = None
            if action is None:
                action = await _decide(run, strategy, pos, decider, fallback, timings)
                record = decider.last_decision()
            answer = await run.step(action, record)
            if answer.refused is not None:
                if run.refused_in_a_row >= MAX_REFUSALS_IN_A_ROW:
                    raise RuntimeError(
                        f"{run.refused_in_a_row} refused actions in a row: {safe(answer.refused)}"
                    )
                continue
            pos = answer
            if capped and pos.game_over:
                s.ended_by = "cap"
            elif pos.game_over and game is not None and game.end_action is not None:
                s.strategy_ended = isinstance(action, dict) and (
                    action.get("type") == game.end_action.get("type")
                )
        if strict and checks and checks.divergences:
            s.ended_by = "strict"
    except Interrupted:  # Ctrl-C during a retry wait
        s.ended_by = "interrupted"
    except BotEscape as exc:  # SystemExit, os._exit, fork...: the bot's, never a normal end
        s.ended_by = "error"
        s.error = f"{safe(str(exc))} (the strategy {s.strategy or type(strategy).__name__})"
    except StrategyFailed as exc:  # the bot's bug: its own exception, named as the bot's
        cause = exc.__cause__ or exc
        log.debug("the strategy raised", exc_info=cause)
        s.ended_by = "error"
        where = f"raised by the strategy {s.strategy or type(strategy).__name__}"
        s.error = f"{one_line(cause)} ({where} at step {exc.step})"
        s.error_traceback = traceback_text("".join(traceback.format_exception(cause)))
    except WriteFailed as exc:  # the transcript cannot grow (a full disk): one line says so
        s.ended_by = "error"
        s.error = str(exc)
    except SpendCapReached as exc:  # a daily cap (sunbot.spend): stopped whole, resumable
        s.ended_by = "interrupted"
        s.stop_reason = str(exc)
    except Exception as exc:  # keep the transcript whole whatever failed; say what it was
        log.debug("run stopped by an error", exc_info=True)
        s.ended_by = "error"
        s.error = one_line(exc)  # secrets out, a server's long text cut
        s.error_traceback = traceback_text(traceback.format_exc())
    except (KeyboardInterrupt, asyncio.CancelledError):  # stopped hard: still resumable
        s.ended_by = "interrupted"
        raise
    finally:
        s.timeouts = decider.timeouts
        try:
            decider.close()
        finally:
            run.finish(started, strategy, decider)
    return s


async def _decide(
    run: Run,
    strategy: Strategy,
    pos: Answer,
    decider: Any,
    fallback: Callable[[Any, list[Any]], Any] | None,
    timings: list[float] | None,
) -> Any:
    """The strategy's action for ``pos``, through the move clock.

    Raises:
        ServerMisbehaved: no legal actions while the game goes on, or ``choose`` failed on
            an answer that lacks the game's ``answer_fields`` (not an answer of this game).
        StrategyFailed: ``choose`` raised on an answer of this game (the bot's bug).
        sunbot.agents.clock.BotEscape: the bot tried to end the run.
    """
    step = run.summary.steps + 1
    if not pos.legal_actions:
        raise ServerMisbehaved(f"step {step}: no legal actions, yet gameOver is false")
    obs, legal = pos.observation, pos.legal_actions
    see = getattr(strategy, "on_answer", None)
    if callable(see):  # a search looking ahead through the server needs the position it carries
        try:
            see(pos.raw if pos.raw is not None else _envelope(pos))
        except Exception as failure:
            raise StrategyFailed(step) from failure
    pick = fallback or (lambda o, la: default_fallback(run.slug, o, la))
    t0 = time.perf_counter()
    decision = await decider.decide(obs, legal, fallback=lambda: pick(obs, legal))
    if isinstance(decision.error, SpendCapReached):  # not the bot's failure: a daily cap
        raise decision.error
    if decision.error is not None:
        exc = decision.error
        game = run.game
        missing = (
            [f for f in game.answer_fields if f not in obs]
            if game is not None and not run.backend.trusted
            else []
        )
        if missing:
            raise ServerMisbehaved(
                f"step {step}: the server's answer has no {', '.join(missing)}, so the "
                f"strategy cannot read it ({one_line(exc)}); is it an answer of {run.slug}?"
            ) from exc
        raise StrategyFailed(step) from exc
    if timings is not None:
        timings.append(time.perf_counter() - t0)
    return decision.action


def _envelope(pos: Answer) -> dict[str, Any]:
    """An engine backend's position as the platform's envelope (no state to carry)."""
    return {
        "observation": pos.observation,
        "legalActions": pos.legal_actions,
        "score": pos.score,
        "gameOver": pos.game_over,
    }


def bounded_record(record: dict[str, Any]) -> dict[str, Any]:
    """An agent's record of one decision for a transcript line: ``record`` when its JSON
    fits :data:`MAX_AGENT_RECORD`, else a note of its size."""
    try:
        size = len(json.dumps(record, default=str))
    except (TypeError, ValueError):
        return {"unreadable": True}
    return record if size <= MAX_AGENT_RECORD else {"omitted": f"{size} bytes"}


def _spec_of(raw: Any) -> dict[str, Any] | None:
    """An answer's served ``spec`` object, if it has one."""
    spec = raw.get("spec") if isinstance(raw, dict) else None
    return spec if isinstance(spec, dict) else None


def _fingerprint(pos: Answer) -> str:
    """What must change when the game advances: the state (or observation), the score,
    the legal actions and gameOver (never the token, which may differ for one state)."""
    seen = [pos.state or pos.observation, pos.score, pos.legal_actions, pos.game_over]
    return json.dumps(seen, sort_keys=True, default=str)
