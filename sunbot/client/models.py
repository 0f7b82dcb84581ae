"""Pydantic models of what the platform answers (the platform protocol; per game:
``docs/rules/<game>.md``, "Envelope").

A success envelope and a refusal share the ``ok`` field; :data:`ActionAnswer` tells them
apart. The models accept extra fields (a live server may add some) but insist on the types
of the fields the client relies on. The index is read entry by entry (:func:`read_index`):
a row without a string ``slug`` is set aside as a :class:`BadEntry` with its one-line reason
and the others are kept; a descriptive field of the wrong type (a ``genre`` that is a list)
is read as absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from sunbot._text.safe import safe
from sunbot._text.terminal import printable


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


def _or_none(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A descriptive field of the wrong type reads as absent (it decides nothing)."""
    try:
        return handler(value)
    except ValidationError:
        return None


class GameEntry(_Open):
    """One row of ``GET /api/games``: ``slug`` (a string) is all a row needs."""

    slug: StrictStr
    name: str | None = None
    genre: str | None = None
    description: str | None = None
    goal: str | None = None
    initUrl: str | None = None
    actionUrl: str | None = None
    docsUrl: str | None = None

    _lenient = field_validator(
        "name", "genre", "description", "goal", "initUrl", "actionUrl", "docsUrl", mode="wrap"
    )(_or_none)


@dataclass(frozen=True)
class BadEntry:
    """An index row set aside: ``position`` in ``games`` (0-based), the slug as the server
    wrote it (``repr``, scrubbed, clipped, printable; ``None`` when the row has no string
    slug) and the one-line ``reason`` (``"slug: Input should be a valid string"``)."""

    position: int
    slug: str | None
    reason: str


class GameIndex(_Open):
    """``GET /api/games``: ``{service, description, count, games}``; ``games`` holds the
    readable rows, :attr:`bad` the others (:func:`read_index`)."""

    service: str | None = None
    description: str | None = None
    count: int | None = None
    games: list[GameEntry]
    _bad: list[BadEntry] = PrivateAttr(default_factory=list)
    _at: list[int] = PrivateAttr(default_factory=list)

    _lenient = field_validator("service", "description", "count", mode="wrap")(_or_none)

    @property
    def bad(self) -> list[BadEntry]:
        """The rows that could not be read, in the index's order."""
        return self._bad

    @property
    def positions(self) -> list[int]:
        """Each row of :attr:`games`' position in the server's ``games`` list (0-based)."""
        return self._at if len(self._at) == len(self.games) else list(range(len(self.games)))


def first_error(exc: ValidationError) -> str:
    """``games.3.slug: Input should be a valid string``: the first error's path and words."""
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc']) or 'body'}: {err['msg']}"


def read_index(data: Any) -> GameIndex:
    """``data`` (a decoded ``GET /api/games`` answer) read entry by entry.

    Raises:
        ValueError: ``data`` is not an object with a ``games`` list (one line).
    """
    if not isinstance(data, dict):
        raise ValueError("the index is not a JSON object")
    rows = data.get("games")
    if not isinstance(rows, list):
        raise ValueError("games: the index has no list of games")
    good: list[GameEntry] = []
    at: list[int] = []
    bad: list[BadEntry] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            bad.append(BadEntry(i, None, "the entry is not a JSON object"))
            continue
        try:
            good.append(GameEntry.model_validate(row))
            at.append(i)
        except ValidationError as exc:
            slug = row.get("slug")
            shown = printable(safe(repr(slug), 80)) if isinstance(slug, str) else None
            bad.append(BadEntry(i, shown, printable(safe(first_error(exc), 200))))
    index = GameIndex.model_validate({**data, "games": []})
    index.games = good
    index._bad, index._at = bad, at
    return index


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
