"""Replay pages without a browser: the steps taken from transcripts, the compacted frames,
the escaping of embedded text, and ``sunbot replay --html``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.html.page import embed_json, replay_page
from sunbot.html.steps import action_label, build, compact, field_of
from sunbot.mirror import Divergence
from sunbot.transcripts.jsonl import read_transcript
from tests.html.conftest import GOLDEN, drawn_views, lines, write_lines


def rebuild(deltas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the page's script does with the deltas: apply them in order."""
    out, cur = [], {}
    for d in deltas:
        cur = {**cur, **d}
        out.append(cur)
    return out


def page_data(text: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="sunbot-data">(.*?)</script>', text, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def test_action_labels() -> None:
    assert action_label({"type": "PLACE", "bay": 4}) == "PLACE bay=4"
    assert action_label({"type": "MOVE", "cat": 0, "tile": 17}) == "MOVE cat=0 tile=17"
    assert action_label({"type": "care", "care": "brush"}) == "care brush"
    assert action_label([{"act": "steal", "target": 3}]) == "steal target=3"
    assert action_label([{"punish": 2, "giveTo": 3}]) == "punish=2 giveTo=3"
    assert action_label([{"speech": 'a "b"'}]) == 'speech="a \\"b\\""'
    assert action_label([]) == "(no action)"


def test_field_of_strips_the_answer_prefixes() -> None:
    assert field_of("state.hold[3][0].weight") == "hold[3][0].weight"
    assert field_of("body.data.summary.foods[2]") == "foods[2]"
    assert field_of("score") == "score"


def test_compact_round_trips() -> None:
    frames = [{"a": 1, "b": [1]}, {"a": 1, "b": [2]}, None, {"a": 2}, {"a": 2, "c": 0}]
    deltas = compact(frames)
    assert deltas == [{"a": 1, "b": [1]}, {"b": [2]}, {}, {"a": 2, "b": None}, {"c": 0}]
    assert rebuild(deltas) == [
        {"a": 1, "b": [1]}, {"a": 1, "b": [2]}, {"a": 1, "b": [2]},
        {"a": 2, "b": None}, {"a": 2, "b": None, "c": 0},
    ]  # fmt: skip


def test_keelhold_steps_follow_the_transcript() -> None:
    t = read_transcript(GOLDEN["keelhold"])
    steps, deltas = build(t)
    assert len(steps) == len(t.steps) + 1 == len(deltas)
    assert steps[0]["a"] == "start" and steps[0]["s"] == 0 and steps[0]["d"] is None
    frames = rebuild(deltas)
    for k, rec in enumerate(t.steps, start=1):
        state = rec["response"]["state"]
        assert steps[k]["i"] == rec["index"]
        assert steps[k]["s"] == rec["response"]["score"]
        assert steps[k]["d"] == rec["response"]["score"] - steps[k - 1]["s"]
        assert frames[k]["trim"] == state["trim"]
        assert [len(h) for h in frames[k]["hold"]] == [len(h) for h in state["hold"]]
        assert steps[k]["p"].startswith(f"voyage {state['voyage']} · turn {state['turn']}")
    # only what is drawn: never the generator's internals
    assert all("rng" not in f and "seed" not in f for f in frames)


def test_a_refusal_keeps_the_position_and_says_why(tmp_path: Path) -> None:
    recs = lines(GOLDEN["naptuft"])
    recs[3]["response"] = {"ok": False, "reason": "not now", "legalActions": []}
    t = read_transcript(write_lines(tmp_path / "r.jsonl", recs))
    steps, deltas = build(t)
    assert steps[2]["r"] == "not now"
    assert deltas[2] == {} and steps[2]["s"] == steps[1]["s"] and steps[2]["d"] == 0


def test_offline_findings_join_the_recorded_ones() -> None:
    t = read_transcript(GOLDEN["sunloaf"])
    extra = [Divergence(5, "state.score", 10, 12, "re-played"), Divergence(999, "x", 1, 2)]
    steps, _ = build(t, extra)
    assert [d["path"] for d in steps[5]["dv"]] == ["state.score"]
    assert steps[5]["dv"][0]["source"] == "re-play"
    assert sum(len(s["dv"]) for s in steps) == 1  # step 999 does not exist


def test_hostile_text_cannot_close_the_data_script(tmp_path: Path) -> None:
    recs = lines(GOLDEN["harvest-watch"])
    evil = "</script><script>alert(1)</script><!-- \u2028 & <img src=x onerror=alert(2)>"
    cmd = next(r for r in recs if r["type"] == "command")
    cmd["answer"]["data"]["summary"]["speeches1"]["0"] = evil
    recs[0]["strategy"] = "<b>bold</b>"
    text = replay_page(read_transcript(write_lines(tmp_path / "evil.jsonl", recs)))
    assert text.count("</script>") == 2  # the data element's and the page script's
    assert "<img" not in text and "<b>bold" not in text and "\u2028" not in text
    data = page_data(text)
    assert evil in json.dumps(data["frames"], ensure_ascii=False)
    assert ["strategy", "<b>bold</b>"] in data["meta"]


def test_embed_json_escapes_markup() -> None:
    assert embed_json({"a": "</script>&"}) == '{"a":"\\u003c/script\\u003e\\u0026"}'


def test_embed_json_draws_bidi_controls_as_replacement_characters() -> None:
    """A speech with a right-to-left override must not reorder the page around it."""
    text = embed_json({"speech": "I farm\u202egnilaets\u2066x\u2069"})
    assert json.loads(text) == {"speech": "I farm\ufffdgnilaets\ufffdx\ufffd"}
    assert json.loads(embed_json({"a": "</script>&"})) == {"a": "</script>&"}


def test_the_page_allows_no_network_source() -> None:
    text = replay_page(read_transcript(GOLDEN["keelhold"]))
    csp = re.search(r'Content-Security-Policy" content="([^"]*)"', text)
    assert csp is not None and "default-src 'none'" in csp.group(1)
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text


def test_replay_html_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "k.html"
    out.parent.mkdir()  # --html never creates folders
    result = CliRunner().invoke(app, ["replay", str(GOLDEN["keelhold"]), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote replay page" in result.output
    data = page_data(out.read_text(encoding="utf-8"))
    golden = read_transcript(GOLDEN["keelhold"])
    assert data["game"] == "keelhold" and len(data["steps"]) == len(golden.steps) + 1  # + init


@pytest.mark.parametrize("target", ["transcript", "directory"])
def test_replay_html_never_overwrites_the_transcript(tmp_path: Path, target: str) -> None:
    src = tmp_path / "k.jsonl"
    src.write_bytes(GOLDEN["keelhold"].read_bytes())
    out = src if target == "transcript" else tmp_path
    result = CliRunner().invoke(app, ["replay", str(src), "--html", str(out)])
    assert result.exit_code == 2
    assert "cannot write the replay page" in result.output
    assert src.read_bytes() == GOLDEN["keelhold"].read_bytes()


def test_replay_html_replaces_an_older_page_and_never_another_file(tmp_path: Path) -> None:
    out = tmp_path / "k.html"
    args = ["replay", str(GOLDEN["keelhold"]), "--html", str(out)]
    assert CliRunner().invoke(app, args).exit_code == 0
    first = out.read_bytes()
    again = CliRunner().invoke(app, args)  # an older replay page is replaced
    assert again.exit_code == 0, again.output
    assert out.read_bytes() == first
    other = tmp_path / "notes.txt"
    other.write_text("keep me\n")
    result = CliRunner().invoke(app, ["replay", str(GOLDEN["keelhold"]), "--html", str(other)])
    assert result.exit_code == 2
    assert "exists and is not a replay page" in result.output
    assert other.read_text() == "keep me\n"


def test_a_match_with_three_seats_keeps_each_seat_apart(three_seats: Path) -> None:
    recs = lines(three_seats)
    ours = sorted({r["seat"] for r in recs if r["type"] == "view"})
    commands = [r for r in recs if r["type"] == "command"]
    assert len(ours) == 3
    steps, deltas = build(read_transcript(three_seats))
    frames = rebuild(deltas)
    assert len(steps) == len(commands) + 1
    for step, frame, cmd, data in zip(
        steps[1:], frames[1:], commands, drawn_views(recs), strict=True
    ):
        foods = data["summary"]["foods"]
        assert step["ss"] == [foods[s] for s in ours]  # one store per seat of ours
        assert step["s"] == foods[ours[0]]  # the single line follows our lowest seat
        assert step["a"].startswith(f"seat {cmd['seat']}: ")
        assert frame["you"] == cmd["seat"] and frame["ours"] == ours
    data = page_data(replay_page(read_transcript(three_seats)))
    assert data["seats"] == ours and data["scoreLabel"] == "our seats' food"
    assert ["our seats", ", ".join(map(str, ours))] in data["meta"]


def test_a_step_without_a_position_waits_for_its_own_seats_next_view(
    three_seats: Path, tmp_path: Path
) -> None:
    recs = lines(three_seats)
    ours = sorted({r["seat"] for r in recs if r["type"] == "view"})
    k = next(i for i, r in enumerate(recs) if r["type"] == "command")
    seat = recs[k]["seat"]
    recs[k]["answer"] = {"ok": True}  # a server that answers a command with no position
    while recs[k + 1]["seat"] == seat:  # and our seat's next views come after other seats'
        del recs[k + 1]
    own = next(r for r in recs[k + 1 :] if r["type"] == "view" and r["seat"] == seat)
    assert any(r["type"] == "command" for r in recs[k + 1 : recs.index(own)])
    steps, deltas = build(read_transcript(write_lines(tmp_path / "t.jsonl", recs)))
    frame = rebuild(deltas)[1]  # the first command's step
    assert frame["you"] == seat and frame["round"] == own["body"]["data"]["round"]
    assert steps[1]["ss"] == [own["body"]["data"]["summary"]["foods"][s] for s in ours]


def test_a_match_page_shows_each_decisions_agent_and_each_missed_beat(tmp_path: Path) -> None:
    recs = lines(GOLDEN["harvest-watch"])
    k = next(i for i, r in enumerate(recs) if r["type"] == "command")
    seat, rnd = recs[k]["seat"], recs[k]["body"]["round"]
    recs[k]["agent"] = {"model": "m", "answer": '{"act": "guard"}', "ms": 12.5}
    missed = {"type": "timeout", "seat": seat, "round": rnd + 1,
              "agent": {"timedOut": True, "ms": 19745.9}}  # fmt: skip
    recs.insert(k + 1, missed)
    result = next(r for r in recs if r["type"] == "result")
    result["timeouts"] = 1
    t = read_transcript(write_lines(tmp_path / "t.jsonl", recs))
    steps, _ = build(t)
    commands = sum(r["type"] == "command" for r in recs)
    assert len(steps) == commands + 2  # the start, each command, the missed beat
    assert 'answer: {"act": "guard"}' in steps[1]["m"]
    assert steps[2]["a"] == f"missed round {rnd + 1}: nothing sent"
    assert steps[2]["m"].startswith("missed its deadline") and steps[2]["s"] == steps[1]["s"]
    assert ["timeouts", "1"] in page_data(replay_page(t))["meta"]
