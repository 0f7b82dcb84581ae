"""Keelhold mirror hooks (see :mod:`sunbot.mirror`).

The rules fix everything in a Keelhold answer except its draws: the crates newly added to
the queue (whether one is ballast or a rush crate, its cargo, weight and id), the hatch a jam
hits and how long it stays shut, the next voyage's terms drawn at CAST_OFF, and the cursor.
:class:`ReplayDraws` feeds the server's draws to the engine in their place, checking each
for shape and the ranges the server itself states (weight within ``weightMin..weightMax``
when it publishes them, cargo within ``cargoTypes`` or ``None``, a jam on an allowed hatch,
conditions from voyage 21 and never the previous voyage's). Everything else, including what
follows from those draws (safeBays, the run check), is recomputed by
:func:`sunbot.engines.keelhold.step_with_draws` and compared.

The cursor is our own design: another server may keep it inside its token or leave it out,
so ``rng`` is never required (field table: ``docs/rules/keelhold.md``).
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import ValidationError

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import CONDITIONS, CONDITIONS_FROM, params_for
from sunbot.engines.keelhold_schema import Crate, Params, check_shape, check_state
from sunbot.mirror import Finding
from sunbot.mirror.fields import is_int


class ReplayDraws:
    """Draws taken from the server's answer ``got`` (implements ``keelhold_gen.Draws``)."""

    def __init__(self, prev: dict[str, Any], got: dict[str, Any]) -> None:
        self.got = got
        self.offset = max(0, len(prev.get("queue", [])) - 1)
        queue = got.get("queue")
        self.new_crates: list[Any] = queue[self.offset :] if isinstance(queue, list) else []
        self.drawn = 0
        self.findings: list[Finding] = []

    def crate(
        self, state: dict[str, Any], params: dict[str, Any], ballast: bool
    ) -> tuple[int | None, int]:
        i = self.drawn
        self.drawn += 1
        path = f"state.queue[{self.offset + i}]"
        fallback = (None if ballast else 0, int(params["weightMin"]))
        if i >= len(self.new_crates):
            self.findings.append(
                Finding(path, "a newly drawn crate", "<missing>", "no crate drawn")
            )
            return fallback
        try:
            crate = Crate.model_validate(self.new_crates[i])
        except ValidationError as exc:
            self.findings.append(Finding(path, "a crate", self.new_crates[i], _first(exc)))
            return fallback
        cargo, weight = crate.cargo, crate.weight
        if cargo is not None and cargo > params["cargoTypes"]:
            note = f"cargo must be one of {params['cargoTypes']} kinds (0- or 1-based) or null"
            self.findings.append(Finding(f"{path}.cargo", "a cargo type", cargo, note))
        if crate.due is not None:
            note = "a crate's due is set when it is placed, not when it is drawn"
            self.findings.append(Finding(f"{path}.due", None, crate.due, note))
        if not params["weightMin"] <= weight <= params["weightMax"]:
            note = f"weight must be {params['weightMin']}..{params['weightMax']}"
            self.findings.append(Finding(f"{path}.weight", "in range", weight, note))
        return cargo, weight

    def jam(self, state: dict[str, Any], candidates: list[int]) -> int | None:
        """No jam here: when a hatch jams and for how long is the server's timing (the text
        gives a cadence, not its phase); :func:`_adopt_jams` checks the server's jams."""
        return None

    def voyage(
        self, state: dict[str, Any], voyage: int, prev_conditions: list[str]
    ) -> dict[str, Any]:
        raw = self.got.get("next")
        if isinstance(raw, dict):
            raw = _complete_terms(raw, voyage)
        try:
            params = Params.model_validate(raw).model_dump()
        except ValidationError as exc:
            self.findings.append(Finding("state.next", "voyage terms", raw, _first(exc)))
            return params_for(voyage, [], 0)
        conds = params["conditions"]
        if conds and set(conds) == set(prev_conditions):  # one shared condition: unclear
            note = "the conditions repeat the previous voyage's"
            self.findings.append(Finding("state.next.conditions", "new conditions", conds, note))
        if "stickyHatches" in conds and params["maxJams"] != 2:
            note = "stickyHatches allows two jams at once (THE PORT CALL)"
            self.findings.append(Finding("state.next.maxJams", 2, params["maxJams"], note))
        if (voyage < CONDITIONS_FROM and conds) or (voyage >= CONDITIONS_FROM and not conds):
            count = "no" if voyage < CONDITIONS_FROM else "at least one"
            note = f"voyage {voyage} carries {count} conditions"
            self.findings.append(Finding("state.next.conditions", "per the ramp", conds, note))
        return params


def _first(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}"


#: Fields the rule text promises by name (patterns of :mod:`sunbot.mirror.fields`): only
#: these are divergences when a server leaves them out. The table with the rule behind each
#: is in ``docs/rules/keelhold.md``.
_TERMS: tuple[str, ...] = ("tolerance", "capacity", "manifestSize", "cargoTypes", "jamEvery")
_TERMS += ("maxJams", "quota", "wind", "conditions")
PROMISED: frozenset[str] = frozenset(
    [
        *("state.seed", "state.turn", "state.phase", "state.cause", "state.trim"),
        *("state.listing", "state.queue", "state.jammedUntil", "state.safeBays"),
        *("state.listingBays", "state.castOffSafe"),
        *(f"state.{part}.{t}" for part in ("params", "next") for t in _TERMS),
    ]
)


#: Fields the rule text uses but never shows, so their encoding is the server's: the chain
#: (the text defines C = 2..8, not a count) and the lots shipped this voyage. The mirror drops
#: a server's value unread and keeps its own count from the replay, so no server's encoding
#: ever feeds an award it computes (``docs/rules/keelhold.md``).
TRACKED: frozenset[str] = frozenset({"chain", "lotsShipped"})


def our_spelling(position: dict[str, Any]) -> None:
    """Rewrite a server's state or observation, in place, where the rule text allows two
    spellings of one thing (field table: ``docs/rules/keelhold.md``); never raises.

    - ``safeBays`` and ``listingBays`` in ascending order: SAFETY lists hatches, in no
      stated order.
    - A crate's ``rushWindow`` and ``due`` left out read as null (only rush crates carry
      them, THE QUEUE); on iron ballast aboard (a rush crate past its due) they read as null
      whatever they say, since an expired crate's window no longer means anything.
    - ``jamEvery`` left out of a voyage's terms reads as null (a voyage without jams).
    - ``openBays`` is not read: which hatches are open is fixed by THE HULL, and a server
      that opens others is caught by ``legalActions`` and ``safeBays``.
    - Before the run is over, ``cause`` left out reads as null; away from port,
      ``castOffSafe`` reads as null whatever it says (THE PORT CALL gives it meaning at
      port only).
    """
    for key in ("safeBays", "listingBays"):
        bays = position.get(key)
        if isinstance(bays, list) and all(map(is_int, bays)):
            position[key] = sorted(bays)
    queue, hold = position.get("queue"), position.get("hold")
    hatches = [h for h in hold if isinstance(h, list)] if isinstance(hold, list) else []
    for crates, aboard in ((queue, False), *((h, True) for h in hatches)):
        for crate in crates if isinstance(crates, list) else []:
            if not isinstance(crate, dict):
                continue
            for key in ("rushWindow", "due"):
                crate.setdefault(key, None)
                if aboard and "cargo" in crate and crate["cargo"] is None:
                    crate[key] = None
    for part in ("params", "next"):
        terms = position.get(part)
        if isinstance(terms, dict):
            terms.setdefault("jamEvery", None)
            terms.pop("openBays", None)  # the text's open hatches stand in (_complete_terms)
    phase = position.get("phase")
    if isinstance(phase, str) and phase != "over":
        position.setdefault("cause", None)
    if isinstance(phase, str) and phase != "port":
        position["castOffSafe"] = None


def template_states() -> list[dict[str, Any]]:
    """Our own positions whose keys the mirror knows (an opening, and one with a crate
    aboard so the keys of a crate in the hold are learned too)."""
    opening = kh.init(1)
    return [opening, kh.step(opening, kh.legal_actions(opening)[0])]


def _complete_terms(terms: dict[str, Any], voyage: int) -> dict[str, Any]:
    """A voyage's terms with the fields the rule text does not name filled in: our ramp's
    cadences for that voyage and weight bounds so wide that no weight the server draws is
    held against it. The open hatches are always the text's (THE HULL: five on voyage 1,
    all seven after), whatever a server's ``openBays`` says: the key and its encoding are
    ours, which hatches take crates is the rules', and legalActions and safeBays are then
    checked against it."""
    conds = terms.get("conditions")
    conds = [c for c in conds if c in CONDITIONS] if isinstance(conds, list) else []
    wind = terms["wind"] if is_int(terms.get("wind")) else 0
    ours = params_for(voyage, conds, wind)
    ours["weightMin"], ours["weightMax"] = 1, 10**6
    return {**ours, **terms, "openBays": open_hatches(voyage)}


def open_hatches(voyage: int) -> list[int]:
    """The hatches in use on ``voyage`` (THE HULL): the outer two shut on voyage 1."""
    return [1, 2, 3, 4, 5] if voyage == 1 else list(range(kh.HATCHES))


def complete(state: dict[str, Any], *, opening: bool) -> dict[str, Any]:
    """``state`` with the fields the rules do not promise filled in where it lacks them.

    The cursor becomes ``[0]`` (replay never draws from it), the crate counters follow the
    crates shown, and the voyage terms are completed by :func:`_complete_terms`. At the
    opening the rules also fix voyage 1, an empty hold, no chain, no lots, no score, and the
    default lever arms. Elsewhere a missing chain and lot count (:data:`TRACKED`) are taken
    as 0: only a mirror that lost its own count reads a position without them (a resumed run
    re-checks its transcript first, :meth:`sunbot.mirror.Mirror.warm`).
    """
    s = dict(state)
    voyage = s.get("voyage", 1) if is_int(s.get("voyage", 1)) else 1
    if opening:
        s.setdefault("voyage", 1)
        s.setdefault("voyageStartTurn", s.get("turn", 0))
        s.setdefault("score", 0)
        s.setdefault("hold", [[] for _ in range(kh.HATCHES)])
    for key in TRACKED:
        s.setdefault(key, 0)
    for part, v in (("params", voyage), ("next", voyage + 1)):
        if isinstance(s.get(part), dict):
            s[part] = _complete_terms(s[part], v)
    if "arms" not in s and isinstance(s.get("params"), dict):
        s["arms"] = kh.arms_for(s["params"].get("conditions", []))
    hold = s.get("hold")
    hatches = hold if isinstance(hold, list) else []
    for crates in [s.get("queue"), *hatches]:
        for c in crates if isinstance(crates, list) else []:
            if isinstance(c, dict):  # a plain crate may come without its rush fields
                c.setdefault("rushWindow", None)
                c.setdefault("due", None)
    return kh.planning_state(s)


def check_initial(state: dict[str, Any]) -> list[Finding]:
    """The opening must be consistent and be voyage 1 with nothing scored or aboard; its
    first ``turn`` is any whole number >= 0 (the text fixes how turns advance, not where
    their count starts)."""
    try:
        check_state(state, ramp=False)
    except ValueError as exc:
        return [Finding("state", "a consistent opening position", "inconsistent", str(exc))]
    turn = state.get("turn")  # the text never says turns are counted from 0
    opening: dict[str, Any] = {
        "voyage": 1,
        "turn": turn if is_int(turn) and turn >= 0 else 0,
        "phase": "loading",
        "score": 0,
        "chain": 0,
        "lotsShipped": 0,
        "hold": [[] for _ in range(7)],
    }
    return [
        Finding(f"state.{k}", v, state.get(k), "opening position")
        for k, v in opening.items()
        if state.get(k) != v
    ]


def expected_after(
    prev: dict[str, Any], action: Any, got: dict[str, Any]
) -> tuple[dict[str, Any], list[Finding]]:
    """The position the rules give for ``action`` from ``prev``, with ``got``'s draws.

    Raises:
        IllegalAction: the rules refuse ``action`` in ``prev``.
    """
    check_shape(prev)  # bounded terms: a hostile answer cannot make the replay draw forever
    draws = ReplayDraws(prev, got)
    expected = kh.step_with_draws(prev, action, draws)
    if _squalls(prev) and action.get("type") == "PLACE" and _wind(got) == -_wind(expected) != 0:
        draws = ReplayDraws(prev, got)  # the server's squall came on another turn than ours
        expected = kh.step_with_draws(_squall_toggled(prev), action, draws)
    _adopt_draws(expected, draws)
    if action.get("type") == "PLACE":
        _adopt_jams(prev, expected, got, draws.findings)
    elif isinstance(got.get("jammedUntil"), list):  # free is free: 0 or a past turn
        now, theirs = expected["turn"], got["jammedUntil"]
        expected["jammedUntil"] = [
            t if is_int(t) and t <= now and e <= now else e
            for e, t in zip(expected["jammedUntil"], theirs, strict=False)
        ] + expected["jammedUntil"][len(theirs) :]
    for key in ("rng", "drawn", "nextCrateId", "voyageStartTurn"):  # ours, not the rules'
        if key in got:
            expected[key] = got[key]
    if _squalls(expected) and expected["turn"] > prev["turn"]:
        _their_next_squall(expected, got)
    theirs = got.get("cause")
    if expected.get("cause") in ("ended", "guard") and isinstance(theirs, str) and theirs:
        expected["cause"] = theirs  # the text names no cause for END_RUN or the guard
    return expected, draws.findings


def _squalls(s: dict[str, Any]) -> bool:
    return "squall" in (s.get("params") or {}).get("conditions", [])


def _wind(s: dict[str, Any]) -> Any:
    params = s.get("params")
    return params.get("wind") if isinstance(params, dict) else None


def _squall_toggled(s: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``s`` on which a squall due this turn acts as not due, and one not due
    as due: the wind negated and the trim moved to match. The text says a squall flips
    the wind "every few turns", not on which turns, so either timing is the rules'."""
    wind = s["params"]["wind"]
    return {**s, "params": {**s["params"], "wind": -wind}, "trim": s["trim"] - 2 * wind}


def _bays(s: dict[str, Any]) -> tuple[list[str], list[str]] | None:
    safe, listing = s.get("safeBays"), s.get("listingBays")
    if not isinstance(safe, list) or not isinstance(listing, list):
        return None
    return sorted(map(str, safe)), sorted(map(str, listing))


def _their_next_squall(expected: dict[str, Any], got: dict[str, Any]) -> None:
    """Safety for the next crate when the server's next squall timing is not ours: if
    ``got``'s safe and listing hatches are those the other timing gives, adopt that reading
    (the hatches, and the run check that follows from them)."""
    theirs = _bays(got)
    if theirs is None or theirs == _bays(expected):
        return
    if expected["phase"] == "over" and expected.get("cause") not in ("lurch", "noSafeStow"):
        return
    probe = _squall_toggled(copy.deepcopy(expected))
    if probe["phase"] == "over":
        probe["phase"], probe["cause"] = "loading", None
    kh.refresh(probe)
    if _bays(probe) == theirs:
        for key in ("safeBays", "listingBays", "phase", "cause", "castOffSafe"):
            expected[key] = probe[key]


def _adopt_jams(
    prev: dict[str, Any], expected: dict[str, Any], got: dict[str, Any], out: list[Finding]
) -> None:
    """The server's jams, when the rules allow them: a new jam only on a voyage that has
    jams, on an open hatch other than the keel that was free, ending after the new turn, with
    at most ``maxJams`` shut at once; a running jam keeps its end. A value at or below the
    turn means free (0 or an expired turn: both readings are the rules'). Safety is then
    recomputed on the hatches as the server shut them."""
    jams = got.get("jammedUntil")
    now, p = expected["turn"], expected["params"]
    if not (isinstance(jams, list) and len(jams) == kh.HATCHES and all(map(is_int, jams))):
        return  # the comparison reports it
    before = prev["jammedUntil"]
    shut = [h for h in range(kh.HATCHES) if jams[h] > now]
    for h in shut:
        if before[h] > prev["turn"] and jams[h] == before[h]:
            continue  # still shut, as before
        if not p.get("jamEvery") or h == kh.KEEL or h not in p["openBays"] or before[h] > now:
            note = "a hatch jams only on voyages with jams, never the keel nor a jammed hatch"
            out.append(
                Finding(f"state.jammedUntil[{h}]", expected["jammedUntil"][h], jams[h], note)
            )
            return
    if len(shut) > p["maxJams"]:
        note = f"at most {p['maxJams']} hatch(es) jammed at once"
        out.append(Finding("state.jammedUntil", f"<= {p['maxJams']} jams", jams, note))
        return
    expected["jammedUntil"] = list(jams)
    if expected["phase"] != "over":
        kh.refresh(expected)


def _adopt_draws(expected: dict[str, Any], draws: ReplayDraws) -> None:
    """The parts of the server's draws the engine cannot replay: the new crates' ids and rush
    windows (which draw is a rush crate is the server's cadence), and a new jam's length.
    Neither changes what is safe: safety reads weights, cargo and whether a hatch is shut."""
    queue = expected["queue"]
    for i, crate in enumerate(draws.new_crates[: draws.drawn]):
        at = draws.offset + i
        if at < len(queue) and isinstance(crate, dict):
            for key in ("id", "rushWindow"):
                if key in crate:
                    queue[at][key] = crate[key]
