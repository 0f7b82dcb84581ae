"""The replay pages of the golden transcripts in a real headless Chromium (``pytest -m browser``).

Each page is stepped to its first action, a middle step and its last step, and what it shows
(action, score, progress) is compared with the transcript's own records; no page may make a
network request. A copy with a planted divergence must show it on its step and field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sunbot.games import GAMES
from tests.html.conftest import GOLDEN, Browser, drawn_views, lines, write_lines

pytestmark = pytest.mark.browser


def expected_label(game: str, action: Any) -> str:
    """The action as the page should name it, written out per game from the rule texts'
    action shapes (independently of the page's own label code)."""
    if game == "keelhold":
        return f"PLACE bay={action['bay']}" if action["type"] == "PLACE" else action["type"]
    if game == "sunloaf":
        if action["type"] == "MOVE":
            return f"MOVE cat={action['cat']} tile={action['tile']}"
        return str(action["type"])
    if game == "naptuft":
        return f"care {action['care']}" if action["type"] == "care" else action["type"]
    parts = []
    for a in action:  # a match command's actions
        if "speech" in a or "diary" in a:
            key = "speech" if "speech" in a else "diary"
            parts.append(f"{key}={json.dumps(a[key], ensure_ascii=False)}")
        elif "act" in a:
            parts.append(" ".join([a["act"], *(f"{k}={v}" for k, v in a.items() if k != "act")]))
        else:
            parts.append(" ".join(f"{k}={json.dumps(v)}" for k, v in a.items()))
    return "; ".join(parts)


def shown_number(value: float) -> str:
    """How the page prints a score: whole numbers bare, others to one decimal."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def positions(game: str, path: Path) -> list[tuple[Any, float, str]]:
    """``(action, score, progress word)`` per position of the page, from the raw records."""
    recs = lines(path)
    if game == "harvest-watch":
        out = []
        views = [r for r in recs if r["type"] == "view"]
        first = views[0]["body"]["data"]["summary"]
        out.append((None, first["food"], f"day {first['day']}"))
        for r in recs:
            if r["type"] == "command":
                s = r["answer"]["data"]["summary"]
                out.append((r["body"]["actions"], s["food"], f"day {s['day']}"))
        return out
    out = []
    for r in recs:
        if r["type"] in ("init", "step"):
            state = r["response"]["state"]
            word = {"keelhold": "voyage", "sunloaf": "day", "naptuft": "day"}[game]
            out.append((r.get("action"), r["response"]["score"], f"{word} {state[word]}"))
    return out


@pytest.mark.parametrize("game", sorted(g.slug for g in GAMES.values() if g.page_ref))
def test_golden_page_shows_the_transcript(game: str, browser: Browser, make_page: Any) -> None:
    expected = positions(game, GOLDEN[game])
    page = make_page(GOLDEN[game])
    browser.open(page)
    assert browser.text("#counter").startswith("step 0 ")
    assert browser.text("#action") == "start"
    last = len(expected) - 1
    browser.page.keyboard.press("ArrowRight")  # first action
    seen = {1: None, last // 2: None, last: None}
    for k in seen:
        if k == last:
            browser.page.keyboard.press("End")
        elif k != 1:
            browser.goto_step(k)
        action, score, word = expected[k]
        assert browser.text("#counter").startswith(f"step {k} "), k
        assert browser.text("#action") == expected_label(game, action), k
        assert browser.text("#score") == shown_number(score), k
        assert word in browser.text("#progress"), k
        delta = score - expected[k - 1][1]
        shown_delta = browser.text("#delta")
        assert shown_delta == (
            "±0" if delta == 0 else f"{'+' if delta > 0 else '−'}{shown_number(abs(delta))}"
        )
    browser.page.keyboard.press("ArrowLeft")
    assert browser.text("#counter").startswith(f"step {last - 1} ")
    assert browser.page.locator("#board *").count() > 10  # a board was drawn
    assert browser.errors == []
    assert browser.requests == []


def test_planted_divergence_is_marked_on_its_step_and_field(
    tmp_path: Path, browser: Browser, make_page: Any
) -> None:
    recs = lines(GOLDEN["keelhold"])
    step = next(r for r in recs if r.get("index") == 40)
    planted = {"step": 40, "path": "state.trim", "expected": 3, "got": 5, "note": "planted"}
    step["mirror"] = {"ok": False, "divergences": [planted]}
    page = make_page(write_lines(tmp_path / "planted.jsonl", recs))
    browser.open(page, step=39)
    assert browser.text("#divergences h2").endswith(": 0")
    assert browser.page.locator("#board .diverged").count() == 0
    browser.page.keyboard.press("ArrowRight")
    assert browser.text("#counter").startswith("step 40 ")
    assert browser.text("#divergences h2").endswith(": 1")
    item = browser.text("#divergences li.divergence")
    assert "state.trim: expected 3, got 5 (planted)" in item
    marked = browser.page.locator("#board .diverged")
    assert marked.count() == 1
    assert "trim" in (marked.first.get_attribute("data-field") or "").split()
    assert browser.page.locator("#chart .diverged-mark").count() == 1
    assert browser.page.locator("#chart .diverged-mark").first.get_attribute("data-step") == "40"
    assert browser.requests == []


def test_hostile_speech_is_shown_as_text_and_runs_nothing(
    tmp_path: Path, browser: Browser, make_page: Any
) -> None:
    recs = lines(GOLDEN["harvest-watch"])
    evil = '</script><script>window.pwned=1</script><img src="https://example.invalid/x.png" onerror="window.pwned=2">'
    commands = [r for r in recs if r["type"] == "command"]
    commands[0]["answer"]["data"]["summary"]["speeches1"]["0"] = evil
    view = next(r for r in recs if r["type"] == "view" and r["index"] == 3)
    planted = {"step": 3, "path": "data.summary.foods[4]", "expected": 5.0, "got": 6.0, "note": ""}
    view["mirror"] = {"ok": False, "divergences": [planted]}
    page = make_page(write_lines(tmp_path / "evil.jsonl", recs))
    browser.open(page, step=1)
    assert browser.page.evaluate("typeof window.pwned") == "undefined"
    assert browser.page.locator("img").count() == 0
    assert browser.page.locator("script").count() == 2  # the data element and the page script
    assert evil in browser.text("#extra")  # the speech table shows it whole, as text
    # the view read after the second command diverged on seat 4's store
    browser.page.keyboard.press("ArrowRight")
    assert browser.text("#divergences h2").endswith(": 1")
    marked = browser.page.locator("#board .diverged")
    assert marked.count() == 1
    assert "foods[4]" in (marked.first.get_attribute("data-field") or "").split()
    assert browser.requests == []
    assert browser.errors == []


def test_play_pause_and_the_chart_jump(browser: Browser, make_page: Any) -> None:
    page = make_page(GOLDEN["naptuft"])
    browser.open(page)
    browser.page.select_option("#speed", "40")
    browser.page.click("#play")
    assert browser.text("#play") == "pause"
    for _ in range(100):  # bounded: 100 x 50 ms
        if int(browser.page.input_value("#slider")) >= 5:
            break
        browser.page.wait_for_timeout(50)
    assert int(browser.page.input_value("#slider")) >= 5
    browser.page.click("#play")
    assert browser.text("#play") == "play"
    stopped = browser.text("#counter")
    browser.page.wait_for_timeout(300)
    assert browser.text("#counter") == stopped  # paused: no more steps
    box = browser.page.locator("#chart").bounding_box()
    assert box is not None
    browser.page.mouse.click(box["x"] + box["width"] - 14, box["y"] + box["height"] / 2)
    last = len(lines(GOLDEN["naptuft"])) - 3  # header, init and result are not steps
    assert browser.text("#counter").startswith(f"step {last} ")
    assert browser.requests == []


def test_replay_counts_what_it_found_and_the_current_step_keeps_its_red_mark(
    tmp_path: Path, browser: Browser
) -> None:
    from typer.testing import CliRunner

    from sunbot.cli.main import app

    recs = lines(GOLDEN["keelhold"])
    step = next(r for r in recs if r.get("index") == 20)
    step["response"]["score"] += 1  # one edited recorded score: the re-check finds it
    edited = write_lines(tmp_path / "edited.jsonl", recs)
    page = tmp_path / "t.html"
    res = CliRunner().invoke(app, ["replay", str(edited), "--html", str(page)])
    assert res.exit_code == 0, res.output
    browser.open(page, step=20)
    meta = dict(
        browser.page.eval_on_selector_all(
            "#meta > div",
            "ds => ds.map(d => [d.querySelector('dt').textContent,"
            " d.querySelector('dd').textContent])",
        )
    )
    assert meta["divergences"] == "0 recorded, 1 found on re-play"
    assert browser.text("#divergences h2").endswith(": 1")
    assert "[re-play]" in browser.text("#divergences li.divergence")
    mark = browser.page.locator("#chart .diverged-mark")
    assert mark.count() == 1 and mark.first.get_attribute("data-step") == "20"
    box = mark.first.bounding_box()
    assert box is not None
    top = browser.page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).getAttribute('class')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert top == "diverged-mark"  # on top of the orange cursor line and dot of step 20


def test_three_seat_match_shows_each_seat_on_its_own_line(
    three_seats: Path, browser: Browser, make_page: Any
) -> None:
    recs = lines(three_seats)
    ours = sorted({r["seat"] for r in recs if r["type"] == "view"})
    commands = [r for r in recs if r["type"] == "command"]
    drawn = drawn_views(recs)  # a refused or lost answer's step shows that seat's next view
    browser.open(make_page(three_seats))
    series = browser.page.locator("#chart polyline.series")
    assert series.count() == 3  # one line per seat of ours
    assert [series.nth(j).get_attribute("data-seat") for j in range(3)] == [str(s) for s in ours]
    points = [
        [
            tuple(map(float, p.split(",")))
            for p in (series.nth(j).get_attribute("points") or "").split()
        ]
        for j in range(3)
    ]
    assert all(len(p) == len(commands) + 1 for p in points)
    for k in (1, len(commands) // 2, len(commands)):
        browser.goto_step(k)
        cmd, foods = commands[k - 1], drawn[k - 1]["summary"]["foods"]
        shown = " · ".join(f"seat {s} {shown_number(foods[s])}" for s in ours)
        assert browser.text("#score") == shown, k
        board = browser.page.text_content("#board") or ""
        seats = ", ".join(map(str, ours))
        assert f"our seats {seats} · seat {cmd['seat']}'s view" in board, k
        # each line sits at its own seat's store: more food, higher on the chart (lower y)
        for a in range(3):
            for b in range(3):
                if foods[ours[a]] > foods[ours[b]]:
                    assert points[a][k][1] < points[b][k][1], (k, a, b)
    assert browser.errors == [] and browser.requests == []
