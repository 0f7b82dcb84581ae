"""Bounds for code sunbot did not write, applied inside its child process: no network,
bounded memory and CPU time, no new processes.

:func:`enter` is called first thing in a child started for untrusted code (a drafted
forward model, :class:`sunbot.agents.isolate.IsolatedChecks`): it sets the resource limits
(address space, CPU seconds, file size, :class:`Limits`), takes the process out of the
network where Linux lets an unprivileged process do so (a new user and network namespace:
no interface but a loopback that is down), and installs an audit hook (PEP 578, which code
cannot remove) that refuses new sockets, name lookups, new processes, ``ctypes`` libraries
and symbol lookups. The limits are hard (the code cannot raise them again), no new process
may start (``RLIMIT_NPROC``; the kernel does not apply it to root) and the low-level
process spawner multiprocessing left loaded is removed. Its standard output and error go to
``/dev/null`` (it cannot write into sunbot's output), and :func:`clean_environment` keeps
secrets out of the environment it starts with. The pipe to the parent was made before and
keeps working. This bounds an honest mistake (an endless loop, a runaway allocation, a
stray download) and raises the bar for the rest; it is **no security boundary** against a
determined attacker in the same kernel (it shares the user's files, for one): run code you
do not trust in a container or a virtual machine.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: Audit events refused in a sandboxed child (their prefixes).
REFUSED_EVENTS = (
    "socket.__new__",
    "socket.connect",
    "socket.bind",
    "socket.getaddrinfo",
    "socket.gethostbyname",
    "socket.gethostbyaddr",
    "socket.sendto",
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
    "ctypes.dlopen",
    "ctypes.dlsym",
    "urllib.Request",
    "webbrowser.open",
)
_CLONE_NEWUSER, _CLONE_NEWNET = 0x10000000, 0x40000000
#: Environment variables that look like secrets (a key, token, password, credential...):
#: a sandboxed child starts without them.
SECRET_VARIABLE = re.compile(
    r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE|_PAT$|SSH_AUTH_SOCK",
    re.IGNORECASE,
)


class Refused(PermissionError):
    """Code in a sandboxed child tried what the sandbox refuses (the event's name)."""


@dataclass(frozen=True)
class Limits:
    """The bounds of a sandboxed child: ``memory_mb`` of address space, ``cpu_s`` seconds of
    CPU time in all (past it the kernel ends the process), ``file_mb`` written to one file."""

    memory_mb: int = 1024
    cpu_s: int = 300
    file_mb: int = 1

    def to_json(self) -> dict[str, int]:
        """``{memoryMb, cpuS, fileMb}``."""
        return {"memoryMb": self.memory_mb, "cpuS": self.cpu_s, "fileMb": self.file_mb}


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event.startswith(REFUSED_EVENTS):
        raise Refused(f"the sandbox refuses {event} (no network, no processes)")


def _leave_network() -> bool:
    """A new user and network namespace (Linux, where unprivileged namespaces are allowed);
    whether it worked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET)) == 0
    except (OSError, AttributeError):
        return False


def enter(limits: Limits) -> list[str]:
    """Bound this process (see the module doc); what was applied, in words. Call it once,
    in the child, before any untrusted code is imported.
    """
    import resource

    applied = []
    _quiet()
    for name, kind, value in (
        ("memory", resource.RLIMIT_AS, limits.memory_mb << 20),
        ("cpu", resource.RLIMIT_CPU, limits.cpu_s),
        ("file size", resource.RLIMIT_FSIZE, limits.file_mb << 20),
        ("processes", resource.RLIMIT_NPROC, 0),
    ):
        try:
            _, hard = resource.getrlimit(kind)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (cap, cap))  # hard too: the code cannot lift it
            applied.append(f"{name} {cap}")
        except (ValueError, OSError):
            continue
    if _leave_network():
        applied.append("no network namespace")
    spawner = sys.modules.get("_posixsubprocess")  # fork_exec raises no audit event
    if spawner is not None and hasattr(spawner, "fork_exec"):
        with contextlib.suppress(AttributeError, TypeError):
            delattr(spawner, "fork_exec")
    sys.addaudithook(_hook)
    applied.append("audit hook")
    os.environ.pop("OPENAI_BASE_URL", None)  # the secrets never came in: clean_environment
    return applied


def _quiet() -> None:
    """Standard output and error to ``/dev/null`` (file descriptors 1 and 2)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            os.dup2(null, fd)
    os.close(null)


@contextlib.contextmanager
def clean_environment() -> Iterator[None]:
    """While a sandboxed child starts: the environment without the variables that look
    like secrets (:data:`SECRET_VARIABLE`), so the child's own environment block (what
    ``/proc/self/environ`` shows) never held them; put back after."""
    taken = {n: os.environ.pop(n) for n in list(os.environ) if SECRET_VARIABLE.search(n)}
    try:
        yield
    finally:
        os.environ.update(taken)


__all__ = ["REFUSED_EVENTS", "SECRET_VARIABLE", "Limits", "Refused", "clean_environment", "enter"]
