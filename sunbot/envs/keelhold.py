"""Keelhold as a Gymnasium environment: ``gymnasium.make("sunbot/Keelhold-v0")``.

Actions (``Discrete(9)``): ``0..6`` PLACE into hatch ``0..6``, ``7`` CAST_OFF, ``8`` END_RUN.

Observation (``Dict`` of ``int32`` arrays), from the fields the rule text publishes; never
``rng`` (our server's cursor, which another server may leave out) and never ``seed``:

- ``hold`` ``(7, 8, 3)``: each hatch's crates in arrival order, per slot ``[weight, kind,
  dueIn]``; kind 0 = empty slot, 1 = iron ballast, ``2 + cargo`` for cargo type ``cargo``;
  ``dueIn = due - turn`` for a placed rush crate, else -1.
- ``queue`` ``(4, 3)``: the crates handed, nearest (in hand) first, ``[weight, kind,
  rushWindow or 0]``; missing crates are zeros.
- ``hatches`` ``(7, 3)``: ``[arm, turns still jammed, open this voyage]``.
- ``bays`` ``(2, 7)`` 0/1: ``safeBays`` and ``listingBays`` as masks.
- ``status`` ``(8,)``: ``[phase (0 loading, 1 port, 2 over), voyage, turn - voyageStartTurn,
  trim, listing, chain, lotsShipped, castOffSafe (-1 null, 0, 1)]``.
- ``terms`` ``(2, 31)``: ``params`` then ``next``: ``[tolerance, capacity, manifestSize,
  cargoTypes, weightMin, weightMax, quota, wind, queueSize, jamEvery, jamLength, maxJams,
  rushEvery, rushWindow, ballastEvery, squallEvery]`` (a cadence that is off is 0), then 8
  condition flags in the rule text's order (squall, longBoom, shortCrew, heavyLot,
  tightWater, rushSeason, ballastRun, stickyHatches), then 7 ``openBays`` flags.

Fields the rule text does not name (``arms``, ``voyage``, ``chain``, ``lotsShipped``,
``voyageStartTurn``, ``openBays`` and the terms beyond the named ones; see
``PROMISED`` in :mod:`sunbot.mirror.keelhold`) may be missing on another server: then
``arms`` follow the conditions as the text says, ``openBays`` the text's five-then-seven,
turns into the voyage read -1 and the rest 0. Our own ``drawn`` counter is not used.

The shapes hold up to 8 crates a hatch and 4 in the queue (our server: capacity 6, queue
3); a server whose terms exceed them is refused with a ``ValueError`` naming the field.
"""

from __future__ import annotations

import struct
from typing import Any

import gymnasium as gym
import numpy as np

from sunbot.engines.keelhold import arms_for
from sunbot.engines.keelhold_gen import CONDITIONS
from sunbot.envs.backends import Action, Observation
from sunbot.envs.core import EncodedObs, SunbotEnv

HATCHES = 7
MAX_SLOTS = 8
MAX_QUEUE = 4
#: Action index -> action object.
ACTIONS: tuple[Action, ...] = (
    *({"type": "PLACE", "bay": b} for b in range(HATCHES)),
    {"type": "CAST_OFF"},
    {"type": "END_RUN"},
)
CAST_OFF, END_RUN = 7, 8
TERMS = (
    "tolerance", "capacity", "manifestSize", "cargoTypes", "weightMin", "weightMax", "quota",
    "wind", "queueSize", "jamEvery", "jamLength", "maxJams", "rushEvery", "rushWindow",
    "ballastEvery", "squallEvery",
)  # fmt: skip
PHASES = {"loading": 0, "port": 1, "over": 2}
BIG = 2**30
_EMPTY_SLOT = (0, 0, -1)
_EMPTY_QUEUE = (0, 0, 0)
N_TERMS = len(TERMS) + len(CONDITIONS) + HATCHES


def _cuts(*sizes: int) -> list[slice]:
    out, at = [], 0
    for n in sizes:
        out.append(slice(at, at + n))
        at += n
    return out


#: Where each key's values sit in the flat buffer :meth:`KeelholdCodec.encode` fills.
_HOLD, _QUEUE, _HATCHES, _BAYS, _STATUS, _TERMS = _cuts(
    HATCHES * MAX_SLOTS * 3, MAX_QUEUE * 3, HATCHES * 3, 2 * HATCHES, 8, 2 * N_TERMS
)
#: Packs the flat buffer (every key's values, in order) as native int32.
_PACK = struct.Struct(f"={_TERMS.stop}i")


def _open_by_rule(voyage: int) -> range:
    """The hatches the rule text opens: five on voyage 1, all seven after (and when the
    server does not say which voyage it is)."""
    return range(1, 6) if voyage == 1 else range(HATCHES)


def _terms_row(p: dict[str, Any]) -> list[int]:
    row = [int(p.get(k) or 0) for k in TERMS]
    conditions = p.get("conditions") or ()
    row += [1 if c in conditions else 0 for c in CONDITIONS]
    open_bays = p.get("openBays") or ()
    row += [1 if b in open_bays else 0 for b in range(HATCHES)]
    return row


class KeelholdCodec:
    """Fixed-shape encoding of Keelhold observations (module docstring) and its 9 actions."""

    n_actions = len(ACTIONS)

    def __init__(self) -> None:
        self._last_params: dict[str, Any] | None = None
        self._last_next: dict[str, Any] | None = None
        self._last_terms: list[int] = []

    def observation_space(self) -> gym.spaces.Dict:
        """The ``Dict`` space of the module docstring."""
        i32 = np.int32
        return gym.spaces.Dict(
            {
                "hold": gym.spaces.Box(-BIG, BIG, (HATCHES, MAX_SLOTS, 3), i32),
                "queue": gym.spaces.Box(-BIG, BIG, (MAX_QUEUE, 3), i32),
                "hatches": gym.spaces.Box(-BIG, BIG, (HATCHES, 3), i32),
                "bays": gym.spaces.MultiBinary((2, HATCHES)),
                "status": gym.spaces.Box(-BIG, BIG, (8,), i32),
                "terms": gym.spaces.Box(-BIG, BIG, (2, N_TERMS), i32),
            }
        )

    def encode(self, observation: Observation) -> EncodedObs:
        """The arrays of the module docstring from a wire observation (``rng`` ignored).

        All integer fields are written into one flat list, packed into one buffer and cut
        into views (one conversion per step: the encoding is on the training hot path, and
        packing with ``struct`` takes half the time of ``np.array`` on a list).

        Raises:
            ValueError: a hatch holds more than 8 crates or the queue more than 4.
        """
        try:
            flat = self._flat(observation)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a Keelhold observation: missing or bad {exc}") from None
        try:
            arr = np.frombuffer(bytearray(_PACK.pack(*flat)), dtype=np.int32)
        except struct.error as exc:  # a value beyond int32
            raise ValueError(f"a Keelhold field does not fit 32 bits: {exc}") from None
        return {
            "hold": arr[_HOLD].reshape(HATCHES, MAX_SLOTS, 3),
            "queue": arr[_QUEUE].reshape(MAX_QUEUE, 3),
            "hatches": arr[_HATCHES].reshape(HATCHES, 3),
            "bays": arr[_BAYS].astype(np.int8).reshape(2, HATCHES),
            "status": arr[_STATUS],
            "terms": arr[_TERMS].reshape(2, N_TERMS),
        }

    def _flat(self, o: Observation) -> list[int]:
        """Every key's values in order (the rule text's fields; the others with fallbacks)."""
        turn = int(o["turn"])
        flat: list[int] = []
        add = flat.extend
        for i, hatch in enumerate(o["hold"]):
            if len(hatch) > MAX_SLOTS:
                raise ValueError(f"hold[{i}] has {len(hatch)} crates; this encoding holds 8")
            for c in hatch:
                cargo, due = c["cargo"], c.get("due")
                add(
                    (
                        c["weight"],
                        1 if cargo is None else 2 + cargo,
                        -1 if due is None else due - turn,
                    )
                )
            add(_EMPTY_SLOT * (MAX_SLOTS - len(hatch)))
        queue = o["queue"]
        if len(queue) > MAX_QUEUE:
            raise ValueError(f"queue has {len(queue)} crates; this encoding holds 4")
        for c in queue:
            cargo = c["cargo"]
            add((c["weight"], 1 if cargo is None else 2 + cargo, c.get("rushWindow") or 0))
        add(_EMPTY_QUEUE * (MAX_QUEUE - len(queue)))
        params = o["params"]
        voyage = o.get("voyage", 0)
        open_bays = params.get("openBays") or _open_by_rule(voyage)
        jam = o["jammedUntil"]
        arms = o.get("arms") or arms_for(params.get("conditions") or [])
        for b, arm in enumerate(arms):
            add((arm, max(0, jam[b] - turn), 1 if b in open_bays else 0))
        safe, listing = o["safeBays"], o["listingBays"]
        add([1 if b in safe else 0 for b in range(HATCHES)])
        add([1 if b in listing else 0 for b in range(HATCHES)])
        cos, start = o.get("castOffSafe"), o.get("voyageStartTurn")
        add(
            (
                PHASES[o["phase"]],
                voyage,
                -1 if start is None else turn - start,
                o["trim"],
                1 if o["listing"] else 0,
                o.get("chain", 0),
                o.get("lotsShipped", 0),
                -1 if cos is None else int(cos),
            )
        )
        add(self._terms(params, o["next"]))
        return flat

    def _terms(self, params: dict[str, Any], nxt: dict[str, Any]) -> list[int]:
        """``terms`` rows; they change once a voyage (and at a squall), so the last pair
        is kept and reused while both objects compare equal."""
        if params != self._last_params or nxt != self._last_next:
            self._last_params, self._last_next = params, nxt
            self._last_terms = [*_terms_row(params), *_terms_row(nxt)]
        return self._last_terms

    def action(self, index: int) -> Action:
        """Action object of ``index`` (a fresh dict)."""
        return dict(ACTIONS[index])

    def index(self, action: Action) -> int | None:
        """``bay`` for PLACE, 7 for CAST_OFF, 8 for END_RUN, ``None`` for anything else."""
        kind = action.get("type")
        if kind == "PLACE":
            bay = action.get("bay")
            return bay if type(bay) is int and 0 <= bay < HATCHES else None
        return {"CAST_OFF": CAST_OFF, "END_RUN": END_RUN}.get(str(kind))


class KeelholdEnv(SunbotEnv):
    """``sunbot/Keelhold-v0``. Options: ``max_voyages`` (truncate at port once that many
    voyages are done), ``server`` (``None`` = engine, ``"embedded"``, or a URL), ``mirror``.
    """

    def __init__(
        self, *, max_voyages: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("keelhold", KeelholdCodec(), cap=max_voyages, server=server, mirror=mirror)
