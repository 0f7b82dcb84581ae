"""`--resume` and `replay` refuse lines that do not fit one run, and a resume never sends a
state to a server the user did not name (issue 26, items 4 and 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli import play as play_cli
from sunbot.cli.main import app
from sunbot.testing.otherserver import OtherOptions, create_other_app
from sunbot.transcripts.integrity import Misfit, check_lines
from sunbot.transcripts.jsonl import Transcript, read_transcript
from sunbot.transcripts.resume import ServerNotConfirmed, resume_server
from tests.conftest import LoopbackServer

runner = CliRunner()


@pytest.fixture(autouse=True)
def _state_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("SUNBOT_SERVER_KEYS", raising=False)


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> list[dict]:
    """A Keelhold run of 9+ steps on the embedded server, as records."""
    path = tmp_path_factory.mktemp("whole") / "w.jsonl"
    args = ["play", "keelhold", "--seed", "7", "--strategy", "safe-greedy", "--max-voyages", "3"]
    res = runner.invoke(app, [*args, "--quiet", "--transcript", str(path)])
    assert res.exit_code == 0, res.output
    return [json.loads(x) for x in path.read_text().splitlines()]


def _cut(tmp_path: Path, recs: list[dict], edit=None, keep: int = 10) -> Path:
    """The first ``keep`` records (header, init, steps 1..8), edited by ``edit``."""
    recs = json.loads(json.dumps(recs[:keep]))
    if edit is not None:
        edit(recs)
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def _refused(path: Path, *words: str) -> None:
    """``play --resume`` and ``replay --strict`` both exit 2 with one line holding
    ``words``, and the file is left as it was."""
    before = path.read_bytes()
    for cmd in (["play", "--resume", str(path), "--quiet"], ["replay", "--strict", str(path)]):
        res = runner.invoke(app, cmd)
        assert res.exit_code == 2, res.output
        errors = [x for x in res.output.splitlines() if x.startswith("error:")]
        assert len(errors) == 1 and "Traceback" not in res.output, res.output
        assert all(w in errors[0] for w in words), errors[0]
    assert path.read_bytes() == before


def _set_index(value):
    def edit(recs):
        recs[5]["index"] = value

    return edit


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("4", "step index '4' is not a whole number"),
        (4.0, "step index 4.0 is not a whole number"),
        (10**9, "step index 1000000000 where 4 belongs (after step 3)"),
        (3, "step index 3 where 4 belongs"),
        (5, "step index 5 where 4 belongs"),
    ],
)
def test_a_step_index_out_of_order_is_refused_naming_its_line(tmp_path, whole, value, why):
    _refused(_cut(tmp_path, whole, _set_index(value)), "cut.jsonl: line 6: " + why)


def test_a_huge_last_index_does_not_become_the_step_count(tmp_path, whole):
    def edit(recs):
        recs[-1]["index"] = 10**9

    _refused(_cut(tmp_path, whole, edit), "line 10: step index 1000000000 where 8 belongs")


def test_a_header_of_another_game_is_one_line_not_a_key_error(tmp_path, whole):
    def edit(recs):
        recs[0].update(game="sunloaf", strategy="random")

    path = _cut(tmp_path, whole, edit)
    _refused(path, "line 2: not an answer of sunloaf (it has no cats)")


def test_a_forged_score_is_refused_before_anything_is_sent(tmp_path, whole):
    def edit(recs):
        answer = recs[-1]["response"]
        answer["score"] = answer["state"]["score"] = answer["observation"]["score"] = 999999

    path = _cut(tmp_path, whole, edit)
    before = path.read_bytes()
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 2, res.output
    assert "line 10: the recorded answer does not follow" in res.output
    assert "state.score: expected 125, got 999999" in res.output
    assert path.read_bytes() == before  # no result line carries 999999


def test_a_divergence_recorded_as_such_still_resumes(tmp_path, whole):
    """A server that diverged when the run was played: its verdict lists the field, so the
    re-check agrees with the recording and the run goes on (the divergences are counted)."""

    def edit(recs):
        step = recs[-1]
        step["response"]["state"]["trim"] += 1
        step["mirror"] = {"ok": False, "divergences": [{"step": 8, "path": "state.trim"}]}

    path = _cut(tmp_path, whole, edit)
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert "does not follow" not in res.output
    assert read_transcript(path).result is not None


def test_check_lines_without_a_file_names_the_step_line():
    head = {"type": "header", "game": "keelhold"}
    t = Transcript(header=head, steps=[{"index": 1}, {"index": "2"}])
    with pytest.raises(Misfit, match=r"^step line 2: step index '2' is not a whole number"):
        check_lines(t)


def test_resume_server_asks_before_the_headers_server(tmp_path):
    path = tmp_path / "t.jsonl"
    head = {"server": "http://127.0.0.1:9"}
    asked: list[str] = []
    assert resume_server(path, head, "http://mine:1") == "http://mine:1"  # named: no question
    assert resume_server(path, {"server": "embedded"}, None) is None
    yes = resume_server(path, head, None, lambda q: asked.append(q) or True)
    assert yes == "http://127.0.0.1:9" and "http://127.0.0.1:9" in asked[0]
    with pytest.raises(ServerNotConfirmed, match=r"add --server http://127\.0\.0\.1:9 to confirm"):
        resume_server(path, head, None, lambda q: False)
    with pytest.raises(ServerNotConfirmed):
        resume_server(path, head, None)


def test_an_edited_header_server_gets_no_state_token(tmp_path, whole, monkeypatch):
    """Edit the cut transcript's server: nothing is sent there unless the user says so."""
    hits: list[str] = []
    inner = create_other_app(OtherOptions(throttle_every=0))

    async def counting(scope, receive, send):  # every request the other server gets
        if scope["type"] == "http":
            hits.append(scope["path"])
        await inner(scope, receive, send)

    with LoopbackServer(counting) as srv:

        def edit(recs):
            recs[0]["server"] = srv.url

        path = _cut(tmp_path, whole, edit)
        before = path.read_bytes()
        res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
        assert res.exit_code == 2 and hits == [], res.output
        assert f"add --server {srv.url} to confirm" in res.output
        assert path.read_bytes() == before
        monkeypatch.setattr(play_cli, "_asker", lambda: lambda question: False)
        assert runner.invoke(app, ["play", "--resume", str(path), "--quiet"]).exit_code == 2
        assert hits == []
        monkeypatch.setattr(play_cli, "_asker", lambda: lambda question: True)
        runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert hits == ["/api/games/keelhold/action"]  # asked and confirmed: sent there
