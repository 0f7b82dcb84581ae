"""What a server lists, and what sunbot has for each game; a game's served rules as text.

:func:`list_games` reads ``GET /api/games`` and marks each game ``rules`` (sunbot has its
rules engine and mirror: one of :func:`sunbot.games.available`, whatever local choices the
server announces) or ``generic`` (played on the protocol alone, checked by
:class:`~sunbot.generic.checks.GenericChecks`), with the strategies that play it.
:func:`served_rules` fetches a game's served ``spec``; :func:`describe_spec` renders one
as plain text (for ``sunbot rules SLUG --server URL``). :func:`games_on` and
:func:`rules_on` do the same given a server's URL (they open and close the client).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import asdict, dataclass
from typing import Any, Literal

import httpx

from sunbot import games as game_table
from sunbot import strategies
from sunbot._text.safe import safe
from sunbot._text.terminal import printable, printable_lines
from sunbot.client import (
    ClientError,
    GameboardClient,
    MalformedResponse,
    RetryPolicy,
    ServerRefused,
)
from sunbot.client.models import BadEntry, GameEntry, GameIndex
from sunbot.client.retry import TransientHTTPError
from sunbot.client.spec_check import check_spec
from sunbot.generic.grammar import find_grammar
from sunbot.strategies import GENERIC as GENERIC_STRATEGIES

__all__ = [
    "RULES_SEED",
    "SLUG_PATTERN",
    "BadEntry",
    "GameListing",
    "check_slug",
    "describe_spec",
    "games_on",
    "good_rows",
    "index_on",
    "list_games",
    "listing_json",
    "read_listing",
    "rules_on",
    "served_rules",
]

log = logging.getLogger("sunbot.generic")

#: The seed of the init call :func:`served_rules` makes when a server has no spec route.
RULES_SEED = 1
#: What a slug may look like (it goes into request paths as it is).
SLUG_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: Characters of one served field shown by :func:`describe_spec`.
_MAX_FIELD = 20_000


@dataclass(frozen=True)
class GameListing:
    """One game a server lists, with what sunbot has for it.

    Attributes:
        slug: as the server lists it (checked against :data:`SLUG_PATTERN`).
        name, genre, description: the server's words, scrubbed and clipped (``genre`` and
            ``description`` ``None`` when not given).
        support: ``"rules"`` (engine and mirror) or ``"generic"`` (the protocol alone).
        strategies: the names that play it (built-ins first, then plug-ins).
        replayable: ``support == "rules"`` and the server announced our local choices, so
            its transcripts can be re-played through our engines (else only checked).
    """

    slug: str
    name: str
    genre: str | None
    description: str | None
    support: Literal["rules", "generic"]
    strategies: tuple[str, ...]
    replayable: bool = False


def check_slug(slug: str) -> str:
    """``slug`` if it is a plausible game slug (:data:`SLUG_PATTERN`: it is sent inside
    request paths unescaped).

    Raises:
        ValueError: one line naming the value.
    """
    if not isinstance(slug, str) or not SLUG_PATTERN.fullmatch(slug):
        raise ValueError(f"{printable(safe(repr(slug), 80))} is not a game slug")
    return slug


def _text(value: Any) -> str | None:
    return printable(safe(value)) if isinstance(value, str) else None


def _support(slug: str) -> Literal["rules", "generic"]:
    known = {g.slug for g in game_table.available()}
    return "rules" if slug in known else "generic"


def _strategies(slug: str, support: str) -> tuple[str, ...]:
    if support == "rules":
        return tuple(strategies.names(slug))
    return tuple(GENERIC_STRATEGIES)


async def list_games(client: GameboardClient) -> list[GameListing]:
    """The games ``client``'s server lists in ``GET /api/games``, in its order, each
    marked with what sunbot has; the rows that cannot be read are left out
    (:func:`read_listing` gives them too).

    Raises:
        ClientError, httpx.HTTPError: the index could not be read.
    """
    return (await read_listing(client))[0]


def good_rows(index: GameIndex) -> tuple[list[GameEntry], list[BadEntry]]:
    """The rows of ``index`` a game can be played from, in its order, and the others, in
    the index's order: the client's :attr:`~sunbot.client.models.GameIndex.bad` plus a row
    whose slug is not a plausible slug (:data:`SLUG_PATTERN`: it goes into request paths)
    or repeats an earlier row's."""
    good: list[GameEntry] = []
    bad = list(index.bad)
    first: dict[str, int] = {}
    for position, row in zip(index.positions, index.games, strict=True):
        shown = printable(safe(repr(row.slug), 80))
        if not SLUG_PATTERN.fullmatch(row.slug):
            bad.append(BadEntry(position, shown, "slug: not a game slug"))
        elif row.slug in first:
            bad.append(BadEntry(position, shown, f"slug: repeats entry {first[row.slug]}"))
        else:
            first[row.slug] = position
            good.append(row)
    return good, sorted(bad, key=lambda b: b.position)


async def read_listing(client: GameboardClient) -> tuple[list[GameListing], list[BadEntry]]:
    """:func:`list_games`, and the index rows that cannot be read (:func:`good_rows`),
    each with its one-line reason.

    Raises:
        ClientError, httpx.HTTPError: the index could not be read at all.
    """
    index = await client.games()
    extra = index.model_extra or {}
    ours = extra.get("localChoices") == game_table.LOCAL_CHOICES
    out: list[GameListing] = []
    rows, bad = good_rows(index)
    for row in rows:
        support = _support(row.slug)
        out.append(
            GameListing(
                slug=row.slug,
                name=_text(row.name) or row.slug,
                genre=_text(row.genre),
                description=_text(row.description),
                support=support,
                strategies=_strategies(row.slug, support),
                replayable=support == "rules" and ours,
            )
        )
    for entry in bad:
        log.info("index entry %d left out: %s", entry.position, entry.reason)
    return out, bad


def _only_rate_limits(exc: BaseException) -> bool:
    return isinstance(exc, TransientHTTPError) and exc.status == 429


async def served_rules(client: GameboardClient, slug: str) -> dict[str, Any]:
    """The ``spec`` the server serves for ``slug``: from ``GET /api/games/{slug}/spec``
    when it has that route, else from the answer of an init with seed :data:`RULES_SEED`
    (every init answer carries ``spec``). The spec route is asked once (only a 429 is
    waited out), so a server without it costs no retry budget. Either answer is checked
    to be ``slug``'s (:func:`~sunbot.client.spec_check.check_spec`; the name too, against
    the index's, when the spec route's answer gives one).

    Raises:
        ValueError: ``slug`` is not a plausible slug.
        WrongGame: the answer names another game than ``slug``.
        MalformedResponse: the init answer has no ``spec`` object.
        ClientError, httpx.HTTPError: the server could not be asked or refused.
    """
    check_slug(slug)
    try:
        data = await client.request_json("spec", retry_on=_only_rate_limits, slug=slug)
    except (ServerRefused, MalformedResponse, TransientHTTPError, httpx.TransportError) as exc:
        log.info("no spec route for %s (%s): reading an opening", slug, exc)
    else:
        name = await index_name(client, slug) if _gives_a_name(data) else None
        check_spec(data, slug, name).raise_if_wrong()
        spec = data.get("spec") if isinstance(data, dict) else None
        if isinstance(spec, dict):
            return spec
    opening = await client.init(slug, RULES_SEED)  # checks the answer's game itself
    spec = opening.raw.get("spec")
    if not isinstance(spec, dict):
        raise MalformedResponse(f"the init answer of {slug} has no spec object")
    return spec


def _gives_a_name(data: Any) -> bool:
    """The answer (or its ``spec``) has a ``name`` string to check against the index."""
    if not isinstance(data, dict):
        return False
    spec = data.get("spec")
    return isinstance(data.get("name"), str) or (
        isinstance(spec, dict) and isinstance(spec.get("name"), str)
    )


async def index_name(client: GameboardClient, slug: str) -> str | None:
    """The name the server's index gives ``slug`` (one attempt, a 429 waited out);
    ``None`` when the index cannot be read or gives none."""
    try:
        index = await client.games(retry=False)
    except (ClientError, httpx.HTTPError):
        return None
    rows, _ = good_rows(index)
    return next((row.name for row in rows if row.slug == slug), None)


def _block(value: Any) -> str:
    """A served value as printable lines: a string as it is, anything else as JSON."""
    if isinstance(value, str):
        return printable_lines(value, _MAX_FIELD)
    try:
        text = json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return printable_lines(text, _MAX_FIELD)


def describe_spec(spec: dict[str, Any]) -> str:
    """``spec`` as plain text: ``Goal``, ``Scoring``, ``Rules`` (numbered when a list),
    ``Action grammar (spec.<key>)`` pretty-printed, then every other field under its own
    name. Every served string is made printable (controls shown as ``\ufffd``) and each
    field clipped to 20,000 characters; print the result as plain text, not markup."""
    parts: list[str] = []
    for key in ("goal", "scoring"):
        if key in spec:
            parts.append(f"{key.capitalize()}\n{_block(spec[key])}")
    rules = spec.get("rules")
    if isinstance(rules, list):
        lines = [_block(f"{i}. {r}" if isinstance(r, str) else r) for i, r in enumerate(rules, 1)]
        parts.append("Rules\n" + "\n".join(lines))
    elif rules is not None:
        parts.append(f"Rules\n{_block(rules)}")
    grammar_key, grammar = find_grammar(spec)
    if grammar_key is not None:
        parts.append(f"Action grammar (spec.{grammar_key})\n{_block(grammar)}")
    shown = {"goal", "scoring", "rules", grammar_key}
    for key in [k for k in spec if k not in shown]:
        parts.append(f"{printable(safe(key, 80))}\n{_block(spec[key])}")
    return "\n\n".join(parts) + "\n"


def _client(
    server: str, transport: httpx.AsyncBaseTransport | None, retry_seconds: float | None
) -> GameboardClient:
    policy = None if retry_seconds is None else RetryPolicy(total_seconds=retry_seconds)
    return GameboardClient(server, transport=transport, policy=policy)


async def games_on(
    server: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    retry_seconds: float | None = None,
) -> list[GameListing]:
    """:func:`list_games` of the server at ``server`` (an http(s) origin); ``retry_seconds``
    bounds the retries of the index request (``None``: the client's default budget).

    Raises:
        ClientError, httpx.HTTPError: the index could not be read (unreachable, refused,
            not an index).
    """
    async with _client(server, transport, retry_seconds) as client:
        return await list_games(client)


async def index_on(
    server: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    retry_seconds: float | None = None,
) -> tuple[list[GameListing], list[BadEntry]]:
    """:func:`read_listing` of the server at ``server``: its games and its unreadable rows.

    Raises:
        ClientError, httpx.HTTPError: the index could not be read at all.
    """
    async with _client(server, transport, retry_seconds) as client:
        return await read_listing(client)


async def rules_on(
    server: str,
    slug: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    retry_seconds: float | None = None,
) -> dict[str, Any]:
    """:func:`served_rules` of ``slug`` on the server at ``server``.

    Raises:
        ValueError: ``slug`` is not a plausible slug.
        ClientError, httpx.HTTPError: the server could not be asked, refused, or served no
            ``spec`` object.
    """
    check_slug(slug)
    async with _client(server, transport, retry_seconds) as client:
        return await served_rules(client, slug)


def listing_json(listing: GameListing) -> dict[str, Any]:
    """One :class:`GameListing` as JSON-ready values (``strategies`` a list)."""
    out = asdict(listing)
    out["strategies"] = list(listing.strategies)
    return out
