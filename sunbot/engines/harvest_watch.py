"""Harvest Watch rules engine: pure, no clock, no I/O (Harvest Watch §3
"Game rules"; ``docs/rules/harvest-watch.md``).

One call of :func:`resolve_beat` resolves one beat for every seat at once (spec README,
engine API). Food is kept in integer tenths; :func:`view` shows it as ``tenths / 10``.
The state is plain JSON (string keys only):

``seed``, ``seats`` (table size), ``status`` (running|done), ``day``, ``phase``, ``round``,
``food`` (tenths per seat), ``alive``, ``outNight`` (day or null), ``preCost`` (P of the
latest night a seat saw, tenths or null), the per-day public fields ``speeches1``,
``speeches2``, ``votes``, ``punishResult`` (tenths) -- null while absent --, ``caught`` and
``collided`` (one list per seat, null while absent), ``lastPublic``, ``log`` (every applied
command, per beat; never shown to a seat) and ``result`` (``{"ranks": [...]}`` once done).

The match RNG is not here: the server owns ``random.Random(seed)`` and hands it to
:func:`house_command` (see ``docs/rules/harvest-watch.md``).
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from collections.abc import Collection
from typing import Any

from sunbot.engines import IllegalAction
from sunbot.engines import harvest_watch_house as house

SLUG = "harvest-watch"
NAME = "Harvest Watch"

PHASES = ("speech1", "speech2", "vote", "action", "diary")
START_FOOD = 50  # tenths (§3.1)
FINE_MAX = 20  # §3.3.2
FARM, COOP = 20, 25  # §3.5.1
DONATION = 10  # §3.5.2, also the opening store that offers donate (§3.4)
STEAL = 20  # per thief (§3.5.3)
COST_BASE, COST_GUARD = 30, 10  # §3.5.5
SPEECH_MAX, DIARY_MAX = 200, 80  # §3.6
#: The most seats a table has (the rule text, "Design": six seats); seats are 0..5.
MAX_SEATS = 6
ELLIPSIS = "\u2026"
#: Per-day public fields plus the private caught/collided lists; null while absent (§4).
PER_DAY = ("speeches1", "speeches2", "votes", "punishResult", "caught", "collided")
_DEFAULTS: dict[str, dict[str, Any]] = {
    "speech1": {"speech": ELLIPSIS}, "speech2": {"speech": ELLIPSIS}, "vote": {"punish": None},
    "action": {"act": "guard"}, "diary": {"diary": ELLIPSIS},
}  # fmt: skip

State = dict[str, Any]
Command = dict[str, Any]

_INT = {"type": "integer", "minimum": 0, "maximum": 5}


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props),
            "additionalProperties": False}  # fmt: skip


SPEC: dict[str, Any] = {
    "goal": "Be the last seat with food left; if everyone left runs dry on the same night, "
    "hold the most food just before that night's cost.",
    "scoring": "result.ranks gives one rank per seat (1 is best, several 1s are a draw). "
    "Lasting more nights ranks higher; on the same night the larger pre-cost store ranks "
    "higher. Competition ranking: 1 + the number of seats with a strictly better key.",
    "rules": [
        "Six seats (0-5) start with 5.0 food. Each day: speech1, speech2, vote, action, diary; "
        "all seats act at once, and a missed command takes its default.",
        "Vote: a seat named by more than half of the living seats is fined min(2.0, its food), "
        "shared in tenths by the giveTo counts (spares to the lowest seats), before acting.",
        "Action: farm +2.0; a mutual farm_coop pair +2.5 each, one-sided +2.0; donate moves 1.0 "
        "(offered from 1.0). Steals use the stores after donations: 2.0 per thief if the "
        "target holds 2.0 per thief, else its store is split in tenths; guard blocks them.",
        "Night: 1.0 after guard (the default), 3.0 otherwise; at 0.0 or below a seat is out.",
        "Last living seat wins; if all remaining go out together, the largest pre-cost store "
        "wins and equal largest draw.",
        "Speeches and votes turn public as their beat resolves; acts and diaries never do, "
        "and caught/collided are private to their seat.",
    ],
    "commandSchema": {
        "oneOf": [
            _obj(speech={"type": "string", "minLength": 1, "maxLength": SPEECH_MAX}),
            _obj(punish={"type": "null"}),
            _obj(punish=_INT, giveTo=_INT),
            _obj(act={"const": "farm"}),
            _obj(**{"act": {"const": "farm_coop"}, "with": _INT}),
            _obj(act={"const": "guard"}),
            _obj(act={"const": "steal"}, target=_INT),
            _obj(act={"const": "donate"}, to=_INT),
            _obj(diary={"type": "string", "minLength": 1, "maxLength": DIARY_MAX}),
        ],
        "description": "By beat: speech, ballot (living seats; giveTo is neither punish nor "
        "the voter), one element of the legal list, diary.",
    },
}


def _copy(value: Any) -> Any:
    """Deep copy of a JSON value (fast, and proves the value is JSON)."""
    return json.loads(json.dumps(value))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _same(a: object, b: object) -> bool:
    """JSON deep equality: ``1``, ``1.0`` and ``True`` are three different values (§3.6)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def _seat_ok(state: State, seat: object) -> bool:
    return _is_int(seat) and 0 <= seat < state["seats"]  # type: ignore[operator]


def _living(state: State) -> list[int]:
    return [s for s, on in enumerate(state["alive"]) if on]


def _shown(tenths: int) -> float:
    """Food as shown to seats: one-decimal number (§3 preamble)."""
    return tenths / 10


def _dec(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def _seat_list(seats: list[int]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def round_of(day: int, phase: str) -> int:
    """``5*(day-1) + k``, k = 1..5 for speech1..diary (§2.6)."""
    return 5 * (day - 1) + PHASES.index(phase) + 1


def init(seed: int, seats: int = 6) -> State:
    """Opening state: day 1, speech1, round 1, every seat living with 5.0 (§3.1, §1 API).

    ``seats`` is the table size, 2 to 6 (the published game always has 6; smaller tables
    are a local testing convenience). ``seed`` is recorded only: the rules have no chance.
    """
    if not _is_int(seats) or not 2 <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be an integer from 2 to {MAX_SEATS}, got {seats!r}")
    if not _is_int(seed):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    return {
        "seed": seed,
        "seats": seats,
        "status": "running",
        "day": 1,
        "phase": "speech1",
        "round": 1,
        "food": [START_FOOD] * seats,
        "alive": [True] * seats,
        "outNight": [None] * seats,
        "preCost": [None] * seats,
        **dict.fromkeys(PER_DAY),
        "lastPublic": "Day 1: speech1.",
        "log": [],
        "result": None,
    }


def default_command(phase: str) -> Command:
    """The command a missed beat or a stored ``[]`` applies (§2.5, Finish in the seed)."""
    if phase not in _DEFAULTS:
        raise ValueError(f"no command on phase {phase!r}")
    return dict(_DEFAULTS[phase])


def legal_commands(state: State, seat: int) -> list[Command] | None:
    """The action beat's legal list in the pinned order (§5).

    farm; farm_coop with each other living seat, ascending; guard; steal from each; donate
    to each only if the opening store is at least 1.0. ``None`` on speech, vote and diary
    beats for a living seat; ``[]`` for a seat that is out, and for everyone once done.
    """
    if not _seat_ok(state, seat):
        raise ValueError(f"no seat {seat!r}")
    if state["status"] == "done" or not state["alive"][seat]:
        return []
    if state["phase"] != "action":
        return None
    others = [s for s in _living(state) if s != seat]
    out: list[Command] = [{"act": "farm"}]
    out += [{"act": "farm_coop", "with": s} for s in others]
    out.append({"act": "guard"})
    out += [{"act": "steal", "target": s} for s in others]
    if state["food"][seat] >= DONATION:  # food cannot change during the action beat
        out += [{"act": "donate", "to": s} for s in others]
    return out


def _check_text(command: object, key: str, limit: int, phase: str) -> str | None:
    if not isinstance(command, dict) or list(command) != [key]:
        if isinstance(command, dict) and list(command) in (["speech"], ["diary"]):
            return f"a {next(iter(command))} is not accepted on the {phase} beat"
        return f'the {phase} beat takes exactly {{"{key}": text}}'
    text = command[key]
    if not isinstance(text, str) or not 1 <= len(text) <= limit:
        return f"{key} must be a string of 1 to {limit} characters"
    if not _encodable(text):
        return f"{key} must be valid Unicode text (no lone surrogates)"
    return None


def _encodable(text: str) -> bool:
    """Whether ``text`` is Unicode text that UTF-8 can carry: a lone surrogate (``\\ud800``
    is valid JSON) is not a character and could not be shown to the other seats."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_vote(state: State, seat: int, command: object) -> str | None:
    if not isinstance(command, dict):
        return "a vote is an object"
    if list(command) == ["punish"] and command["punish"] is None:
        return None
    if sorted(command) != ["giveTo", "punish"]:
        return 'a vote is exactly {"punish": null} or {"punish": N, "giveTo": M}'
    target, to = command["punish"], command["giveTo"]
    if not (_is_int(target) and _is_int(to)):
        return "punish and giveTo must be integers"
    living = _living(state)
    if target not in living or to not in living:
        return "punish and giveTo must be living seats"
    if to == target:
        return "giveTo must differ from punish"
    if to == seat:
        return "giveTo cannot be the voter"
    return None


def validate_command(state: State, seat: int, command: object) -> str | None:
    """``None`` if ``command`` fits this beat for ``seat``, else the refusal detail.

    Shapes of §3.6 (lengths in code points, JSON integers only), and on the action beat
    deep JSON equality with an element of :func:`legal_commands` (§5).
    """
    if state["status"] == "done":
        return "the match is over"
    if not _seat_ok(state, seat):
        return f"no seat {seat!r}"
    if not state["alive"][seat]:
        return "this seat is out"
    phase = state["phase"]
    if phase in ("speech1", "speech2"):
        return _check_text(command, "speech", SPEECH_MAX, phase)
    if phase == "diary":
        return _check_text(command, "diary", DIARY_MAX, phase)
    if phase == "vote":
        return _check_vote(state, seat, command)
    if any(_same(command, c) for c in legal_commands(state, seat) or []):
        return None
    return "not one of this seat's legal actions"


def _resolve_vote(state: State, ballots: dict[int, Command]) -> None:
    """§3.3: fine, tenths split, spare tenths to the lowest recipients; lands now."""
    n = len(ballots)
    tally = Counter(b["punish"] for b in ballots.values() if b["punish"] is not None)
    fined = [t for t, c in tally.items() if 2 * c > n]
    state["votes"] = {str(s): b for s, b in ballots.items()}
    day = state["day"]
    if not fined:
        state["punishResult"] = {"punished": None, "fine": 0, "shares": {}}
        state["lastPublic"] = f"Day {day}: action."
        return
    target = fined[0]
    fine = min(FINE_MAX, state["food"][target])
    counts = Counter(b["giveTo"] for b in ballots.values() if b["punish"] == target)
    total = sum(counts.values())
    shares = {m: fine * c // total for m, c in counts.items()}
    for m in sorted(counts)[: fine - sum(shares.values())]:
        shares[m] += 1
    state["food"][target] -= fine
    for m, amount in shares.items():
        state["food"][m] += amount
    split = {str(m): shares[m] for m in sorted(shares)}
    state["punishResult"] = {"punished": target, "fine": fine, "shares": split}
    state["lastPublic"] = f"Day {day}: seat {target} fined {_dec(fine)}."


def resolve_acts(state: State, acts: dict[int, Command]) -> None:
    """§3.5.1-3.5.6 in place: production, donations, steals, P, night cost, outs.

    ``acts`` has one applied act per living seat. Targets that are not living are handled
    defensively (§3.7): a coop with one is one-sided; a steal or donate to one is void.
    """
    food, alive, n = state["food"], state["alive"], state["seats"]
    living = {s for s in acts if alive[s]}

    def aims(s: int, key: str) -> int | None:
        t = acts[s].get(key)
        return t if _is_int(t) and t in living and t != s else None

    for s, a in acts.items():
        if a["act"] == "farm":
            food[s] += FARM
        elif a["act"] == "farm_coop":
            p = aims(s, "with")
            mutual = p is not None and _same(acts[p], {"act": "farm_coop", "with": s})
            food[s] += COOP if mutual else FARM
    for s, a in acts.items():
        to = aims(s, "to") if a["act"] == "donate" else None
        if to is not None:
            food[s] -= DONATION
            food[to] += DONATION
    after = list(food)  # S: every take is computed from these stores
    groups: dict[int, list[int]] = defaultdict(list)
    for s in sorted(acts):
        t = aims(s, "target") if acts[s]["act"] == "steal" else None
        if t is not None:
            groups[t].append(s)
    caught: list[list[int]] = [[] for _ in range(n)]
    collided: list[list[int]] = [[] for _ in range(n)]
    for t, thieves in groups.items():
        k = len(thieves)
        for x in thieves:
            collided[x] = [y for y in thieves if y != x]
        if acts[t]["act"] == "guard":
            caught[t] = thieves
        elif after[t] >= STEAL * k:
            food[t] -= STEAL * k
            for x in thieves:
                food[x] += STEAL
        elif after[t] > 0:
            each, spare = divmod(after[t], k)
            food[t] -= after[t]
            for i, x in enumerate(thieves):
                food[x] += each + (1 if i < spare else 0)
    state["caught"], state["collided"] = caught, collided
    for s, a in acts.items():
        state["preCost"][s] = food[s]
        food[s] -= COST_GUARD if a["act"] == "guard" else COST_BASE
        if food[s] <= 0:
            food[s], alive[s], state["outNight"][s] = 0, False, state["day"]


def ranks(state: State) -> list[int]:
    """Competition ranking on (out-night, with infinity for the living; then P) (§3.9)."""
    big, p = 1 << 60, state["preCost"]
    keys = [(big if on else state["outNight"][s], p[s] or 0) for s, on in enumerate(state["alive"])]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def _end_check(state: State, went_out: list[int]) -> None:
    """§3.5.7: one survivor wins; none left: highest P wins, equal highest draw."""
    living, day = _living(state), state["day"]
    if len(living) >= 2:
        state["phase"], state["round"] = "diary", round_of(day, "diary")
        what = f"{_seat_list(went_out)} out" if went_out else None
        state["lastPublic"] = f"Night {day}: {what}." if what else f"Day {day}: diary."
        return
    state["status"], state["phase"] = "done", "done"  # round stays the action round
    state["result"] = {"ranks": ranks(state)}
    winners = [s for s, r in enumerate(state["result"]["ranks"]) if r == 1]
    if len(winners) == 1:
        state["lastPublic"] = f"Seat {winners[0]} wins on night {day}."
    else:
        state["lastPublic"] = f"Draw on night {day}: {_seat_list(winners)}."


def _applied(state: State, commands: dict[int, list[Command]]) -> dict[int, Command]:
    if not all(_is_int(k) and isinstance(v, list) for k, v in commands.items()):
        raise TypeError("commands must map integer seats to lists (JSON keys need int())")
    phase, out = state["phase"], {}
    for seat in _living(state):
        given = commands.get(seat)
        if not given:
            out[seat] = default_command(phase)
            continue
        reason = validate_command(state, seat, given[0])
        if reason is not None:
            raise IllegalAction(f"illegal_command: seat {seat}: {reason}")
        out[seat] = _copy(given[0])
    return out


def resolve_beat(state: State, commands: dict[int, list[Command]]) -> State:
    """Resolve the current beat for all seats and return the next state (§3).

    The first element of each living seat's list applies; a missing seat or ``[]`` takes
    :func:`default_command`. Lists of seats that are out or unknown are ignored. The input
    is never mutated. ``TypeError`` if a key is not an int seat or a value not a list
    (a JSON-decoded dict has string keys). Raises :class:`IllegalAction` on a finished
    match (``not_running``)
    or when an applied command does not fit the beat (``illegal_command: ...``); the
    server checks commands when it stores them, so legal play never meets the latter.
    """
    if state["status"] == "done":
        raise IllegalAction("not_running")
    applied = _applied(state, commands)
    new: State = _copy(state)
    day, phase = new["day"], new["phase"]
    entry = {"round": new["round"], "day": day, "phase": phase}
    new["log"].append({**entry, "applied": {str(s): c for s, c in applied.items()}})
    if phase in ("speech1", "speech2"):
        new[f"speeches{phase[-1]}"] = {str(s): c["speech"] for s, c in applied.items()}
        nxt = PHASES[PHASES.index(phase) + 1]
        new["phase"], new["round"] = nxt, round_of(day, nxt)
        new["lastPublic"] = f"Day {day}: {nxt}."
    elif phase == "vote":
        _resolve_vote(new, applied)
        new["phase"], new["round"] = "action", round_of(day, "action")
    elif phase == "action":
        resolve_acts(new, applied)
        _end_check(new, [s for s in applied if not new["alive"][s]])
    else:  # diary: texts stay in the log; the next day opens and per-day fields clear
        new.update(dict.fromkeys(PER_DAY))
        new["day"], new["phase"], new["round"] = day + 1, "speech1", round_of(day + 1, "speech1")
        new["lastPublic"] = f"Day {day + 1}: speech1."
    return new


def view(state: State, seat: int) -> dict[str, Any]:
    """``{"summary": ...}`` for ``seat`` (§4), plus ``"result": {"ranks"}`` once done.

    Only public fields and the seat's own ``caught``/``collided``; never acts, diaries or
    another seat's private lists.
    """
    if not _seat_ok(state, seat):
        raise ValueError(f"no seat {seat!r}")
    phase = state["phase"]
    summary: dict[str, Any] = {
        "you": seat,
        "day": state["day"],
        "phase": phase,
        "food": _shown(state["food"][seat]),
        "foods": [_shown(f) for f in state["food"]],
        "alive": state["alive"][seat],
        "aliveSeats": _living(state),
        "nightCostBase": _shown(COST_BASE),
        "nightCostIfGuard": _shown(COST_GUARD),
        "nightCost": None if phase in ("diary", "done") else _shown(COST_BASE),
        "lastPublic": state["lastPublic"],
    }
    for key in ("speeches1", "speeches2", "votes"):
        if state[key] is not None:
            summary[key] = _copy(state[key])
    pr = state["punishResult"]
    if pr is not None:
        shares = {m: _shown(v) for m, v in pr["shares"].items()}
        summary["punishResult"] = {"punished": pr["punished"], "fine": _shown(pr["fine"]),
                                   "shares": shares}  # fmt: skip
    for key in ("caught", "collided"):
        if state[key] is not None:
            summary[key] = list(state[key][seat])
    out: dict[str, Any] = {"summary": summary}
    if state["status"] == "done":
        out["result"] = {"ranks": list(state["result"]["ranks"])}
    return out


def house_command(
    state: State,
    seat: int,
    memory: dict[str, Any],
    rng: random.Random,
    *,
    house_seats: Collection[int],
) -> Command:
    """The house-bot policy of §2.7 for ``seat``; see :mod:`.harvest_watch_house`.

    ``house_seats`` lists the seats the server filled with house bots; ``memory`` is this
    bot's own dict, updated in place; ``rng`` is the match RNG (one draw per action beat).
    A seat that is out gets the beat's default (the server ignores it anyway).

    Raises:
        IllegalAction: the match is done.
    """
    if state["status"] == "done":
        raise IllegalAction("not_running")
    summary = view(state, seat)["summary"]
    if not summary["alive"]:
        return default_command(summary["phase"])
    return house.decide(summary, memory, rng, house_seats=house_seats)
