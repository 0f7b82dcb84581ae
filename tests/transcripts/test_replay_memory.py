"""``sunbot replay`` streams: its memory is bounded by a transcript's largest line, not by the
file (issue 38, hardening 2: a 63 MiB transcript of 100,000-seat Harvest Watch views took
782 MB to replay, about 12 times the file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sunbot.transcripts.jsonl import read_transcript
from sunbot.transcripts.replay import replay, replay_file
from sunbot.transcripts.stream import TranscriptLines

MIB = 1024 * 1024
SEATS = 100_000
#: The attack's size, and the bound the issue sets for its replay.
FILE_MIB = 63
LIMIT_MB = 200

#: Replays the file given and writes the process's peak resident memory on stderr: VmHWM,
#: the high-water mark of this process's own memory map (getrusage's ru_maxrss would also
#: count the forking parent's, here the pytest worker's, since the kernel carries it
#: across exec).
_MEASURE = """
import re, sys
from sunbot.cli.main import app
try:
    app(["replay", sys.argv[1]], standalone_mode=False)
finally:
    with open("/proc/self/status") as fh:
        peak_kib = re.search(r"VmHWM:\\s+(\\d+) kB", fh.read()).group(1)
    sys.stderr.write(f"peak-rss-kib={peak_kib}\\n")
"""


def write_big_match(path: Path, file_mib: int) -> int:
    """A Harvest Watch transcript of view lines listing ``SEATS`` seats each (what a hostile
    server sent), about ``file_mib`` MiB; returns the number of view lines. Each line is
    built once as text and repeated with its own index, so this takes well under a second."""
    header = {
        "type": "header", "schemaVersion": 1, "game": "harvest-watch", "seed": 7,
        "strategy": "coalition", "server": "http://127.0.0.1:9", "sunbotVersion": "0.1.0",
        "startedAt": "2026-11-30T04:14:38+00:00", "cap": None,
    }  # fmt: skip
    summary = {
        "you": 2, "day": 1, "phase": "speech1", "food": 5.0, "foods": [5.0] * SEATS,
        "alive": True, "aliveSeats": list(range(SEATS)), "nightCost": 3.0, "lastPublic": "x",
    }  # fmt: skip
    body = {"status": "running", "remainMs": 247, "pollAfterMs": 123,
            "data": {"round": 1, "phase": "speech1", "summary": summary}}  # fmt: skip
    line = json.dumps(
        {"type": "view", "seat": 2, "index": 999_999, "body": body,
         "mirror": {"ok": True, "divergences": []}, "elapsedMs": 1.0},
        separators=(",", ":"),
    )  # fmt: skip
    head, tail = line.split("999999", 1)
    views = max(1, file_mib * MIB // len(line))
    with path.open("w") as fh:
        fh.write(json.dumps(header) + "\n")
        for i in range(1, views + 1):
            fh.write(f"{head}{i}{tail}\n")
    return views


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_replaying_a_63_mib_transcript_of_100000_seat_views_stays_under_200_mb(tmp_path):
    path = tmp_path / "wide.jsonl"
    views = write_big_match(path, FILE_MIB)
    assert path.stat().st_size >= 62 * MIB
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    peak_mb = int(done.stderr.rsplit("peak-rss-kib=", 1)[1].split()[0]) / 1024
    assert peak_mb < LIMIT_MB, f"replay of a {FILE_MIB} MiB transcript peaked at {peak_mb:.0f} MB"
    # every view was read and checked: each lists too many seats, one finding each
    assert f"{views} views" in done.stdout
    assert f"{views} divergences" in done.stdout


def test_streaming_and_whole_file_replay_agree_on_the_goldens():
    root = Path(__file__).resolve().parents[2] / "transcripts"
    for path in sorted(root.glob("golden-*.jsonl")):
        whole = replay(read_transcript(path))
        streamed, read = replay_file(path, keep_positions=True)
        assert streamed == whole, path.name
        assert read.error is None and read.header == read_transcript(path).header


def test_a_repeated_view_gets_its_body_back_while_streaming(tmp_path):
    src = Path(__file__).resolve().parents[2] / "transcripts" / "golden-harvest-watch-seed7.jsonl"
    lines = src.read_text().splitlines()
    views = [i for i, x in enumerate(lines) if json.loads(x)["type"] == "view"]
    first = json.loads(lines[views[-1]])  # the seat's latest full view
    repeat = {**first, "index": 10_000}
    repeat.pop("body")
    repeat["sameAs"] = first["index"]
    path = tmp_path / "repeat.jsonl"
    path.write_text("\n".join([*lines[:-1], json.dumps(repeat), lines[-1]]) + "\n")
    read = [r for _, r in TranscriptLines(path)]
    assert read[-2]["sameAs"] == first["index"] and read[-2]["body"] == first["body"]
    assert replay_file(path)[0].ok
    # a reference past the seat's latest full views names nothing kept: no body, no check
    old = {**repeat, "sameAs": json.loads(lines[views[0]])["index"]}
    path.write_text("\n".join([*lines[:-1], json.dumps(old), lines[-1]]) + "\n")
    assert [r for _, r in TranscriptLines(path)][-2]["body"] is None
