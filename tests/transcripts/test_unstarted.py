"""A transcript killed before its header (issue 26, point 3): the first line appears whole
or not at all, and a file that holds no line yet (0 bytes, or the start of a header an
older writer left) is treated as absent: ``play --transcript`` uses it again with a note,
``--resume`` says in one line that there is nothing to resume."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.jsonl import (
    NoHeader,
    TranscriptWriter,
    is_unstarted,
    read_transcript,
)

runner = CliRunner()
PLAY = ["play", "keelhold", "--seed", "7", "--max-voyages", "1", "--quiet"]
PARTIAL = b'{"type":"header","schemaVersion":1,"game":"kee'


def _said(output: str) -> str:
    return " ".join(output.split())


@pytest.mark.parametrize(
    ("content", "unstarted"),
    [
        (b"", True),
        (b"\n\n  \n", True),  # blank: no line of anything
        (PARTIAL, True),
        (b"\xef\xbb\xbf" + PARTIAL, True),
        (PARTIAL + b"\n", False),  # a whole (broken) line: someone's file, never taken
        (b'{"type":"step"', False),  # not the start of a header
        (b"notes of mine", False),
        (b'{"type":"header"}\n{"type":"init"', False),
    ],
)
def test_which_files_hold_no_transcript_line_yet(tmp_path, content, unstarted):
    path = tmp_path / "t.jsonl"
    path.write_bytes(content)
    assert is_unstarted(path) is unstarted
    assert is_unstarted(tmp_path) is False and is_unstarted(tmp_path / "none") is False


def test_the_path_appears_only_with_its_first_whole_line(tmp_path):
    path = tmp_path / "t.jsonl"
    w = TranscriptWriter(path)
    assert not path.exists()  # a kill here leaves no file at the path
    [pending] = tmp_path.glob(".t.jsonl.*.part")
    w.header("keelhold", 7, "planner", "embedded")
    assert path.read_bytes().count(b"\n") == 1 and not pending.exists()
    w.write({"type": "resume", "fromStep": 0, "at": "now"})
    w.close()
    assert read_transcript(path).header["game"] == "keelhold"
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]


def test_a_writer_closed_before_any_line_leaves_nothing(tmp_path):
    TranscriptWriter(tmp_path / "t.jsonl").close()
    assert list(tmp_path.iterdir()) == []


def test_a_process_killed_before_its_header_leaves_no_file(tmp_path):
    path = tmp_path / "t.jsonl"
    code = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from sunbot.transcripts.jsonl import TranscriptWriter
        w = TranscriptWriter(Path({str(path)!r}))
        os.kill(os.getpid(), 9)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, timeout=60)
    assert done.returncode == -9
    assert not path.exists()  # only a hidden .part file, which play never reads
    res = runner.invoke(app, [*PLAY, "--transcript", str(path)])
    assert res.exit_code == 0, res.output
    assert "note:" not in res.output and read_transcript(path).result is not None


def test_a_new_writer_never_takes_a_file_with_a_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(PARTIAL + b"\n")
    with pytest.raises(FileExistsError):
        TranscriptWriter(path)
    assert path.read_bytes() == PARTIAL + b"\n"


@pytest.mark.parametrize("content", [b"", PARTIAL])
def test_play_uses_a_file_its_killed_run_left_again_with_a_note(tmp_path, content):
    path = tmp_path / "t.jsonl"
    path.write_bytes(content)
    res = runner.invoke(app, [*PLAY, "--transcript", str(path)])
    assert res.exit_code == 0, res.output
    assert f"note: {path} holds no transcript line yet" in _said(res.output)
    t = read_transcript(path)
    assert t.error is None and t.result is not None and t.result["endedBy"] == "cap"


def test_the_python_api_uses_it_again_too(tmp_path):
    import sunbot

    path = tmp_path / "t.jsonl"
    path.touch()
    s = sunbot.play("keelhold", seed=7, max_voyages=1, transcript=path)
    assert s.ended_by == "cap" and read_transcript(path).result is not None


def test_play_still_refuses_a_file_with_content(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text("notes of mine")
    res = runner.invoke(app, [*PLAY, "--transcript", str(path)])
    assert res.exit_code == 2
    assert f"{path} exists: pick another --transcript" in _said(res.output)
    assert path.read_text() == "notes of mine"


@pytest.mark.parametrize("content", [b"", PARTIAL])
def test_resume_of_a_file_without_a_line_says_so_in_one_line(tmp_path, content):
    path = tmp_path / "t.jsonl"
    path.write_bytes(content)
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 2, res.output
    said = _said(res.output)
    assert said.startswith(f"error: {path} holds no transcript line yet")
    assert "nothing to read or resume" in said
    assert f"sunbot play GAME --transcript {path} uses the file again" in said
    assert len(res.output.strip().splitlines()) <= 3 and "Traceback" not in res.output
    assert path.read_bytes() == content  # left as it was
    with pytest.raises(NoHeader):
        read_transcript(path)


def test_replay_of_an_empty_file_is_one_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.touch()
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 2 and "holds no transcript line yet" in _said(res.output)
    assert os.path.getsize(path) == 0
