"""``--isolate`` (sunbot.agents.isolate): a strategy name or bot file played in a child
process, as it plays in-process; a child that dies or tries to end the run is the bot's
error; late replies are dropped by id; close ends the child."""

from __future__ import annotations

import asyncio
import textwrap
import time
from pathlib import Path

import pytest

import sunbot
from sunbot.agents.clock import BotError, BotEscape, Decider
from sunbot.agents.isolate import IsolatedStrategy
from sunbot.agents.spec import create_agent
from sunbot.strategies import UnknownStrategy


def gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"


def bot_file(tmp_path: Path, choose_body: str, extra: str = "") -> str:
    path = tmp_path / "isolated_bot.py"
    path.write_text(
        "import os, signal, sys, time\n\n"
        "class Bot:\n"
        "    def __init__(self, rng):\n"
        "        self.n = 0\n"
        + textwrap.indent(textwrap.dedent(extra), "    ")
        + "\n    def choose(self, observation, legal):\n"
        "        self.n += 1\n" + textwrap.indent(textwrap.dedent(choose_body), "        ")
    )
    return f"{path}:Bot"


def legal(k: int) -> list[dict[str, int]]:
    return [{"k": k}]


def test_an_isolated_strategy_plays_as_it_plays_in_process():
    bot = IsolatedStrategy("safe-greedy", "keelhold", 4)
    summary = sunbot.play("keelhold", seed=4, strategy=bot, max_voyages=2)
    pid = bot.pid
    bot.close()
    ref = sunbot.play("keelhold", seed=4, strategy="safe-greedy", max_voyages=2)
    assert summary.error is None and summary.divergences == []
    assert (summary.score, summary.steps, summary.ended_by) == (ref.score, ref.steps, ref.ended_by)
    assert bot.totals()["decisions"] > 0 and pid is not None and gone(pid)


@pytest.mark.parametrize(
    ("body", "error", "expected"),
    [
        ("if self.n == 2:\n    os._exit(3)\nreturn legal[0]", BotEscape,
         "the bot called os._exit(3) at decision 2"),
        ("raise SystemExit(4)", BotEscape, "the bot raised SystemExit(4) at decision 1"),
        ("os.kill(os.getpid(), signal.SIGKILL)", BotError,
         "isolated bot {spec}: was killed by signal 9 (SIGKILL) at decision 1"),
        ("raise ValueError('no idea')", BotError,
         "isolated bot {spec} raised ValueError: no idea at decision 1"),
    ],
    ids=["os-exit", "system-exit", "killed", "raises"],
)  # fmt: skip
def test_a_child_that_fails_is_the_bots_error(tmp_path, body, error, expected):
    spec = bot_file(tmp_path, body)
    bot = IsolatedStrategy(spec, "keelhold", 1)
    try:
        with pytest.raises(error) as caught:
            for k in (1, 2, 3):
                assert bot.choose({}, legal(k)) == {"k": k}
    finally:
        bot.close()
    assert type(caught.value) is error and str(caught.value) == expected.format(spec=spec)
    if "raised ValueError" in expected:  # the child lives on; the traceback is kept for -v
        assert (
            "ValueError: no idea" in caught.value.detail
            and "isolated_bot.py" in caught.value.detail
        )
    assert gone(bot.pid)


async def test_a_late_reply_is_dropped_by_its_id(tmp_path):
    spec = bot_file(tmp_path, "if self.n == 1:\n    time.sleep(0.6)\nreturn legal[0]")
    bot = IsolatedStrategy(spec, "keelhold", 1)
    bot.on_start("keelhold", 1)
    d = Decider(bot, move_timeout_s=0.2, isolate=True)
    first = await d.decide({}, legal(1), fallback=lambda: "fallback")
    await asyncio.sleep(0.6)
    second = await d.decide({}, legal(2), fallback=lambda: "fallback")
    assert (first.action, second.action) == ("fallback", {"k": 2}) and first.timed_out
    assert bot.totals()["late"] == 1 and d.counters()["timeouts"] == 1
    d.close()
    assert gone(bot.pid)


def test_on_start_reaches_the_child_with_cap_and_spec(tmp_path):
    extra = """
    def on_start(self, game, seed, *, cap=None, spec=None):
        self.start = [game, seed, cap, spec]
    def totals(self):
        return {"kind": "mine", "n": self.n}
    """
    spec = bot_file(tmp_path, "return self.start", extra)
    bot = IsolatedStrategy(spec, "keelhold", 7)
    bot.on_start("keelhold", 7, cap=2, spec={"goal": "load the barge"})
    assert bot.choose({}, legal(1)) == ["keelhold", 7, 2, {"goal": "load the barge"}]
    assert bot.totals()["bot"] == {"kind": "mine", "n": 1}
    bot.close()


def test_a_bot_file_that_does_not_load_fails_at_start_in_the_child(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("import os\nos._exit(9)  # would end the parent if imported there\n")
    bot = IsolatedStrategy(f"{path}:Bot", "keelhold", 1)  # not imported here
    with pytest.raises(BotError, match=r"exited with code 9 while starting$"):
        bot.on_start("keelhold", 1)
    bot.close()
    path.write_text("raise RuntimeError('bad import')\n")
    bot = IsolatedStrategy(f"{path}:Bot", "keelhold", 1)
    with pytest.raises(BotError, match=r"could not be built: UnknownStrategy: .*did not load"):
        bot.choose({}, legal(1))
    bot.close()


def test_unknown_names_and_missing_files_are_refused_before_any_child_starts(tmp_path):
    with pytest.raises(UnknownStrategy, match="unknown strategy 'nope' for keelhold"):
        IsolatedStrategy("nope", "keelhold", 1)
    with pytest.raises(UnknownStrategy, match="no bot file"):
        IsolatedStrategy(f"{tmp_path}/missing.py:Bot", "keelhold", 1)


def test_close_ends_a_child_stuck_in_choose(tmp_path):
    spec = bot_file(tmp_path, "time.sleep(60)")
    bot = IsolatedStrategy(spec, "keelhold", 1)
    d = Decider(bot, move_timeout_s=0.2)
    assert asyncio.run(d.decide({}, legal(1), fallback=lambda: 0)).timed_out
    t0 = time.monotonic()
    d.close()
    assert time.monotonic() - t0 < 4 and gone(bot.pid)


def test_isolate_needs_a_strategy_that_can_be_rebuilt_in_a_child():
    class Mine:
        def choose(self, observation, legal):
            return legal[0]

    with pytest.raises(ValueError, match="Mine is an object and cannot be rebuilt there"):
        Decider(Mine(), isolate=True)


def test_a_name_or_bot_file_is_built_in_process_or_isolated():
    from sunbot.strategies.keelhold import SafeGreedy

    assert isinstance(create_agent("keelhold", "safe-greedy", rng=None), SafeGreedy)
    isolated = create_agent("keelhold", "safe-greedy", rng=None, isolate=True, seed=9)
    assert isinstance(isolated, IsolatedStrategy) and isolated.seed == 9 and isolated.pid is None
    assert Decider(isolated, isolate=True).strategy is isolated


def test_the_childs_last_decision_is_passed_on_within_bounds(tmp_path):
    extra = """
    def last_decision(self):
        return {"n": self.n} if self.n == 1 else {"notes": "x" * 10_000}
    """
    bot = IsolatedStrategy(bot_file(tmp_path, "return legal[0]", extra), "keelhold", 1)
    bot.choose({}, legal(1))
    first = bot.last_decision()
    bot.choose({}, legal(2))
    second = bot.last_decision()
    bot.close()
    assert first["n"] == 1 and first["ms"] >= 0
    assert second["lastDecision"] == "left out: over 4096 characters or no object"
    assert "notes" not in second


def test_the_child_starts_without_our_secrets_in_its_environment_block(tmp_path, monkeypatch):
    """Not only os.environ: /proc/self/environ, what the process started with, holds no
    model key either (popping it in the child left it there)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-bot-must-not-see-it")
    body = "return [{'k': int(b'must-not-see' in open('/proc/self/environ', 'rb').read())}]"
    bot = IsolatedStrategy(bot_file(tmp_path, body), "keelhold", 1)
    try:
        assert bot.choose({}, legal(1)) == [{"k": 0}]
    finally:
        bot.close()
    assert __import__("os").environ["OPENAI_API_KEY"] == "sk-the-bot-must-not-see-it"


def test_an_isolated_bot_file_writes_only_in_its_private_folder(tmp_path, monkeypatch):
    """The file guard: a bot cannot plant a certificate beside a model in the working folder
    nor read sunbot's state folder (the certificate key); its temporary folder works, and
    goes with the child."""
    state = tmp_path / "state"
    state.mkdir()
    (state / "certificate.key").write_text("00" * 32 + "\n")
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(state))
    monkeypatch.chdir(tmp_path)
    body = f"""
    import tempfile
    said = []
    for what in (lambda: open("model.certificate.json", "w"),
                 lambda: open({str(state / "certificate.key")!r}, "rb"),
                 lambda: os.listdir({str(state)!r})):
        try:
            what()
            said.append("let through")
        except PermissionError as exc:
            said.append(str(exc).split(" ")[3])
    with open(os.path.join(tempfile.gettempdir(), "notes.txt"), "w") as fh:
        fh.write("mine")
    return [{{"said": said, "tmp": tempfile.gettempdir()}}]
    """
    bot = IsolatedStrategy(bot_file(tmp_path, body), "keelhold", 1)
    try:
        (answer,) = bot.choose({}, legal(1))
    finally:
        bot.close()
    assert answer["said"] == ["open", "open", "os.listdir"]
    assert not (tmp_path / "model.certificate.json").exists()
    assert answer["tmp"].startswith(str(Path(__import__("tempfile").gettempdir()).resolve()))
    assert not Path(answer["tmp"]).exists()  # removed when the child ended
