"""This round's features from the command line, end to end on the one run path: agents in
other processes and behind a model, the move clock, bots that try to end a run, any game a
server lists, bench job timeouts, budgets and any-game benches."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.testing.llm_endpoint import create_llm_app, running
from sunbot.testing.unseen import create_unseen_app
from sunbot.transcripts.jsonl import read_transcript
from tests.conftest import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = ROOT / "examples" / "bots" / "first_legal.py"
runner = CliRunner()


def _play(*args: str) -> tuple[int, str, dict | None]:
    res = runner.invoke(app, ["play", *args])
    out = res.stdout.strip().splitlines()
    data = json.loads(out[-1]) if "--json" in args and out else None
    return res.exit_code, res.output, data


SLOW_BOT = """
import time

class Bot:
    game = "naptuft"
    def __init__(self, rng=None):
        self.n = 0
    def choose(self, observation, legal_actions):
        self.n += 1
        if self.n % 5 == 0:
            time.sleep(0.4)
        return next(a for a in legal_actions if a["type"] != "end-run")
"""

EXITING_BOT = """
class Bot:
    game = "keelhold"
    def __init__(self, rng=None):
        pass
    def choose(self, observation, legal_actions):
        raise SystemExit(0)
"""


def test_a_slow_bot_under_a_move_timeout_finishes_with_its_misses_counted(tmp_path: Path) -> None:
    bot = tmp_path / "slow.py"
    bot.write_text(SLOW_BOT)
    code, out, data = _play(
        "naptuft", "--seed", "3", "--strategy", f"{bot}:Bot", "--max-days", "1",
        "--move-timeout", "0.25", "--json", "--no-transcript",
    )  # fmt: skip
    assert code == 0, out
    assert data is not None and data["endedBy"] in ("cap", "rules") and data["error"] is None
    decisions = data["agent"]["clock"]["decisions"]
    # every fifth call misses its deadline (the next one may too, while the late call runs)
    assert decisions // 5 <= data["timeouts"] <= 2 * (decisions // 5) and data["timeouts"] >= 2


def test_a_bot_raising_systemexit_ends_its_run_as_an_error(tmp_path: Path) -> None:
    bot = tmp_path / "exits.py"
    bot.write_text(EXITING_BOT)
    path = tmp_path / "t.jsonl"
    code, out, _ = _play(
        "keelhold", "--seed", "1", "--strategy", f"{bot}:Bot", "--quiet",
        "--transcript", str(path),
    )  # fmt: skip
    assert code == 1, out
    t = read_transcript(path)
    assert t.result is not None and t.result["endedBy"] == "error"
    assert "SystemExit" in t.result["error"]
    kinds = [json.loads(line)["type"] for line in path.read_text().splitlines()]
    assert kinds.count("result") == 1 and kinds[-1] == "result"


@pytest.mark.parametrize(
    ("game", "cap"), [("keelhold", "--max-voyages"), ("naptuft", "--max-days")]
)
def test_an_exec_bot_plays_to_its_cap_with_no_divergence(game: str, cap: str) -> None:
    code, out, data = _play(
        game, "--seed", "7", "--strategy", f"exec:{sys.executable} {FIRST_LEGAL}", cap, "2",
        "--json", "--no-transcript",
    )  # fmt: skip
    assert code == 0, out
    assert data is not None and data["divergences"] == 0 and data["refused"] == 0
    assert data["endedBy"] in ("cap", "rules") and data["steps"] > 0


def test_an_exec_bot_plays_a_harvest_watch_seat(tmp_path: Path) -> None:
    path = tmp_path / "hw.jsonl"
    code, out, _ = _play(
        "harvest-watch", "--seed", "7", "--strategy", f"exec:{sys.executable} {FIRST_LEGAL}",
        "--quiet", "--transcript", str(path),
    )  # fmt: skip
    assert code == 0, out
    t = read_transcript(path)
    assert t.result is not None and t.result["endedBy"] == "rules"
    assert t.result["divergences"] == 0 and t.result["seats"][0]["commands"] > 0


def test_a_language_model_plays_naptuft_through_the_flaky_test_endpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-key-123")
    path = tmp_path / "llm.jsonl"
    with running(create_llm_app(api_key="sk-test-secret-key-123")) as url:
        code, out, data = _play(
            "naptuft", "--seed", "2", "--strategy", "llm:flaky", "--llm-url", url,
            "--max-days", "1", "--llm-price", "0.15,0.60", "--json", "--transcript", str(path),
        )  # fmt: skip
    assert code == 0, out
    assert data is not None and data["divergences"] == 0 and data["refused"] == 0
    agent = data["agent"]
    assert agent["kind"] == "llm" and agent["promptTokens"] > 0 and agent["costUsd"] > 0
    steps = read_transcript(path).steps
    chosen = [s for s in steps if "agent" in s]
    assert chosen and all(s["agent"]["attempts"] >= 1 for s in chosen)
    assert "sk-test-secret-key-123" not in path.read_text() + out


def test_the_dry_run_prints_the_first_prompt_without_a_model() -> None:
    code, out, _ = _play("sunloaf", "--seed", "4", "--strategy", "llm:nobody", "--llm-dry-run")
    assert code == 0, out
    assert "--- system ---" in out and "--- user ---" in out and "Legal actions" in out


def test_an_unknown_game_without_a_server_says_where_it_can_be_played() -> None:
    code, out, _ = _play("tic-tac-toe", "--no-transcript")
    assert code == 2
    assert "the embedded server plays keelhold" in out and "--server URL" in out


@pytest.mark.parametrize("game", ["tic-tac-toe", "hidden-number", "take-away"])
def test_any_game_a_server_lists_plays_replays_strict_and_draws_a_page(
    tmp_path: Path, game: str
) -> None:
    bot = tmp_path / "last.py"
    bot.write_text(
        "class Bot:\n    games = ('*',)\n    def __init__(self, rng=None):\n        pass\n"
        "    def choose(self, observation, legal_actions):\n        return legal_actions[-1]\n"
    )
    with LoopbackServer(create_unseen_app(rate_limit_every=7, retry_after_s=0)) as server:
        for strategy in ("random", f"{bot}:Bot"):
            path = tmp_path / f"{game}-{strategy[-3:]}.jsonl"
            code, out, data = _play(
                game, "--server", server.url, "--seed", "5", "--strategy", strategy,
                "--json", "--transcript", str(path),
            )  # fmt: skip
            assert code == 0, out
            assert data is not None and data["gameOver"] is True and data["checks"] == "generic"
            assert data["divergences"] == 0
            res = runner.invoke(app, ["replay", str(path), "--strict"])
            assert res.exit_code == 0, res.output
            assert "generic checks only" in res.output
            page = tmp_path / f"{path.stem}.html"
            res = runner.invoke(app, ["replay", str(path), "--html", str(page)])
            assert res.exit_code == 0 and page.stat().st_size > 1000, res.output


def test_bench_compares_two_agents_on_a_game_sunbot_does_not_know(tmp_path: Path) -> None:
    bot = tmp_path / "last.py"
    bot.write_text(
        "class Bot:\n    games = ('*',)\n    def __init__(self, rng=None):\n        pass\n"
        "    def choose(self, observation, legal_actions):\n        return legal_actions[-1]\n"
    )
    with LoopbackServer(create_unseen_app(rate_limit_every=7, retry_after_s=0)) as server:
        res = runner.invoke(
            app, ["bench", "take-away", "--server", server.url, "-s", "random", "-s",
                  f"{bot}:Bot", "--seeds", "1-6", "--workers", "1", "--out", str(tmp_path / "o")],
        )  # fmt: skip
    assert res.exit_code == 0, res.output
    csv = next((tmp_path / "o").glob("*/results.csv")).read_text().splitlines()
    assert len(csv) == 1 + 12 and all(",rules," in row for row in csv[1:])
    assert "random - " in res.output  # the paired comparison


HANGING_BOT = """
import time

class Bot:
    game = "naptuft"
    def __init__(self, rng=None):
        self.seed = None
    def on_start(self, game, seed):
        self.seed = seed
    def choose(self, observation, legal_actions):
        if self.seed == 2:
            time.sleep(3600)
        return next(a for a in legal_actions if a["type"] != "end-run")
"""


def test_a_bot_hanging_on_one_seed_does_not_stop_the_bench(tmp_path: Path) -> None:
    bot = tmp_path / "hangs.py"
    bot.write_text(HANGING_BOT)
    res = runner.invoke(
        app, ["bench", "naptuft", "-s", f"{bot}:Bot", "--seeds", "1-3", "--cap", "days=1",
              "--job-timeout", "3", "--workers", "1", "--out", str(tmp_path / "o")],
    )  # fmt: skip
    assert res.exit_code == 1, res.output  # finished, with the timed-out job named
    assert "1 job timed out" in " ".join(res.output.split())
    rows = next((tmp_path / "o").glob("*/results.csv")).read_text().splitlines()[1:]
    ended = sorted(row.split(",")[8] for row in rows)
    assert ended[-1] == "timeout" and set(ended[:2]) <= {"cap", "rules"}


def test_a_model_bench_stops_cleanly_at_its_budget(tmp_path: Path) -> None:
    with running(create_llm_app()) as url:
        res = runner.invoke(
            app, ["bench", "naptuft", "-s", "llm:legal", "-s", "balancer", "--seeds", "1-8",
                  "--cap", "days=1", "--llm-url", url, "--llm-price", "1,1",
                  "--budget-tokens", "20000", "--out", str(tmp_path / "o")],
        )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "budget reached" in res.output
    rows = next((tmp_path / "o").glob("*/results.csv")).read_text().splitlines()
    assert 1 + 2 <= len(rows) < 1 + 16  # some jobs stored, not all
    report = next((tmp_path / "o").glob("*/report.html")).read_text()
    assert "tokens/run" in report and "USD/run" in report


def test_a_resumed_model_bench_counts_what_its_stored_rows_spent(tmp_path: Path) -> None:
    # --resume started the budget at 0: a bench stopped at 26,095 of 20,000 tokens ran two
    # more jobs on resume (51,965 stored), and each resume spent the budget again.
    args = ["bench", "naptuft", "-s", "llm:legal", "--seeds", "1-8", "--cap", "days=1",
            "--workers", "1", "--budget-tokens", "20000", "--out", str(tmp_path / "o"),
            "--run", "b"]  # fmt: skip
    db = tmp_path / "o" / "bench.sqlite"
    with running(create_llm_app()) as url:
        first = runner.invoke(app, [*args, "--llm-url", url])
        assert first.exit_code == 0, first.output
        stored = sqlite3.connect(db).execute("SELECT COUNT(*), SUM(tokens) FROM results").fetchone()
        assert 1 <= stored[0] < 8 and stored[1] >= 20000
        again = runner.invoke(app, [*args, "--llm-url", url, "--resume"])
    assert again.exit_code == 0, again.output
    out = " ".join(again.output.split())
    assert f"budget reached ({stored[1]:,} of 20,000 tokens) by the stored rows" in out
    after = sqlite3.connect(db).execute("SELECT COUNT(*), SUM(tokens) FROM results").fetchone()
    assert after == stored
