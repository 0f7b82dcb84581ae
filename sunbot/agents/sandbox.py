"""Bounds for code sunbot did not write, applied inside its child process: no network,
bounded memory and CPU time, no new processes.

:func:`enter` is called first thing in a child started for untrusted code (a drafted
forward model, :class:`sunbot.agents.isolate.IsolatedChecks`): it sets the resource limits
(address space, CPU seconds, file size, :class:`Limits`), takes the process out of the
network where Linux lets an unprivileged process do so (a new user and network namespace:
no interface but a loopback that is down), and installs an audit hook (PEP 578, which code
cannot remove) that refuses new sockets, name lookups, new processes and ``ctypes``
libraries. The pipe to the parent was made before and keeps working. This bounds an honest
mistake (an endless loop, a runaway allocation, a stray download) and raises the bar for
the rest; it is no security boundary against a determined attacker in the same kernel.
"""

from __future__ import annotations

import ctypes
import os
import sys
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
    "urllib.Request",
    "webbrowser.open",
)
_CLONE_NEWUSER, _CLONE_NEWNET = 0x10000000, 0x40000000


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
    for name, kind, value in (
        ("memory", resource.RLIMIT_AS, limits.memory_mb << 20),
        ("cpu", resource.RLIMIT_CPU, limits.cpu_s),
        ("file size", resource.RLIMIT_FSIZE, limits.file_mb << 20),
    ):
        try:
            _, hard = resource.getrlimit(kind)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (cap, hard))
            applied.append(f"{name} {cap}")
        except (ValueError, OSError):
            continue
    if _leave_network():
        applied.append("no network namespace")
    sys.addaudithook(_hook)
    applied.append("audit hook")
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        os.environ.pop(name, None)
    return applied


__all__ = ["REFUSED_EVENTS", "Limits", "Refused", "enter"]
