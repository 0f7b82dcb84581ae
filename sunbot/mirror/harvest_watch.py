"""Mirror for Harvest Watch matches: recompute each resolved beat from one seat's views.

The single-player hook protocol of :mod:`sunbot.mirror` (``expected_after(prev_state,
action, got_state)``) does not fit a simultaneous six-seat match seen through one seat's
eyes, so this module has its own checker, :class:`MatchMirror`, and the games table keeps
``mirror_ref`` unset for Harvest Watch. Divergences use the same
:class:`~sunbot.mirror.Divergence` record; ``step`` is the round of the beat whose answer
diverged.

What is checked (Harvest Watch §3, §4; the rule text is the authority):

- every view: ``pollAfterMs`` shorter than ``remainMs`` while the clock runs, ``pending``
  equal to what we stored while that beat is still open, the §4 field table, ``nightCost``
  null on diary and done, ``food == foods[you]``, out seats at 0.0, ``legal`` (§5, in any
  order) recomputed from the summary, and a ``schema.example`` object where there is no
  ``legal``;
- speech, vote and diary beats, when the seat saw the beat and the next one: the whole next
  summary is recomputed with the engine from the previous summary, our own command, and
  the other seats' public speeches and ballots (those are their free choices; the fine, the
  shares, every food and the phase follow from them by the rules);
- action beats (acts stay secret, §4): our own food must be one the rules allow for our
  act (production, donations in, thefts, loot, night cost), ``caught``/``collided`` fit our
  act, every seat's food must follow from some legal joint action of all living seats
  (:mod:`sunbot.mirror.harvest_night`, a bounded exact search), out seats are at 0.0,
  the public fields carry over, the next phase follows from who went out, and final
  ranks agree with the out-nights seen.

What a server chooses is not held against it: pacing (the value of ``pollAfterMs`` within
the bound above), round numbers (beats are told apart by day and phase, and our commands
are matched to the rounds the server showed), the wording of ``lastPublic`` (clients must
not parse it) and of ``schema`` beyond its example, how ranks after a tie are numbered, and
``data.phase`` (our copy of ``summary.phase``, which the text does not name). Fields the
rules do not define are listed in :attr:`MatchMirror.unknown_fields`, never reported.
"""

from __future__ import annotations

import json
from typing import Any

from sunbot.engines import IllegalAction
from sunbot.engines import harvest_watch as hw
from sunbot.mirror import UNKNOWN_FIELD, Divergence, Finding, diff, same_set
from sunbot.mirror.fields import is_int, pattern
from sunbot.mirror.harvest_choices import food_on_steps, is_number, servers_choices, tenths
from sunbot.mirror.harvest_night import Night, explain_night, suspects

#: Summary fields per phase beyond the always-present ones (§4 table).
PRESENT: dict[str, set[str]] = {
    "speech1": set(),
    "speech2": {"speeches1"},
    "vote": {"speeches1", "speeches2"},
    "action": {"speeches1", "speeches2", "votes", "punishResult"},
    "diary": {"speeches1", "speeches2", "votes", "punishResult", "caught", "collided"},
    "done": {"speeches1", "speeches2", "votes", "punishResult", "caught", "collided"},
}
OPTIONAL = {"speeches1", "speeches2", "votes", "punishResult", "caught", "collided"}


#: The beats of a day, in order (the rule text's Design section).
ORDER = ("speech1", "speech2", "vote", "action", "diary")


def poll_after(status: str, remain_ms: int) -> int:
    """Our server's pacing (§2.3 [PIN]); another server may pace otherwise (see
    :func:`poll_after_ok`)."""
    if status == "done":
        return 0
    return min(500, remain_ms // 2) if remain_ms > 0 else 100


def poll_after_ok(value: Any, remain_ms: Any) -> bool:
    """What the rule text fixes of ``pollAfterMs``: a wait in milliseconds, shorter than
    ``remainMs`` whenever the clock is running."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return False
    running = isinstance(remain_ms, int | float) and remain_ms > 0
    return not (running and value >= remain_ms)


def _round_key(value: Any) -> Any:
    """A round as a dict key: the server's own value (numbers stay numbers)."""
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def follows(prev: dict[str, Any], summary: dict[str, Any]) -> bool:
    """Whether ``summary`` is the beat right after ``prev``'s (by day and phase: round
    numbers are the server's)."""
    day, phase = prev.get("day"), prev.get("phase")
    if summary.get("phase") == "done":
        return phase == "action" and summary.get("day") == day
    if phase not in ORDER or not isinstance(day, int):
        return False
    i = ORDER.index(phase)
    nxt = (day, ORDER[i + 1]) if i + 1 < len(ORDER) else (day + 1, ORDER[0])
    return (summary.get("day"), summary.get("phase")) == nxt


def _out_seats_listed(found: list[Finding], key: str | None, living: list[int]) -> list[Finding]:
    """``found`` without the entries of seats already out that a server lists in
    ``speeches1``/``speeches2``/``votes`` with what an empty command gives (the ellipsis,
    an abstention): the text keys these by seat and never says only living seats appear,
    and an out seat's command list is empty, which resolves to exactly those values. Any
    other entry for an out seat is a divergence (an out seat cannot speak or vote)."""
    if key is None:
        return found
    phase = {"speeches1": "speech1", "speeches2": "speech2", "votes": "vote"}[key]
    empty = hw.default_command(phase)
    empty_value = empty if key == "votes" else empty.get("speech")
    out: list[Finding] = []
    prefix = f"data.summary.{key}."
    for f in found:
        seat = f.path.removeprefix(prefix)
        if f.note != UNKNOWN_FIELD or not f.path.startswith(prefix) or not seat.isdigit():
            out.append(f)
        elif int(seat) in living:
            out.append(f)  # a living seat the rules did not expect: the comparison's finding
        elif f.got != empty_value:
            note = "a seat that is out sends no command: only an empty command's value"
            out.append(Finding(f.path, empty_value, f.got, note))
    return out


def state_from_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """The engine state one seat can rebuild from its ``summary`` (§4).

    Public fields are exact; other seats' ``caught``/``collided`` are ``[]``, ``outNight``
    and ``preCost`` unknown (``None``) and ``log`` empty. ``hw.view`` of the result for
    ``summary["you"]`` gives ``summary`` back, so the engine's legal lists and beat
    resolutions can run on it.
    """
    foods = [tenths(f) for f in summary["foods"]]
    n, you, phase, day = len(foods), summary["you"], summary["phase"], summary["day"]
    living = set(summary["aliveSeats"])
    pr = summary.get("punishResult")
    state: dict[str, Any] = {
        "seed": 0,
        "seats": n,
        "status": "done" if phase == "done" else "running",
        "day": day,
        "phase": phase,
        "round": hw.round_of(day, "action" if phase == "done" else phase),
        "food": foods,
        "alive": [s in living for s in range(n)],
        "outNight": [None] * n,
        "preCost": [None] * n,
        "speeches1": _copy(summary.get("speeches1")),
        "speeches2": _copy(summary.get("speeches2")),
        "votes": _copy(summary.get("votes")),
        "punishResult": None
        if pr is None
        else {
            "punished": pr["punished"],
            "fine": tenths(pr["fine"]) if is_number(pr.get("fine")) else 0,  # none fined: any
            "shares": {k: tenths(v) for k, v in (pr.get("shares") or {}).items() if is_number(v)},
        },
        "caught": None,
        "collided": None,
        "lastPublic": summary["lastPublic"],
        "log": [],
        "result": None,
    }
    for key in ("caught", "collided"):
        if key in summary:
            lists: list[list[int]] = [[] for _ in range(n)]
            lists[you] = list(summary[key])
            state[key] = lists
    return state


def _copy(value: Any) -> Any:
    return None if value is None else json.loads(json.dumps(value))


def own_food_options(
    opening: list[int], living: list[int], seat: int, act: dict[str, Any]
) -> set[int]:
    """Every food (tenths, after the night, floored at 0) the rules allow ``seat`` after
    playing ``act`` from the opening stores ``opening`` (§3.5).

    Unknowns are the other seats' acts: a mutual or one-sided coop, how many living seats
    with at least 1.0 donate to us, how many thieves hit us (none if we guarded), and our
    loot (0 to 2.0) when we stole.
    """
    others = [s for s in living if s != seat]
    donors = sum(1 for s in others if opening[s] >= hw.DONATION)
    kind = act.get("act")
    prods = {"farm": [hw.FARM], "farm_coop": [hw.FARM, hw.COOP]}.get(str(kind), [0])
    out = hw.DONATION if kind == "donate" else 0
    cost = hw.COST_GUARD if kind == "guard" else hw.COST_BASE
    loots = range(hw.STEAL + 1) if kind == "steal" else range(1)
    found: set[int] = set()
    for p in prods:
        for d in range(donors + 1):
            store = opening[seat] + p - out + hw.DONATION * d
            stolen = (
                {0}
                if kind == "guard"
                else {min(store, hw.STEAL * k) for k in range(len(others) + 1)}
            )
            for s in stolen:
                for loot in loots:
                    found.add(max(0, max(store, 0) - max(s, 0) + loot - cost))
    return found


class MatchMirror:
    """Checks one seat's stream of views; keeps the count and the divergences.

    Call :meth:`note_command` when a store succeeded (:meth:`note_unsure` when its answer
    was lost), then :meth:`check` with every view the seat reads or is answered, in order.

    Attributes:
        seat: the seat whose views these are.
        responses_checked: views checked; ``beats_checked``: resolved beats recomputed;
        ``unchecked``: beats resolved between two views the seat did not both see.
        nights_checked: nights searched for a joint action; ``nights_undecided``: those
        the bounded search could not settle (never reported).
        divergences: every divergence found, in order.
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.responses_checked = 0
        self.beats_checked = 0
        self.unchecked = 0
        self.divergences: list[Divergence] = []
        self.unknown_fields: set[str] = set()
        self.nights_checked = 0
        self.nights_undecided = 0
        self._act: dict[str, Any] = {}
        self._stored: dict[Any, list[Any]] = {}
        self._unsure: dict[Any, list[Any]] = {}
        self._round_of: dict[tuple[int, str], Any] = {}
        self._prev: dict[str, Any] | None = None
        self._out_night: dict[int, int] = {}
        #: round -> (the beat's (day, phase), actions) of each store the server confirmed
        self._sent: dict[Any, tuple[tuple[Any, Any], list[Any]]] = {}

    @property
    def out_nights(self) -> dict[int, int]:
        """``{seat: night}`` for every seat this seat saw go out on an action beat it
        checked (a copy; a seat out between two views it did not both see is missing)."""
        return dict(self._out_night)

    def note_command(self, round_: Any, actions: list[Any]) -> None:
        """Our seat stored ``actions`` for ``round_`` (its first element applies; the round
        is the server's own value, whatever its form)."""
        self._stored[_round_key(round_)] = _copy(actions)
        self._unsure.pop(_round_key(round_), None)
        prev = (self._prev or {}).get("data") or {}
        if _round_key(prev.get("round")) == _round_key(round_):
            summary = prev.get("summary") or {}
            beat = (summary.get("day"), summary.get("phase"))
            self._sent[_round_key(round_)] = (beat, _copy(actions))

    def note_unsure(self, round_: Any, actions: list[Any]) -> None:
        """Our seat sent ``actions`` for ``round_`` but lost the answer (a dropped
        connection, a 500, a 502/504): the server may or may not have stored them. Until a
        view's ``pending`` settles it, that beat is checked against both, and passes when
        either explains it."""
        self._unsure[_round_key(round_)] = _copy(actions)

    def check(self, view: dict[str, Any]) -> list[Divergence]:
        """Check one view (raw JSON, a GET answer or a command success). Never raises: a
        view that cannot be read is one finding, and the next views are still checked."""
        try:
            return self._check(view)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
            self._prev = None  # the next beat cannot be recomputed from this one
            note = f"cannot read this view: {type(exc).__name__}: {exc}"
            out = [Divergence(self.responses_checked, "data", "a readable view", "?", note)]
            self.divergences.extend(out)
            return out

    def _check(self, view: dict[str, Any]) -> list[Divergence]:
        data = view.get("data") or {}
        rnd = _round_key(data.get("round"))
        summary = data.get("summary") or {}
        for key in ("foods", "aliveSeats"):
            if len(summary.get(key) or ()) > hw.MAX_SEATS:  # the rule text's six seats
                n = len(summary[key])
                raise ValueError(f"summary.{key} lists {n} seats; a table has {hw.MAX_SEATS}")
        if isinstance(summary.get("day"), int) and summary.get("phase") in ORDER:
            self._round_of[(summary["day"], summary["phase"])] = rnd
        found = self._check_pending(view, rnd)
        if "pending" in data and isinstance(data["pending"], list):
            self._stored[rnd] = _copy(data["pending"])
            self._unsure.pop(rnd, None)  # read after the store: it says what was stored
        self.responses_checked += 1
        found += self._check_view(view)
        prev = self._prev
        status = view.get("status")
        if prev is not None and status != "starting" and prev.get("status") != "starting":
            before, p_status = prev["data"]["summary"], prev.get("status")
            beat = (summary.get("day"), summary.get("phase"))
            same = beat == (before.get("day"), before.get("phase")) and status == p_status
            if not same and p_status == "running":
                if follows(before, summary):
                    self.beats_checked += 1
                    found += self._check_beat(before, data)
                else:
                    self.unchecked += 1
        self._prev = view if isinstance(data.get("summary"), dict) else None
        step = rnd if isinstance(rnd, int) else self.responses_checked
        out = [Divergence(step, *f) for f in self._keep(found)]
        self.divergences.extend(out)
        return out

    def _keep(self, findings: list[Finding]) -> list[Finding]:
        """Unknown fields are noted, never reported; ``lastPublic``'s wording is the
        server's (clients must not parse it)."""
        out: list[Finding] = []
        for f in findings:
            if f.note == UNKNOWN_FIELD:
                self.unknown_fields.add(pattern(f.path))
            elif not f.path.startswith("data.summary.lastPublic"):
                out.append(f)
        return out

    def _check_pending(self, view: dict[str, Any], rnd: Any) -> list[Finding]:
        """The rule text's Platform section: ``data.pending`` lists the commands this seat
        stored, until the beat resolves. Checked on every running view of a beat whose
        store the server confirmed (``note_command``, the view our command was chosen from
        having that round), as long as the view still shows that beat."""
        sent = self._sent.get(rnd)
        data = view.get("data") or {}
        summary = data.get("summary") or {}
        beat = (summary.get("day"), summary.get("phase"))
        if sent is None or view.get("status") != "running" or beat != sent[0]:
            return []
        note = "the commands this seat stored, shown until the beat resolves"
        if "pending" not in data:
            return [Finding("data.pending", sent[1], None, note)]
        return [
            Finding(f.path, f.expected, f.got, note)
            for f in diff(sent[1], data["pending"], "data.pending")
        ]

    # -- one view ----------------------------------------------------------------------

    def _check_view(self, view: dict[str, Any]) -> list[Finding]:
        out: list[Finding] = []
        remain = view.get("remainMs")
        if not poll_after_ok(view.get("pollAfterMs"), remain):
            note = "a wait shorter than remainMs while the clock runs"
            out.append(Finding("pollAfterMs", f"0..{remain}", view.get("pollAfterMs"), note))
        data = view.get("data") or {}
        s = data.get("summary")
        if not isinstance(s, dict):
            return out  # a view before the first beat, or a bare answer: nothing to check
        phase = s["phase"]
        if data.get("round") is None:
            out.append(Finding("data.round", "a round", None, "commands send it back"))
        out += diff(s["foods"][s["you"]], s["food"], "data.summary.food")
        out += diff(s["you"] in s["aliveSeats"], s["alive"], "data.summary.alive")
        for seat, f in enumerate(s["foods"]):
            if seat not in s["aliveSeats"] and f != 0:
                out.append(Finding(f"data.summary.foods[{seat}]", 0.0, f, "a seat that is out"))
        have = {k for k in OPTIONAL if s.get(k) not in (None, [], {})}  # empty is absent
        allowed = PRESENT.get(phase, have)
        needed = allowed - {"caught", "collided"}  # present only when there is something
        if not have <= allowed or not needed <= set(k for k in OPTIONAL if k in s):
            note = "fields that appear as their beat resolves and clear when a day opens"
            out.append(Finding("data.summary", sorted(allowed), sorted(have), note))
        if phase in ("diary", "done"):
            out += diff(None, s.get("nightCost"), "data.summary.nightCost")
        out += diff([3.0, 1.0], [s["nightCostBase"], s["nightCostIfGuard"]], "data.summary.costs")
        if "legal" in data or "schema" in data:
            st = state_from_summary(s)
            if phase == "action":
                legal = hw.legal_commands(st, s["you"]) or []
                out += same_set(legal, data.get("legal"), "data.legal")
            else:
                schema = data.get("schema")
                example = schema.get("example") if isinstance(schema, dict) else None
                if not isinstance(example, dict):
                    note = "one command this beat accepts"
                    out.append(Finding("data.schema.example", "a command", example, note))
        return out

    # -- one resolved beat -------------------------------------------------------------

    def _own_options(self, summary: dict[str, Any]) -> list[dict[str, Any]]:
        """Our seat's command for the beat of ``summary``: what it stored (else the
        default); also the command whose answer was lost, when no later view settled it."""
        rnd = self._round_of.get((summary["day"], summary["phase"]))
        stored = self._stored.get(rnd) if rnd is not None else None
        first = stored[0] if stored else hw.default_command(summary["phase"])
        unsure = self._unsure.get(rnd) if rnd is not None else None
        return [first] if not unsure or unsure[0] == first else [first, unsure[0]]

    def _check_beat(self, prev: dict[str, Any], data: dict[str, Any]) -> list[Finding]:
        """The resolved beat after ``prev``, recomputed with our command; with two
        candidates (a lost answer) the one that explains it best."""
        tried = []
        for own in self._own_options(prev):
            tried.append((self._check_beat_with(prev, data, own), own))
            if not tried[-1][0]:
                break
        found, self._act = min(tried, key=lambda t: len(t[0]))
        return found

    def _check_beat_with(
        self, prev: dict[str, Any], data: dict[str, Any], own: dict[str, Any]
    ) -> list[Finding]:
        got = data["summary"]
        if prev["phase"] == "action":
            return self._check_night(prev, got, data.get("result"), own)
        st = state_from_summary(prev)
        commands: dict[int, list[Any]] = {}
        key = {"speech1": "speeches1", "speech2": "speeches2", "vote": "votes"}.get(prev["phase"])
        public = got.get(key, {}) if key else {}
        for seat in prev["aliveSeats"]:
            if seat == self.seat and prev["alive"]:
                commands[seat] = [own]
            elif str(seat) in public:
                value = public[str(seat)]
                commands[seat] = [{"speech": value} if key != "votes" else value]
        try:
            expected = hw.view(hw.resolve_beat(st, commands), self.seat)["summary"]
        except (IllegalAction, TypeError, KeyError) as exc:
            return [Finding(f"data.summary.{key}", "commands the rules accept", "?", str(exc))]
        got = food_on_steps(got)
        found = servers_choices(expected, got) + diff(expected, got, "data.summary")
        return _out_seats_listed(found, key, prev["aliveSeats"])

    def _check_night(
        self,
        prev: dict[str, Any],
        got: dict[str, Any],
        result: dict[str, Any] | None,
        act: dict[str, Any],
    ) -> list[Finding]:
        out: list[Finding] = []
        me, living, day = self.seat, prev["aliveSeats"], prev["day"]
        self._act = act
        opening = [tenths(f) for f in prev["foods"]]
        options = own_food_options(opening, living, me, act)
        mine = tenths(got["food"])
        if prev["alive"] and mine not in options:
            note = f"not reachable by the rules after {act} from {prev['food']}"
            out.append(Finding("data.summary.food", sorted(options), got["food"], note))
        else:
            out += self._check_others(opening, living, got)
        now_living = [s for s in living if got["foods"][s] > 0]
        out += diff(now_living, sorted(got["aliveSeats"]), "data.summary.aliveSeats")
        went_out = [s for s in living if s not in got["aliveSeats"]]
        for s in went_out:
            self._out_night[s] = day
        others = [s for s in living if s != me]
        for key, applies, pool in (
            ("caught", act.get("act") == "guard", others),
            ("collided", act.get("act") == "steal", [s for s in others if s != act.get("target")]),
        ):
            lst = got.get(key, [])  # a set: the text states no order
            if (not applies and lst) or len(lst) != len(set(lst)) or not set(lst) <= set(pool):
                out.append(Finding(f"data.summary.{key}", f"a subset of {pool}", lst))
        for key in ("speeches1", "speeches2", "votes", "punishResult"):
            out += diff(prev.get(key), got.get(key), f"data.summary.{key}")
        done = len(got["aliveSeats"]) <= 1
        out += diff("done" if done else "diary", got["phase"], "data.summary.phase")
        out += diff(day, got["day"], "data.summary.day")
        if not done:
            return out
        ranks = (result or {}).get("ranks")
        if not isinstance(ranks, list) or len(ranks) != len(got["foods"]):
            return [*out, Finding("data.result.ranks", "one rank per seat", ranks)]
        return out + self._check_ranks(ranks, got["aliveSeats"])

    def _check_others(
        self,
        opening: list[int],
        living: list[int],
        got: dict[str, Any],
    ) -> list[Finding]:
        """Every living seat's food after the night must follow from some legal joint
        action of all living seats (:mod:`sunbot.mirror.harvest_night`): our own act as sent,
        the others' acts searched, our ``caught``/``collided`` as shown. One finding names
        the seats whose food, left free, would make the night legal. A night the bounded
        search cannot settle is counted in :attr:`nights_undecided`, never reported."""
        me = self.seat if self.seat in living else None
        final = tuple(tenths(f) for f in got["foods"])
        night = Night(
            opening=tuple(opening),
            final=final,
            living=tuple(living),
            me=me,
            act=self._act if me is not None else None,
            caught=tuple(got.get("caught") or ()) if me is not None else None,
            collided=tuple(got.get("collided") or ()) if me is not None else None,
        )
        verdict = explain_night(night)
        self.nights_checked += 1
        if verdict.exhausted:
            self.nights_undecided += 1
        if not verdict.unexplained:
            return []
        named = suspects(night)
        shown = {s: (opening[s] / 10, got["foods"][s]) for s in named or living}
        who = f"seat {named[0]}" if len(named) == 1 else f"seats {sorted(shown)}"
        note = f"no legal joint night action explains {who} (opening -> after: {shown})"
        path = f"data.summary.foods[{named[0]}]" if len(named) == 1 else "data.summary.foods"
        return [Finding(path, "foods some legal joint action gives", got["foods"], note)]

    def _check_ranks(self, ranks: list[int], survivors: list[int]) -> list[Finding]:
        """What the rule text's Finish section fixes of ``ranks``: positive integers with
        at least one rank 1 (the winner, or the drawn winners), a survivor alone at rank 1,
        and a seat that went out earlier ranked behind one that lasted longer. How ranks
        below 1 are numbered after a tie (ours: competition ranking, 1, 2, 2, 4; another
        server may count 1, 2, 2, 3) is the server's choice, not compared."""
        out: list[Finding] = []
        if not all(is_int(r) and r >= 1 for r in ranks) or 1 not in ranks:
            note = "positive integers, rank 1 for the winner or the drawn winners"
            return [Finding("data.result.ranks", "ranks from 1", ranks, note)]
        if survivors:
            s = survivors[0]
            if ranks[s] != 1 or ranks.count(1) != 1:
                out.append(Finding("data.result.ranks", f"seat {s} alone at rank 1", ranks))
        night = {**self._out_night, **{s: 10**9 for s in survivors}}
        for a, na in night.items():
            for b, nb in night.items():
                if na > nb and not ranks[a] < ranks[b]:
                    note = f"seat {a} lasted longer than seat {b}"
                    out.append(Finding(f"data.result.ranks[{a}]", f"< {ranks[b]}", ranks[a], note))
        return out
