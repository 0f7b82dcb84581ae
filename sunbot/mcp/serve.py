"""Serving the MCP server: over stdio (the default), or over streamable HTTP behind a bearer
token.

Over HTTP the server binds 127.0.0.1 unless told otherwise. Beyond loopback a bearer token
is required (:func:`check_exposure` refuses to start without one); on loopback one may be
given, and is then required of every request too. The token is checked by the SDK's
bearer middleware through :class:`StaticToken` (a constant-time comparison); a request
without it is answered 401 before it reaches the MCP session. The HTTP app is served by
uvicorn with ``sunbot serve``'s limits (:func:`sunbot.server.serving.serve_config`: a
deadline for each request's head and body, a cap on connections).
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

from sunbot._text.safe import remember
from sunbot.mcp.host import McpOptions
from sunbot.mcp.server import create_server

__all__ = [
    "MIN_TOKEN_CHARS",
    "StaticToken",
    "check_exposure",
    "http_app",
    "is_loopback",
    "run_http",
    "run_stdio",
]

#: The shortest bearer token accepted (a guessable token protects nothing).
MIN_TOKEN_CHARS = 16
#: The largest request body the HTTP endpoint reads (a tool call's arguments), bytes.
MAX_BODY_BYTES = 2 << 20


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` listens only on this machine (``localhost``, 127.0.0.0/8,
    ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a bearer token, or with a short one.

    Raises:
        ValueError: one line saying what to give.
    """
    if token is not None and len(token) < MIN_TOKEN_CHARS:
        raise ValueError(f"the token must be at least {MIN_TOKEN_CHARS} characters")
    if token is None and not is_loopback(host):
        raise ValueError(
            f"--host {host} listens beyond this machine: give a bearer token"
            " (SUNBOT_MCP_TOKEN or --token) that every request must carry"
        )


class StaticToken:
    """The SDK's token verifier for one bearer token (compared in constant time)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode("utf-8")

    async def verify_token(self, token: str) -> AccessToken | None:
        """An access token for the one client when ``token`` is the server's, else
        ``None`` (the SDK answers 401)."""
        if hmac.compare_digest(token.encode("utf-8", "surrogatepass"), self._token):
            return AccessToken(token="***", client_id="sunbot-mcp-client", scopes=[])
        return None


def http_app(
    options: McpOptions, *, host: str = "127.0.0.1", port: int = 8765, token: str | None = None
) -> Any:
    """The streamable HTTP app (Starlette) of the MCP server, at path ``/mcp``.

    Raises:
        ValueError: :func:`check_exposure` refused.
    """
    check_exposure(host, token)
    settings: dict[str, Any] = {"max_request_body_size": MAX_BODY_BYTES}
    if token is not None:
        remember(token)  # never in a log line or a transcript
        settings["token_verifier"] = StaticToken(token)
        settings["auth"] = AuthSettings(
            issuer_url=f"http://{host}:{port}",  # type: ignore[arg-type]
            resource_server_url=None,
        )
    return create_server(options, host=host, port=port, **settings).streamable_http_app()


def run_http(
    options: McpOptions, *, host: str, port: int, token: str | None, log_level: str = "warning"
) -> None:
    """Serve streamable HTTP on ``host:port`` until stopped (Ctrl-C).

    Raises:
        ValueError: :func:`check_exposure` refused.
    """
    import uvicorn

    from sunbot.server.serving import serve_config

    app = http_app(options, host=host, port=port, token=token)
    uvicorn.Server(serve_config(app, host=host, port=port, log_level=log_level)).run()


def run_stdio(options: McpOptions) -> None:
    """Serve over standard input and output until the client closes standard input."""
    create_server(options).run("stdio")
