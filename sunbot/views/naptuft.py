"""Naptuft view: day, moment, window and phase; the four needs as bars; the wish with its
progress and the streak; the day's forecast and the next window with their pressures.

Input is an observation (spec ``naptuft.md`` §3); for Naptuft the server's ``state`` is one.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sunbot.engines import naptuft as nt
from sunbot.observations.naptuft import summary as summary  # the closing-summary fields
from sunbot.views.common import printable

#: Comfort (§6.2 step 5) and day-bonus (§6.2 step 8) thresholds, marked on the bars.
COMFORT, DAY_MIN = nt.COMFORT_MIN, nt.DAY_MIN
CARE_OF = {n: c for c, n in nt.CARE_NEED.items()}


def need_bar(value: int, width: int = 25) -> Text:
    """A bar for a need 0..100: ``width`` cells, filled in proportion (``round(v*w/100)``).

    Red below 30 (day bonus lost), yellow below 40 (no comfort), green otherwise.
    """
    filled = round(value * width / 100)
    style = "red" if value < DAY_MIN else ("yellow" if value < COMFORT else "green")
    return Text.assemble(("█" * filled, style), ("░" * (width - filled), "dim"), f" {value:3d}")


def wish_text(wish: dict[str, Any] | None) -> Text:
    """The wish's cares in order, done ones struck through and the next one bold;
    ``—`` when no wish is shown (completed this window, or at a day break). A server may
    show a completed wish at full progress instead of none: all its cares struck."""
    if not isinstance(wish, dict):
        return Text("—", style="dim")
    out = Text()
    for i, care in enumerate(wish["actions"]):
        style = "strike dim" if i < wish["progress"] else ("bold" if i == wish["progress"] else "")
        out.append(care, style=style)
        out.append(" → " if i + 1 < len(wish["actions"]) else "")
    out.append(f"  ({wish['progress']}/{len(wish['actions'])})", style="dim")
    return out


def _multiplier(streak: int) -> int:
    """The next completed wish's multiplier after ``streak`` wishes in a row: 1, 2, then 3
    (rule text, Scoring)."""
    return min(streak + 1, nt.STREAK_CAP)


def _pressure(desc: dict[str, Any]) -> str:
    p = desc["pressure"]
    return "/".join(f"{p[n]}" for n in nt.NEEDS)


#: One line under the view saying what its labels mean (docs/rules/naptuft.md).
LEGEND = (
    "needs: 0 is fatal · wishes done in a row raise the next one's × · f/j/c/e:"
    " food/joy/cleanliness/energy · loss: a need's drop per moment"
)


def render(state: dict[str, Any], ended: str | None = None) -> RenderableType:
    """The whole observation as a rich group (see the module docstring), ending with
    :data:`LEGEND`. ``ended``: our own words for how the run ended (``capped at day 10``),
    shown instead of the game's ``result`` and ``cause``."""
    phase = state["phase"]
    # result and cause are the server's words, and a server may leave them out
    told = [str(state[k]) for k in ("result", "cause") if state.get(k) is not None]
    told = [ended] if ended else told
    ending = printable(f" ({': '.join(told)})") if phase == "over" and told else ""
    head = Text.assemble(
        ("Naptuft ", "bold"),
        f"day {state['day']}  moment {state['moment'] + 1}/12  window {state['window'] + 1}/3  ",
        ("score ", "dim"),
        (f"{state['score']}", "bold"),
        f"  phase {phase}{ending}",
    )
    needs = Table(show_header=False, box=None, padding=(0, 1))
    for n in nt.NEEDS:
        needs.add_row(f"{n} ({CARE_OF[n]})", need_bar(state["needs"][n]))
    # the rule text does not promise that the streak and the last care are shown
    streak, last = state.get("wishStreak"), state.get("lastCare")
    wish = Text.assemble(
        "wish: ",
        wish_text(state.get("wish")),
        "" if streak is None else f"   streak {streak} (next wish ×{_multiplier(streak)})",
        f"   last care {last or '—'}" if "lastCare" in state else "",
    )
    forecast = Table(
        "window", "wish", "pressure f/j/c/e", "loss f/j/c/e", box=None, header_style="bold"
    )
    rows = [(f"day {state['day']} w{i + 1}", d) for i, d in enumerate(state["forecast"])]
    rows.append((f"day {state['day'] + 1} w1", state["nextWindow"]))
    for i, (label, desc) in enumerate(rows):
        now = i == state["window"] and phase == "care"
        losses = "/".join(str(nt.loss(desc["pressure"][n])) for n in nt.NEEDS)
        forecast.add_row(
            Text(("▶ " if now else "  ") + label, style="bold" if now else ""),
            Text(", ".join(desc["wish"])),  # the server's words: never markup
            _pressure(desc),
            losses,
            style="dim" if i < state["window"] and phase == "care" else "",
        )
    return Group(head, needs, wish, forecast, Text(LEGEND, style="dim"))
