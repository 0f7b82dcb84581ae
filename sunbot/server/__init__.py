"""The local Gameboard-compatible server: :func:`create_app` (FastAPI) and its tokens."""

from sunbot.server.app import create_app
from sunbot.server.tokens import BadToken, TokenCodec

__all__ = ["BadToken", "TokenCodec", "create_app"]
