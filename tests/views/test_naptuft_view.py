"""The Naptuft view shows what a server sends and copes with what it leaves out: the rule
text never promises ``wishStreak``, ``lastCare``, ``result`` or ``cause`` (field table,
docs/rules/naptuft.md), and a completed wish may be shown at full progress."""

from __future__ import annotations

import io

from rich.console import Console

from sunbot.engines import naptuft as nt
from sunbot.html import naptuft as html
from sunbot.views import naptuft as view


def rendered(renderable) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(renderable)
    return out.getvalue()


def test_the_streak_line_gives_the_next_wishs_multiplier():
    s = nt.init(7)
    for c in ("nap", "feed"):  # W1: [nap, feed] done, streak 1, next wish x2
        s = nt.step(s, {"type": "care", "care": c})
    text = rendered(view.render(nt.observation(s)))
    assert "streak 1 (next wish ×2)" in text and "last care feed" in text
    assert "score 206" in text


def test_fields_the_rules_do_not_promise_may_be_missing():
    s = nt.step(nt.init(7), {"type": "end-run"})
    obs = nt.observation(s)
    assert "(ended: end-run)" in rendered(view.render(obs))
    for key in ("wishStreak", "lastCare", "result", "cause"):
        del obs[key]
    text = rendered(view.render(obs))
    assert "streak" not in text and "last care" not in text and "phase over" in text
    assert "nap → feed  (0/2)" in text
    obs["wish"] = {"actions": ["nap", "feed"], "progress": 2}  # completed, still shown
    assert "nap → feed  (2/2)" in rendered(view.render(obs))
    del obs["wish"]
    assert "wish: —" in rendered(view.render(obs))


def test_the_replay_frame_needs_no_unpromised_field():
    obs = nt.observation(nt.step(nt.init(7), {"type": "end-run"}))
    assert html.frame(obs)["streak"] == 0
    assert html.progress(obs) == "day 1 · moment 1/12 · window 1/3 · over (ended: end-run)"
    for key in ("wishStreak", "lastCare", "result", "cause"):
        del obs[key]
    f = html.frame(obs)
    assert (f["streak"], f["lastCare"], f["result"], f["cause"]) == (None, None, None, None)
    assert f["wish"] == {"actions": ["nap", "feed"], "progress": 0}
    assert html.progress(obs) == "day 1 · moment 1/12 · window 1/3 · over"
