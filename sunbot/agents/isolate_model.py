"""A forward model sunbot did not write (a drafted one) run only in a sandboxed child.

:class:`ModelChild` starts a fresh interpreter (multiprocessing's ``spawn``, as
:class:`~sunbot.agents.isolate.IsolatedStrategy` does for an untrusted bot), which bounds
itself (:func:`sunbot.agents.sandbox.enter`: no network, bounded memory and CPU, no new
processes, files written only in a private folder removed after it, sunbot's state folder
unreadable) before it imports the model file. The parent never imports it: it hashes the
file's bytes and talks to the child over a pipe, JSON both ways, each message tagged with its
id. The child only *predicts*: the views the model draws of an opening it is shown, of the
position after an action from the answer before (never the answer it is graded on), and
whether it allows an action. The parent grades the predictions itself
(:class:`sunbot.generic.model_checks.ModelChecks` over a :class:`ChildPredictor`), so a
model that patches sunbot's code inside its child cannot grade itself. A child that dies,
hangs past ``call_timeout_s`` or breaks a limit is one finding (path ``model``) and every
later prediction of it too.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import signal
import sys
import time
import weakref
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sunbot._text.safe import describe, safe
from sunbot.agents._process import exit_text
from sunbot.agents.isolate import MAX_MESSAGE_BYTES, _end, _send
from sunbot.agents.sandbox import Limits, clean_environment, private_folder, remove_folder
from sunbot.forward.load import ModelIdentity, file_hash, is_file_spec
from sunbot.forward.predict import ModelFailed, View

if TYPE_CHECKING:
    from sunbot.generic.model_checks import ModelChecks

#: Seconds one check (a prediction and its comparison) may take in the child.
CALL_TIMEOUT_S = 30.0
#: Seconds the child has to start, bound itself and load the model.
START_TIMEOUT_S = 60.0


def _child(conn: Connection, engine: str, game: str, limits: dict[str, int], private: str) -> None:
    """The child: bound itself (writing only in ``private``), load the model, then answer
    each message until ``close``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    _stdout_to_stderr()
    from sunbot.agents.sandbox import enter
    from sunbot.forward.load import load_model
    from sunbot.generic.model_checks import InProcess

    applied = enter(Limits(**limits), private)
    try:
        loaded = load_model(engine, game, certificates=False)
        rng = random.Random(0)
        model = InProcess(loaded.build(rng), rng)
    except BaseException as exc:  # the model's own code: a SystemExit is its error too
        _send(conn, {"id": 0, "error": describe(exc)})
        return
    ready = {"class": loaded.identity.name, "sha256": loaded.identity.sha256, "sandbox": applied}
    _send(conn, {"id": 0, "ready": True, **ready})
    while True:
        try:
            message = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        op, n = message.get("op"), message.get("id", 0)
        try:
            if op == "close":
                return
            reply: dict[str, Any] = {"id": n}
            if op == "reset":
                rng = random.Random(message.get("seed"))
                model = InProcess(loaded.build(rng), rng)
            elif op == "opening":
                reply |= _views(model.opening(_view(message["served"]), message["key"]))
            elif op == "after":
                before, key = _view(message["before"]), message["key"]
                reply |= _views(model.after(before, message["action"], key, None))
            else:
                before, key = _view(message["before"]), message["key"]
                reply["allows"] = model.allows(before, message["action"], key)
            payload = json.dumps(reply, default=str)
        except BaseException as exc:  # a ModelFailed is already its one line
            why = safe(exc) if isinstance(exc, ModelFailed) else describe(exc)
            payload = json.dumps({"id": n, "error": why})
        conn.send_bytes(payload.encode())


def _stdout_to_stderr() -> None:
    """Send what the model prints (``print``, a write to fd 1, a program it runs) to
    stderr: the child shares the parent's stdout, which holds ``--json`` output."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
        os.dup2(2, 1)
    sys.stdout = sys.stderr


def _view(data: dict[str, Any]) -> View:
    """A :class:`View` from its message form (:func:`_wire`)."""
    return View(
        observation=dict(data["observation"]), legal_actions=list(data["legalActions"]),
        score=float(data["score"]), game_over=bool(data["gameOver"]),
        state_key=str(data.get("stateKey", "")),
    )  # fmt: skip


def _wire(view: View) -> dict[str, Any]:
    return {**view.to_json(), "stateKey": view.state_key}


def _views(views: list[View]) -> dict[str, Any]:
    """Draws as sent back: each distinct one once, and how many were drawn."""
    unique = {json.dumps(_wire(v), sort_keys=True, default=str): v for v in views}
    return {"views": [_wire(v) for v in unique.values()], "drawn": len(views)}


class ModelChild:
    """The model ``engine`` (a ``FILE.py[:Class]``) of ``game``, loaded and run only in a
    sandboxed child (module doc).

    Args:
        engine: the model file, ``FILE.py:Class`` or ``FILE.py``.
        game: the game's slug.
        limits: the child's bounds (:class:`sunbot.agents.sandbox.Limits`).
        call_timeout_s: seconds one check may take.

    Raises:
        sunbot.forward.load.ModelNotLoaded: ``engine`` is not a file, or cannot be read.
    """

    def __init__(
        self,
        engine: str,
        game: str,
        *,
        limits: Limits | None = None,
        call_timeout_s: float = CALL_TIMEOUT_S,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        from sunbot.forward.load import ModelNotLoaded

        if not is_file_spec(engine):
            raise ModelNotLoaded(f"{engine!r}: an isolated model is a file, FILE.py[:Class]")
        raw = engine if engine.endswith(".py") else engine.rpartition(":")[0]
        path = Path(raw)
        if not path.is_file():
            raise ModelNotLoaded(f"no model file {raw!r} (looked in {Path.cwd()})")
        try:
            digest = file_hash(path)
        except OSError as exc:
            raise ModelNotLoaded(f"cannot read {raw}: {exc.strerror or exc}") from None
        name = "" if engine.endswith(".py") else engine.rpartition(":")[2]
        self.identity = ModelIdentity(engine, path, name, digest)
        self.engine, self.game = engine, game
        self.limits = limits or Limits()
        self.call_timeout_s, self.start_timeout_s = call_timeout_s, start_timeout_s
        self.failed: str | None = None
        self.sandbox: list[str] = []
        #: The only folder the child may write in (removed when it ends); ``None`` before.
        self.private: str | None = None
        self._n = 0
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    def start(self) -> None:
        """Start the child and load the model in it.

        Raises:
            sunbot.forward.load.ModelNotLoaded: the child did not start, or the model did
                not load or build there (its one-line reason).
        """
        from sunbot.forward.load import ModelNotLoaded

        if self._conn is not None:
            return
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        private = private_folder()  # the only folder the model may write in
        process = ctx.Process(
            target=_child, args=(child, self.engine, self.game, self.limits.__dict__, private),
            name="sunbot-model", daemon=True,
        )  # fmt: skip
        try:
            with clean_environment():  # the child's environment block never holds a secret
                process.start()
        except Exception as exc:
            parent.close()
            remove_folder(private)
            raise ModelNotLoaded(f"could not start a child process: {describe(exc)}") from None
        finally:
            child.close()
        self._process, self._conn, self.private = process, parent, private
        self._finalizer = weakref.finalize(self, _end, process, parent, private)
        ready = self._ask(None, self.start_timeout_s)
        if ready is None or "error" in ready:
            why = self.failed or (ready or {}).get("error", "did not start")
            self.close()
            raise ModelNotLoaded(f"the model {self.engine} in its sandbox: {why}")
        if ready.get("sha256") != self.identity.sha256:  # the file changed since it was hashed
            self.close()
            raise ModelNotLoaded(f"the model {self.engine} changed while its sandbox started")
        name = str(ready.get("class") or self.identity.name)
        self.identity = ModelIdentity(self.engine, self.identity.path, name, self.identity.sha256)
        self.sandbox = list(ready.get("sandbox") or [])

    def _ask(self, message: dict[str, Any] | None, timeout_s: float) -> dict[str, Any] | None:
        """Send ``message`` (none: await the ready message) and the reply with its id;
        ``None`` with :attr:`failed` set when the child died or was late (then ended)."""
        if self.failed is not None or self._conn is None or self._process is None:
            return None
        n = 0
        if message is not None:
            self._n += 1
            n = self._n
            try:
                _send(self._conn, {**message, "id": n})
            except (OSError, ValueError):
                self._fail(exit_text(self._process.exitcode))
                return None
        until = time.monotonic() + timeout_s
        while True:
            left = until - time.monotonic()
            if left <= 0:
                self._fail(f"gave no answer within {timeout_s:g} s")
                return None
            try:
                if not self._conn.poll(min(left, 0.25)):
                    if not self._process.is_alive():
                        raise EOFError
                    continue
                reply = json.loads(self._conn.recv_bytes(MAX_MESSAGE_BYTES))
            except (EOFError, OSError, ValueError):
                self._process.join(timeout=1.0)
                self._fail(exit_text(self._process.exitcode))
                return None
            if reply.get("id") == n:
                return dict(reply)

    def _fail(self, why: str) -> None:
        self.failed = why
        self.close()

    def checks(self, seed: int | None) -> ModelChecks:
        """Fresh run checks, graded in this process, of the child's model rebuilt with
        ``random.Random(seed)``."""
        from sunbot.generic.model_checks import ModelChecks

        if self.failed is None:  # a child that failed is not started again: each of its
            self.start()  # later predictions is a finding, as the module doc says
            reply = self._ask({"op": "reset", "seed": seed}, self.call_timeout_s)
            if reply is not None and "error" in reply:
                self.failed = f"could not build the model: {reply['error']}"
        predictor = ChildPredictor(self)
        return ModelChecks(None, self.game, seed, random.Random(seed), predictor=predictor)

    def close(self) -> None:
        """End the child (ask, then terminate, then kill). Safe to call twice."""
        if self._finalizer is not None:
            self._finalizer()
        self._conn = None


class ChildPredictor:
    """A :class:`~sunbot.generic.model_checks.Predictor` whose model runs in the sandboxed
    child: each call one message; a child that failed, or a reply that is no prediction,
    raises :class:`~sunbot.forward.predict.ModelFailed` (one finding, path ``model``)."""

    def __init__(self, child: ModelChild) -> None:
        self.child = child

    def _call(self, message: dict[str, Any]) -> dict[str, Any]:
        reply = self.child._ask(message, self.child.call_timeout_s)
        if reply is None or "error" in reply:
            why = str(self.child.failed or (reply or {}).get("error", "no answer"))
            raise ModelFailed(why if why.startswith("model") else f"the isolated model {why}")
        return reply

    def _views(self, message: dict[str, Any]) -> list[View]:
        reply = self._call(message)
        try:
            views = [_view(v) for v in reply["views"]]
            drawn = int(reply["drawn"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFailed(f"the isolated model sent no views ({describe(exc)})") from None
        if not views:
            raise ModelFailed("the isolated model sent no views")
        # one distinct view of several draws is still several draws (compared as draws)
        return views * 2 if len(views) == 1 and drawn > 1 else views

    def opening(self, served: View, key: str) -> list[View]:
        """The child's views of the served opening (it reads the opening it is shown)."""
        return self._views({"op": "opening", "served": _wire(served), "key": key})

    def after(self, before: View, action: Any, key: str, served: View | None) -> list[View]:
        """The child's views after ``action``; ``served`` is never sent to it."""
        return self._views({"op": "after", "before": _wire(before), "action": action, "key": key})

    def allows(self, before: View, action: Any, key: str) -> bool:
        """Whether the child's model lists ``action`` as legal in ``before``."""
        reply = self._call({"op": "allows", "before": _wire(before), "action": action, "key": key})
        return reply.get("allows") is True


__all__ = ["CALL_TIMEOUT_S", "START_TIMEOUT_S", "ChildPredictor", "ModelChild"]
