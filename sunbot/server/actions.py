"""One action applied to a position: the work of ``POST /api/games/{slug}/action``.

The FastAPI route and :class:`DirectAction` share it. :class:`DirectAction` answers the
common request (a JSON object with ``stateToken`` or ``state`` and ``action``, sent as
``application/json``) without FastAPI's routing, dependency solving and model validation:
it takes the body :class:`~sunbot.server.limits.BodyLimit` already parsed and checked, so
a body is parsed once. Anything else it hands on unchanged to the app, whose route then
answers (or refuses) it as before; a request it answers gets the very answer the route
would give (same status, headers and bytes), since both run :func:`apply_action`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from pathlib import Path
from typing import Any

from sunbot._version import __version__
from sunbot.engines import IllegalAction
from sunbot.games import GameInfo, resolve, seed_problem
from sunbot.server.limits import PARSED_BODY, ASGIApp, Receive, Scope, Send
from sunbot.server.responses import SafeJSONResponse as JSONResponse
from sunbot.server.tokens import BadToken, TokenCodec


class Refusal(Exception):
    """A request refused before any rules ran: answered ``status`` ``{ok: false, reason}``."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def state_mark(game: GameInfo) -> str:
    """Names the code that makes and checks ``game``'s states: a digest of the source of
    its engine module and of its plain-state check's module. A token carries it, so a
    state this code made is not checked again when it comes back (only another code's
    token, an older sunbot's under the same key, is)."""
    return _mark(game.engine_ref, game.check_state_ref)


@functools.cache
def _mark(engine_ref: str, check_ref: str | None) -> str:
    digest = hashlib.sha256(__version__.encode())
    refs = [engine_ref, *([check_ref] if check_ref else [])]
    for ref in refs:
        module = importlib.import_module(ref.partition(":")[0])
        digest.update(Path(module.__file__ or "").read_bytes() if module.__file__ else b"")
    return digest.hexdigest()[:16]


def envelope(game: GameInfo, state: dict[str, Any], codec: TokenCodec) -> dict[str, Any]:
    """The success body for ``state`` (spec README, "The local server")."""
    fields = game.served_fields(state)
    return {
        "ok": True,
        "state": fields["state"],
        "stateToken": codec.encode(game.slug, state, mark=state_mark(game)),
        **{k: v for k, v in fields.items() if k != "state"},
    }


def state_from_request(
    game: GameInfo, token: str | None, plain: dict[str, Any] | None, codec: TokenCodec
) -> dict[str, Any]:
    """The position an action request carries: the state inside ``token`` when there is
    one (``plain`` is then not read), else the ``plain`` state (Keelhold and Sunloaf only).

    Raises:
        Refusal: 400 for a token this server did not issue for ``game``, a request with
            neither carrier, a plain state for a hidden game, or a plain state that fails
            the game's state check or seed bound.
    """
    if token is not None:
        try:
            state, mark = codec.decode_marked(game.slug, token)
        except BadToken as exc:
            raise Refusal(400, str(exc)) from None
        if game.hidden and game.check_state_ref is not None and mark != state_mark(game):
            # a token of an old format (made by other code under the same key) is checked;
            # one this very code made holds a state of its own making
            try:
                resolve(game.check_state_ref)(state)
            except ValueError:
                raise Refusal(400, "badToken: the state token holds no valid state") from None
        return state
    if plain is None:
        raise Refusal(400, "badRequest: send stateToken (or state) with the action")
    if game.hidden or game.check_state_ref is None:
        raise Refusal(400, f"badRequest: {game.slug} accepts only stateToken, not a plain state")
    try:
        resolve(game.check_state_ref)(plain)
    except ValueError as exc:
        raise Refusal(400, f"badState: {exc}") from None
    problem = seed_problem(plain.get("seed"))  # the bound init and matches apply
    if problem is not None:
        raise Refusal(400, f"badState: {problem}")
    return plain


def apply_action(
    game: GameInfo,
    token: str | None,
    plain: dict[str, Any] | None,
    action: Any,
    codec: TokenCodec,
) -> JSONResponse:
    """The answer to ``action`` played on the position the request carries
    (:func:`state_from_request`): the success envelope, or HTTP 200
    ``{ok: false, reason, legalActions}`` for an illegal but well-formed action.

    Raises:
        Refusal: as :func:`state_from_request`; 400 for a plain state the rules cannot
            play.
        KeyError, TypeError, ValueError, IndexError: the engine failed on a state the
            token says this server issued (an engine bug, for the app to log as such).
    """
    state = state_from_request(game, token, plain, codec)
    eng = game.engine
    try:
        nxt = eng.step(state, action)
        return JSONResponse(envelope(game, nxt, codec))
    except IllegalAction as exc:
        refusal = {"ok": False, "reason": str(exc), "legalActions": eng.legal_actions(state)}
        return JSONResponse(refusal)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if token is not None:
            raise  # a state we issued ourselves: an engine bug, logged as such
        reason = f"badState: the plain state cannot be played ({type(exc).__name__})"
        raise Refusal(400, reason) from None


def _carriers(body: Any) -> tuple[str | None, dict[str, Any] | None] | None:
    """``(stateToken, state)`` of a parsed action body that the route's model
    (``ActionRequest``) takes as it is; ``None`` for any other body (the route's to judge).
    A token must be ASCII text: anything else is the route's to refuse, in its words."""
    if type(body) is not dict or "action" not in body:
        return None
    token = body.get("stateToken")
    plain = body.get("state")
    if token is not None and (type(token) is not str or not token.isascii()):
        return None
    if plain is not None and type(plain) is not dict:
        return None
    return token, plain


class DirectAction:
    """ASGI middleware: answers ``POST /api/games/{slug}/action`` for a single-player game
    from the body :class:`~sunbot.server.limits.BodyLimit` parsed (``scope[PARSED_BODY]``),
    when that body is one the route's model takes unchanged and it came as
    ``application/json``; every other request goes on to ``app`` as it came.

    A :class:`Refusal` is answered as the app's handler answers it; any other exception
    goes up to the app's error handling (a 500, logged), as from the route.
    """

    def __init__(self, app: ASGIApp, games: dict[str, GameInfo], codec: TokenCodec) -> None:
        self.app = app
        self.codec = codec
        self._paths = {f"/api/games/{slug}/action": game for slug, game in games.items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
            game = self._paths.get(scope["path"])
            parsed = scope.get(PARSED_BODY)
            if game is not None and parsed is not None and _json_content(scope):
                carriers = _carriers(parsed[0])
                if carriers is not None:
                    try:
                        response = apply_action(
                            game, carriers[0], carriers[1], parsed[0]["action"], self.codec
                        )
                    except Refusal as exc:
                        response = JSONResponse(
                            {"ok": False, "reason": exc.reason}, status_code=exc.status
                        )
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _json_content(scope: Scope) -> bool:
    """Whether the request says its body is ``application/json`` (exactly, once)."""
    seen = [v for n, v in scope["headers"] if n == b"content-type"]
    return len(seen) == 1 and seen[0].lower() == b"application/json"
