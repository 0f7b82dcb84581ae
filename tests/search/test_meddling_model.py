"""A forward model that edits what it is handed (the observation, the served legal
actions, the actions it steps) changes nothing the run sends, records or checks."""

from __future__ import annotations

import json
import random
from pathlib import Path

import sunbot
from sunbot.forward.predict import View, after, rebuild
from sunbot.strategies.search import Search
from tests.forward.conftest import MODELS, unseen_url  # noqa: F401 (a fixture)
from tests.forward.models import MeddlingTakeAway

OBS = {"pile": 7, "start": 7, "taken": [], "houseTook": None, "winner": None}
LEGAL = [{"type": "take", "count": n} for n in (1, 2, 3)]


def test_the_model_check_hands_the_model_copies() -> None:
    model = MeddlingTakeAway(random.Random(0))
    obs, legal, action = json.loads(json.dumps([OBS, LEGAL, {"type": "take", "count": 3}]))
    view = View(obs, legal, 0.0, False)
    rebuild(model, view)
    got = after(model, random.Random(0), view, action, "k")
    assert got.observation["pile"] == 4 - got.observation["houseTook"] or got.game_over
    assert (obs, legal, action) == (OBS, LEGAL, {"type": "take", "count": 3})


def test_search_returns_a_copy_of_the_served_action_and_leaves_the_answer_alone() -> None:
    s = Search(random.Random(0), model=MeddlingTakeAway)
    s.on_start("take-away", 1, spec=None)
    obs, legal = json.loads(json.dumps([OBS, LEGAL]))
    chosen = s.choose(obs, legal)
    assert (obs, legal) == (OBS, LEGAL)  # nothing the model did reached the answer
    assert chosen in LEGAL and all(chosen is not a for a in legal)


def test_a_run_records_what_it_sent_and_what_it_was_served(
    unseen_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.jsonl"
    summary = sunbot.play(
        "take-away", seed=3, strategy="search", server=unseen_url,
        engine=f"{MODELS}:MeddlingTakeAway", transcript=path,
    )  # fmt: skip
    text = path.read_text()
    assert "evil" not in text and "injected" not in text and "\\u001b" not in text
    lines = [json.loads(line) for line in text.splitlines()]
    legal = lines[1]["response"]["legalActions"]
    steps = [r for r in lines if r["type"] == "step"]
    assert steps and summary.steps == len(steps)
    for step in steps:  # every recorded action is one the answer before it listed
        assert step["action"] in legal
        legal = step["response"].get("legalActions", [])
    assert summary.unknown_fields == [] and summary.divergences == []
