"""Harvest Watch food in binary floats: the rule text shows food in steps of 0.1, which a
server adding floats (0.1 + 0.2 = 0.30000000000000004) writes an ulp off. The mirror reads
such a value as its step; a value between steps is still a divergence."""

from __future__ import annotations

import copy
import math
from typing import Any

from sunbot.mirror.harvest_choices import food_on_steps, on_step
from tests.mirror.test_foreign_harvest_watch import Event, check, foreign, record_match


def _ulp_up(x: Any) -> Any:
    return math.nextafter(x, math.inf) if isinstance(x, float) and x > 0 else x


def _float_server(events: list[Event], shift: float = 0.0) -> list[Event]:
    """Every positive food, fine and share one ulp above its tenth (plus ``shift``)."""
    out = copy.deepcopy(events)
    for _, kind, rec in out:
        summary = (rec.get("data") or {}).get("summary") if kind == "view" else None
        if not isinstance(summary, dict):
            continue
        summary["foods"] = [_ulp_up(f + shift if f else f) for f in summary["foods"]]
        summary["food"] = summary["foods"][summary["you"]]
        pr = summary.get("punishResult")
        if isinstance(pr, dict) and pr.get("punished") is not None:
            pr["fine"] = _ulp_up(pr["fine"])
            pr["shares"] = {k: _ulp_up(v) for k, v in pr["shares"].items()}
    return out


def test_on_step_snaps_only_float_noise() -> None:
    assert 0.1 + 0.2 != 0.3 and on_step(0.1 + 0.2) == 0.3
    assert on_step(math.nextafter(4.5, 0.0)) == 4.5
    assert on_step(3.05) == 3.05  # half a step off: left as it is, so it still differs
    assert on_step(True) is True and on_step("1.0") == "1.0" and on_step(None) is None
    # not finite: left as it is (round() would raise OverflowError / ValueError)
    assert on_step(math.inf) == math.inf and on_step(-math.inf) == -math.inf
    assert math.isnan(on_step(math.nan))
    shown = {"food": 0.1 + 0.2, "foods": [0.1 + 0.2, 0.0], "punishResult": {"fine": 0.70001}}
    snapped = food_on_steps(shown)
    assert snapped == {"food": 0.3, "foods": [0.3, 0.0], "punishResult": {"fine": 0.70001}}
    assert shown["food"] == 0.1 + 0.2  # the server's answer is left alone


async def test_foods_an_ulp_off_their_tenth_are_not_divergences() -> None:
    events = foreign(await record_match())
    noisy = _float_server(events)
    changed = sum(
        rec["data"]["summary"]["foods"] != clean["data"]["summary"]["foods"]
        for (_, kind, rec), (_, _, clean) in zip(noisy, events, strict=True)
        if kind == "view" and "summary" in rec.get("data", {})
    )
    assert changed > 20
    mirrors = check(noisy)
    assert all(m.divergences == [] for m in mirrors.values())
    assert sum(m.beats_checked for m in mirrors.values()) > 20


async def test_foods_between_steps_still_diverge() -> None:
    events = _float_server(foreign(await record_match()), shift=0.05)
    assert any(m.divergences for m in check(events).values())
