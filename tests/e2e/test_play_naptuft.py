"""End to end: ``sunbot play naptuft`` through the embedded server, mirror and transcript,
and the Naptuft view."""

from __future__ import annotations

import json

from rich.console import Console
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.engines import naptuft as nt
from sunbot.transcripts.jsonl import read_transcript
from sunbot.views import naptuft as view

runner = CliRunner()


def play(tmp_path, *args):
    path = tmp_path / "n.jsonl"
    res = runner.invoke(
        app, ["play", "naptuft", "--seed", "7", "--quiet", "--transcript", str(path), *args]
    )
    return res, read_transcript(path)


def test_play_naptuft_seed7_runs_to_the_default_10_day_cap_with_no_divergence(tmp_path):
    res, t = play(tmp_path)
    assert res.exit_code == 0, res.output
    assert t.header["game"] == "naptuft" and t.header["strategy"] == "balancer"
    last = t.steps[-1]
    assert last["action"] == {"type": "end-run"}
    final = last["response"]["state"]
    assert final["day"] == 10 and final["phase"] == "over" and final["cause"] == "end-run"
    assert t.result["endedBy"] == "cap" and t.result["divergences"] == 0
    assert t.result["score"] == final["score"] > 0
    # 10 days of 12 cares, 9 next-days and the capping end-run; the init answer too
    assert len(t.steps) == 10 * 12 + 9 + 1 and t.result["responsesChecked"] == len(t.steps) + 1
    assert all(s["mirror"]["ok"] for s in t.steps)
    # hidden state: no answer of the run shows the seed
    assert all("seed" not in s["response"]["state"] for s in t.steps)
    assert "divergences" in res.output and "capped at day 10" in res.output


def test_max_days_caps_earlier_and_clairvoyant_gets_the_seed(tmp_path):
    res, t = play(tmp_path, "--max-days", "2", "--strategy", "clairvoyant")
    assert res.exit_code == 0, res.output
    assert t.steps[-1]["response"]["state"]["day"] == 2
    assert t.result["endedBy"] == "cap" and t.result["divergences"] == 0
    assert len(t.steps) == 2 * 12 + 1 + 1


def test_max_voyages_is_refused_for_naptuft():
    res = runner.invoke(app, ["play", "naptuft", "--max-voyages", "2", "--no-transcript"])
    assert res.exit_code == 2


def text(renderable, width=100):
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_view_shows_meters_wish_streak_and_forecast():
    s = nt.step(nt.init(7), {"type": "care", "care": "nap"})  # W1 m0
    out = text(view.render(nt.observation(s)))
    assert "day 1  moment 2/12  window 1/3" in out and "score 40" in out
    assert "energy (nap)" in out and " 93" in out and " 63" in out
    assert "nap → feed  (1/2)" in out and "streak 0 (next wish ×1)" in out
    # the forecast with pressures and the losses they give (§4): 1/1/1/1 -> 7 each
    assert "1/1/1/1" in out and "7/7/7/7" in out and "day 2 w1" in out
    assert json.dumps(view.summary(nt.observation(s))) == json.dumps(
        {"day": 1, "result": None, "cause": None}
    )


def test_need_bar_fills_in_proportion_and_colours_the_thresholds():
    assert view.need_bar(100, 10).plain == "██████████ 100"
    assert view.need_bar(40, 10).plain == "████░░░░░░  40"
    assert view.need_bar(40, 10).spans[0].style == "green"
    assert view.need_bar(39, 10).spans[0].style == "yellow"  # no comfort below 40
    assert view.need_bar(29, 10).spans[0].style == "red"  # no day bonus below 30


def test_view_of_a_fatal_end_names_the_cause():
    s = nt.init(7)
    while not nt.is_over(s):
        s = nt.step(s, {"type": "care", "care": "feed"})
    out = text(view.render(nt.observation(s)))
    assert "phase over (fatal: zero:" in out and "wish:" in out
    assert view.summary(nt.observation(s))["result"] == "fatal"
