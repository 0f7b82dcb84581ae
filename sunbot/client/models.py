"""Pydantic models of what the platform answers (the platform protocol; per game:
``docs/rules/<game>.md``, "Envelope").

A success envelope and a refusal share the ``ok`` field; :data:`ActionAnswer` tells them
apart. The models accept extra fields (a live server may add some) but insist on the types
of the fields the client relies on.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class GameEntry(_Open):
    """One row of ``GET /api/games``."""

    slug: str
    name: str
    genre: str | None = None
    description: str | None = None
    goal: str | None = None
    initUrl: str | None = None
    actionUrl: str | None = None
    docsUrl: str | None = None


class GameIndex(_Open):
    """``GET /api/games``: ``{service, description, count, games}``."""

    service: str | None = None
    description: str | None = None
    count: int | None = None
    games: list[GameEntry]


class Envelope(_Open):
    """A successful init/action answer. ``state`` may be absent when only a token is given;
    ``ok`` may be absent on the live service's init (treated as true).

    What carries the position is whatever the server gave: ``stateToken``, any JSON string
    (opaque), and/or ``state``, any JSON value (a whole object, or a server-side id such as
    ``{"id": "g1"}`` or ``"g1"``); ``observation`` is any JSON value too (an object for the
    four known games; a game sunbot does not know may send a string or a list)."""

    ok: Literal[True] = True
    state: Any = None
    stateToken: StrictStr | None = None
    observation: Any = None
    legalActions: list[Any]
    #: A whole number in the four known games (their mirrors check it); any finite number
    #: in a game sunbot does not know.
    score: StrictInt | Annotated[StrictFloat, Field(allow_inf_nan=False)]
    gameOver: StrictBool
    spec: dict[str, Any] | None = None


class RefusalBody(_Open):
    """HTTP 200 ``{ok: false, reason, legalActions}``: the action was refused, nothing changed."""

    ok: Literal[False]
    reason: str
    legalActions: list[Any] | None = None


ActionAnswer = TypeAdapter(Annotated[Envelope | RefusalBody, Field(union_mode="left_to_right")])
