"""A forward model sunbot did not write (a drafted one) run only in a sandboxed child.

:class:`ModelChild` starts a fresh interpreter (multiprocessing's ``spawn``, as
:class:`~sunbot.agents.isolate.IsolatedStrategy` does for an untrusted bot), which bounds
itself (:func:`sunbot.agents.sandbox.enter`: no network, bounded memory and CPU, no new
processes) before it imports the model file. The parent never imports it: it hashes the
file's bytes and talks to the child over a pipe, JSON both ways, each message tagged with its
id. The child holds the run checks (:class:`sunbot.generic.model_checks.ModelChecks`);
:meth:`ModelChild.checks` gives the parent their interface (:class:`ChildChecks`), so a run
(``sunbot certify``, the drafting loop) is checked by the model without its code ever
running in sunbot's own process. A child that dies, hangs past ``call_timeout_s`` or
breaks a limit is one finding (path ``model``) and every later prediction of it too.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import signal
import time
import weakref
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from sunbot._text.safe import describe
from sunbot.agents._process import exit_text
from sunbot.agents.isolate import MAX_MESSAGE_BYTES, _end, _send
from sunbot.agents.sandbox import Limits
from sunbot.forward.load import ModelIdentity, file_hash, is_file_spec
from sunbot.mirror import Divergence

#: Seconds one check (a prediction and its comparison) may take in the child.
CALL_TIMEOUT_S = 30.0
#: Seconds the child has to start, bound itself and load the model.
START_TIMEOUT_S = 60.0


def _child(conn: Connection, engine: str, game: str, limits: dict[str, int]) -> None:
    """The child: bound itself, load the model, then answer each message until ``close``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us
    from sunbot.agents.sandbox import enter
    from sunbot.forward.load import load_model
    from sunbot.generic.model_checks import ModelChecks

    applied = enter(Limits(**limits))
    try:
        loaded = load_model(engine, game, certificates=False)
        rng = random.Random(0)
        checks = ModelChecks(loaded.build(rng), game, None, rng)
    except BaseException as exc:  # the model's own code: a SystemExit is its error too
        _send(conn, {"id": 0, "error": describe(exc)})
        return
    _send(conn, {"id": 0, "ready": True, "class": loaded.identity.name, "sandbox": applied})
    while True:
        try:
            message = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        op, n = message.get("op"), message.get("id", 0)
        try:
            if op == "close":
                return
            if op == "reset":
                rng = random.Random(message.get("seed"))
                checks = ModelChecks(loaded.build(rng), game, message.get("seed"), rng)
                found: list[Divergence] = []
            elif op == "init":
                found = checks.check_init(message["raw"])
            else:
                found = checks.check_action(
                    message["step"], message["before"], message["action"], message["answer"]
                )
            reply = {
                "id": n,
                "found": [d.to_json() for d in found],
                "checked": checks.responses_checked,
                "unknown": sorted(checks.unknown_fields),
            }
            payload = json.dumps(reply, default=str)
        except BaseException as exc:
            payload = json.dumps({"id": n, "error": describe(exc)})
        conn.send_bytes(payload.encode())


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
        process = ctx.Process(
            target=_child, args=(child, self.engine, self.game, self.limits.__dict__),
            name="sunbot-model", daemon=True,
        )  # fmt: skip
        try:
            process.start()
        except Exception as exc:
            parent.close()
            raise ModelNotLoaded(f"could not start a child process: {describe(exc)}") from None
        finally:
            child.close()
        self._process, self._conn = process, parent
        self._finalizer = weakref.finalize(self, _end, process, parent)
        ready = self._ask(None, self.start_timeout_s)
        if ready is None or "error" in ready:
            why = self.failed or (ready or {}).get("error", "did not start")
            self.close()
            raise ModelNotLoaded(f"the model {self.engine} in its sandbox: {why}")
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

    def checks(self, seed: int | None) -> ChildChecks:
        """Fresh run checks in the child, their model built with ``random.Random(seed)``."""
        self.start()
        reply = self._ask({"op": "reset", "seed": seed}, self.call_timeout_s)
        if reply is not None and "error" in reply:
            self.failed = f"could not build the model: {reply['error']}"
        return ChildChecks(self, seed)

    def close(self) -> None:
        """End the child (ask, then terminate, then kill). Safe to call twice."""
        if self._finalizer is not None:
            self._finalizer()
        self._conn = None


class ChildChecks:
    """The run checks of :class:`sunbot.generic.model_checks.ModelChecks`, computed in the child
    (the mirror's interface, ``kind = "model"``)."""

    kind = "model"

    def __init__(self, child: ModelChild, seed: int | None) -> None:
        self.child = child
        self.seed = seed
        self.responses_checked = 0
        self.divergences: list[Divergence] = []
        self.unknown_fields: set[str] = set()

    def _call(self, step: int, message: dict[str, Any]) -> list[Divergence]:
        reply = self.child._ask(message, self.child.call_timeout_s)
        if reply is None or "error" in reply:
            why = self.child.failed or (reply or {}).get("error", "no answer")
            self.responses_checked += 1
            found = [Divergence(step, "model", "a prediction", f"the isolated model {why}",
                                "model: no prediction")]  # fmt: skip
        else:
            self.responses_checked = int(reply.get("checked", self.responses_checked + 1))
            self.unknown_fields.update(str(u) for u in reply.get("unknown", []))
            found = [
                Divergence(int(d["step"]), str(d["path"]), d.get("expected"), d.get("got"),
                           str(d.get("note", "")))
                for d in reply.get("found", [])
            ]  # fmt: skip
        self.divergences.extend(found)
        return found

    def check_init(self, raw: dict[str, Any]) -> list[Divergence]:
        """The child's checks of the opening."""
        return self._call(0, {"op": "init", "raw": raw})

    def check_action(
        self, step: int, before: dict[str, Any], action: Any, answer: dict[str, Any]
    ) -> list[Divergence]:
        """The child's checks of the answer to ``action``."""
        message = {"op": "action", "step": step, "before": before, "action": action,
                   "answer": answer}  # fmt: skip
        return self._call(step, message)

    def warm(self, init: dict[str, Any], recorded: list[tuple[Any, dict[str, Any]]]) -> None:
        """Not supported: an isolated model's runs are not resumed."""
        raise NotImplementedError("an isolated model's runs are not resumed")


__all__ = ["CALL_TIMEOUT_S", "START_TIMEOUT_S", "ChildChecks", "ModelChild"]
