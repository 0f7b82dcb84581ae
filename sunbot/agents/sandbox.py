"""Bounds for code sunbot did not write, applied inside its child process: no network,
bounded memory and CPU time, no new processes, files written only in a private folder.

:func:`enter` is called first thing in a child started for untrusted code (a drafted
forward model, :class:`sunbot.agents.isolate.IsolatedChecks`): it sets the resource limits
(address space, CPU seconds, file size, :class:`Limits`), takes the process out of the
network where Linux lets an unprivileged process do so (a new user and network namespace:
no interface but a loopback that is down), and installs an audit hook (PEP 578, which code
cannot remove) that refuses new sockets, name lookups, new processes, ``ctypes`` libraries
and symbol lookups. The file guard (:func:`guard_files`, a second audit hook) lets the code
write, create, rename or remove files only inside its private temporary folder (made by the
parent, removed after the child ends: :func:`private_folder`), never read or list sunbot's
state folder (:func:`sunbot._state.state_dir`: the key that signs certificates lives there),
nor change its working folder or open another process's ``/proc`` entries. The limits are
hard (the code cannot raise them again), no new process may start (``RLIMIT_NPROC``; the
kernel does not apply it to root) and the low-level process spawner multiprocessing left
loaded is removed. Its standard output and error go to ``/dev/null`` (it cannot write into
sunbot's output), and :func:`clean_environment` keeps
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
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
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


#: Audit events that change the file system (their names): allowed only on paths inside the
#: private folder. Each event's path arguments are the first ``n`` of its arguments.
WRITE_EVENTS = {
    "os.rename": 2,  # os.rename and os.replace
    "os.remove": 1,  # os.remove and os.unlink
    "os.rmdir": 1,
    "os.mkdir": 1,
    "os.link": 2,
    "os.symlink": 2,
    "os.truncate": 1,
    "os.chmod": 1,
    "os.chown": 1,
    "os.utime": 1,
    "os.chflags": 1,
    "os.setxattr": 1,
    "os.removexattr": 1,
    "shutil.copyfile": 2,
    "shutil.copymode": 2,
    "shutil.copystat": 2,
    "shutil.copytree": 2,
    "shutil.move": 2,
    "shutil.rmtree": 1,
    "shutil.chown": 1,
    "shutil.make_archive": 1,
    "shutil.unpack_archive": 2,
}
#: Audit events that read a folder's listing: refused on sunbot's state folder.
LIST_EVENTS = ("os.listdir", "os.scandir", "os.listxattr", "glob.glob", "glob.glob/2")
#: ``open`` flags that write.
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


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


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _real(path: Any) -> str | None:
    """``path`` (text, bytes or a path object) resolved as the kernel will (symbolic links
    followed, relative to the working folder); ``None`` for an open file descriptor."""
    if isinstance(path, int):
        return None  # an open descriptor: what it may do was settled when it was opened
    try:
        text = os.fsdecode(os.fspath(path))
    except (TypeError, ValueError):
        return ""  # not a path we can read: refused below as outside the folder
    if not os.path.isabs(text):
        # an audit event does not carry ``dir_fd``: a relative path may be relative to any
        # folder the code holds open (``os.open("key", dir_fd=fd)``), so it is refused
        return ""
    return os.path.realpath(text)


def file_rule(private: str, state: str) -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook of :func:`guard_files`: writes only inside ``private``, nothing read
    under ``state`` (both real paths), no ``chdir``, no other process's ``/proc`` entries.

    Raises (from the hook):
        Refused: the event is not allowed, naming the event and the path.
    """
    me = f"/proc/{os.getpid()}"

    def refuse(event: str, path: str | None) -> None:
        raise Refused(f"the sandbox refuses {event} {path!r} (it writes only in its private"
                      " folder and never reads sunbot's state)")  # fmt: skip

    def reads(event: str, path: str | None) -> None:
        if path is None:
            return
        if path == "" or _inside(path, state):
            refuse(event, path)
        if re.match(r"/proc/\d+(/|$)", path) and not _inside(path, me):
            refuse(event, path)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path = _real(args[0])
            flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
            mode = args[1] if len(args) > 1 and isinstance(args[1], str) else ""
            writes = bool(flags & _WRITE_FLAGS) or any(c in mode for c in "wax+")
            if writes and path is not None and not _inside(path, private):
                refuse(event, path)
            reads(event, path)
        elif event in WRITE_EVENTS:
            for raw in args[: WRITE_EVENTS[event]]:
                path = _real(raw)
                if path is not None and not _inside(path, private):
                    refuse(event, path)
        elif event.startswith(LIST_EVENTS) and args:
            reads(event, _real(args[0]))
        elif event in ("os.chdir", "os.chroot", "os.mkfifo", "os.mknod"):
            refuse(event, str(args[0]) if args else None)
        elif event.startswith("sqlite3."):
            # SQL itself writes files (ATTACH DATABASE, VACUUM INTO) without an audit event
            refuse(event, str(args[0]) if args else None)

    return hook


def guard_files(private: str) -> None:
    """Install the file guard (:func:`file_rule`) for this process: it may write only inside
    ``private`` and never read sunbot's state folder. Call it before any untrusted code runs;
    an audit hook cannot be removed. Working folder changes and relative paths are refused
    from here on (an audit event does not carry the ``dir_fd`` a relative path may be
    relative to), and ``sqlite3`` altogether (``ATTACH``/``VACUUM INTO`` write files)."""
    from sunbot._state import state_dir

    sys.dont_write_bytecode = True  # no __pycache__ beside the code it imports
    # relative paths are refused from here on (an audit event does not say which folder a
    # ``dir_fd`` names): the import path is made absolute first, as the working folder is
    sys.path[:] = [os.path.abspath(p) if isinstance(p, str) else p for p in sys.path]
    real_private = os.path.realpath(private)
    real_state = os.path.realpath(state_dir())
    tempfile.tempdir = real_private  # tempfile's own files land in the private folder
    for name in ("TMPDIR", "TEMP", "TMP"):
        os.environ[name] = real_private
    sys.addaudithook(file_rule(real_private, real_state))


def private_folder() -> str:
    """A fresh folder (owner-only) for a sandboxed child's files; the parent removes it with
    :func:`remove_folder` once the child has ended."""
    return tempfile.mkdtemp(prefix="sunbot-sandbox-")


def remove_folder(path: str) -> None:
    """Remove a child's private folder and what it holds (nothing raised)."""
    shutil.rmtree(path, ignore_errors=True)


def _leave_network() -> bool:
    """A new user and network namespace (Linux, where unprivileged namespaces are allowed);
    whether it worked."""
    if not sys.platform.startswith("linux"):
        return False
    uid, gid = os.geteuid(), os.getegid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if int(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET)) != 0:
            return False
    except (OSError, AttributeError):
        return False
    # the process's own ids mapped in the namespace (as `unshare --map-root-user`), which a
    # further user namespace needs (:func:`_hide_state`)
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
        with contextlib.suppress(OSError), open(f"/proc/self/{name}", "w") as fh:
            fh.write(text)
    return True


def _die_with_parent() -> None:
    """Linux: this process is killed when its parent dies (``PR_SET_PDEATHSIG``), so a
    child stuck in a call does not outlive a ``kill -9`` of the command that started it."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG


_CLONE_NEWNS = 0x00020000
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000


def _hide_state() -> bool:
    """Cover sunbot's state folder with an empty, unreadable ``tmpfs`` in a mount namespace
    of this process's own, then enter a further user namespace so the cover is locked (it
    cannot be unmounted from there): an operating-system wall, where the audit hooks are
    only a guard that code in the same interpreter can switch off. Needs the user namespace
    of :func:`_leave_network`; whether it worked (nothing changed where it did not)."""
    from sunbot._state import state_dir

    folder = os.path.realpath(state_dir())
    if not os.path.isdir(folder):
        return True  # nothing there to read (a key made later is the parent's, outside)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if int(libc.unshare(_CLONE_NEWNS)) != 0:
            return False
        if int(libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None)) != 0:
            return False
        cover = libc.mount(b"tmpfs", os.fsencode(folder), b"tmpfs", 0, b"size=4k,mode=000")
        if int(cover) != 0:
            return False
        return int(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS)) == 0
    except (OSError, AttributeError):
        return False


def enter(limits: Limits, private: str | None = None) -> list[str]:
    """Bound this process (see the module doc); what was applied, in words. Call it once,
    in the child, before any untrusted code is imported. ``private``: the folder it may
    write in (:func:`private_folder`); ``None`` makes one (left behind when the child dies).
    """
    import resource

    applied = []
    _quiet()
    _die_with_parent()
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
        if _hide_state():
            applied.append("state folder covered")
    spawner = sys.modules.get("_posixsubprocess")  # fork_exec raises no audit event
    if spawner is not None and hasattr(spawner, "fork_exec"):
        with contextlib.suppress(AttributeError, TypeError):
            delattr(spawner, "fork_exec")
    sys.addaudithook(_hook)
    applied.append("audit hook")
    guard_files(private if private is not None else private_folder())
    applied.append("file guard")
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


__all__ = [
    "LIST_EVENTS",
    "REFUSED_EVENTS",
    "SECRET_VARIABLE",
    "WRITE_EVENTS",
    "Limits",
    "Refused",
    "clean_environment",
    "enter",
    "file_rule",
    "guard_files",
    "private_folder",
    "remove_folder",
]
