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

import os
import struct
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

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
_OTHER_INDEX = {"CAST_OFF": CAST_OFF, "END_RUN": END_RUN}
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
#: Where each key's values sit in the ``int32`` buffer :class:`KeelholdCodec` keeps (``bays``,
#: ``int8``, has a buffer of its own).
_HOLD, _QUEUE, _HATCHES, _STATUS, _TERMS = _cuts(
    HATCHES * MAX_SLOTS * 3, MAX_QUEUE * 3, HATCHES * 3, 8, 2 * N_TERMS
)
_SLOT = 3 * MAX_SLOTS  # values of one hatch
_INT32 = 4  # bytes
#: The buffer's bounds, for one clip per observation.
_FLAT_LOW = np.concatenate([
    BOUNDS["hold"][0].ravel(), BOUNDS["queue"][0].ravel(), BOUNDS["hatches"][0].ravel(),
    BOUNDS["status"][0], BOUNDS["terms"][0].ravel(),
])  # fmt: skip
_FLAT_HIGH = np.concatenate([
    BOUNDS["hold"][1].ravel(), BOUNDS["queue"][1].ravel(), BOUNDS["hatches"][1].ravel(),
    BOUNDS["status"][1], BOUNDS["terms"][1].ravel(),
])  # fmt: skip
#: Packers of each part, as native int32 (``bays``: int8) into the buffers.
_PACK_HATCH = struct.Struct(f"={_SLOT}i")
_PACK_QUEUE = struct.Struct(f"={MAX_QUEUE * 3}i")
_PACK_HATCHES = struct.Struct(f"={HATCHES * 3}i")
_PACK_STATUS = struct.Struct("=8i")
_PACK_TERMS = struct.Struct(f"={2 * N_TERMS}i")
#: A value no part of an observation equals: the part is encoded afresh.
_UNSEEN: Any = object()
#: ``safeBays`` / ``listingBays`` as our engine lists them (ascending, no repeats) -> the
#: seven 0/1 flags; any other list is worked out bay by bay.
_BAY_FLAGS: dict[tuple[int, ...], bytes] = {
    tuple(b for b in range(HATCHES) if m >> b & 1): bytes(m >> b & 1 for b in range(HATCHES))
    for m in range(2**HATCHES)
}
#: How many ``params`` objects' rows of ``terms`` the codec remembers (the voyage's, the
#: next one's, which becomes the voyage's at port, and the opening voyage's).
_TERM_ROWS_KEPT = 4


def _open_by_rule(voyage: int) -> range:
    """The hatches the rule text opens: five on voyage 1, all seven after (and when the
    server does not say which voyage it is)."""
    return range(1, 6) if voyage == 1 else range(HATCHES)


def _bay_flags(bays: Any) -> bytes:
    """Seven 0/1 flags: hatch ``b`` is in ``bays``."""
    try:
        flags = _BAY_FLAGS.get(tuple(bays))
    except TypeError:  # not a list of numbers: the test below says what is wrong
        flags = None
    return flags if flags is not None else bytes(1 if b in bays else 0 for b in range(HATCHES))


def _terms_row(p: dict[str, Any]) -> list[int]:
    row = [int(p.get(k) or 0) for k in TERMS]
    conditions = p.get("conditions") or ()
    row += [1 if c in conditions else 0 for c in CONDITIONS]
    open_bays = p.get("openBays") or ()
    row += [1 if b in open_bays else 0 for b in range(HATCHES)]
    return row


def _load_native() -> ModuleType | None:
    """The C encoding (``_keelhold_encode.c``) when it is built, lays out the buffer as this
    module does and is not turned off (``SUNBOT_NO_NATIVE``, as for the Sunloaf search)."""
    if os.environ.get("SUNBOT_NO_NATIVE", "").strip() not in ("", "0"):
        return None
    try:
        from sunbot.envs import _keelhold_encode as mod
    except ImportError:  # built without a compiler: the Python encoding, the same numbers
        return None
    same = (mod.TERMS, mod.CONDITIONS, tuple(mod.PHASES)) == (TERMS, CONDITIONS, tuple(PHASES))
    layout = (mod.N_INTS, mod.HATCHES, mod.MAX_SLOTS, mod.MAX_QUEUE, mod.N_ACTIONS)
    want = (_TERMS.stop, HATCHES, MAX_SLOTS, MAX_QUEUE, len(ACTIONS))
    return mod if same and layout == want else None


#: The C encoding (:mod:`sunbot.envs._keelhold_encode`), ``None`` when it is not built or
#: turned off; :meth:`KeelholdCodec.encode` then encodes in Python. Tests may set it to
#: ``None``.
native: ModuleType | None = _load_native()


class KeelholdCodec:
    """Fixed-shape encoding of Keelhold observations (module docstring) and its 9 actions.

    The codec keeps the last encoding in its own buffers and the parts of the observation
    it came from (a hatch, the queue, the hatches' arms and jams, the safe bays, the terms):
    a part equal to the last one is not encoded again (a placement changes one hatch and
    the queue; the terms change once a voyage). So an observation must not be changed in
    place after it was encoded (no backend does: the engine is pure, answers are parsed
    afresh). The arrays returned are copies of the buffers, the caller's to keep or change.
    """

    n_actions = len(ACTIONS)
    #: Clip every value into its bound (v1); the v0 encoding (:mod:`sunbot.envs.legacy`) does not.
    clip = True

    def __init__(self) -> None:
        self._ints = np.zeros(_TERMS.stop, np.int32)
        self._bays = np.zeros((2, HATCHES), np.int8)
        #: the buffers as bytes, for ``struct.pack_into``
        self._raw = self._ints.data.cast("B")
        self._bays_raw = self._bays.data.cast("B")
        ints = self._ints
        self._hold = ints[_HOLD].reshape(HATCHES, MAX_SLOTS, 3)
        self._queue = ints[_QUEUE].reshape(MAX_QUEUE, 3)
        self._hatches = ints[_HATCHES].reshape(HATCHES, 3)
        self._status = ints[_STATUS]
        self._terms_view = ints[_TERMS].reshape(2, N_TERMS)
        #: each key's part of the buffers, in the order of :data:`_KEYS`, and its ``copy``
        parts: tuple[npt.NDArray[Any], ...] = (self._hold, self._queue, self._hatches)
        parts += (self._bays, self._status, self._terms_view)
        self._copy = tuple(part.copy for part in parts)
        #: the C encoding, holding the buffers (``None``: not built or turned off)
        self._fill: Any = None
        if native is not None:
            bounds = (_FLAT_LOW, _FLAT_HIGH) if self.clip else (None, None)
            keyed = tuple(zip(_KEYS, parts, strict=True))
            self._fill = native.Filler(self._ints, self._bays, *bounds, keyed)
        self._forget()

    def _forget(self) -> None:
        """Encode every part afresh next time (after a failed encoding)."""
        self._native_wrote = False
        #: per hatch: the hatch last encoded, and its rush crates' (buffer index, due)
        self._seen_hold: list[Any] = [_UNSEEN] * HATCHES
        self._rush: list[list[tuple[int, int]]] = [[] for _ in range(HATCHES)]
        self._turn: Any = _UNSEEN
        self._seen_queue: Any = _UNSEEN
        self._seen_hatches: Any = _UNSEEN
        self._seen_bays: Any = _UNSEEN
        self._seen_listing: Any = _UNSEEN
        self._seen_terms: Any = _UNSEEN
        self._term_rows: list[tuple[Any, list[int]]] = []

    def observation_space(self) -> gym.spaces.Dict:
        """The ``Dict`` space of the module docstring, with the bounds of :data:`BOUNDS`."""
        spaces: dict[str, gym.spaces.Space[Any]] = {
            key: int_box(low, high) for key, (low, high) in BOUNDS.items()
        }
        spaces["bays"] = gym.spaces.MultiBinary((2, HATCHES))
        return gym.spaces.Dict({key: spaces[key] for key in _KEYS})

    def encode(self, observation: Observation) -> EncodedObs:
        """The arrays of the module docstring from a wire observation (``rng`` ignored).

        With the C extension (:data:`native`) the whole observation is written into the
        codec's buffers in C, clipped as it is written; an observation it does not handle
        (another server's types or missing fields) is encoded in Python, where the parts that
        differ from the last observation's are written into the buffers (packed with
        ``struct``) and the buffer is clipped into the bounds (one pass). Either way each key
        is a copy of its part: the encoding is on the training hot path.

        Raises:
            ValueError: a hatch holds more than 8 crates or the queue more than 4, the hold
                has not 7 hatches, a field is missing, of the wrong type or beyond int32.
        """
        fill = self._fill
        if fill is not None and native is not None:
            encoded: EncodedObs | None = fill(observation)
            if encoded is not None:
                self._native_wrote = True
                return encoded
        if self._native_wrote:  # C wrote the buffers last: nothing remembered is current
            self._forget()
        try:
            self._write(observation)
        except BaseException as exc:  # the buffers hold a part-written encoding: forget it
            self._forget()
            if isinstance(exc, (KeyError, TypeError, IndexError, AttributeError)):
                raise ValueError(f"not a Keelhold observation: missing or bad {exc}") from None
            if isinstance(exc, (struct.error, OverflowError)):  # a value beyond int32
                raise ValueError(f"a Keelhold field does not fit 32 bits: {exc}") from None
            raise
        if self.clip:  # two ufuncs: a third of np.clip's time on this small buffer
            ints = self._ints
            np.minimum(ints, _FLAT_HIGH, out=ints)
            np.maximum(ints, _FLAT_LOW, out=ints)
        return self._copies()

    def _copies(self) -> EncodedObs:
        """Each key, a copy of its part of the buffers."""
        hold, queue, hatches, bays, status, terms = self._copy
        return {
            "hold": hold(),
            "queue": queue(),
            "hatches": hatches(),
            "bays": bays(),
            "status": status(),
            "terms": terms(),
        }

    def _write(self, o: Observation) -> None:
        """Write the parts of ``o`` that differ from the last observation's into the buffers
        (the rule text's fields; the others with fallbacks)."""
        ints = self._ints
        turn = int(o["turn"])
        hold = o["hold"]
        if len(hold) != HATCHES:
            raise ValueError(f"hold has {len(hold)} hatches; Keelhold has {HATCHES}")
        seen, rush = self._seen_hold, self._rush
        for b in range(HATCHES):
            hatch = hold[b]
            if hatch == seen[b]:
                continue
            n = len(hatch)
            if n > MAX_SLOTS:
                raise ValueError(f"hold[{b}] has {n} crates; this encoding holds 8")
            at = b * _SLOT
            values: list[int] = []
            rushing: list[tuple[int, int]] = []
            for k, c in enumerate(hatch):
                cargo, due = c["cargo"], c.get("due")
                if due is None:
                    values += (c["weight"], 1 if cargo is None else 2 + cargo, -1)
                else:
                    values += (c["weight"], 1 if cargo is None else 2 + cargo, due - turn)
                    rushing.append((at + 3 * k + 2, due))
            values += _EMPTY_SLOT * (MAX_SLOTS - n)
            _PACK_HATCH.pack_into(self._raw, at * _INT32, *values)
            seen[b], rush[b] = hatch, rushing
        if turn != self._turn:  # a placed rush crate's dueIn counts down with the turn
            for rushing in rush:
                for i, due in rushing:
                    ints[i] = due - turn
            self._turn = turn
        queue = o["queue"]
        if queue != self._seen_queue:
            if len(queue) > MAX_QUEUE:
                raise ValueError(f"queue has {len(queue)} crates; this encoding holds 4")
            values = []
            for c in queue:
                cargo = c["cargo"]
                values += (c["weight"], 1 if cargo is None else 2 + cargo, c.get("rushWindow") or 0)
            values += _EMPTY_QUEUE * (MAX_QUEUE - len(queue))
            _PACK_QUEUE.pack_into(self._raw, _QUEUE.start * _INT32, *values)
            self._seen_queue = queue
        params = o["params"]
        voyage = o.get("voyage", 0)
        self._write_hatches(o, params, voyage, turn)
        safe, listing = o["safeBays"], o["listingBays"]
        if safe != self._seen_bays or listing != self._seen_listing:
            self._bays_raw[:HATCHES] = _bay_flags(safe)
            self._bays_raw[HATCHES:] = _bay_flags(listing)
            self._seen_bays, self._seen_listing = safe, listing
        cos, start = o.get("castOffSafe"), o.get("voyageStartTurn")
        _PACK_STATUS.pack_into(
            self._raw,
            _STATUS.start * _INT32,
            PHASES[o["phase"]],
            voyage,
            -1 if start is None else turn - start,
            o["trim"],
            1 if o["listing"] else 0,
            o.get("chain", 0),
            o.get("lotsShipped", 0),
            -1 if cos is None else int(cos),
        )
        nxt = o["next"]
        terms = (params, nxt)
        if terms != self._seen_terms:  # once a voyage (and at a squall: the wind turns)
            row = self._terms_row
            _PACK_TERMS.pack_into(self._raw, _TERMS.start * _INT32, *row(params), *row(nxt))
            self._seen_terms = terms

    def _terms_row(self, p: dict[str, Any]) -> list[int]:
        """One row of ``terms``, remembered for the last few ``params`` objects."""
        for seen, row in self._term_rows:
            if p == seen:
                return row
        row = _terms_row(p)
        self._term_rows = [(p, row), *self._term_rows[: _TERM_ROWS_KEPT - 1]]
        return row

    def _write_hatches(
        self, o: Observation, params: dict[str, Any], voyage: Any, turn: int
    ) -> None:
        """``hatches``: arms, turns still jammed and open flags; they change with the voyage
        and, while a hatch is jammed, with the turn."""
        jam = o["jammedUntil"]
        arms_given, open_given = o.get("arms"), params.get("openBays")
        conditions = params.get("conditions")
        jammed = max(jam, default=0) > turn
        key = (arms_given, open_given, conditions, voyage, jam, turn if jammed else None)
        if key == self._seen_hatches:
            return
        open_bays = open_given or _open_by_rule(voyage)
        arms = arms_given or arms_for(conditions or [])
        if len(arms) != HATCHES:
            raise ValueError(f"arms has {len(arms)} hatches; Keelhold has {HATCHES}")
        values: list[int] = []
        for b, arm in enumerate(arms):
            values += (arm, max(0, jam[b] - turn), 1 if b in open_bays else 0)
        _PACK_HATCHES.pack_into(self._raw, _HATCHES.start * _INT32, *values)
        self._seen_hatches = key

    def action(self, index: int) -> Action:
        """Action object of ``index`` (a fresh dict)."""
        return dict(ACTIONS[index])

    def mask_into(self, legal_actions: list[Action], out: npt.NDArray[np.int8]) -> bool:
        """Write the mask of ``legal_actions`` (1 at each one's :meth:`index`) into ``out``
        (``int8``, 9) in C; ``False`` (``out`` untouched) without the C extension or for
        actions it does not handle: :func:`sunbot.envs.core.mask_of` then."""
        return native is not None and bool(native.mask(legal_actions, out))

    def index(self, action: Action) -> int | None:
        """``bay`` for PLACE, 7 for CAST_OFF, 8 for END_RUN, ``None`` for anything else."""
        kind = action.get("type")
        if kind == "PLACE":
            bay = action.get("bay")
            return bay if type(bay) is int and 0 <= bay < HATCHES else None
        return _OTHER_INDEX.get(str(kind))


class KeelholdEnv(SunbotEnv):
    """``sunbot/Keelhold-v1``. Options: ``max_voyages`` (truncate at port once that many
    voyages are done), ``server`` (``None`` = engine, ``"embedded"``, or a URL), ``mirror``.
    """

    def __init__(
        self, *, max_voyages: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("keelhold", KeelholdCodec(), cap=max_voyages, server=server, mirror=mirror)
