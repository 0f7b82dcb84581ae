"""The escape guard: a bot cannot end the run from inside ``choose``, and a copy of the run
forked behind the guard's back never plays on. Re-exported by :mod:`sunbot.agents.clock`.

``os._exit``, ``os.fork`` and ``os.forkpty`` (and their ``posix`` names) are replaced once by
guards that consult a thread-local flag, set only while a strategy's ``choose`` runs
(:func:`guarded_call`): there they raise, elsewhere they pass through. A fork that bypasses
them (a reference saved before the guard was installed, a C extension) is caught by an
at-fork hook: the bot's copy of the process exits as soon as ``choose`` returns in it.
"""

from __future__ import annotations

import functools
import os
import posix
import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
#: Exit code of a forked copy of this process that a bot made behind the guard's back.
_FORK_CHILD_EXIT = 70


class BotError(RuntimeError):
    """The bot failed: it crashed, answered garbage, went silent, or tried to end the run.

    ``str(error)`` is one line naming the bot and the decision (1-based), e.g. ``exec bot
    python3 bot.py: exited with code 3 at decision 5``. ``stderr_tail`` holds the bot's last
    stderr lines (each cut to ~300 characters; for ``-v``), ``detail`` a longer account
    (an isolated bot's traceback) or ``None``.
    """

    def __init__(
        self, message: str, *, stderr_tail: tuple[str, ...] = (), detail: str | None = None
    ):
        super().__init__(" ".join(message.split()))
        self.stderr_tail = stderr_tail
        self.detail = detail


class BotEscape(BotError):
    """The bot tried to end the process or run from inside ``choose``: raised ``SystemExit``
    or ``KeyboardInterrupt``, or called ``os._exit``/``os.fork``. :meth:`Decider.decide`
    raises it (every other error of ``choose`` comes back in :attr:`Decision.error`)."""


_local = threading.local()
_guard_lock = threading.Lock()
_guard_installed = False
_owner = os.getpid()
_real_exit = os._exit


class _EscapeAttempt(BaseException):
    """Raised in place of ``os._exit``/``os.fork`` while a bot's ``choose`` runs."""


def _guarded(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(real)
    def call(*args: Any, **kwargs: Any) -> Any:
        if getattr(_local, "active", False):
            what = f"os.{name}({', '.join(repr(a)[:40] for a in args)})"
            _local.escape = what
            raise _EscapeAttempt(what)
        return real(*args, **kwargs)

    return call


def install_guard() -> None:
    """Replace ``os._exit``, ``os.fork`` and ``os.forkpty`` (and their ``posix`` names) with
    guards that raise inside a bot's ``choose`` and pass through everywhere else. Idempotent;
    :class:`Decider` calls it."""
    global _guard_installed
    if _guard_installed:
        return
    with _guard_lock:
        if _guard_installed:
            return
        for name in ("_exit", "fork", "forkpty"):
            real = getattr(os, name, None)
            if real is None:
                continue
            wrapped = _guarded(name, real)
            for module in (os, posix):
                if getattr(module, name, None) is real:
                    setattr(module, name, wrapped)
        _guard_installed = True


def _code_of(handler: object) -> object:
    return getattr(getattr(handler, "__func__", handler), "__code__", None)


def _from_signal(exc: BaseException) -> bool:
    """Whether ``exc`` (a KeyboardInterrupt) came from this process's signal handler (a real
    Ctrl-C or SIGTERM, or the SIGALRM timer that ends a SIGTERM's grace in ``sunbot play``)
    rather than from the bot's own ``raise``."""
    if threading.current_thread() is not threading.main_thread():
        return False  # Python runs signal handlers on the main thread only
    handlers = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]
    if any(h is signal.default_int_handler for h in handlers):
        return True  # the C default handler leaves no frame: a real Ctrl-C must win
    if hasattr(signal, "SIGALRM"):  # the grace timer: a stop, not the bot's
        handlers.append(signal.getsignal(signal.SIGALRM))
    codes = [c for h in handlers if (c := _code_of(h)) is not None]
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code in codes:
            return True
        tb = tb.tb_next
    return False


def guarded_call(fn: Callable[..., T], decision: int, *args: Any) -> T:
    """``fn(*args)`` (a strategy's ``choose``) with the escape guard up on this thread;
    ``decision`` (1-based) is named in the error.

    Raises:
        BotEscape: ``fn`` raised ``SystemExit`` or (not from a signal) ``KeyboardInterrupt``,
            or called ``os._exit``/``os.fork``/``os.forkpty`` (even if it caught the error).
        Exception: whatever else ``fn`` raised, unchanged.
    """
    install_guard()
    previous = getattr(_local, "active", False)
    _local.active, _local.escape = True, None
    try:
        result = fn(*args)
    except _EscapeAttempt as exc:
        raise BotEscape(f"the bot called {exc} at decision {decision}") from None
    except SystemExit as exc:
        raise BotEscape(f"the bot raised SystemExit({exc.code!r}) at decision {decision}") from exc
    except KeyboardInterrupt as exc:
        if _from_signal(exc):
            raise
        raise BotEscape(f"the bot raised KeyboardInterrupt at decision {decision}") from exc
    except BaseException:
        if _local.escape is not None:
            raise BotEscape(f"the bot called {_local.escape} at decision {decision}") from None
        raise
    finally:
        _local.active = previous
        if getattr(_local, "bot_fork_child", False):  # a copy of us a bot forked: end it
            _real_exit(_FORK_CHILD_EXIT)
    if _local.escape is not None:  # the bot caught our error and went on: still its error
        raise BotEscape(f"the bot called {_local.escape} at decision {decision}")
    return result


def _after_fork_in_child() -> None:
    """A fork that bypassed the guard (a saved reference, a C extension): inside a bot's
    ``choose`` the child is the bot's copy of the run and must never play or write; any other
    fork (a worker pool) makes the child the owner of what it runs next."""
    global _owner
    if getattr(_local, "active", False):
        _local.bot_fork_child = True
    else:
        _owner = os.getpid()


os.register_at_fork(after_in_child=_after_fork_in_child)


def owner_pid() -> int:
    """The process that owns the run: the one that loaded this module, or the child of a fork
    made outside any bot's ``choose`` (a worker pool). A copy forked by a bot is not it."""
    return _owner


def in_forked_child(owner: int | None = None) -> bool:
    """Whether this process is a copy forked from the run's owner (``owner``, default
    :func:`owner_pid`): such a copy must never write a transcript's result line. The
    transcript writer records ``os.getpid()`` when it opens and passes it here."""
    return os.getpid() != (owner if owner is not None else _owner)


__all__ = [
    "BotError",
    "BotEscape",
    "guarded_call",
    "in_forked_child",
    "install_guard",
    "owner_pid",
]
