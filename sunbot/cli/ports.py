"""Whether a server command can listen where it is told (``sunbot serve``, ``sunbot mcp``)."""

from __future__ import annotations

import socket

from sunbot.cli.play import fail

__all__ = ["check_port"]


def check_port(host: str, port: int) -> None:
    """Exit 2 with a clear message when ``host:port`` cannot be listened on (in use, not an
    address of this machine, no permission), by binding it once as uvicorn will."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise fail(f"--host {host}: {exc.strerror}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(addr)
        except OSError as exc:
            raise fail(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                " (another server there? pick --port)"
            ) from None
