"""One game played over MCP: a sunbot run (or a Harvest Watch seat) in a background task.

The run is assembled by :mod:`sunbot.api` like every other (``plan_run``/``run_plan``, or
``plan_match``/``run_match_plan`` for a Harvest Watch seat with sunbot strategies in the
other five seats), with an :class:`~sunbot.mcp.bridge.AgentSeat` as its strategy: the one
loop checks every answer (the mirror, or the generic checks), writes the transcript and
ends the run as any run ends. :class:`McpGame` holds what the client is shown: the current
decision (a :class:`~sunbot.mcp.bridge.Turn`), the latest position, the transcript's lines
as they are written (single-player runs write through :class:`_Tap`), and the result.

Stopping a game (``end_game``, a budget, an idle client, a client that went away) cancels
its task: the loop writes the ``result`` line (``endedBy: interrupted``) and the transcript
stays whole, so a single-player run resumes from it (:mod:`sunbot.transcripts.resume`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from sunbot import api, strategies
from sunbot._text.safe import safe
from sunbot.generic.grammar import Grammar
from sunbot.mcp.bridge import AgentSeat, Turn
from sunbot.mcp.legal import grammar_of, refusal
from sunbot.mirror import Divergence
from sunbot.runs.backends import Answer
from sunbot.runs.summary import MatchSummary
from sunbot.transcripts.jsonl import TranscriptWriter
from sunbot.transcripts.resume import Resume

__all__ = ["McpGame", "Outcome"]

log = logging.getLogger("sunbot.mcp")


class _Tap(TranscriptWriter):
    """A transcript writer that also hands each line it wrote to ``on_record``: the game
    shows the client exactly what the transcript records."""

    def __init__(
        self, path: Path, on_record: Callable[[dict[str, Any]], None], **options: Any
    ) -> None:
        super().__init__(path, **options)
        self._on_record = on_record

    def write(self, record: dict[str, Any]) -> None:
        """:meth:`TranscriptWriter.write`, then ``on_record(record)``."""
        super().write(record)
        self._on_record(record)


class Outcome:
    """What became of one action (the act tool's answer before it is shaped)."""

    def __init__(
        self,
        sent: bool,
        accepted: bool | None,
        refused: str | None = None,
        verdict: dict[str, Any] | None = None,
    ) -> None:
        self.sent, self.accepted, self.refused, self.verdict = sent, accepted, refused, verdict


class McpGame:
    """One game in progress (module doc).

    Args:
        game_id: its id (the transcript's file name without ``.jsonl``).
        slug: the game.
        kind: ``"rules"`` (a single-player game sunbot knows), ``"generic"`` or ``"match"``.
        seed: the run's seed.
        label: the agent's label.
        path: the transcript.
        idle_s: seconds a decision waits for the client before the game is stopped.
        seat: Harvest Watch: the client's seat.
    """

    def __init__(
        self,
        *,
        game_id: str,
        slug: str,
        kind: str,
        seed: int,
        label: str,
        path: Path,
        idle_s: float,
        seat: int | None = None,
        max_transcript_bytes: int | None = None,
    ) -> None:
        self.id = game_id
        self.slug = slug
        self.kind = kind
        self.seed = seed
        self.label = label
        self.path = path
        self.seat = seat
        self.max_bytes = max_transcript_bytes
        self._loop = asyncio.get_running_loop()
        self.bridge = AgentSeat(label, self._turn_from_thread, self._idle_from_thread, idle_s)
        self.turn: Turn | None = None
        #: the last decision's observation (a match seat's view while it waits)
        self.seen: Any = None
        self.position: Answer | None = None
        self.step = 0
        self.sent = 0
        self.spec: dict[str, Any] | None = None
        self.grammar: Grammar | None = None
        self.lines: list[dict[str, Any]] = []
        self.checked = 0
        self.divergences = 0
        self.result: dict[str, Any] | None = None
        self.summary: MatchSummary | None = None
        self.stop_reason: str | None = None
        self.error: str | None = None
        self.task: asyncio.Task[Any] | None = None
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._recorder: Any = None

    # -- starting --------------------------------------------------------------------------

    def start_single(
        self, plan: api.RunPlan, resume: Resume | None = None, *, fresh: bool = False
    ) -> None:
        """Play ``plan`` (its strategy :attr:`bridge`) in the background, writing the
        transcript at :attr:`path`: appending after ``resume``'s offset when resuming, or
        over a transcript that stopped before its first answer when ``fresh``.

        Raises:
            FileExistsError, OSError: the transcript cannot be created or opened.
        """
        options = {"max_bytes": self.max_bytes}
        if resume is not None or fresh:
            writer = _Tap(self.path, self._tap, append=True, **options)
            writer.truncate(resume.offset if resume is not None else 0)
            if resume is not None:
                self._take_recorded(resume)
        else:
            writer = _Tap(self.path, self._tap, **options)
        self.task = self._loop.create_task(self._single(plan, writer, resume))
        self.task.add_done_callback(self._finished)

    async def _single(
        self, plan: api.RunPlan, writer: TranscriptWriter, resume: Resume | None
    ) -> None:
        try:
            await api.run_plan(plan, writer=writer, resume=resume, on_position=self._on_position)
        finally:
            writer.close()

    def start_match(self, plan: api.MatchPlan, others: str, beat_ms: int) -> None:
        """Play one Harvest Watch match on the embedded server: the client in
        :attr:`seat`, the strategy ``others`` in the five other seats (each built as
        :func:`sunbot.api.run_match_plan` builds a seat's: ``random.Random(seed * 1000 +
        seat)``); every beat ``beat_ms`` milliseconds at most (a beat ends early once every
        living seat stored its command). The transcript's header names the
        lineup, seat by seat (``mcp:LABEL`` for the client)."""
        assert self.seat is not None
        lineup = [others] * 6
        lineup[self.seat] = f"mcp:{self.label}"
        counter = itertools.count()
        inner = plan.make

        def make(rng: random.Random) -> Any:  # called once per seat, in seat order
            return self.bridge if next(counter) == self.seat else inner(rng)

        beats = {b: beat_ms for b in ("speech", "vote", "action", "diary")}
        plan = replace(plan, make=make, strategy=",".join(lineup), seats=6, beat_ms=beats)
        self.task = self._loop.create_task(
            api.run_match_plan(
                plan,
                transcript=self.path,
                on_recorder=self._on_recorder,
                max_transcript_bytes=self.max_bytes,
            )
        )
        self.task.add_done_callback(self._finished)

    def _take_recorded(self, resume: Resume) -> None:
        """What the recorded part of a resumed run says: position, step, checks, spec."""
        self.step = resume.last_index
        self.checked = resume.checked
        self.divergences = len(resume.divergences)
        self._note_spec(resume.init)

    # -- what the loop reports (event loop thread) -------------------------------------

    def _on_position(self, answer: Answer, step: int, found: list[Divergence]) -> None:
        self.position = answer
        self.step = step
        self._changed.set()

    def _on_recorder(self, recorder: Any) -> None:
        self._recorder = recorder

    def _tap(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind in ("init", "step"):
            mirror = record.get("mirror") or {}
            self.checked += 1
            self.divergences += len(mirror.get("divergences") or [])
            if kind == "init":
                self._note_spec(record.get("response"))
            else:  # a refused action is a step too (the transcript's and the result's count)
                self.step = int(record.get("index") or self.step)
            self.lines.append(record)
            del self.lines[:-8]  # the latest few: what the last act produced
        elif kind == "result":
            self.result = record
        self._changed.set()

    def _note_spec(self, answer: Any) -> None:
        spec = answer.get("spec") if isinstance(answer, dict) else None
        if isinstance(spec, dict):
            self.spec = spec
            if self.kind == "generic":
                self.grammar = grammar_of(spec)

    def _turn_from_thread(self, turn: Turn) -> None:
        self._loop.call_soon_threadsafe(self._set_turn, turn)

    def _set_turn(self, turn: Turn) -> None:
        if self.finished:
            return
        self.turn = turn
        self.seen = turn.observation
        self._changed.set()

    def _idle_from_thread(self) -> None:
        reason = f"no action for {self.bridge.idle_s:g} s (the client went idle)"
        self._loop.call_soon_threadsafe(self.stop, reason)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self.turn = None
        if task.cancelled():
            pass  # the result line (if any) came through the tap
        elif (exc := task.exception()) is not None:
            self.error = safe(f"{type(exc).__name__}: {exc}")
            log.warning("game %s stopped: %s", self.id, self.error)
        else:
            value = task.result()
            if isinstance(value, MatchSummary):
                self.summary = value
                self.result = {k: v for k, v in value.result.items() if k != "type"}
                self.checked = value.responses_checked
                self.divergences = len(value.divergences)
        self.bridge.stop()
        self._changed.set()

    # -- the client's side ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """The run's task has ended (by the rules, a cap, a stop or an error)."""
        return self.task is None or self.task.done()

    def stop(self, reason: str) -> None:
        """Stop the game now (its transcript stays whole); ``reason`` is what the client is
        told. Nothing happens to a game that already ended."""
        if self.finished:
            return
        self.stop_reason = reason
        assert self.task is not None
        self.task.cancel()
        self.bridge.stop()

    async def wait_stopped(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the task to end."""
        if self.task is not None and not self.task.done():
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self.task), timeout)

    async def wait(self, timeout: float, after: int = 0) -> None:
        """Wait (at most ``timeout`` seconds) for a decision numbered above ``after`` or
        the end of the game."""
        deadline = time.monotonic() + timeout
        while not self.finished and not (self.turn is not None and self.turn.number > after):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def check(self, action: Any) -> str | None:
        """Why ``action`` would not be sent now (:func:`sunbot.mcp.legal.refusal`), or
        ``None``; the caller makes sure there is a :attr:`turn`."""
        turn = self.turn
        assert turn is not None
        return refusal(self.kind, turn.observation, turn.legal_actions, action, self.grammar)

    async def act(self, action: Any, wait_s: float) -> Outcome:
        """Hand ``action`` to the waiting decision and wait (at most ``wait_s`` seconds)
        for what followed: the next decision or the end. The caller checked it first
        (:meth:`check`) and holds :attr:`lock`."""
        turn = self.turn
        assert turn is not None
        if turn.deadline is not None and time.monotonic() >= turn.deadline:
            return Outcome(False, False, "too late: the beat's clock ran out before the action")
        before = len(self.lines), self.lines[-1] if self.lines else None
        self.turn = None
        self.sent += 1
        self.bridge.answer(turn.number, action)
        await self.wait(wait_s, after=turn.number)
        if self.kind == "match":
            return Outcome(True, None)
        return self._outcome(before[1])

    def _outcome(self, last_before: dict[str, Any] | None) -> Outcome:
        """The step line the action produced (the first after ``last_before``)."""
        lines = self.lines
        start = next((i + 1 for i in range(len(lines) - 1, -1, -1) if lines[i] is last_before), 0)
        step = next((r for r in lines[start:] if r.get("type") == "step"), None)
        if step is None:  # not answered yet (a slow server), or the run ended first
            return Outcome(True, None)
        answer = step.get("response")
        response: dict[str, Any] = answer if isinstance(answer, dict) else {}
        mirror = step.get("mirror") or {}
        verdict = {
            "ok": bool(mirror.get("ok", True)),
            "divergences": mirror.get("divergences") or [],
        }
        if response.get("ok") is False:
            reason = safe(str(response.get("reason") or "refused"))
            return Outcome(True, False, f"the server refused it: {reason}", verdict)
        return Outcome(True, True, None, verdict)

    def match_checks(self) -> tuple[int, int]:
        """A match's ``(answers checked, divergences)`` so far (its seats' mirrors)."""
        rec = self._recorder
        if rec is None:
            return self.checked, self.divergences
        mirrors = list(rec.mirrors.values())
        return sum(m.responses_checked for m in mirrors), sum(len(m.divergences) for m in mirrors)

    def suggestion(self, name: str) -> Any:
        """What the strategy ``name`` (built fresh, seeded with the run's seed, told the
        game and seed) plays in the current decision.

        Raises:
            ValueError: no decision is waiting, or the strategy failed.
        """
        turn = self.turn
        if turn is None:
            raise ValueError("no decision is waiting for you in this game")
        bot = strategies.create(self.slug, name, random.Random(self.seed))
        strategies.notify_start(bot, self.slug, self.seed, None, spec=self.spec)
        try:
            return bot.choose(
                turn.observation,
                [dict(a) if isinstance(a, dict) else a for a in turn.legal_actions],
            )
        finally:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
