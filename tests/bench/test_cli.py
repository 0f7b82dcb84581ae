"""`sunbot bench`: a whole benchmark, resume after an interruption, compare, bad input."""

from __future__ import annotations

import builtins
import csv
import html
import re
import sqlite3

import pytest
import typer
from typer.testing import CliRunner

from sunbot.bench.jobs import Job, run_job
from sunbot.bench.store import Store
from sunbot.cli import bench as bench_cli
from sunbot.games import GAMES, get_game

runner = CliRunner()
app = typer.Typer()
app.command("bench")(bench_cli.bench_command)


@app.callback()
def _root() -> None:
    """Keep `bench` a subcommand, as in the real app."""


def bench(*args: str):
    return runner.invoke(app, ["bench", *args], env={"COLUMNS": "200"})


def stored(out, run):
    db = sqlite3.connect(out / "bench.sqlite")
    return db.execute(
        "SELECT strategy, seed, score, finished_at FROM results WHERE run = ? ORDER BY strategy, seed",
        (run,),
    ).fetchall()


def _inline(jobs, backend, workers, address):
    return (run_job(j) for j in jobs)


def test_registered_in_the_sunbot_command():
    from sunbot.cli.main import app as sunbot_app

    res = runner.invoke(sunbot_app, ["bench", "--help"])
    assert res.exit_code == 0 and "--compare" in res.output


def test_a_benchmark_then_resume_runs_nothing_new(tmp_path):
    out = tmp_path / "o"
    res = bench(
        "keelhold",
        "-s",
        "first-safe",
        "-s",
        "random",
        "--seeds",
        "1-6",
        "--workers",
        "2",
        "--out",
        str(out),
        "--run",
        "t1",
    )
    assert res.exit_code == 0, res.output
    assert "run t1: 12 jobs, 0 already stored, 12 to run on local with 2 workers" in res.output
    assert "keelhold · run t1" in res.output and "first-safe - random" in res.output
    rows = stored(out, "t1")
    assert len(rows) == 12
    # the stored scores are the job function's
    assert rows[0][:3] == ("first-safe", 1, run_job(Job("keelhold", "first-safe", 1)).score)
    with (out / "t1" / "results.csv").open(newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 12
    page = (out / "t1" / "report.html").read_text()
    assert page.count("<svg") == 3  # scores, survival, paired: inline
    assert "first-safe" in page and "Wilcoxon p" in page

    again = bench(
        "keelhold",
        "-s",
        "first-safe",
        "-s",
        "random",
        "--seeds",
        "1-6",
        "--out",
        str(out),
        "--resume",
    )
    assert again.exit_code == 0, again.output
    assert "run t1: 12 jobs, 12 already stored, 0 to run" in again.output
    assert stored(out, "t1") == rows  # same rows, same finish times: nothing ran

    refused = bench(
        "keelhold", "-s", "first-safe", "--seeds", "1-3", "--out", str(out), "--run", "t1"
    )
    assert refused.exit_code == 2 and "already holds 3 of these jobs" in refused.output


def test_interrupted_benchmark_resumes_where_it_stopped(tmp_path, monkeypatch):
    out = tmp_path / "o"

    def stop_after_five(jobs, backend, workers, address):
        for i, job in enumerate(jobs):
            if i == 5:
                raise KeyboardInterrupt
            yield run_job(job)

    monkeypatch.setattr(bench_cli, "run_jobs", stop_after_five)
    args = [
        "keelhold",
        "-s",
        "first-safe",
        "-s",
        "random",
        "--seeds",
        "1-6",
        "--out",
        str(out),
        "--run",
        "t2",
    ]
    res = bench(*args)
    assert res.exit_code == 130
    assert "5 of 12 jobs stored" in res.output and "--resume --run t2" in res.output
    first = stored(out, "t2")
    assert len(first) == 5

    ran: list[Job] = []

    def record(jobs, backend, workers, address):
        ran.extend(jobs)
        return _inline(jobs, backend, workers, address)

    monkeypatch.setattr(bench_cli, "run_jobs", record)
    res = bench(*args, "--resume")
    assert res.exit_code == 0, res.output
    assert len(ran) == 7 and not {(j.strategy, j.seed) for j in ran} & {r[:2] for r in first}
    after = stored(out, "t2")
    assert len(after) == 12 and set(first) <= set(after)


def test_worker_counts_give_identical_rows(tmp_path):
    out = tmp_path / "o"
    for run, workers in (("w1", "1"), ("w2", "2")):
        res = bench(
            "keelhold",
            "-s",
            "safe-greedy",
            "--cap",
            "voyages=2",
            "--seeds",
            "1-4",
            "--workers",
            workers,
            "--out",
            str(out),
            "--run",
            run,
        )
        assert res.exit_code == 0, res.output
    with Store(out / "bench.sqlite") as store:
        w1, w2 = ([r.deterministic() for r in store.results(run)] for run in ("w1", "w2"))
    assert w1 == w2 and len(w1) == 4
    assert {r["cap"] for r in w1} == {2} and {r["ended_by"] for r in w1} <= {"cap", "rules"}

    res = bench("--compare", "w1", "w2", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "w1 (A) vs w2 (B)" in res.output and "0 on 4" in res.output


def test_job_errors_exit_1(tmp_path, monkeypatch):
    monkeypatch.setitem(GAMES["keelhold"].strategies, "crash", "tests.bench.fakes:Crash")
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    res = bench("keelhold", "-s", "crash", "--seeds", "1-2", "--out", str(tmp_path))
    assert res.exit_code == 1
    out = " ".join(res.output.split())
    assert "2 jobs ended on an error and are left out of the score statistics" in out
    assert "first: crash seed 1: " in out


def test_a_bot_file_raising_escape_sequences_is_shown_not_obeyed(tmp_path, monkeypatch):
    # A bot whose error text held ESC[2J cleared the terminal of the user running the bench,
    # and the bot file's own name (an ESC in a path) reached it raw too.
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    bot = tmp_path / "x\x1b[31m.py"
    bot.write_text(
        "class Bot:\n"
        "    def choose(self, observation, legal_actions):\n"
        "        raise RuntimeError('\\x1b[2J\\x1b]0;t\\x07boom')\n"
    )
    res = bench("naptuft", "-s", f"{bot}:Bot", "--seeds", "1", "--out", str(tmp_path / "o"))
    assert res.exit_code == 1
    assert "\x1b" not in res.output and "\x07" not in res.output
    out = " ".join(res.output.split())
    assert "1 job ended on an error and is left out of the score statistics" in out
    assert "x\ufffd[31m.py:Bot seed 1: " in out
    assert "RuntimeError: \ufffd[2J\ufffd]0;t\ufffdboom" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["keelhold", "--seeds", "5-1"], "Invalid value for '--seeds': range '5-1' runs backwards"),
        (["keelhold", "--cap", "days=3"], "--cap days=3 does not apply to keelhold: use voyages=N"),
        (["keelhold", "--cap", "laps=3"], "expected voyages=N, days=N or steps=N"),
        (
            ["keelhold", "-s", "nope"],
            "unknown strategy 'nope' for keelhold; valid: planner, safe-greedy",
        ),
        (["chess"], "unknown game 'chess'"),
        (["keelhold", "--seeds", "1", "--seeds-file", "x.txt"], "not both"),
        (["keelhold", "--ray-address", "1.2.3.4:6379"], "--ray-address needs --backend ray"),
        (
            ["keelhold", "--workers", "0"],
            "Invalid value for '--workers': Input should be greater than or equal to 1",
        ),
        (["harvest-watch", "--cap", "days=3"], "harvest-watch runs have no cap"),
        ([], "missing GAME"),
        (["keelhold", "--resume"], "no stored keelhold run to resume"),
        (["keelhold", "--resume", "--run", "ghost"], "nothing stored under run 'ghost'"),
        (["--compare", "a", "b"], "no benchmark store"),
        (
            ["keelhold", "--seeds", "99999999999999999999999"],
            "Invalid value for '--seeds': seed 99999999999999999999999 does not fit a signed"
            " 64-bit integer",
        ),
        (["keelhold", "--seeds=-3,99999999999999999999999"], "does not fit a signed 64-bit"),
        (["keelhold", "--run", "../../evil"], "--run '../../evil' is not a run label"),
        (["keelhold", "--run", ""], "--run '' is not a run label"),
        (["keelhold", "--run", ".hidden"], "--run '.hidden' is not a run label"),
        (["keelhold", "--run", "a/b"], "--run 'a/b' is not a run label"),
        (["keelhold", "--run", "x" * 65], "is not a run label: use 1 to 64 letters"),
        (["keelhold", "--run", "[ray]"], "--run '[ray]' is not a run label"),  # not markup
    ],
)
def test_bad_usage_exits_2_with_a_clear_message(tmp_path, monkeypatch, args, message):
    monkeypatch.setitem(
        GAMES["harvest-watch"].strategies, "guard-seat", "tests.bench.fakes:GuardSeat"
    )
    res = bench(*args, "--out", str(tmp_path))
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())


def test_compare_names_the_stored_runs_and_one_game(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    assert (
        bench(
            "keelhold", "-s", "random", "--seeds", "1-2", "--out", str(tmp_path), "--run", "k"
        ).exit_code
        == 0
    )
    assert (
        bench(
            "naptuft", "-s", "random", "--seeds", "1-2", "--out", str(tmp_path), "--run", "n"
        ).exit_code
        == 0
    )
    res = bench("--compare", "k", "zzz", "--out", str(tmp_path))
    assert res.exit_code == 2 and "no stored run 'zzz'" in res.output and "k, n" in res.output
    res = bench("--compare", "k", "n", "--out", str(tmp_path))
    assert res.exit_code == 2 and "compare runs of one game" in res.output
    res = bench(
        "keelhold",
        "-s",
        "random",
        "--cap",
        "voyages=2",
        "--out",
        str(tmp_path),
        "--run",
        "k",
        "--resume",
    )
    assert res.exit_code == 2 and "holds keelhold with cap 30" in " ".join(res.output.split())


def test_without_cap_runs_use_the_games_default_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    res = bench("naptuft", "-s", "random", "--seeds", "1-2", "--out", str(tmp_path), "--run", "n")
    assert res.exit_code == 0, res.output
    default = get_game("naptuft").default_cap
    assert default is not None
    with Store(tmp_path / "bench.sqlite") as store:
        assert store.run_info("n").cap == default
        assert {r.cap for r in store.results("n")} == {default}
    assert f"days={default} (the game's default cap)" in html.unescape(
        (tmp_path / "n" / "report.html").read_text()
    )


def _files(root):
    return sorted(p.relative_to(root) for p in root.rglob("*"))


@pytest.mark.parametrize("label", ["../../evil", "../escape", "", ".", "..", "ABS", "a\nb"])
def test_bad_run_labels_write_nothing(tmp_path, monkeypatch, label):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    out = tmp_path / "a" / "b" / "bench-out"
    if label == "ABS":  # an absolute path, inside tmp_path should the check ever be lost
        label = str(tmp_path / "abs")
    res = bench("keelhold", "-s", "random", "--seeds", "1", "--out", str(out), "--run", label)
    assert res.exit_code == 2, res.output
    assert "is not a run label" in res.output
    assert _files(tmp_path) == []  # not even --out is created


def test_valid_run_labels(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    for label in ("a", "Run_2.v-3", "9" * 64):
        res = bench(
            "keelhold", "-s", "random", "--seeds", "1", "--out", str(tmp_path), "--run", label
        )
        assert res.exit_code == 0, res.output
        assert (tmp_path / label / "results.csv").is_file()


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\x01", b"\x89PNG\r\n\x1a\n\x00\x00"])
def test_binary_seeds_file_is_a_usage_error(tmp_path, content):
    f = tmp_path / "seeds.bin"
    f.write_bytes(content)
    res = bench("keelhold", "--seeds-file", str(f), "--out", str(tmp_path / "o"))
    assert res.exit_code == 2, res.output
    text = " ".join(res.output.split())
    assert f"error: --seeds-file: {f} is" in text and "Traceback" not in text
    assert not (tmp_path / "o").exists()


def test_negative_seeds_in_a_list_a_range_and_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    out = tmp_path / "o"
    for run, seeds in (("l1", ["--seeds=-3,5"]), ("l2", ["--seeds", "-3,5"])):
        res = bench("keelhold", "-s", "random", *seeds, "--out", str(out), "--run", run)
        assert res.exit_code == 0, res.output
        assert [r[1] for r in stored(out, run)] == [-3, 5]
    res = bench("keelhold", "-s", "random", "--seeds=-2--1", "--out", str(out), "--run", "r")
    assert res.exit_code == 0, res.output
    assert [r[1] for r in stored(out, "r")] == [-2, -1]
    f = tmp_path / "seeds.txt"
    f.write_text("-9223372036854775808\n9223372036854775807\n")
    res = bench("keelhold", "-s", "random", "--seeds-file", str(f), "--out", str(out), "--run", "f")
    assert res.exit_code == 0, res.output
    assert [r[1] for r in stored(out, "f")] == [-(2**63), 2**63 - 1]
    # the same rows as the job function (which plays as sunbot play does)
    assert stored(out, "l1")[0][2] == run_job(Job("keelhold", "random", -3)).score


def test_out_that_is_a_file_is_a_usage_error_naming_it(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    res = bench("keelhold", "--seeds", "1", "--out", str(notes))
    assert res.exit_code == 2, res.output
    assert f"error: --out {notes}: exists and is not a directory" in " ".join(res.output.split())
    assert notes.read_text() == "mine\n"


@pytest.mark.parametrize("sub", ["notes.txt/x", "notes.txt/x/y"])
def test_out_that_cannot_be_created_is_a_usage_error_naming_it(tmp_path, sub):
    (tmp_path / "notes.txt").write_text("mine\n")
    out = tmp_path / sub
    res = bench("keelhold", "--seeds", "1", "--out", str(out))
    assert res.exit_code == 2, res.output
    assert f"error: --out {out}: cannot create the directory" in " ".join(res.output.split())


def test_out_under_proc_is_a_usage_error(tmp_path):
    res = bench("keelhold", "--seeds", "1", "--out", "/proc/sunbot-bench-x")
    assert res.exit_code == 2, res.output
    assert "error: --out /proc/sunbot-bench-x: cannot create the directory" in res.output


def test_unusable_store_or_run_directory_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    (tmp_path / "bench.sqlite").write_bytes(b"not a database, just text" * 10)
    res = bench("keelhold", "--seeds", "1", "--out", str(tmp_path), "--run", "a")
    assert res.exit_code == 2, res.output
    assert f"cannot open the benchmark store {tmp_path / 'bench.sqlite'}" in " ".join(
        res.output.split()
    )
    res = bench("--compare", "a", "b", "--out", str(tmp_path))
    assert res.exit_code == 2 and "cannot open the benchmark store" in res.output
    out = tmp_path / "o"
    out.mkdir()
    (out / "a").write_text("a file where the run's directory goes\n")
    res = bench("keelhold", "-s", "random", "--seeds", "1", "--out", str(out), "--run", "a")
    assert res.exit_code == 2, res.output
    assert "exists and is not a directory" in res.output
    assert not (out / "bench.sqlite").exists() or stored(out, "a") == []


def test_ray_install_hint_keeps_its_brackets(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    res = bench("keelhold", "--seeds", "1", "--backend", "ray", "--out", str(tmp_path))
    assert res.exit_code == 1, res.output
    assert "pip install 'sunbot[ray]'" in res.output


def test_counts_of_one_are_singular(tmp_path, monkeypatch):
    monkeypatch.setitem(GAMES["keelhold"].strategies, "crash", "tests.bench.fakes:Crash")
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    res = bench(
        "keelhold",
        "-s",
        "crash",
        "--seeds",
        "1",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
        "--run",
        "one",
    )
    assert res.exit_code == 1
    text = " ".join(res.output.split())
    assert "run one: 1 job, 0 already stored, 1 to run on local with 1 worker" in text
    assert "1 job in " in text and "(local, 1 worker)" in text
    assert "1 job ended on an error" in text
    # (the progress bar's "1/1 jobs" and a rate "2.1 jobs/s" are units, not counts)
    assert not re.search(r"(?<![\d/,.])1 (jobs|workers|seeds|rows)\b", text), text
    page = html.unescape((tmp_path / "one" / "report.html").read_text())
    assert "1 (1 seed)" in page and "local, 1 worker<" in page
    res = bench("--compare", "one", "one", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert "1 row," in res.output and "1 rows" not in res.output


def test_resume_with_fewer_strategies_keeps_the_whole_run_in_its_files(tmp_path):
    out = tmp_path / "o"
    first = bench(
        "keelhold", "-s", "first-safe", "-s", "random", "--seeds", "1-4", "--workers", "1",
        "--out", str(out), "--run", "w",
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    again = bench(
        "keelhold", "-s", "first-safe", "--seeds", "1-2", "--out", str(out), "--resume",
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert "run w: 2 jobs, 2 already stored, 0 to run" in again.output
    assert "the run holds 6 more rows" in again.output
    with (out / "w" / "results.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert sorted((r["strategy"], int(r["seed"])) for r in rows) == [
        (s, seed) for s in ("first-safe", "random") for seed in range(1, 5)
    ]
    page = html.unescape((out / "w" / "report.html").read_text())
    assert "first-safe, random" in page and "4 seeds stored (8 rows; this command: 1-2)" in page
    assert "first-safe - random" in page  # the pair of the whole run
