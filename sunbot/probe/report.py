"""What to run first against a Gameboard server we did not write: :func:`run_probe`.

It reads ``/api/games``, starts each of our single-player games with a seed, plays a few
legal steps and reports, per game, nested fields included (:class:`FieldReader`): the
fields the rule text promises that the server does not send (a problem), the fields of ours
it leaves out that the rules never promise (fine: listed), the fields it sends that we do
not know (ignored, but listed), how
its action grammar (``spec``) differs from ours (:mod:`sunbot.probe.grammar`), how it
carries a position (``stateToken`` or the ``{state}`` form) and the rate-limit headers and
429s met. For Harvest Watch it creates a one-seat match (unless ``--no-match``) and reads
one view, else it reports the routes the index lists. Every other game the index lists (one
sunbot has no engine for) is probed on the protocol alone, through the generic checks
(:func:`sunbot.generic.probe.probe_generic`): its report says ``support: "generic"`` and
names what it lacks (envelope fields in ``missing``, the grammar in ``grammar.error``, the
other checks in ``findings``). A game of ours the index does not list is reported
(``listed: false``) but does not fail the probe: :func:`fit` judges the listed games. The
index is read entry by entry: an entry that cannot be read (no string slug, not a plausible
slug, a repeated slug) is reported as ``support: "bad entry"`` with its one-line reason, and
fails the probe, while every other game is probed. Every listed game's spec route is asked
once (:func:`check_spec_route`): an answer naming another game (its slug, or a name other
than the index's) is a finding that fails the game; an answer naming no game is noted as
not checked. The command, ``sunbot probe URL``, is :mod:`sunbot.cli.probe`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from sunbot._text.safe import safe
from sunbot.client import (
    ClientError,
    GameboardClient,
    MatchClient,
    Position,
    Rejected,
    RetryPolicy,
)
from sunbot.client.retry import TransientHTTPError
from sunbot.client.spec_check import check_spec
from sunbot.games import GameInfo, available
from sunbot.generic.grammar import find_grammar
from sunbot.generic.index import good_rows
from sunbot.generic.probe import GenericProbe, probe_generic
from sunbot.mirror import Mirror
from sunbot.mirror.fields import KeyTemplate, pattern, under
from sunbot.mirror.harvest_watch import OPTIONAL, PRESENT
from sunbot.probe.grammar import GrammarDiff, compare

#: Envelope fields of the platform protocol.
ENVELOPE = ("ok", "state", "stateToken", "observation", "legalActions", "score", "gameOver", "spec")
#: Seat-summary fields the rule text of Harvest Watch promises on every beat.
SUMMARY = ("you", "day", "phase", "food", "foods", "alive", "aliveSeats", "lastPublic")
#: Actions that end a run: the probe never sends them.
ENDING = ("END_RUN", "end-run")
#: Header names (lower case) that tell of rate limits.
RATE_HEADERS = ("retry-after", "ratelimit", "x-ratelimit", "x-rate-limit")


@dataclass
class GameReport:
    """One game's compatibility (see the module doc); ``playable`` decides the exit code.

    ``support`` is ``"rules"`` for a game of ours (checked against its rule text and our
    grammar), ``"generic"`` for any other listed game (the envelope and the served grammar
    only; ``grammar.found_at`` is where it was found, ``grammar.error`` why none is usable,
    and ``findings`` the other generic checks' notes), or ``"bad entry"`` for an index entry
    that cannot be read (``slug`` is then ``entry N`` or the slug it gave; ``error`` why).
    ``spec_route`` is what :func:`check_spec_route` found (``None``: not asked);
    ``init_spec`` the init answer's spec, kept for that check (not in the JSON report).
    """

    slug: str
    listed: bool = False
    playable: bool = False
    carry: str | None = None
    steps: int = 0
    missing: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    unpromised: list[str] = field(default_factory=list)
    grammar: GrammarDiff | None = None
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    support: str = "rules"
    findings: list[str] = field(default_factory=list)
    spec_route: str | None = None
    init_spec: dict[str, Any] | None = field(default=None, repr=False, compare=False)


class FieldReader:
    """A game's answers read the way the mirror reads them (:mod:`sunbot.mirror.fields`),
    nested fields included: the keys our engine's positions have (learned from the
    mirror's template states), the fields the game's rule text promises (the hooks'
    ``PROMISED``; the field tables of ``docs/rules/<game>.md``), and the hooks' ``complete``,
    which fills what a server may leave out.

    :meth:`read` adds to a :class:`GameReport`: ``missing`` (a promised field not sent: the
    mirror reports it and it fails the probe), ``unpromised`` (a field of ours not sent that
    the rules never promise: fine, the mirror fills it in) and ``unknown`` (a field we do
    not know: ignored, listed). Paths are patterns, e.g. ``state.queue[].tag``.
    """

    def __init__(self, game: GameInfo) -> None:
        mirror = Mirror(game.slug)
        self.template = mirror.template
        self.promised = mirror.promised
        self.not_promised = mirror.not_promised
        self.complete = getattr(mirror.hooks, "complete", None)

    def _is_promised(self, path: str) -> bool:
        as_state = pattern("state" + path[path.index(".") :] if "." in path else "state")
        if under(as_state, self.not_promised):
            return False
        return self.promised is None or under(as_state, self.promised)

    def read(self, where: str, value: dict[str, Any], opening: bool, rep: GameReport) -> None:
        """Add ``value``'s (a served ``state`` or ``observation``) differences to ``rep``."""
        clean, dropped = self.template.strip(value, where)
        _add(rep.unknown, (pattern(p) for p in dropped))
        filled = clean
        if self.complete is not None:
            try:
                filled = self.complete(clean, opening=opening)
            except Exception:  # a position too odd to complete: judge it as sent
                filled = clean
        absent = set(map(pattern, _absent(self.template, clean, where)))
        still = set(map(pattern, _absent(self.template, filled, where)))
        _add(rep.missing, sorted(p for p in absent if p in still and self._is_promised(p)))
        _add(rep.unpromised, sorted(p for p in absent if p not in rep.missing))


def _absent(template: KeyTemplate, value: Any, path: str) -> list[str]:
    """Concrete paths of keys ``template`` learned at a pattern that an object of ``value``
    at that pattern lacks (nested objects and lists included)."""
    out: list[str] = []
    if isinstance(value, dict):
        out += [
            f"{path}.{k}" for k in sorted(template.keys.get(pattern(path), ())) if k not in value
        ]
        for key, sub in value.items():
            out += _absent(template, sub, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _absent(template, item, f"{path}[{i}]")
    return out


def _add(into: list[str], items: Any) -> None:
    for item in items:
        if item not in into:
            into.append(item)


class Recorder(httpx.AsyncBaseTransport):
    """A transport that counts 429s and keeps the rate-limit headers it sees."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.throttled = 0
        self.headers: dict[str, str] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        resp = await self.inner.handle_async_request(request)
        if resp.status_code == 429:
            self.throttled += 1
        for name, value in resp.headers.items():
            if name.lower().startswith(RATE_HEADERS):
                self.headers[name.lower()] = value
        return resp

    async def aclose(self) -> None:
        await self.inner.aclose()


def _observe(pos: Position, fields: FieldReader, rep: GameReport, opening: bool) -> None:
    # envelope keys are named as the mirror names them (the path from the answer's root:
    # ``meta``, as ``state.rev``); a missing one is optional
    _add(rep.unknown, sorted(set(pos.raw) - set(ENVELOPE) - {"rng"}))
    raw_state = pos.raw.get("state")
    for where, value in (("state", raw_state), ("observation", pos.raw.get("observation"))):
        if isinstance(value, dict):
            fields.read(where, value, opening, rep)


def _choices(pos: Position) -> list[Any]:
    """Legal actions that do not end the run; Keelhold's safe hatches first (a hatch
    outside ``safeBays`` is legal but ends the run)."""
    keep = [a for a in pos.legal_actions if not (isinstance(a, dict) and a.get("type") in ENDING)]
    safe = (pos.state or {}).get("safeBays")
    if isinstance(safe, list):
        keep.sort(key=lambda a: not (isinstance(a, dict) and a.get("bay") in safe))
    return keep


async def probe_single(
    client: GameboardClient, game: GameInfo, seed: int, steps: int
) -> GameReport:
    """Init ``game`` with ``seed`` and play up to ``steps`` legal, non-ending actions."""
    rep = GameReport(game.slug, listed=True)
    fields = FieldReader(game)
    try:
        pos = await client.init(game.slug, seed)
        rep.carry = "stateToken" if pos.envelope.stateToken else "state only"
        offered: list[Any] = list(pos.legal_actions)
        _observe(pos, fields, rep, opening=True)
        for _ in range(steps):
            choices = _choices(pos)
            if pos.game_over or not choices:
                break
            got = await client.act(game.slug, pos, choices[0])
            if isinstance(got, Rejected):
                rep.error = f"a legal action was refused: {got.reason}"
                break
            pos = got
            rep.steps += 1
            offered.extend(pos.legal_actions)
            _observe(pos, fields, rep, opening=False)
        spec = (await client.init(game.slug, seed)).envelope.spec
        ours = game.spec.get("actionSchema", {})
        rep.grammar = compare(ours, spec, offered)
        rep.init_spec = spec
    except (ClientError, httpx.HTTPError) as exc:
        rep.error = f"{type(exc).__name__}: {exc}"
    rep.playable = rep.error is None and rep.steps > 0 and not rep.missing
    return rep


async def probe_match(
    client: MatchClient, entry: dict[str, Any] | None, create: bool
) -> GameReport:
    """Create a one-seat Harvest Watch match and read one view (or report the routes)."""
    rep = GameReport("harvest-watch", listed=entry is not None)
    if entry is not None:
        routes = {k: entry.get(k) for k in ("initUrl", "actionUrl", "docsUrl") if entry.get(k)}
        rep.notes.append(f"routes listed: {json.dumps(routes)}")
    if not create:
        rep.notes.append("no match created (--no-match)")
        rep.playable = entry is not None
        return rep
    try:
        match_id, seats = await client.create("harvest-watch", seats=1)
        ans = await client.view(match_id, seats[0].token)
        view = ans.view
        if view is None:
            raise ClientError("the view was refused")
        rep.carry = "seat token"
        rep.notes.append(
            f"match {match_id}: {view.status}, round {view.data.round}, "
            f"pollAfterMs {view.pollAfterMs} of remainMs {view.remainMs}"
        )
        _match_fields(ans.raw, rep)
        rep.playable = not rep.missing
    except (ClientError, httpx.HTTPError) as exc:
        rep.error = f"{type(exc).__name__}: {exc}"
    return rep


#: View and ``data`` fields the Platform section names (``data.legal``, ``schema`` and
#: ``pending`` only on some beats), and the envelope's status keys.
VIEW_KNOWN = frozenset(("ok", "status", "remainMs", "pollAfterMs", "next", "data"))
DATA_KNOWN = frozenset(("round", "phase", "legal", "schema", "pending", "summary", "result"))


def _match_fields(raw: dict[str, Any], rep: GameReport) -> None:
    """A seat view against the rule text of Harvest Watch (field table in
    ``docs/rules/harvest-watch.md``): the summary fields promised on every beat and on this
    beat (:data:`sunbot.mirror.harvest_watch.PRESENT`) are required; ``nightCost`` (promised
    only on diary and done), ``caught`` and ``collided`` may be absent; everything else, in
    the view, ``data`` and the summary, is unknown (listed)."""
    data: dict[str, Any] = raw["data"] if isinstance(raw.get("data"), dict) else {}
    summary: dict[str, Any] = data["summary"] if isinstance(data.get("summary"), dict) else {}
    phase = summary.get("phase")
    promised = {*SUMMARY, "nightCostBase", "nightCostIfGuard"}
    promised |= PRESENT.get(str(phase), set()) - {"caught", "collided"}
    if phase in ("diary", "done"):
        promised.add("nightCost")
    _add(rep.missing, (f"data.summary.{k}" for k in sorted(promised - set(summary))))
    if "round" not in data:
        _add(rep.missing, ["data.round"])
    known = promised | set(OPTIONAL) | {"nightCost"}
    _add(rep.unknown, (f"data.summary.{k}" for k in sorted(set(summary) - known)))
    _add(rep.unknown, (f"data.{k}" for k in sorted(set(data) - DATA_KNOWN)))
    _add(rep.unknown, (k for k in sorted(set(raw) - VIEW_KNOWN)))


def generic_report(found: GenericProbe) -> GameReport:
    """A :class:`GameReport` of a game probed generically."""
    rep = GameReport(found.slug, listed=True, support="generic", carry=found.carry)
    rep.steps, rep.missing, rep.findings = found.steps, list(found.missing), list(found.findings)
    rep.grammar = GrammarDiff(found_at=found.grammar_at, error=found.grammar_error)
    rep.error, rep.playable = found.error, found.playable
    return rep


def fit(reports: list[GameReport]) -> bool:
    """At least one game is listed and every listed game can be played (the exit code)."""
    listed = [r for r in reports if r.listed]
    return bool(listed) and all(r.playable for r in listed)


def _rate_limited(exc: BaseException) -> bool:
    return isinstance(exc, TransientHTTPError) and exc.status == 429


async def check_spec_route(client: GameboardClient, name: str | None, rep: GameReport) -> None:
    """Ask ``GET /api/games/{rep.slug}/spec`` once (a 429 waited out) and add to ``rep``:
    ``spec_route`` ``none (...)`` for a server without the route (fine), ``checked (slug)``
    or ``not checked (...)``, or the mismatch, which is also a finding and makes the game
    not playable (:func:`~sunbot.client.spec_check.check_spec`, ``name`` from the index).
    A spec route whose action grammar differs from the init answer's is a finding too."""
    try:
        data = await client.request_json("spec", retry_on=_rate_limited, slug=rep.slug)
    except (ClientError, httpx.HTTPError) as exc:
        rep.spec_route = f"none ({safe(f'{type(exc).__name__}: {exc}', 160)})"
        return
    found = check_spec(data, rep.slug, name)
    rep.spec_route = found.said
    if found.mismatch is not None:
        rep.findings.append(f"spec route: {found.mismatch}")
        rep.playable = False
        return
    served = data.get("spec") if isinstance(data, dict) else None
    init = rep.init_spec
    if init is not None and isinstance(served, dict) and find_grammar(served) != find_grammar(init):
        rep.findings.append("spec route: its action grammar differs from the init answer's")


def bad_entry_report(position: int, slug: str | None, reason: str) -> GameReport:
    """The report of an index entry that cannot be read (listed, not playable)."""
    shown = slug if slug is not None else f"entry {position}"
    return GameReport(
        shown, listed=True, support="bad entry", error=f"index entry {position}: {reason}"
    )


async def run_probe(
    url: str,
    seed: int,
    steps: int,
    create_match: bool,
    transport: httpx.AsyncBaseTransport | None = None,
    policy: RetryPolicy | None = None,
) -> tuple[list[GameReport], Recorder]:
    """Probe ``url``; returns one report per game of ours, in table order, then one per
    other listed game (probed generically), in the index's order, then one per index entry
    that cannot be read, and the transport's record of 429s and rate-limit headers.

    Raises:
        ClientError, httpx.HTTPError: the index could not be read at all.
    """
    rec = Recorder(transport or httpx.AsyncHTTPTransport())
    reports: list[GameReport] = []
    async with GameboardClient(url, transport=rec, policy=policy) as client:
        rows, bad = good_rows(await client.games())
        listed = {g.slug: g.model_dump() for g in rows}
        ours = available()
        for game in ours:
            if game.slug not in listed:
                reports.append(GameReport(game.slug, error="not listed in /api/games"))
                continue
            if game.kind == "match":
                async with MatchClient(url, transport=rec, policy=policy) as matches:
                    rep = await probe_match(matches, listed.get(game.slug), create_match)
            else:
                rep = await probe_single(client, game, seed, steps)
            await check_spec_route(client, listed[game.slug].get("name"), rep)
            reports.append(rep)
        known = {g.slug for g in ours}
        for slug, entry in listed.items():
            if slug in known:
                continue
            rep = generic_report(await probe_generic(client, slug, seed, steps))
            await check_spec_route(client, entry.get("name"), rep)
            reports.append(rep)
        reports += [bad_entry_report(b.position, b.slug, b.reason) for b in bad]
    return reports, rec
