"""A provable upper bound on a Naptuft run's score (Naptuft §6.2 "Care", §9).

REFERENCE ONLY, LOCAL DECK ONLY: the bound reads the whole deck of the run's seed
(:func:`sunbot.engines.naptuft.descriptor`), which is our local server's hidden future. A live
server's deck is hidden and may be generated differently, so no player can compute this bound
against it; it measures how much of the possible score a strategy leaves on our own decks.

The score of a run that is not fatal and ends with end-run at the day break of day ``D`` is
the sum of four parts, each bounded on its own:

- **Care points**: every care adds ``r`` to the score and to its need (§6.2 step 1), and
  decay takes the full ``min(6 + p, 8)`` from every need each moment (a need that would reach
  0 ends the run). So the points equal ``final needs' sum - 280 + every loss of the run``:
  fixed by the deck's decay, up to the final needs' sum, which is at most
  :func:`final_room` of the last window's losses (not 400: each need decays after its last
  care).
- **Comfort**: at most 10 a moment (§6.2 step 5), 120 a day.
- **Day bonus**: at most 120 a day (§6.2 step 8).
- **Wishes**: at most what an exact search over the cares earns in wish bonuses alone
  (§6.2 steps 6-7 with the streak multiplier, and the day-7 no-repeat rule of §5), ignoring
  the needs: :func:`wish_points`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sunbot.engines import naptuft as nt

_CARE = {c: i for i, c in enumerate(nt.CARES)}
#: A need's ceiling (a care clamps at 100, spec §6.2 step 1).
NEED_MAX = 100
#: The needs' sum at the start: 4 x 70 (spec §3).
OPENING_NEEDS = 4 * nt.INITIAL_NEED


@dataclass(frozen=True)
class Bound:
    """The upper bound of one seed's run to the day break of day ``days``, by part (points).

    Attributes:
        days: days played (12 moments each).
        care: care points at most (:func:`final_room` - 280 + the deck's losses).
        comfort: comfort points at most (10 a moment).
        day_bonus: day bonuses at most (120 a day).
        wishes: wish bonuses at most (:func:`wish_points`).
        final_needs: the most the needs can sum to at the end (:func:`final_room`), part
            of ``care``.
    """

    days: int
    care: int
    comfort: int
    day_bonus: int
    wishes: int
    final_needs: int

    @property
    def total(self) -> int:
        """The bound on the run's score."""
        return self.care + self.comfort + self.day_bonus + self.wishes

    @property
    def per_day(self) -> float:
        """The bound on the score per day."""
        return self.total / self.days


def wish_points(
    wishes: list[list[int]],
    days: int,
    first_day: int = 1,
    *,
    streak: int = 0,
    last: int = -1,
    must: Mapping[int, bool] | None = None,
) -> int:
    """The most wish bonus points any line of cares earns over ``days`` days, needs ignored.

    Args:
        wishes: per window (3 a day, day ``first_day`` first), the wish as care indices
            0..3 (feed, play, brush, nap), 1..4 distinct.
        days: days played; a window's wish is shown with progress 0 at its first moment.
        first_day: the day of the first window.
        streak: ``wishStreak`` before the first window (0 from a fresh start).
        last: the care sent before the first window as an index, or -1 (a fresh start).
        must: window index (into ``wishes``) -> whether the lines counted finish that
            window's wish (True) or leave it unfinished (False); other windows are free.

    Exact dynamic programme over (wish progress or done, streak capped at 2, last care),
    following §6.2 steps 6-7: a step advances on the wish's next care, a finished wish pays
    ``60 * len * min(streak + 1, 3)``, an unfinished one resets the streak at its window's
    end; from day 7 a care may not repeat the previous one (§5).

    Raises:
        ValueError: fewer than ``3 * days`` wishes, or no line meets ``must``.
    """
    if len(wishes) < nt.WINDOWS_PER_DAY * days:
        raise ValueError(f"need {nt.WINDOWS_PER_DAY * days} wishes, got {len(wishes)}")
    # state (progress or -1 when done, streak 0..2, last care or -1) -> best points so far
    states: dict[tuple[int, int, int], int] = {(0, min(streak, nt.STREAK_CAP - 1), last): 0}
    must = must or {}
    for window in range(nt.WINDOWS_PER_DAY * days):
        wish = wishes[window]
        size = len(wish)
        no_repeat = window // nt.WINDOWS_PER_DAY + first_day >= nt.REPEAT_FROM_DAY
        states = {(0, s, prev): v for (_, s, prev), v in states.items()}
        for moment in range(nt.MOMENTS_PER_WINDOW):
            nxt: dict[tuple[int, int, int], int] = {}
            for (prog, held, prev), points in states.items():
                for care in range(4):
                    if no_repeat and care == prev:
                        continue
                    p, s, gain = prog, held, 0
                    if p >= 0 and wish[p] == care:
                        p += 1
                        if p == size:
                            gain = nt.WISH_UNIT * size * min(s + 1, nt.STREAK_CAP)
                            s, p = min(s + 1, nt.STREAK_CAP - 1), -1
                    if moment == nt.MOMENTS_PER_WINDOW - 1 and p >= 0:
                        s = 0
                    key = (p, s, care)
                    if nxt.get(key, -1) < points + gain:
                        nxt[key] = points + gain
            states = nxt
        if window in must:
            states = {k: v for k, v in states.items() if (k[0] < 0) == must[window]}
    if not states:
        raise ValueError("no line of cares meets `must`")
    return max(states.values())


def final_room(last_losses: tuple[int, int, int, int]) -> int:
    """The most the four needs can sum to after the run's last moment (points).

    Args:
        last_losses: what each need loses a moment in the last window (6..8 each, §4).

    Proof: order the needs by the moment of their last care, latest first (a need never
    cared comes last). Distinct needs were last cared at distinct moments, so the k-th
    (k = 1..4) was last cared at least k - 1 moments before the last one, or never; after
    that care it held at most 100 (§6.2 step 1) and then lost its loss at every moment from
    that one to the end, decay included on the care's own moment (step 3). The last four
    moments are the last window's, so the k-th need ends at most at ``100 - k * loss``. The
    sum is largest when the dearest losses get the smallest k (rearrangement inequality):
    ``400 - sum(k * loss_k)`` over the losses sorted from the largest. Losses of 6 give 340.
    """
    dearest_first = sorted(last_losses, reverse=True)
    return 4 * NEED_MAX - sum(k * loss for k, loss in enumerate(dearest_first, start=1))


def upper_bound(seed: int, days: int) -> Bound:
    """The :class:`Bound` of ``seed``'s run ended at the day break of day ``days`` (local
    deck: see the module docstring).

    Raises:
        ValueError: ``days < 1``.
    """
    if days < 1:
        raise ValueError(f"days must be >= 1, got {days}")
    deck = [nt.descriptor(seed, k) for k in range(nt.WINDOWS_PER_DAY * days)]
    per_moment = [sum(nt.loss(p) for p in d["pressure"].values()) for d in deck]
    losses = nt.MOMENTS_PER_WINDOW * sum(per_moment)
    moments = nt.MOMENTS_PER_WINDOW * nt.WINDOWS_PER_DAY * days
    last = deck[-1]["pressure"]
    last_losses = (
        nt.loss(last["food"]),
        nt.loss(last["joy"]),
        nt.loss(last["cleanliness"]),
        nt.loss(last["energy"]),
    )
    room = final_room(last_losses)
    return Bound(
        days=days,
        care=room - OPENING_NEEDS + losses,
        comfort=nt.COMFORT_BONUS * moments,
        day_bonus=nt.DAY_BONUS * days,
        wishes=wish_points([[_CARE[c] for c in d["wish"]] for d in deck], days),
        final_needs=room,
    )
