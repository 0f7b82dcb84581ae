"""``--isolate``: an in-process bot played in a child process of its own.

:class:`IsolatedStrategy` starts a fresh interpreter (multiprocessing's ``spawn``), builds the
strategy there from a picklable recipe (a strategy name for
:func:`sunbot.strategies.create` or a bot file ``path.py:Class``, and the run's seed for its
``random.Random``, so it plays as it would in-process) and asks it for decisions over a pipe,
JSON both ways, each message tagged with the decision's id so a late answer is dropped. A
child that dies (``os._exit``, a signal, a crash in C) is the bot's error naming its exit
code or signal; ``SystemExit``, ``KeyboardInterrupt``, ``os._exit`` and ``os.fork`` inside
``choose`` are named as on the in-process path. :meth:`IsolatedStrategy.close` ends the child.
A bot file's child also keeps to the sandbox's file guard
(:func:`sunbot.agents.sandbox.guard_files`): the bot writes files only in a private folder
(removed when the child ends) and cannot read sunbot's state folder; a built-in strategy
(sunbot's own code, which may keep its ledger there) runs without it.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import multiprocessing
import random
import signal
import time
import traceback
import weakref
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from sunbot._text.safe import describe, traceback_text
from sunbot.agents._guard import BotError, BotEscape, guarded_call
from sunbot.agents._process import exit_text
from sunbot.agents.clock import DecisionTimeout
from sunbot.agents.sandbox import clean_environment, guard_files, private_folder, remove_folder

#: Largest message from the child, in bytes.
MAX_MESSAGE_BYTES = 1 << 20
#: Longest ``last_decision()`` record of the child's strategy kept, in JSON characters.
MAX_RECORD_CHARS = 4096
#: Seconds the child has to start and build its strategy.
START_TIMEOUT_S = 60.0
#: Seconds between checks that the child is still alive while waiting on it.
_POLL_S = 0.25


def _send(conn: Connection, message: dict[str, Any]) -> None:
    conn.send_bytes(json.dumps(message, separators=(",", ":")).encode())


def _start_hook(strategy: object, game: str, seed: int | None, cap: Any, spec: Any) -> None:
    """``on_start`` with ``cap``/``spec`` passed where the hook declares them (or **kwargs)."""
    hook = getattr(strategy, "on_start", None)
    if not callable(hook):
        return
    try:
        params = inspect.signature(hook).parameters.values()
    except (TypeError, ValueError):
        params = ()  # type: ignore[assignment]
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
    names = {p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY}
    kwargs = {k: v for k, v in (("cap", cap), ("spec", spec)) if takes_any or k in names}
    if spec is None:
        kwargs.pop("spec", None)
    hook(game, seed, **kwargs)


def _child(
    conn: Connection, game: str, recipe: str, seed: int | None, private: str | None = None
) -> None:
    """The child's loop: build the strategy, then answer each message until ``close`` or EOF.
    ``private``: for a bot file, the only folder it may write in (the file guard)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    from sunbot import strategies

    if private is not None:
        guard_files(private)

    try:
        strategy = strategies.create(game, recipe, random.Random(seed))
    except Exception as exc:
        _send(conn, {"id": 0, "error": describe(exc)})
        return
    _send(conn, {"id": 0, "ready": True})
    while True:
        try:
            message = json.loads(conn.recv_bytes())
        except (EOFError, OSError):  # the parent is gone
            return
        op, n = message.get("op"), message.get("id", 0)
        if op == "close":
            close = getattr(strategy, "close", None)
            if callable(close):
                close()
            return
        if op == "end":
            strategies.notify_end(strategy, message.get("observation"), message["outcome"])
            continue
        try:
            if op == "start":
                _start_hook(strategy, game, seed, message.get("cap"), message.get("spec"))
                reply: dict[str, Any] = {"id": n, "ok": True}
            else:
                obs, legal = message["observation"], message["legalActions"]
                action = guarded_call(strategy.choose, n, obs, legal)
                reply = {"id": n, "action": action, **_extras(strategy)}
            payload = json.dumps(reply, separators=(",", ":"))
        except BotEscape as exc:
            _send(conn, {"id": n, "escape": str(exc)})
            return
        except Exception as exc:
            text = traceback_text("".join(traceback.format_exception(exc)))
            _send(conn, {"id": n, "error": describe(exc), "traceback": text})
            continue
        conn.send_bytes(payload.encode())


def _extras(strategy: object) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, name in (("last", "last_decision"), ("totals", "totals")):
        method = getattr(strategy, name, None)
        if callable(method):
            out[key] = method()
    return out


def _end(process: BaseProcess, conn: Connection, private: str | None = None) -> None:
    """Ask the child to close, then terminate and kill it if it lingers, then remove its
    private folder (``private``, when it had one). Runs once."""
    with contextlib.suppress(OSError, ValueError):
        _send(conn, {"op": "close"})
    conn.close()
    process.join(timeout=1.0)
    if process.is_alive():
        process.terminate()
        process.join(timeout=1.0)
    if process.is_alive():
        process.kill()
        process.join(timeout=5.0)
    if private is not None:
        remove_folder(private)


class IsolatedStrategy:
    """A strategy built and played in a child process (module doc).

    Args:
        factory_spec: a strategy name of ``game`` or a bot file ``path.py[:Name]``.
        game: the game's slug.
        seed: the seed of the strategy's ``random.Random`` (the run's seed).
        start_timeout_s: seconds the child has to start and build the strategy.
        timeout_s: seconds one decision may take when no move clock bounds it (``None``:
            as long as the bot thinks, like an in-process bot).

    Raises:
        UnknownStrategy: no strategy of that name for the game, or no such bot file (the
            file is not imported here: its code runs in the child only).
    """

    #: The move clock's mark of a strategy already in a child process.
    isolated = True

    blocking = True

    def __init__(
        self,
        factory_spec: str,
        game: str,
        seed: int | None,
        *,
        start_timeout_s: float = START_TIMEOUT_S,
        timeout_s: float | None = None,
    ) -> None:
        from sunbot import bots, strategies

        if bots.is_file_spec(factory_spec):
            path = factory_spec if factory_spec.endswith(".py") else factory_spec.rpartition(":")[0]
            if not Path(path).is_file():
                raise strategies.UnknownStrategy(f"no bot file {path!r} (looked in {Path.cwd()})")
        elif factory_spec not in strategies.names(game):
            strategies.check(game, factory_spec)  # raises with the list of valid names
        self.factory_spec = factory_spec
        self.game = game
        self.seed = seed
        self.start_timeout_s = start_timeout_s
        self.timeout_s = timeout_s
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._failed: BotError | None = None
        self._decisions = self._late = 0
        self._last: dict[str, Any] | None = None
        self._totals: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"IsolatedStrategy({self.factory_spec!r}, {self.game!r})"

    @property
    def pid(self) -> int | None:
        """The child's process id once started (``None`` before)."""
        return self._process.pid if self._process is not None else None

    def _start(self) -> Connection:
        if self._conn is not None:
            return self._conn
        from sunbot import bots

        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        private = private_folder() if bots.is_file_spec(self.factory_spec) else None
        process = ctx.Process(
            target=_child,
            args=(child, self.game, self.factory_spec, self.seed, private),
            name=f"sunbot-isolated-{self.factory_spec}"[:60],
            daemon=True,
        )
        try:
            with clean_environment():  # its environment block never holds our secrets
                process.start()
        except Exception as exc:  # no way to start an interpreter (limits, a frozen app)
            parent.close()
            if private is not None:
                remove_folder(private)
            raise self._fail(f"could not start a child process: {describe(exc)}") from None
        finally:
            child.close()
        self._process, self._conn = process, parent
        self._finalizer = weakref.finalize(self, _end, process, parent, private)
        self._receive(0, time.monotonic() + self.start_timeout_s, starting=True)
        return parent

    def _receive(self, n: int, until: float | None, *, starting: bool = False) -> dict[str, Any]:
        """The child's reply to message ``n`` (earlier replies are dropped).

        Raises:
            DecisionTimeout: ``until`` passed (a decision on the clock).
            BotError: the child died, failed to start or sent something unreadable.
        """
        assert self._conn is not None and self._process is not None
        while True:
            left = _POLL_S if until is None else min(_POLL_S, until - time.monotonic())
            if left <= 0:
                if starting:
                    raise self._fail(f"did not start within {self.start_timeout_s:g} s")
                raise DecisionTimeout(f"isolated bot {self.factory_spec}: late at decision {n}")
            try:
                if not self._conn.poll(left):
                    if not self._process.is_alive():
                        raise EOFError
                    continue
                message = json.loads(self._conn.recv_bytes(MAX_MESSAGE_BYTES))
            except (EOFError, OSError):
                self._process.join(timeout=1.0)
                where = "while starting" if starting else f"at decision {n}"
                raise self._fail(f"{exit_text(self._process.exitcode)} {where}") from None
            if message.get("id") != n:
                continue  # a late reply to a decision the clock gave up on
            if starting and "error" in message:
                raise self._fail(f"could not be built: {message['error']}")
            if "escape" in message:
                self._failed = BotEscape(message["escape"])
                raise self._failed
            return dict(message)

    def _fail(self, text: str) -> BotError:
        self._failed = BotError(f"isolated bot {self.factory_spec}: {text}")
        return self._failed

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        """Start the child and pass ``on_start`` on to its strategy.

        Raises:
            BotError: the child did not start, or the strategy's hook raised.
        """
        conn = self._start()
        _send(conn, {"op": "start", "id": -1, "cap": cap, "spec": spec})
        try:
            reply = self._receive(-1, time.monotonic() + self.start_timeout_s)
        except DecisionTimeout:
            raise self._fail(f"on_start took over {self.start_timeout_s:g} s") from None
        if "error" in reply:
            raise BotError(f"isolated bot {self.factory_spec}: on_start raised {reply['error']}")

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        """The child strategy's action (bounded by ``timeout_s`` when set).

        Raises:
            BotError: the child died or the strategy raised (``detail``: its traceback);
                :class:`~sunbot.agents.clock.BotEscape` when it tried to end the run.
        """
        return self.choose_by(observation, legal_actions, None)

    def choose_by(
        self, observation: Any, legal_actions: list[Any], deadline: float | None, /
    ) -> Any:
        """The child strategy's action by ``deadline`` (:func:`time.monotonic`, or ``None``).

        Raises:
            DecisionTimeout: the deadline passed first; the late reply will be dropped.
            BotError: as :meth:`choose`.
        """
        if self._failed is not None:
            raise type(self._failed)(str(self._failed))
        conn = self._start()
        self._decisions += 1
        n = self._decisions
        started = time.monotonic()
        ceiling = None if self.timeout_s is None else started + self.timeout_s
        until = ceiling if deadline is None else min(deadline, ceiling or deadline)
        _send(
            conn,
            {"op": "choose", "id": n, "observation": observation, "legalActions": legal_actions},
        )
        try:
            reply = self._receive(n, until)
        except DecisionTimeout:
            if deadline is None or (ceiling is not None and ceiling <= deadline):
                raise self._fail(f"no answer within {self.timeout_s:g} s at decision {n}") from None
            self._late += 1
            raise
        if "error" in reply:
            raise BotError(
                f"isolated bot {self.factory_spec} raised {reply['error']} at decision {n}",
                detail=reply.get("traceback"),
            )
        last, self._totals = reply.get("last"), reply.get("totals")
        ms = round((time.monotonic() - started) * 1000, 3)
        if last is not None and (
            not isinstance(last, dict) or len(json.dumps(last)) > MAX_RECORD_CHARS
        ):
            last = {"lastDecision": f"left out: over {MAX_RECORD_CHARS} characters or no object"}
        self._last = {**(last or {}), "ms": ms}
        return reply["action"]

    def on_end(self, observation: Any, outcome: Any) -> None:
        """Pass ``on_end`` on to the child's strategy (errors there are logged there)."""
        if self._conn is not None and self._failed is None:
            with contextlib.suppress(OSError, ValueError):
                _send(self._conn, {"op": "end", "observation": observation, "outcome": outcome})

    def last_decision(self) -> dict[str, Any] | None:
        """The child strategy's ``last_decision()`` (if any) with ``ms``."""
        return self._last

    def totals(self) -> dict[str, Any]:
        """``{kind: "isolated", strategy, decisions, late}`` plus the child strategy's own
        totals (as of its last answer) under ``bot``."""
        out: dict[str, Any] = {
            "kind": "isolated",
            "strategy": self.factory_spec,
            "decisions": self._decisions,
            "late": self._late,
        }
        if self._totals is not None:
            out["bot"] = self._totals
        return out

    def close(self) -> None:
        """End the child: ask it to close, then terminate, then kill. Safe to call twice."""
        if self._finalizer is not None:
            self._finalizer()


__all__ = ["MAX_MESSAGE_BYTES", "START_TIMEOUT_S", "IsolatedStrategy"]
