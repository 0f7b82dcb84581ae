"""Keelhold as a Gymnasium environment: ``gymnasium.make("sunbot/Keelhold-v1")``.

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

Bounds (v1; ``docs/rl.md`` has the table). From the rule text: arms -4..4 (THE HULL, THE
PORT CALL), the chain 0..7, at most 6 hatches jammed at once (JAMS: never the keel), the
20,000-placement guard. From our published ramp (``docs/rules/keelhold.md``): weights up to
7, cargo types up to 6, wind within 8, rush windows of 8, jams of 4 turns, the cadences,
and the quota ``3 + v``. Derived: a voyage ends at port only after ``quota`` placements
(each ships one lot at most), so the guard is reached before port of voyage 197
(:data:`VOYAGE_MAX`), the next voyage is at most 198 (tolerance 400, quota 201); a voyage
lasts at most ``7 * capacity + capacity * quota`` placements (every placement adds a crate;
a lot takes at most a hatch away); ``|trim|`` is at most the wind plus one side's arms
loaded full of the heaviest crates. A value beyond a bound (only another server's terms can
get there) is clipped to it; every observation is in the space.

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

from sunbot.engines.keelhold import CHAIN_CAP, GUARD_TURNS, LONG_BOOM_ARMS, arms_for
from sunbot.engines.keelhold_gen import CONDITIONS, params_for
from sunbot.envs.backends import Action, Observation
from sunbot.envs.core import EncodedObs, Int32s, SunbotEnv, int_box

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
_EMPTY_SLOT = (0, 0, -1)
_EMPTY_QUEUE = (0, 0, 0)
N_TERMS = len(TERMS) + len(CONDITIONS) + HATCHES


def _last_voyage() -> int:
    """The highest voyage number a run reaches: port of voyage ``v`` needs ``quota(v)``
    placements in it (one lot each at most), and the guard stops at 20,000 placements."""
    turns, voyage = 0, 1
    while turns + params_for(voyage, [], 0)["quota"] <= GUARD_TURNS:
        turns += params_for(voyage, [], 0)["quota"]
        voyage += 1
    return voyage


#: The highest voyage a run reaches (197 with our ramp); ``next`` shows one more.
VOYAGE_MAX = _last_voyage()
_LAST_TERMS = params_for(VOYAGE_MAX + 1, [], 0)
#: The ramp's heaviest crate (``weightMax`` 6 from voyage 10, heavyLot +1), most cargo
#: types, widest wind, rush window and jam length (docs/rules/keelhold.md).
WEIGHT_MAX, CARGO_TYPES_MAX, WIND_MAX, RUSH_WINDOW_MAX, JAM_LENGTH_MAX = 7, 6, 8, 8, 4
#: Kinds: 0 empty, 1 ballast, ``2 + cargo``; room for cargo numbered 1..6 (the mirror accepts
#: 0- or 1-based numbering), hence 8.
KIND_MAX = 2 + CARGO_TYPES_MAX
#: Largest capacity on our ramp (6) and ``|trim|``: the wind plus one side's arms (longBoom
#: 1 + 2 + 4) holding full hatches of the heaviest crates.
CAPACITY = 6
TRIM_MAX = WIND_MAX + sum(a for a in LONG_BOOM_ARMS if a > 0) * CAPACITY * WEIGHT_MAX
#: The most placements one voyage can last: every placement adds a crate, at most
#: ``quota`` lots leave (each at most a hatch), and the hold keeps at most 7 full hatches.
VOYAGE_TURNS_MAX = HATCHES * CAPACITY + CAPACITY * params_for(VOYAGE_MAX, [], 0)["quota"]
#: ``terms`` columns' highest values: the ramp's maxima over voyages 1..198 and every
#: condition (the sizes: the encoding's room; ``maxJams``: the six hatches but the keel).
TERM_HIGH: dict[str, int] = {
    "tolerance": _LAST_TERMS["tolerance"], "capacity": MAX_SLOTS, "manifestSize": MAX_SLOTS,
    "cargoTypes": CARGO_TYPES_MAX + 1, "weightMin": WEIGHT_MAX, "weightMax": WEIGHT_MAX,
    "quota": _LAST_TERMS["quota"], "wind": WIND_MAX, "queueSize": MAX_QUEUE, "jamEvery": 9,
    "jamLength": JAM_LENGTH_MAX, "maxJams": HATCHES - 1, "rushEvery": 12,
    "rushWindow": RUSH_WINDOW_MAX, "ballastEvery": 10, "squallEvery": 6,
}  # fmt: skip


def _rows(n: int, low: list[int], high: list[int]) -> tuple[Int32s, Int32s]:
    """``n`` rows of the same bounds."""
    return np.tile(np.array(low, np.int32), (n, 1)), np.tile(np.array(high, np.int32), (n, 1))


def _space_bounds() -> dict[str, tuple[Int32s, Int32s]]:
    """Key -> ``(low, high)`` arrays of the ``Box`` keys (module docstring)."""
    slot_high = [WEIGHT_MAX, KIND_MAX, RUSH_WINDOW_MAX]
    hold_low, hold_high = _rows(HATCHES * MAX_SLOTS, [0, 0, -1], slot_high)
    shape = (HATCHES, MAX_SLOTS, 3)
    term_low = [-WIND_MAX if k == "wind" else 0 for k in TERMS] + [0] * (N_TERMS - len(TERMS))
    term_high = [TERM_HIGH[k] for k in TERMS] + [1] * (N_TERMS - len(TERMS))
    quota = params_for(VOYAGE_MAX, [], 0)["quota"]
    status_low = [0, 0, -1, -TRIM_MAX, 0, 0, 0, -1]
    status_high = [2, VOYAGE_MAX, VOYAGE_TURNS_MAX, TRIM_MAX, 1, CHAIN_CAP, quota, 1]
    arm_low, arm_high = min(LONG_BOOM_ARMS), max(LONG_BOOM_ARMS)
    return {
        "hold": (hold_low.reshape(shape), hold_high.reshape(shape)),
        "queue": _rows(MAX_QUEUE, [0, 0, 0], slot_high),
        "hatches": _rows(HATCHES, [arm_low, 0, 0], [arm_high, JAM_LENGTH_MAX, 1]),
        "status": (np.array(status_low, np.int32), np.array(status_high, np.int32)),
        "terms": _rows(2, term_low, term_high),
    }


BOUNDS = _space_bounds()


def _cuts(*sizes: int) -> list[slice]:
    out, at = [], 0
    for n in sizes:
        out.append(slice(at, at + n))
        at += n
    return out


_KEYS = ("hold", "queue", "hatches", "bays", "status", "terms")
#: Where each key's values sit in the flat buffer :meth:`KeelholdCodec.encode` fills.
_HOLD, _QUEUE, _HATCHES, _BAYS, _STATUS, _TERMS = _cuts(
    HATCHES * MAX_SLOTS * 3, MAX_QUEUE * 3, HATCHES * 3, 2 * HATCHES, 8, 2 * N_TERMS
)
#: Packs the flat buffer (every key's values, in order) as native int32.
_PACK = struct.Struct(f"={_TERMS.stop}i")
#: The flat buffer's bounds, for one clip per step (``bays`` is 0/1 already).
_FLAT_LOW = np.concatenate([
    BOUNDS["hold"][0].ravel(), BOUNDS["queue"][0].ravel(), BOUNDS["hatches"][0].ravel(),
    np.zeros(2 * HATCHES, np.int32), BOUNDS["status"][0], BOUNDS["terms"][0].ravel(),
])  # fmt: skip
_FLAT_HIGH = np.concatenate([
    BOUNDS["hold"][1].ravel(), BOUNDS["queue"][1].ravel(), BOUNDS["hatches"][1].ravel(),
    np.ones(2 * HATCHES, np.int32), BOUNDS["status"][1], BOUNDS["terms"][1].ravel(),
])  # fmt: skip


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
    #: Clip every value into its bound (v1); the v0 encoding (:mod:`sunbot.envs.legacy`) does not.
    clip = True

    def __init__(self) -> None:
        self._last_params: dict[str, Any] | None = None
        self._last_next: dict[str, Any] | None = None
        self._last_terms: list[int] = []

    def observation_space(self) -> gym.spaces.Dict:
        """The ``Dict`` space of the module docstring, with the bounds of :data:`BOUNDS`."""
        spaces: dict[str, gym.spaces.Space[Any]] = {
            key: int_box(low, high) for key, (low, high) in BOUNDS.items()
        }
        spaces["bays"] = gym.spaces.MultiBinary((2, HATCHES))
        return gym.spaces.Dict({key: spaces[key] for key in _KEYS})

    def encode(self, observation: Observation) -> EncodedObs:
        """The arrays of the module docstring from a wire observation (``rng`` ignored).

        All integer fields are written into one flat list, packed into one buffer, clipped
        into the bounds and cut into views (one conversion per step: the encoding is on the
        training hot path, and packing with ``struct`` takes half the time of ``np.array``
        on a list).

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
        if self.clip:  # two ufuncs: a third of np.clip's time on this small buffer
            np.minimum(arr, _FLAT_HIGH, out=arr)
            np.maximum(arr, _FLAT_LOW, out=arr)
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
    """``sunbot/Keelhold-v1``. Options: ``max_voyages`` (truncate at port once that many
    voyages are done), ``server`` (``None`` = engine, ``"embedded"``, or a URL), ``mirror``.
    """

    def __init__(
        self, *, max_voyages: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("keelhold", KeelholdCodec(), cap=max_voyages, server=server, mirror=mirror)
