"""Naptuft strategies: ``balancer`` (default), ``rotation`` and the local-only ``clairvoyant``.

All three answer a day break with ``next-day`` and never send ``end-run`` themselves: the
harness's day cap ends a run (spec ``naptuft.md`` §9). ``random`` is the shared
:class:`sunbot.strategies.baselines.RandomLegal`.

The planners share one exact search, :func:`plan`: a forward dynamic programme over the moments
of a visible horizon on a tuple form of the player-side step (``step_observation`` of
:mod:`sunbot.engines.naptuft`; a test keeps the two equal), pruning only *dominated* positions.
The pruning is exact because of one identity of the rules (§6.2): a care adds ``r`` to the score
and to its need, and decay does not depend on the care, so ``score - sum(needs)`` grows by the
window's fixed losses plus the bonuses. Hence the score at the horizon's end is a constant plus
the bonuses earned plus the needs' sum there, and every rule is monotone in the needs: a
position with at least the bonuses, at least every need and at least the streak, in the same
wish progress and with the same last care, can do everything the other can, at least as well.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sunbot.engines import naptuft as nt

from . import Action, Observation

NEXT_DAY: Action = {"type": "next-day"}
_CARE_INDEX: dict[str, int] = {c: i for i, c in enumerate(nt.CARES)}
#: Loss per moment assumed beyond the visible horizon (§4: ``min(6 + p, 8)`` is at most 8).
WORST_LOSS = nt.LOSS_CAP
Needs = tuple[int, int, int, int]


def live_wish(obs: Observation) -> dict[str, Any] | None:
    """The wish still to be done in ``obs``, or None.

    The rule text says only that the current wish is visible, not how a server shows a
    window whose wish is done (docs/rules/naptuft.md): ours sends null, another may leave
    ``wish`` out or show the finished wish at full progress. Each of those, and any shape
    that is not ``{actions: [care...], progress: 0 <= int < len(actions)}``, reads as None.
    """
    wish = obs.get("wish")
    if not isinstance(wish, dict):
        return None
    actions, progress = wish.get("actions"), wish.get("progress")
    if not isinstance(actions, list) or type(progress) is not int:
        return None
    if not 0 <= progress < len(actions) or any(
        not isinstance(a, str) or a not in _CARE_INDEX for a in actions
    ):
        return None
    return wish


class Memory:
    """What a Naptuft player knows without being shown: the care it sent last and the wish
    streak it has built. The rule text never says the observation shows either (a server
    may leave ``lastCare`` and ``wishStreak`` out: docs/rules/naptuft.md), so a strategy
    fills them in from its own play when they are missing.
    """

    def __init__(self) -> None:
        self.last: str | None = None
        self.streak = 0
        self.offsets: dict[str, int] | None = None

    def fill(self, obs: Observation) -> Observation:
        """``obs`` with ``lastCare`` and ``wishStreak`` from memory where it lacks them,
        ``moment`` and ``window`` in our numbering (from 0), and ``wish`` as :func:`live_wish`
        reads it (None when no wish is live, however the server shows that).

        The text does not say where a server starts counting moments and windows (a player
        may see 1..12): the first observation filled, when it is an opening (day 1, score
        0), gives the server's start for both; without one the numbers are read as ours.
        """
        if self.offsets is None:
            start = obs.get("moment") if obs.get("day") == 1 and obs.get("score") == 0 else 0
            self.offsets = {"moment": start, "window": start} if type(start) is int else {}
        shifted: dict[str, Any] = {
            k: obs[k] - v for k, v in self.offsets.items() if type(obs.get(k)) is int
        }
        same = not any(shifted.values())
        wish = live_wish(obs)
        if wish is not obs.get("wish") or "wish" not in obs:
            shifted["wish"], same = wish, False
        if "lastCare" in obs and "wishStreak" in obs and same:
            return obs
        return {"lastCare": self.last, "wishStreak": self.streak, **obs, **shifted}

    def sent(self, obs: Observation, action: Action) -> None:
        """Remember ``action`` chosen from ``obs`` (a filled observation): a care becomes the
        last care, and the rules' next streak follows from the care (next-day keeps both)."""
        if action.get("type") != "care":
            return
        self.last = str(action.get("care"))
        try:
            self.streak = int(nt.step_observation(obs, action)["wishStreak"])
        except Exception:  # an answer we cannot step: keep the streak we had
            return


@dataclass(frozen=True)
class Moment:
    """One care moment of a planning horizon (spec §6.2).

    Attributes:
        loss: what each need loses at this moment, canonical need order, each 6..8 (§4).
        no_repeat: the §5 day-7 rule applies (the care may not equal the previous care).
        wish: the window's wish as care indices 0..3 (feed, play, brush, nap), 1..4 distinct.
        fresh: the window starts here, so its wish is shown with progress 0 (§6.2 step 7,
            §6.3); false for the horizon's first moment, whose wish comes from the position.
        window_end: the window's fourth moment (§6.2 step 7: an unfinished wish expires).
        day_end: the day's twelfth moment (§6.2 step 8: the +120 day bonus check).
    """

    loss: Needs
    no_repeat: bool
    wish: tuple[int, ...]
    fresh: bool
    window_end: bool
    day_end: bool


@dataclass(frozen=True)
class Start:
    """The planned-from position in tuple form.

    Attributes:
        needs: food, joy, cleanliness, energy, each 0..100.
        progress: steps of the shown wish already done, or -1 when no wish is shown (§3).
        streak: ``wishStreak`` capped at 2 (the multiplier ``min(streak + 1, 3)`` is the same
            from 2 on, §6.2 step 6).
        last: ``lastCare`` as a care index, or -1 before the first care.
    """

    needs: Needs
    progress: int
    streak: int
    last: int


#: ``terminal(needs, streak) -> value`` of a position at the horizon's end, in points.
Terminal = Callable[[Needs, int], float]


@dataclass
class Plan:
    """An optimal line of play found by :func:`plan`.

    Attributes:
        cares: care indices, one per planned moment.
        positions: ``(needs, progress, streak, last)`` *before* each planned care, to check
            that play is still on the planned line.
        value: bonuses earned + needs' sum at the horizon's end + ``terminal`` (points).
    """

    cares: list[int]
    positions: list[tuple[Needs, int, int, int]]
    value: float


def _prune(nodes: list[tuple[int, Needs, int, int]]) -> list[tuple[int, Needs, int, int]]:
    """Keep the nodes ``(bonus, needs, streak, id)`` that no other node dominates."""
    nodes.sort(key=lambda n: (-n[0], -n[2], -(n[1][0] + n[1][1] + n[1][2] + n[1][3])))
    kept: list[tuple[int, Needs, int, int]] = []
    for node in nodes:
        _, (a, b, c, d), s, _ = node
        for _, (a2, b2, c2, d2), s2, _ in kept:
            if a2 >= a and b2 >= b and c2 >= c and d2 >= d and s2 >= s:
                break
        else:
            kept.append(node)
    return kept


def plan(
    start: Start, moments: Sequence[Moment], terminal: Terminal, forced_end: int = 0
) -> Plan | None:
    """The line of play over ``moments`` maximising bonuses + needs' sum + ``terminal``.

    Exact: a forward pass keeps, per (wish progress, last care), every position not dominated
    in (bonus points, each need, streak) (module docstring). A position where a need reaches
    0 is dropped (§6.2 step 4). Scoring follows §6.2: comfort +10 when every need is >= 40
    after decay, a finished wish ``60 * len * min(streak + 1, 3)``, expiry resets the streak
    at a window's end, the day bonus +120 when every need is >= 30 after the 12th moment.
    A line that finishes a wish on the horizon's last moment, a window's end, loses
    ``forced_end`` points: its last care is then fixed by the wish, not left to be chosen
    once the next window is shown (from day 7 it may block that window's first step).

    Returns:
        The best :class:`Plan` (ties: the line found first, so the result is deterministic),
        or None when every line of play within ``moments`` empties a need, or ``moments`` is
        empty.
    """
    if not moments:
        return None
    parent: list[int] = [-1]
    care_of: list[int] = [-1]
    pos_of: list[tuple[Needs, int, int, int]] = [
        (start.needs, start.progress, start.streak, start.last)
    ]
    # frontier key: (progress, last care or -1 when no later moment has the repeat rule)
    frontier: dict[tuple[int, int], list[tuple[int, Needs, int, int]]] = {
        (start.progress, start.last): [(0, start.needs, start.streak, 0)]
    }
    horizon = len(moments)
    last_t = horizon - 1
    later_rule = [any(m.no_repeat for m in moments[t + 1 :]) for t in range(horizon)]
    for t, mo in enumerate(moments):
        la, lb, lc, ld = mo.loss
        wish, size = mo.wish, len(mo.wish)
        keep_last = later_rule[t]
        nxt: dict[tuple[int, int], list[tuple[int, Needs, int, int]]] = {}
        for (prog0, last0), nodes in frontier.items():
            if mo.fresh:
                prog0 = 0
            for c in range(4):
                if mo.no_repeat and c == last0:
                    continue
                step_prog = wish[prog0] == c if prog0 >= 0 else False
                for bonus, needs, streak, nid in nodes:
                    a, b, cc, d = needs
                    if c == 0:
                        a = min(100, a + 36)
                    elif c == 1:
                        b = min(100, b + 36)
                    elif c == 2:
                        cc = min(100, cc + 36)
                    else:
                        d = min(100, d + 36)
                    a -= la
                    b -= lb
                    cc -= lc
                    d -= ld
                    low = min(a, b, cc, d)
                    if low <= 0:
                        continue
                    g = bonus + 10 if low >= 40 else bonus
                    prog, s = prog0, streak
                    if step_prog:
                        prog += 1
                        if prog == size:
                            g += 60 * size * (s + 1 if s < 2 else 3)
                            if t == last_t and mo.window_end:
                                g -= forced_end
                            s = s + 1 if s < 2 else 2
                            prog = -1
                    if mo.window_end:
                        if prog >= 0:
                            s = 0
                        prog = -1
                    if mo.day_end and low >= 30:
                        g += 120
                    new_id = len(parent)
                    parent.append(nid)
                    care_of.append(c)
                    key = (prog, c if keep_last else -1)
                    nxt.setdefault(key, []).append((g, (a, b, cc, d), s, new_id))
                    shown = 0 if mo.window_end and t + 1 < horizon else prog
                    pos_of.append(((a, b, cc, d), shown, s, c))
        frontier = {k: _prune(v) for k, v in nxt.items()}
    best: tuple[float, int] | None = None
    for nodes in frontier.values():
        for bonus, needs, streak, nid in nodes:
            value = bonus + sum(needs) + terminal(needs, streak)
            if best is None or value > best[0] or (value == best[0] and nid < best[1]):
                best = (value, nid)
    if best is None:
        return None
    chain: list[int] = []
    nid = best[1]
    while parent[nid] >= 0:
        chain.append(nid)
        nid = parent[nid]
    chain.reverse()
    cares = [care_of[i] for i in chain]
    positions = [pos_of[0], *(pos_of[i] for i in chain[:-1])]
    return Plan(cares, positions, best[0])


def _needs(obs: Observation) -> Needs:
    n = obs["needs"]
    return (n["food"], n["joy"], n["cleanliness"], n["energy"])


def _moments(descriptors: Sequence[dict[str, Any]], day: int, first_moment: int) -> list[Moment]:
    """Moments of consecutive windows ``descriptors`` (the first being window
    ``first_moment // 4`` of ``day``), from moment ``first_moment`` on."""
    out: list[Moment] = []
    window = first_moment // 4
    moment = first_moment
    for desc in descriptors:
        p = desc["pressure"]
        loss = (
            nt.loss(p["food"]),
            nt.loss(p["joy"]),
            nt.loss(p["cleanliness"]),
            nt.loss(p["energy"]),
        )
        wish = tuple(_CARE_INDEX[c] for c in desc["wish"])
        while moment // 4 == window:
            out.append(
                Moment(
                    loss=loss,
                    no_repeat=day >= nt.REPEAT_FROM_DAY,
                    wish=wish,
                    fresh=moment % 4 == 0 and bool(out),
                    window_end=moment % 4 == 3,
                    day_end=moment == 11,
                )
            )
            moment += 1
        if window == 2:
            day, window, moment = day + 1, 0, 0
        else:
            window += 1
    return out


def _position(obs: Observation) -> tuple[Needs, int, int, int]:
    wish = obs["wish"]
    last = obs["lastCare"]
    return (
        _needs(obs),
        wish["progress"] if wish is not None else -1,
        min(int(obs["wishStreak"]), 2),
        _CARE_INDEX[last] if last is not None else -1,
    )


def _care(index: int) -> Action:
    return {"type": "care", "care": nt.CARES[index]}


def _lowest_legal(obs: Observation, legal: list[Action]) -> Action:
    """The legal care of the lowest need (canonical order on ties)."""
    cares = [a for a in legal if a.get("type") == "care"]
    if not cares:
        raise ValueError(f"no legal care in phase {obs.get('phase')!r}")
    return min(
        cares, key=lambda a: (obs["needs"][nt.CARE_NEED[a["care"]]], nt.CARES.index(a["care"]))
    )


def _expected_wish_length(day: int) -> float:
    """Mean wish length of day ``day`` under the §4 ramp (1-2: 1.5, 3-5: 2.5, 6+: 3)."""
    return 1.5 if day <= 2 else (2.5 if day <= 5 else 3.0)


@dataclass(frozen=True)
class Weights:
    """The planners' value of a position at the horizon's end (points; see :func:`plan`).

    Attributes:
        streak_units: multiplier units (each worth ``60 * expected wish length``) that the
            next wishes lose for a streak of 0, 1, 2 (§6.2 step 6: multipliers 1, 2, 3).
        streak_weight: how much of that loss to count (the next wishes may not be done).
        target: a need below this at the horizon's end is penalised ...
        per_point: ... this many points per missing point (margins for comfort and wishes).
        forced_end: points a line loses when its horizon ends on the care that finishes a
            wish while the next window falls under the day-7 no-repeat rule (``plan``'s
            ``forced_end``): about the chance that the unseen next wish starts with that
            care and has no moment to spare (1/4 x 1/3 for a 4-step wish) times the streak
            and wish it would cost (~1,200).
    """

    streak_units: tuple[float, float, float] = (3.0, 1.0, 0.0)
    streak_weight: float = 0.8
    target: int = 48
    per_point: float = 2.0
    forced_end: int = 120


def terminal_value(weights: Weights, day_after: int) -> Terminal:
    """The ``terminal`` of :func:`plan` for a horizon ending before a window of ``day_after``.

    Hard rule (§9 safety test, worst loss 8 beyond the horizon): the k-th lowest need
    (k = 0..3) must exceed ``8 * k`` so that caring for the needs lowest first reaches each
    before it empties; otherwise the value is -1e9. Soft: the streak's worth to the next
    wishes and a penalty per point any need sits below ``weights.target``.
    """
    unit = 60.0 * _expected_wish_length(day_after) * weights.streak_weight
    streak_value = tuple(-u * unit for u in weights.streak_units)
    target, per_point = weights.target, weights.per_point

    def value(needs: Needs, streak: int) -> float:
        low = sorted(needs)
        for k, v in enumerate(low):
            if v <= WORST_LOSS * k:
                return -1e9
        short = sum(target - v for v in needs if v < target)
        return streak_value[streak] - per_point * short

    return value


class _Planner:
    """Plans once per day with :func:`plan` and follows the line while play stays on it."""

    game = "naptuft"

    def __init__(self, rng: random.Random, weights: Weights | None = None) -> None:
        self.rng = rng
        self.weights = weights or Weights()
        self._line: tuple[int, int, Plan] | None = None  # (day, first moment, plan)
        self.plans_made = 0
        self.memory = Memory()

    def _horizon(self, obs: Observation) -> tuple[list[dict[str, Any]], Terminal]:
        """Descriptors from the current window on, and the value of the horizon's end."""
        raise NotImplementedError

    def _open_ended(self, day: int) -> bool:
        """The horizon planned on ``day`` is followed by an unseen window under the no-repeat
        rule (so ``Weights.forced_end`` applies)."""
        return day + 1 >= nt.REPEAT_FROM_DAY

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """``next-day`` at a day break; otherwise the next care of the day's optimal line
        (``lastCare`` and ``wishStreak`` from :class:`Memory` when the server hides them).

        Raises:
            ValueError: the run is over (no legal action).
        """
        observation = self.memory.fill(observation)
        action = self._choose(observation, legal_actions)
        self.memory.sent(observation, action)
        return action

    def _choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action: the run is over")
        if observation["phase"] == "dayBreak":
            return NEXT_DAY if NEXT_DAY in legal_actions else legal_actions[0]
        day, moment = observation["day"], observation["moment"]
        here = _position(observation)
        action = self._follow(day, moment, here)
        if action is None or action not in legal_actions:
            descriptors, terminal = self._horizon(observation)
            forced = self.weights.forced_end if self._open_ended(day) else 0
            found = plan(Start(*here), _moments(descriptors, day, moment), terminal, forced)
            self.plans_made += 1
            if found is None:
                self._line = None
                return _lowest_legal(observation, legal_actions)
            self._line = (day, moment, found)
            action = _care(found.cares[0])
        return action if action in legal_actions else _lowest_legal(observation, legal_actions)

    def _follow(self, day: int, moment: int, here: tuple[Needs, int, int, int]) -> Action | None:
        if self._line is None or self._line[0] != day:
            return None
        _, first, line = self._line
        i = moment - first
        if not 0 <= i < len(line.cares) or line.positions[i] != here:
            return None
        return _care(line.cares[i])


class Balancer(_Planner):
    """Default: exact search over everything a player sees (spec §3, §9).

    At each day's first care it plans the rest of the day and the next day's first window
    (``forecast`` + ``nextWindow``, up to 16 moments) with :func:`plan`, and follows that line
    for the day (nothing new is revealed before ``next-day``, so the line stays optimal; it
    replans if play leaves it). Every need keeps its margin against the decay it can see (a
    line that empties a need is never chosen) and, beyond the horizon, against the worst loss
    8 (:func:`terminal_value`); wishes and the streak are followed when that is safe, the day-7
    no-repeat rule is respected (a window is ended so that the next wish's first step is
    not blocked when that pays, and a horizon does not end on a care a wish forces,
    ``Weights.forced_end``). Never sends ``end-run``.

    ``day_cap``: the day at whose day break the player itself will send end-run (the
    harness's cap, ``--max-days``; its own decision, not the server's), or None. On that
    day it plans the rest of the day only and values the end exactly (the final score),
    instead of keeping margins and the streak for a day it will not play. The runner, the
    bench and :func:`sunbot.play` set it through :meth:`on_start` from the run's cap.
    """

    def __init__(
        self, rng: random.Random, weights: Weights | None = None, day_cap: int | None = None
    ) -> None:
        super().__init__(rng, weights)
        self.day_cap = day_cap

    def on_start(self, game: str, seed: int | None, *, cap: int | None = None) -> None:
        """Take the run's day cap (``None``: uncapped) as ``day_cap``; the seed is not read
        (the strategy contract's optional hook, :class:`sunbot.strategies.Strategy`)."""
        self.day_cap = cap
        self._line = None

    def _last_day(self, day: int) -> bool:
        return self.day_cap is not None and day >= self.day_cap

    def _open_ended(self, day: int) -> bool:
        return not self._last_day(day) and super()._open_ended(day)

    def _horizon(self, obs: Observation) -> tuple[list[dict[str, Any]], Terminal]:
        if self._last_day(obs["day"]):
            return list(obs["forecast"][obs["window"] :]), _final
        seen = [*obs["forecast"][obs["window"] :], obs["nextWindow"]]
        return seen, terminal_value(self.weights, obs["day"] + 1)


class Clairvoyant(_Planner):
    """UPPER BOUND ONLY, LOCAL SERVER ONLY: reads the hidden deck. Not a fair player.

    :meth:`on_start` receives the run's seed (the runner calls it) and rebuilds the hidden
    descriptors with :func:`sunbot.engines.naptuft.descriptor`, which only the local engine's
    deck matches. It then plans like :class:`Balancer` (same search, same end-of-horizon
    value) but over the rest of the day, the whole next day and ``extra_windows`` windows
    more, which a player cannot see. Told the run's day cap (``day_cap``, set by
    :meth:`on_start`) it also knows when the run ends: a horizon reaching the cap's day
    break is then valued exactly (the final score: bonuses + the needs' sum).

    Raises (from :meth:`choose`):
        ValueError: no seed was given, or the server's forecast is not the local deck (a live
            server, whose deck is hidden and may differ).
    """

    def __init__(
        self,
        rng: random.Random,
        weights: Weights | None = None,
        extra_windows: int = 0,
        day_cap: int | None = None,
    ) -> None:
        super().__init__(rng, weights)
        self.seed: int | None = None
        self.extra_windows = extra_windows
        self.day_cap = day_cap

    def _open_ended(self, day: int) -> bool:
        """Never: the clairvoyant reads the windows after its horizon's end when it gets there."""
        return False

    def on_start(self, game: str, seed: int | None, *, cap: int | None = None) -> None:
        """Remember the run's ``seed`` (the hidden part this baseline reads) and its day
        ``cap`` as ``day_cap`` (``None``: uncapped)."""
        self.seed = seed
        self.day_cap = cap
        self._line = None

    def _horizon(self, obs: Observation) -> tuple[list[dict[str, Any]], Terminal]:
        if self.seed is None:
            raise ValueError("clairvoyant needs the run's seed (local server only)")
        per_day = nt.WINDOWS_PER_DAY
        day, window = obs["day"], obs["window"]
        base = per_day * (day - 1)
        shown = [*obs["forecast"], obs["nextWindow"]]
        if shown != [nt.descriptor(self.seed, base + i) for i in range(per_day + 1)]:
            raise ValueError("clairvoyant: this server's deck is not the local engine's")
        end = base + 2 * per_day + self.extra_windows  # deck index after the horizon
        if self.day_cap is not None and end >= per_day * self.day_cap:
            end = per_day * max(self.day_cap, day)
            deck = [nt.descriptor(self.seed, k) for k in range(base + window, end)]
            return deck, _final
        deck = [nt.descriptor(self.seed, k) for k in range(base + window, end)]
        return deck, terminal_value(self.weights, end // per_day + 1)


def _final(needs: Needs, streak: int) -> float:
    """End-of-run value: nothing beyond the needs' sum that :func:`plan` already counts."""
    return 0.0


class Rotation:
    """Baseline: feed, play, brush, nap in turn (§9), starting with feed.

    Each care is the one after ``lastCare`` in that cycle, so it never repeats (legal from
    day 7 on, §5) and, per §9, no need ever drops below 46. ``next-day`` at a day break.
    """

    game = "naptuft"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.memory = Memory()

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """The next care of the cycle (``next-day`` at a day break).

        Raises:
            ValueError: the run is over (no legal action).
        """
        if not legal_actions:
            raise ValueError("no legal action: the run is over")
        if observation["phase"] == "dayBreak":
            return NEXT_DAY
        filled = self.memory.fill(observation)
        last = filled["lastCare"]
        nxt = 0 if last is None else (_CARE_INDEX[last] + 1) % 4
        action = _care(nxt)
        self.memory.sent(filled, action)
        return action
