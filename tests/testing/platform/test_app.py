"""The platform test server as a whole: its index, the envelope and spec of every game,
legal actions inside the served grammar, seeds that replay, refusals, bad input (4xx,
never 500), throttling, and what each state carries beyond its observation."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest

from sunbot.testing.platform import SALT, create_platform_app
from sunbot.testing.platform.__main__ import main
from tests.testing.platform.helpers import (
    CHANCE,
    HIDDEN,
    OPPONENT,
    PUZZLES,
    SLUGS,
    carry,
    game,
    http,
    step,
)

PAGES = ["checkers", "crate-push", "dice-dash", "dots-and-boxes", "maze-runner",
         "memory-match", "pipe-connect", "pixel-puzzle", "sliding-puzzle", "solitaire",
         "sudoku", "tile-merge", "word-guess", "word-search"]  # fmt: skip


def walk(slug: str, seed: int, steps: int, rng: random.Random) -> list[dict[str, Any]]:
    """The answers of a random walk of ``steps`` legal actions (shorter if the game ends)."""
    answers = [game(slug).init(seed)]
    while len(answers) <= steps and not answers[-1]["gameOver"]:
        answers.append(step(slug, answers[-1], rng.choice(answers[-1]["legalActions"])))
    return answers


def test_the_index_lists_the_fourteen_games_as_the_platform_does():
    body = http("GET", "/api/games").json()
    assert body["count"] == 14 and [g["slug"] for g in body["games"]] == PAGES == SLUGS
    for row in body["games"]:
        assert set(row) == {"slug", "name", "genre", "description", "goal", "initUrl",
                            "actionUrl", "docsUrl"}  # fmt: skip
        assert row["initUrl"] == f"http://p/api/games/{row['slug']}/init"
        assert row["actionUrl"] == f"http://p/api/games/{row['slug']}/action"
        docs = http("GET", row["docsUrl"].removeprefix("http://p")).json()
        assert docs["spec"]["goal"] == row["goal"]
    assert {"service", "description", "howToPlay", "docs"} <= set(body)
    assert sorted(HIDDEN + CHANCE + OPPONENT + PUZZLES) == SLUGS and len(PUZZLES) == 7


@pytest.mark.parametrize("slug", SLUGS)
def test_init_answers_the_envelope_and_a_self_documenting_spec(slug):
    got = http("GET", f"/api/games/{slug}/init?seed=7")
    body = got.json()
    carried = "stateToken" if slug == "word-guess" else "state"
    assert got.status_code == 200 and list(body) == [
        carried, "observation", "legalActions", "spec", "score", "gameOver"]  # fmt: skip
    spec = body["spec"]
    assert {"goal", "scoring", "rules", "actionGrammar"} <= set(spec)
    assert isinstance(spec["rules"], list) and all(isinstance(r, str) for r in spec["rules"])
    jsonschema.Draft202012Validator.check_schema(spec["actionGrammar"])
    branches = spec["actionGrammar"].get("oneOf", [spec["actionGrammar"]])
    assert all(b["properties"]["type"]["const"] and "type" in b["required"] for b in branches)
    # the pages that say which way is better: all but checkers
    assert spec.get("scoreOrder") == (
        None if slug == "checkers" else
        "descending" if slug in ("dots-and-boxes", "solitaire", "tile-merge", "word-guess",
                                 "word-search", "dice-dash") else "ascending"
    )  # fmt: skip
    assert body["gameOver"] is False and isinstance(body["score"], int)
    assert body["legalActions"] or slug == "word-guess"  # its menu is empty on purpose
    after = http("POST", f"/api/games/{slug}/action",
                 {**carry(body), "action": body["legalActions"][0]} if body["legalActions"]
                 else {**carry(body), "action": {"type": "guess", "word": "crane"}}).json()  # fmt: skip
    assert list(after) == [carried, "observation", "legalActions", "score", "gameOver"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_served_legal_action_validates_against_the_served_grammar(slug):
    grammar = jsonschema.Draft202012Validator(game(slug).spec["actionGrammar"])
    rng = random.Random(slug)
    seen = 0
    for seed in (1, 2):
        for answer in walk(slug, seed, 60, rng):
            for action in answer["legalActions"]:
                grammar.validate(action)
                seen += 1
    assert seen > 0


@pytest.mark.parametrize("slug", SLUGS)
def test_a_seed_replays_identically_and_another_salt_draws_otherwise(slug):
    one = walk(slug, 11, 25, random.Random(3))
    two = walk(slug, 11, 25, random.Random(3))
    assert json.dumps(one) == json.dumps(two)  # tokens too: word-guess's are deterministic
    other = create_platform_app(seed_salt="another", checkers_depth=2).state.games[slug]
    differs = json.dumps(other.init(11)["observation"]) != json.dumps(one[0]["observation"])
    assert differs == (slug not in ("checkers", "crate-push", "pixel-puzzle", "memory-match",
                                    "dots-and-boxes", "word-guess"))  # fmt: skip


def test_seeds_that_change_nothing_are_the_pages_own():
    for slug in SLUGS:
        a, b = game(slug).init(1), game(slug).init(2)
        same = json.dumps(a["observation"]) == json.dumps(b["observation"])
        # memory-match and word-guess hide what the seed changes; dots-and-boxes shows its
        # seed, which changes G-Bot's picks, not the empty board
        assert same == (slug in ("checkers", "crate-push", "pixel-puzzle", "memory-match",
                                 "word-guess")), slug  # fmt: skip
        assert game(slug).seeded == (slug not in ("checkers", "crate-push", "pixel-puzzle"))


@pytest.mark.parametrize("slug", SLUGS)
def test_a_refusal_teaches_lists_the_legal_actions_and_changes_nothing(slug):
    opening = http("GET", f"/api/games/{slug}/init?seed=5").json()
    grammar = game(slug).spec["actionGrammar"]
    widest = max(grammar.get("oneOf", [grammar]), key=lambda b: len(b["required"]))
    garbled = {k: "x" for k in widest["required"]} | {"type": widest["properties"]["type"][
        "const"]}  # fmt: skip
    for action in ({"type": "fly"}, garbled):
        got = http("POST", f"/api/games/{slug}/action", {**carry(opening), "action": action})
        body = got.json()
        assert got.status_code == 200 and body["ok"] is False, body
        assert set(body) == {"ok", "reason", "legalActions"}
        assert 10 < len(body["reason"]) < 400 and body["legalActions"] == opening["legalActions"]
    assert "its actions are" in http("POST", f"/api/games/{slug}/action", {
        **carry(opening), "action": {"type": "fly"}}).json()["reason"]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "url", "raw", "status"),
    [
        ("GET", "/api/games/chess/init", None, 404),
        ("GET", "/api/games/sudoku/init?seed=abc", None, 400),
        ("GET", f"/api/games/sudoku/init?seed={2**63}", None, 400),
        ("POST", "/api/games/sudoku/action", b"{not json", 400),
        ("POST", "/api/games/sudoku/action", b"[1, 2]", 400),
        ("POST", "/api/games/sudoku/action", b'{"state": {}}', 400),
        ("POST", "/api/games/sudoku/action", b'{"action": {"type": "erase"}}', 400),
        ("POST", "/api/games/sudoku/action", b'{"state": 3, "action": {"type": "erase"}}', 400),
        ("POST", "/api/games/word-guess/action", b'{"state": {}, "action": {"type": "x"}}', 400),
        ("POST", "/api/games/word-guess/action", b'{"stateToken": "wg1.AAAA", "action": {}}', 400),
        ("POST", "/api/games/sudoku/action", b"[" * 100_000, 400),
        ("POST", "/api/games/sudoku/action", b" " * 300_000, 413),
        ("GET", "/docs/api/chess", None, 404),
    ],
)
def test_bad_requests_answer_4xx_with_a_reason(method, url, raw, status):
    got = http(method, url, raw=raw)
    assert got.status_code == status and got.json()["ok"] is False and got.json()["reason"]


@pytest.mark.parametrize("slug", SLUGS)
def test_a_state_that_is_not_the_games_is_a_4xx_never_a_500(slug):
    opening = http("GET", f"/api/games/{slug}/init?seed=3").json()
    action = opening["legalActions"][0] if opening["legalActions"] else {
        "type": "guess", "word": "crane"}  # fmt: skip
    rng = random.Random(slug)
    if "state" in opening:
        forged: list[Any] = [None, "id", [opening["state"]], {}, {**opening["state"], **{
            k: "x" for k in opening["state"]}}]  # fmt: skip
        for _ in range(40):  # one field swapped for a stranger value
            key = rng.choice(sorted(opening["state"]))
            value = rng.choice([-1, 10**12, "Z", [], {}, [[None]], True, 2.5, [1] * 500])
            forged.append({**opening["state"], key: value})
        body = {"action": action}
        codes = []
        for state in forged:
            got = http("POST", f"/api/games/{slug}/action", {**body, "state": state})
            codes.append(got.status_code)
            assert got.status_code == 400 or got.json().get("ok") is not False, (state, got.text)
        assert codes.count(400) >= len(forged) - 3  # a few swaps can leave a valid state
    else:
        for token in ("", "wg1.", opening["stateToken"][:-4] + "AAAA", opening["stateToken"] + "A"):
            got = http("POST", f"/api/games/{slug}/action", {"stateToken": token,
                                                            "action": action})  # fmt: skip
            assert got.status_code == 400, token


def test_states_carry_what_the_observation_shows_and_hidden_games_more():
    """The peek guard's ground truth: in a fully observable game every field of the state
    is shown in the observation (by content: names may differ); a hidden or chance game's
    state carries what its observation does not show."""

    def subtrees(value: Any) -> set[str]:
        out = {json.dumps(value, sort_keys=True)}
        children = value.values() if isinstance(value, dict) else value if isinstance(
            value, list) else []  # fmt: skip
        for child in children:
            out |= subtrees(child)
        return out

    for slug in SLUGS:
        for answer in walk(slug, 9, 12, random.Random(9)):
            if "state" not in answer:
                continue
            shown = subtrees(answer["observation"])
            unseen = {k for k, v in answer["state"].items()
                      if json.dumps(v, sort_keys=True) not in shown}  # fmt: skip
            if slug in HIDDEN + CHANCE:
                assert unseen, slug
            else:
                assert unseen == set(), (slug, unseen)
    # the names differ where the content is the same
    mm = walk("memory-match", 2, 6, random.Random(2))[-1]
    assert mm["state"]["moves"] == mm["observation"]["movesUsed"] and "moves" not in mm[
        "observation"]  # fmt: skip
    sp = walk("sliding-puzzle", 2, 6, random.Random(2))[-1]
    assert sp["state"]["moves"] == sp["observation"]["slides"] == 6


def test_every_kth_request_is_a_429_with_retry_after():
    app = create_platform_app(rate_limit_every=3, retry_after_s=2)
    got = [http("GET", "/api/games/sudoku/init?seed=1", app=app) for _ in range(6)]
    assert [g.status_code for g in got] == [200, 200, 429, 200, 200, 429]
    assert got[2].headers["retry-after"] == "2" and got[2].json()["ok"] is False
    assert app.state.throttled == 2 and app.state.requests == 6
    assert http("GET", "/docs/api/sudoku", app=app).status_code == 200  # not under /api/


def test_options_are_checked():
    for bad in ({"rate_limit_every": 1}, {"checkers_depth": 0}, {"checkers_depth": 9},
                {"key": b"short"}):  # fmt: skip
        with pytest.raises(ValueError):
            create_platform_app(**bad)
    for argv in (["--port", "0"], ["--rate-limit-every", "1"], ["--checkers-depth", "12"],
                 ["--retry-after", "-1"]):  # fmt: skip
        with pytest.raises(SystemExit):
            main(argv)
    assert SALT == "platform-1"


def test_without_a_seed_init_draws_one():
    a = http("GET", "/api/games/sliding-puzzle/init").json()
    assert a["gameOver"] is False and len(a["legalActions"]) >= 2
