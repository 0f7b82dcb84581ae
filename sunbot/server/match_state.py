"""One Harvest Watch match on the server: seats, clock, stored commands, house bots.

Pure and synchronous (Harvest Watch §2): every method takes the current
time in integer ms and never sleeps or awaits, so a whole match can be driven by a fake
clock. The HTTP layer (:mod:`sunbot.server.matches`) holds :attr:`Match.lock` around every
call, and calls :meth:`Match.catch_up` before answering anything.

Time rules (§2.5): a beat's deadline is the moment it opened plus its ``beatMs``; a beat
opens at the exact moment its predecessor resolved (a deadline resolution happens *at the
deadline*, not when a request noticed it); a beat resolves early, at once, when every
living seat has stored. House bots store as each beat opens (§2.7), so a beat where only
house bots are living resolves the instant it opens and the match runs to its end.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import HousePolicy, house_commands, seat_data

SEATS = 6
#: §2.1 [PIN] defaults, ms; ``speech`` times both speech beats.
DEFAULT_BEAT_MS: dict[str, int] = {"speech": 20000, "vote": 15000, "action": 20000, "diary": 10000}
DEFAULT_START_MS = 3000
#: §2.4 [PIN] most elements in one stored list.
MAX_COMMANDS = 10
#: §2.3 [PIN] cap of ``pollAfterMs`` while time remains, and its value at ``remainMs == 0``.
POLL_CAP_MS, POLL_AT_ZERO_MS = 500, 100
#: Bits of randomness in a seat token (§2.1 asks for at least 128).
TOKEN_BYTES = 32
#: How long a finished match stays readable after it ended, ms (late viewers still get the
#: final view and ranks); after that it is dropped and its routes answer 404.
KEEP_DONE_MS = 600_000
#: Least clock time between two sweeps of the whole registry, ms.
SWEEP_EVERY_MS = 1_000
Command = dict[str, Any]
#: How a beat resolves: ``(state, commands) -> state``; ours is
#: :func:`sunbot.engines.harvest_watch.resolve_beat` (tests plant rule bugs through it).
Resolver = Callable[[dict[str, Any], dict[int, list[Any]]], dict[str, Any]]


def beat_key(phase: str) -> str:
    """The ``beatMs`` key timing ``phase`` (both speech beats use ``speech``)."""
    return "speech" if phase.startswith("speech") else phase


def poll_after_ms(status: str, remain_ms: int) -> int:
    """§2.3 [PIN]: ``min(500, remainMs // 2)`` while time remains, 100 at 0, 0 when done."""
    if status == "done":
        return 0
    if remain_ms > 0:
        return min(POLL_CAP_MS, remain_ms // 2)
    return POLL_AT_ZERO_MS


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


@dataclass(eq=False)
class Match:
    """A match's whole server-side record. Build with :meth:`create`.

    Attributes:
        match_id: the opaque id in the routes.
        status: ``starting`` (countdown), ``running`` or ``done``.
        state: the engine state (:mod:`sunbot.engines.harvest_watch`); the internal log
            of applied acts and diaries is in ``state["log"]`` and never served.
        start_at: when the countdown ends, ms on the server clock.
        opened_at, deadline: the current beat's opening and deadline, ms.
        stored: seat -> the list it stored for the current beat.
        house: seats played by house bots (filled when the countdown ends).
        resolutions: beats resolved so far (tests check each resolves once).
        finished_at: when the match ended (the moment its last beat resolved), ms; ``None``
            while it is not done.
    """

    match_id: str
    seed: int
    beat_ms: dict[str, int]
    rng: random.Random
    state: dict[str, Any]
    start_at: int
    status: str = "starting"
    opened_at: int = 0
    deadline: int = 0
    stored: dict[int, list[Any]] = field(default_factory=dict)
    house: list[int] = field(default_factory=list)
    memory: dict[int, dict[str, Any]] = field(default_factory=dict)
    resolutions: int = 0
    finished_at: int | None = None
    tokens: dict[int, str] = field(default_factory=dict, repr=False)
    house_policy: HousePolicy = field(default=hw.house_command, repr=False)
    resolver: Resolver = field(default=hw.resolve_beat, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @classmethod
    def create(
        cls,
        *,
        seed: int | None,
        seats: int,
        beat_ms: dict[str, int],
        start_ms: int,
        now: int,
        house_policy: HousePolicy = hw.house_command,
        resolver: Resolver = hw.resolve_beat,
    ) -> tuple[Match, list[tuple[int, str]]]:
        """A new match and the caller's ``(seat, token)`` pairs, sorted by seat (§2.1).

        The caller's ``seats`` are drawn from 0-5 with the match RNG
        (``random.Random(seed)``; a random seed when ``None``), which the house bots then
        keep using. With ``start_ms == 0`` house bots fill the free seats and the match
        starts before this returns. ``house_policy`` plays the house seats and
        ``resolver`` resolves each beat (both default to the rules engine's).
        """
        if seed is None:
            seed = secrets.randbelow(2**31)
        rng = random.Random(seed)
        taken = sorted(rng.sample(range(SEATS), seats))
        match = cls(
            match_id=secrets.token_urlsafe(12),
            seed=seed,
            beat_ms=dict(beat_ms),
            rng=rng,
            state=hw.init(seed, SEATS),
            start_at=now + start_ms,
            house_policy=house_policy,
            resolver=resolver,
        )
        out = [(s, match._issue(s)) for s in taken]
        match.catch_up(now)
        return match, out

    def _issue(self, seat: int) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.tokens[seat] = token
        return token

    def seat_of(self, token: object) -> int | None:
        """The seat ``token`` proves, or ``None``.

        Compares against every seat's token in constant time (``hmac.compare_digest``),
        without stopping at a match, so timing reveals nothing about the tokens.
        """
        if not isinstance(token, str):
            return None
        given = token.encode("utf-8", "surrogatepass")
        found: int | None = None
        for seat, secret in self.tokens.items():
            if hmac.compare_digest(given, secret.encode()):
                found = seat
        return found

    def join(self) -> tuple[int, str] | None:
        """Take the lowest free seat during the countdown (§2.2); ``None`` when full."""
        if self.status != "starting":
            return None
        free = [s for s in range(SEATS) if s not in self.tokens]
        return (free[0], self._issue(free[0])) if free else None

    # -- clock -------------------------------------------------------------------------

    def catch_up(self, now: int) -> None:
        """Bring the match up to ``now``: start it, resolve every overdue beat in a chain.

        Each deadline resolution happens at the deadline itself, and the next beat opens
        at that same moment (§2.5 [PIN]), so the result does not depend on when requests
        arrive.
        """
        if self.status == "starting" and now >= self.start_at:
            self._start(self.start_at)
        while self.status == "running" and now >= self.deadline:
            self._resolve(self.deadline)
            self._settle(self.opened_at)

    def _start(self, at: int) -> None:
        self.house = [s for s in range(SEATS) if s not in self.tokens]
        self.memory = {s: {} for s in self.house}
        self.status = "running"
        self._open(at)
        self._settle(at)

    def _open(self, at: int) -> None:
        """Open the current beat at ``at``; house bots store at once (§2.7)."""
        self.opened_at = at
        self.deadline = at + self.beat_ms[beat_key(self.state["phase"])]
        self.stored = house_commands(
            self.state, self.house, self.memory, self.rng, policy=self.house_policy
        )

    def _all_stored(self) -> bool:
        alive = self.state["alive"]
        return all(s in self.stored for s in range(SEATS) if alive[s])

    def _settle(self, at: int) -> None:
        """Early resolution (§2.5): while every living seat has stored, resolve at ``at``."""
        while self.status == "running" and self._all_stored():
            self._resolve(at)

    def _resolve(self, at: int) -> None:
        self.state = self.resolver(self.state, self.stored)
        self.resolutions += 1
        self.stored = {}
        if self.state["status"] == "done":
            self.status = "done"
            self.opened_at = self.deadline = at
            self.finished_at = at
        else:
            self._open(at)

    # -- requests ----------------------------------------------------------------------

    def store(self, seat: int, round_: int, actions: list[Any], now: int) -> str | None:
        """Store ``seat``'s list for the current beat (§2.4); the refusal reason or ``None``.

        Checks, in the pinned order: ``not_running``, ``seat_out``, ``stale_round``,
        ``already_stored``, ``too_many_commands``, ``illegal_command`` (every element).
        Nothing is stored on a refusal. A successful store may resolve the beat at once.
        """
        if self.status != "running":
            return "not_running"
        if not self.state["alive"][seat]:
            return "seat_out"
        if round_ != self.state["round"]:
            return "stale_round"
        if seat in self.stored:
            return "already_stored"
        if len(actions) > MAX_COMMANDS:
            return "too_many_commands"
        if any(hw.validate_command(self.state, seat, a) is not None for a in actions):
            return "illegal_command"
        self.stored[seat] = _copy(actions)
        self._settle(now)
        return None

    def expired(self, now: int, keep_ms: int = KEEP_DONE_MS) -> bool:
        """Done for at least ``keep_ms`` at ``now`` (call :meth:`catch_up` first: a match
        nobody asked about may have ended long ago at one of its deadlines)."""
        return self.finished_at is not None and now - self.finished_at >= keep_ms

    def remain_ms(self, now: int) -> int:
        """ms left until the start (starting) or the current deadline (running); 0 done."""
        if self.status == "starting":
            return max(0, self.start_at - now)
        if self.status == "running":
            return max(0, self.deadline - now)
        return 0

    def view(self, seat: int, now: int) -> dict[str, Any]:
        """The GET view of ``seat`` at ``now`` (§2.3); call :meth:`catch_up` first."""
        remain = self.remain_ms(now)
        alive = bool(self.state["alive"][seat])
        running = self.status == "running"
        can_act = running and alive and seat not in self.stored
        pending: list[Any] | None = None
        if running:
            pending = (
                _copy(self.stored[seat]) if seat in self.stored else ([] if not alive else None)
            )
        nxt: dict[str, str] | None = None
        if self.status != "done":
            base = f"/api/matches/{quote(self.match_id)}"
            nxt = (
                {"rel": "act", "method": "POST", "href": f"{base}/commands"}
                if can_act
                else {"rel": "poll", "method": "GET", "href": f"{base}?token={self.tokens[seat]}"}
            )
        return {
            "status": self.status,
            "remainMs": remain,
            "pollAfterMs": poll_after_ms(self.status, remain),
            "next": nxt,
            "data": seat_data(self.state, seat, can_act=can_act, pending=pending),
        }
