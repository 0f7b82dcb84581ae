"""What a plain Sunloaf state says of the run behind it (Sunloaf §2-§8).

A client may send the local server a plain state instead of a token; the server plays it and
signs the result into its next token, which then vouches for it. ``score``, ``dayCosyRaw``
and ``chain`` cannot be replayed from one state, so :func:`check_history` refuses the values
no run of this project's ramp (``sunloaf_gen.day_params``) can hold at the state's day and
turn. The bounds are loose on purpose: every real run lies inside them (tested over whole
runs), and a made-up score of any size lies outside.
"""

from __future__ import annotations

from typing import Any

from sunbot.engines import sunloaf_fast as fast
from sunbot.engines import sunloaf_gen as gen

#: The most raw one bowl pays: ``30 * chain`` with the chain at its cap of 8 (§7 step 6).
BOWL_RAW_MAX = 30 * 8
#: From this day on a day's terms stop growing: mult 1200 (day 33), bonus 3000 (day 30),
#: 5 cats (day 8), 14 turns (day 12), 7 mat entries (day 15).
STEADY_DAY = 33


def _award(raw: int, mult: int) -> int:
    """``Math.round(raw * mult / 100)`` in integers (§2)."""
    return (raw * mult + 50) // 100


def _cat_raw_max(t: int) -> int:
    """The most raw one cat earns on turn ``t`` (0-based) of a day: tier at most
    ``min(t + 1, 6)`` (settled is 0 when the day starts and grows by at most 1 a turn) and
    pile at most 6 (§7 step 5)."""
    return (10 * fast.PURR[min(t + 1, 6)] * (4 + 6)) // 4


def _day_max(day: int, turns: int, served: int) -> tuple[int, int]:
    """The most ``(raw, score)`` the first ``turns`` turns of ``day`` can earn with
    ``served`` mat entries served: every cat at its most each turn, every bowl at chain 8,
    each award rounded on its own at the day's multiplier. The day bonus is not included."""
    cats, m = gen.roster_size(day), gen.mult(day)
    raw = sum(cats * _cat_raw_max(t) for t in range(turns)) + served * BOWL_RAW_MAX
    score = sum(cats * _award(_cat_raw_max(t), m) for t in range(turns))
    return raw, score + served * _award(BOWL_RAW_MAX, m)


def _full_day(day: int) -> tuple[int, int, int]:
    """``(score ceiling, bonus, mat entries)`` of a whole cleared ``day``."""
    prm = gen.day_params(day)
    return _day_max(day, prm.turns_in_day, prm.bowls)[1], gen.bonus(day), prm.bowls


def bounds(s: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The least and most ``score``, ``dayCosyRaw`` and ``chain`` a run can hold at ``s``.

    ``s`` must already pass the shape and per-day checks of ``sunloaf.check_state``. Every
    day before ``s["day"]`` was cleared (NEXT_DAY is legal only at sunset, §8), and so was the
    current one at sunset or after a win; each cleared day paid ``min(100*day, 3000)``.

    - score at least: those bonuses, plus the larger of ``dayCosyRaw`` and
      ``15 * chain * (chain + 1)`` (an award is never below its raw, since mult >= 100, and a
      chain of c means bowls paying 30, 60 .. 30c raw were eaten in a row);
    - score at most: those bonuses, plus for each day so far every cat earning the most a turn
      can pay (tier ``min(t + 1, 6)`` on turn t, pile 6: 250 raw from turn 5) and every served
      bowl paying 240 raw, at that day's multiplier (today only up to ``turn`` and the bowls
      with ``serveTurn < turn``);
    - dayCosyRaw: from 0 to today's raw ceiling on the same terms;
    - chain: from 0 to the number of mat entries served so far in the run (capped at 8).

    Shapes: a dict field name -> ``(low, high)`` in points (score), raw cosy (dayCosyRaw) or
    bowls (chain). Days past :data:`STEADY_DAY` repeat that day's terms, so the cost is
    bounded whatever the day.
    """
    day, turn = s["day"], s["turn"]
    served = sum(1 for b in s["bowls"] if b["serveTurn"] < turn)
    paid = s["phase"] == "sunset" or s["result"] == "win"
    bonuses, score_high, served_run = gen.bonus(day) if paid else 0, 0, served
    for d in range(1, min(day, STEADY_DAY + 1)):
        high, bonus, bowls = _full_day(d)
        bonuses, score_high, served_run = bonuses + bonus, score_high + high, served_run + bowls
    steady = max(day - 1 - STEADY_DAY, 0)
    high, bonus, bowls = _full_day(STEADY_DAY)
    bonuses, score_high = bonuses + steady * bonus, score_high + steady * high
    served_run += steady * bowls
    raw_today, score_today = _day_max(day, turn, served)
    chain = s["chain"]
    low = bonuses + max(s["dayCosyRaw"], 15 * chain * (chain + 1))
    return {  # in the order they are checked: a score's floor depends on the chain
        "chain": (0, min(served_run, 8)),
        "dayCosyRaw": (0, raw_today),
        "score": (low, bonuses + score_high + score_today),
    }


def check_history(s: dict[str, Any]) -> None:
    """Refuse a state whose ``chain``, ``dayCosyRaw`` or ``score`` no run holds at its day
    and turn (see :func:`bounds`).

    Raises:
        ValueError: one line naming the field, its value, the day, the turn and the range.
    """
    for field, (low, high) in bounds(s).items():
        if not low <= s[field] <= high:
            raise ValueError(
                f"{field} {s[field]} is not one a run holds at day {s['day']}, turn {s['turn']}"
                f" (from {low} to {high})"
            )
