"""The drafting loop on the scripted model endpoint: a buggy model first, a correct one
after it was shown the divergence; the drafted code runs only in the sandboxed child."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.agents.isolate_model import ModelChild
from sunbot.agents.sandbox import Limits
from sunbot.certify.draft import code_of, draft_async
from sunbot.cli.main import app
from sunbot.forward.load import ModelNotLoaded
from sunbot.testing.llm_endpoint import Ask, create_llm_app, in_process_client, running

MODEL = """
import os
os.environ["SUNBOT_DRAFT_IMPORTED"] = "1"  # would show if sunbot imported it itself


class Model:
    game = "take-away"
    stochastic = True

    def __init__(self, rng):
        self.rng = rng

    def from_observation(self, observation):
        return {"pile": observation["pile"], "start": observation["start"],
                "taken": list(observation["taken"]), "winner": observation["winner"]}

    def legal_actions(self, s):
        if s["winner"] is not None:
            return []
        return [{"type": "take", "count": n} for n in range(1, min(3, s["pile"]) + 1)]

    def step(self, s, action):
        pile = s["pile"] - action["count"]
        taken = s["taken"] + [action["count"]]
        if pile == 0:
            return {**s, "pile": 0, "taken": taken, "winner": "you"}
        took = HOUSE
        pile -= took
        return {**s, "pile": pile, "taken": taken + [took],
                "winner": "house" if pile == 0 else None}

    def observation(self, s):
        t = s["taken"]
        return {"pile": s["pile"], "start": s["start"], "taken": t,
                "houseTook": t[-1] if t and len(t) % 2 == 0 else None, "winner": s["winner"]}

    def score(self, s):
        return {"you": 1, "house": -1}.get(s["winner"], 0)

    def is_over(self, s):
        return s["winner"] is not None
"""
BUGGY = MODEL.replace("HOUSE", "1")  # the house always takes one stone
GOOD = MODEL.replace("HOUSE", "pile % 4 if pile % 4 else self.rng.randint(1, min(3, pile))")


def drafter(ask: Ask) -> str:
    shown = "diverged" in str(ask.messages[-1].get("content"))
    return "Here it is:\n```python\n" + (GOOD if shown else BUGGY) + "```\n"


def test_code_is_read_from_the_answers_python_block() -> None:
    assert (
        code_of("x\n```python\nclass A:\n    def f(self): pass\n```")
        == "class A:\n    def f(self): pass\n"
    )
    assert code_of("no code here") is None


def test_a_buggy_draft_is_corrected_from_its_divergence(unseen_url: str, tmp_path: Path) -> None:
    endpoint = create_llm_app(scripts={"drafter": drafter})
    out = tmp_path / "take_away.py"
    report = asyncio.run(
        draft_async(
            "take-away",
            "llm:drafter",
            out,
            server=unseen_url,
            seeds=[1, 2],
            client=in_process_client(endpoint),
        )
    )
    assert [r.passed for r in report.rounds] == [False, True]
    first = report.rounds[0]
    assert first.diverged > 0
    assert first.first[0].startswith(
        "seed 1, first play, step 2: observation.pile: expected 2, got 0"
    )
    assert report.passed and report.calls == 2
    asked = list(endpoint.state.requests)
    assert "observation.pile" in asked[1]["messages"][-1]["content"]  # the divergence went back
    assert 'game = "take-away"' in asked[0]["messages"][0]["content"]  # the contract
    assert '"pile"' in asked[0]["messages"][1]["content"]  # the example transitions
    text = out.read_text()
    assert text.startswith("# A forward model of take-away, drafted by sunbot engine draft")
    assert "pile % 4" in text
    cert = json.loads((tmp_path / "take_away.certificate.json").read_text())["certificates"][0]
    assert (cert["class"], cert["game"], cert["draftedBy"]) == ("Model", "take-away", "drafter")
    assert "SUNBOT_DRAFT_IMPORTED" not in os.environ  # it ran only in the child


@pytest.mark.slow
def test_the_command_drafts_with_the_endpoint(unseen_url: str, tmp_path: Path) -> None:
    endpoint = create_llm_app(scripts={"drafter": lambda ask: "```python\n" + BUGGY + "```"})
    out = tmp_path / "m.py"
    with running(endpoint) as url:
        got = CliRunner().invoke(app, [
            "engine", "draft", "take-away", "--strategy", "llm:drafter", "--out", str(out),
            "--server", unseen_url, "--seeds", "1-2", "--rounds", "2", "--llm-url", url,
            "--json",
        ])  # fmt: skip
    assert got.exit_code == 3, got.output  # still diverging after two rounds
    report = json.loads(got.output.splitlines()[-1])
    assert [r["passed"] for r in report["rounds"]] == [False, False]
    assert out.exists() and not (tmp_path / "m.certificate.json").exists()


def test_the_sandbox_refuses_the_network_and_bounds_memory(tmp_path: Path) -> None:
    net = tmp_path / "net.py"
    net.write_text("import socket\nsocket.create_connection(('127.0.0.1', 9))\n" + GOOD)
    with pytest.raises(ModelNotLoaded, match="sandbox refuses socket"):
        ModelChild(str(net), "take-away").start()
    big = tmp_path / "big.py"
    big.write_text("HOG = bytearray(3 << 30)\n" + GOOD)
    with pytest.raises(ModelNotLoaded, match="MemoryError"):
        ModelChild(str(big), "take-away", limits=Limits(memory_mb=1024)).start()


@pytest.mark.slow  # a child interpreter and a second of spinning
def test_a_model_that_never_answers_is_a_divergence_after_the_call_timeout(
    tmp_path: Path,
) -> None:
    spin = tmp_path / "spin.py"
    spin.write_text(
        GOOD.replace(
            "    def legal_actions(self, s):\n",
            "    def legal_actions(self, s):\n        while True: pass\n",
        )
    )
    child = ModelChild(str(spin), "take-away", call_timeout_s=1.0)
    checks = child.checks(1)
    found = checks.check_init({"ok": True, "state": {}, "observation": {"pile": 5, "start": 5, "taken": [], "houseTook": None, "winner": None},
                               "legalActions": [{"type": "take", "count": 1}], "score": 0, "gameOver": False, "spec": {}})  # fmt: skip
    assert found and found[-1].path == "model" and "no answer within 1 s" in str(found[-1].got)
    # the next trajectory's checks start no second child: its predictions are findings too
    again = child.checks(2).check_init({"ok": True, "state": {}, "observation": {"pile": 5, "start": 5, "taken": [], "houseTook": None, "winner": None},
                                        "legalActions": [{"type": "take", "count": 1}], "score": 0, "gameOver": False, "spec": {}})  # fmt: skip
    assert again and again[-1].path == "model" and "no answer within 1 s" in str(again[-1].got)
    child.close()


FORGER = (
    """
import sunbot.generic.model_checks as mc  # in its child: an attempt to grade itself
mc.ModelChecks.check_init = lambda self, raw: []
mc.ModelChecks.check_action = lambda self, step, before, action, answer: []
"""
    + BUGGY
)


def test_a_model_that_patches_the_checks_in_its_child_is_still_flagged(
    unseen_url: str, tmp_path: Path
) -> None:
    """The child only predicts and never sees the answer it is graded on: the buggy model
    that replaced the checks' code in its own process is flagged where it first diverges."""
    forger = tmp_path / "forger.py"
    forger.write_text(FORGER)
    got = CliRunner().invoke(app, [
        "certify", "take-away", "--engine", f"{forger}:Model", "--server", unseen_url,
        "--seeds", "1", "--isolate", "--json",
    ])  # fmt: skip
    assert got.exit_code == 3, got.output
    report = json.loads(got.output.splitlines()[-1])
    assert report["passed"] is False and report["divergences"] > 0
    assert not (tmp_path / "forger.certificate.json").exists()


def test_the_child_starts_without_secrets_and_cannot_reach_libc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child's own environment block holds no secret (not only os.environ), its limits
    are hard, and libc's functions are out of reach through ctypes' loaded libraries."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-child-must-not-see")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-child-must-not-see")
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import ctypes, resource\n"
        "env = open('/proc/self/environ', 'rb').read()\n"
        "assert b'must-not-see' not in env, 'a secret reached the child'\n"
        "try:\n"
        "    resource.setrlimit(resource.RLIMIT_AS, (-1, -1))\n"
        "except ValueError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('the memory limit was lifted')\n"
        "ctypes.pythonapi.system(b'true')\n" + GOOD
    )
    with pytest.raises(ModelNotLoaded, match=r"sandbox refuses ctypes\.dlsym"):
        ModelChild(str(probe), "take-away").start()


def test_answers_without_code_write_no_file_and_say_so(unseen_url: str, tmp_path: Path) -> None:
    endpoint = create_llm_app(scripts={"talker": lambda ask: "I would rather not write code."})
    out = tmp_path / "d_legal.py"
    with running(endpoint) as url:
        got = CliRunner().invoke(app, [
            "engine", "draft", "take-away", "--strategy", "llm:talker", "--out", str(out),
            "--server", unseen_url, "--seeds", "1", "--rounds", "2", "--llm-url", url,
        ])  # fmt: skip
    assert got.exit_code == 1, got.output
    assert not out.exists()
    assert "still diverges" not in got.output
    said = [line for line in got.stderr.splitlines() if line.startswith("error:")]
    assert said == [
        f"error: {out}: no file written: no answer held Python code (2 rounds, 2 model calls)"
    ]
