"""Every run goes through one function: sunbot play, sunbot.play, a bench job and an RL
episode all step through :meth:`sunbot.runs.loop.Run.step`, with the same strategy hooks."""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

import sunbot
from sunbot.bench.jobs import Job, run_job
from sunbot.cli.main import app
from sunbot.games import GAMES
from sunbot.runs import loop


class Probe:
    """First legal action; counts its decisions and hooks per run."""

    game = "naptuft"
    seen: ClassVar[list[tuple[str, Any]]] = []

    def __init__(self, rng: Any = None) -> None:
        pass

    def on_start(self, game: str, seed: int | None, *, cap: int | None = None) -> None:
        Probe.seen.append(("start", cap))

    def choose(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any:
        Probe.seen.append(("choose", None))
        return next(a for a in legal_actions if a.get("type") != "end-run")

    def on_end(self, observation: dict[str, Any], outcome: dict[str, Any]) -> None:
        Probe.seen.append(("end", outcome["endedBy"]))


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every call of Run.step, or of Run.step_now that stepped (Run.step's coroutine-free
    form, which Run.step itself calls first): (backend label, step index it played)."""
    calls: list[tuple[str, int]] = []
    real, real_now = loop.Run.step, loop.Run.step_now
    inside: list[bool] = []

    async def counted(self: loop.Run, action: Any, agent_record: Any = None) -> Any:
        calls.append((self.backend.label, self.summary.steps + 1))
        inside.append(True)
        try:
            return await real(self, action, agent_record)
        finally:
            inside.pop()

    def counted_now(self: loop.Run, action: Any) -> Any:  # Run.step without its coroutine
        answer = real_now(self, action)
        if answer is not None and not inside:  # called by Run.step: counted there
            calls.append((self.backend.label, self.summary.steps))
        return answer

    monkeypatch.setattr(loop.Run, "step", counted)
    monkeypatch.setattr(loop.Run, "step_now", counted_now)
    monkeypatch.setitem(GAMES["naptuft"].strategies, "probe", "tests.runs.test_one_path:Probe")
    Probe.seen.clear()
    return calls


def _decisions() -> int:
    return sum(kind == "choose" for kind, _ in Probe.seen)


def test_cli_api_bench_and_env_step_through_run_step(steps: list[tuple[str, int]]) -> None:
    res = CliRunner().invoke(
        app, ["play", "naptuft", "--seed", "3", "--strategy", "probe", "--max-days", "1",
              "--quiet", "--no-transcript"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    cli_steps = len(steps)
    assert cli_steps > 0 and {label for label, _ in steps} == {"embedded"}
    cli_decisions = _decisions()
    ended = Probe.seen[-1]
    assert Probe.seen[0] == ("start", 1) and ended[0] == "end"

    summary = sunbot.play("naptuft", seed=3, strategy="probe", max_days=1)
    assert summary.steps == cli_steps == len(steps) - cli_steps  # same run, same steps
    assert _decisions() == 2 * cli_decisions

    row = run_job(Job("naptuft", "probe", 3, cap=1))
    assert row.steps == cli_steps and row.decisions == cli_decisions
    assert [label for label, _ in steps[2 * cli_steps :]] == ["engine"] * cli_steps
    assert Probe.seen.count(ended) == 3  # on_end once per run, whoever ran it
    assert sum(kind == "end" for kind, _ in Probe.seen) == 3

    gym = pytest.importorskip("gymnasium")
    importlib.import_module("sunbot.envs")  # registers the environments

    env = gym.make("sunbot/Naptuft-v1", max_days=1)
    before = len(steps)
    _, info = env.reset(seed=3)
    env.step(int(info["action_mask"].argmax()))
    env.close()
    assert len(steps) == before + 1 and steps[-1] == ("engine", 1)
