"""The unseen test server: three games sunbot has no engine for, with hand-computed lines."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from sunbot.testing.unseen import create_unseen_app
from sunbot.testing.unseen.__main__ import main
from sunbot.testing.unseen.tic_tac_toe import outcome


def call(
    app: Any, method: str, url: str, body: Any = None, raw: bytes | None = None
) -> httpx.Response:
    async def go() -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://u"
        ) as c:
            if raw is not None:
                return await c.request(method, url, content=raw)
            return await c.request(method, url, json=body)

    return asyncio.run(go())


@pytest.fixture
def app() -> Any:
    return create_unseen_app()


def take(app: Any, state: Any, count: int) -> dict[str, Any]:
    got: dict[str, Any] = call(app, "POST", "/api/games/take-away/action",
                               {"state": state, "action": {"type": "take", "count": count}}).json()  # fmt: skip
    return got


# --- take-away (Nim) --------------------------------------------------------------------


def test_nim_from_a_pile_of_five_taking_one_then_the_rest_wins(app):
    opening = call(app, "GET", "/api/games/take-away/init?seed=0").json()
    assert opening["state"]["pile"] == 5 and "stateToken" not in opening
    assert opening["legalActions"] == [{"type": "take", "count": n} for n in (1, 2, 3)]
    assert opening["score"] == 0 and opening["gameOver"] is False
    assert opening["spec"]["actions"]["properties"]["count"]["maximum"] == 3
    after = take(app, opening["state"], 1)  # 4 left: the house has no winning reply
    took = after["observation"]["houseTook"]
    assert 1 <= took <= 3 and after["state"]["pile"] == 4 - took
    assert after["state"]["history"] == [1, took] and after["gameOver"] is False
    assert after["legalActions"] == [{"type": "take", "count": n} for n in range(1, 4 - took + 1)]
    end = take(app, after["state"], 4 - took)
    assert end["state"]["pile"] == 0 and end["state"]["winner"] == "you"
    assert (end["score"], end["gameOver"], end["legalActions"]) == (1, True, [])


def test_nim_from_a_pile_of_five_taking_two_loses(app):
    opening = call(app, "GET", "/api/games/take-away/init?seed=16").json()  # 5 + 16 mod 16
    end = take(app, opening["state"], 2)  # 3 left: the house takes all 3
    assert end["state"]["history"] == [2, 3] and end["observation"]["houseTook"] == 3
    assert (end["score"], end["gameOver"], end["state"]["winner"]) == (-1, True, "house")


def test_nim_from_eight_the_house_plays_to_a_multiple_of_four(app):
    opening = call(app, "GET", "/api/games/take-away/init?seed=3").json()
    assert opening["state"]["pile"] == 8
    after = take(app, opening["state"], 1)  # 7: the house takes 3, leaving 4
    assert after["state"]["pile"] == 4 and after["observation"]["houseTook"] == 3
    end = take(app, after["state"], 3)  # 1: the house takes it
    assert end["state"]["history"] == [1, 3, 3, 1] and end["score"] == -1


def test_nim_checks_the_state_it_gets_back(app):
    state = call(app, "GET", "/api/games/take-away/init?seed=0").json()["state"]
    assert state["theme"] == "pebbles"  # an unknown extra field, accepted back as it came
    after = take(app, state, 1)["state"]
    for forged in ({**state, "pile": 2}, {**after, "history": [1, 1]}, {**after, "winner": "you"},
                   {**state, "seed": "0"}, "just-an-id"):  # fmt: skip
        got = call(app, "POST", "/api/games/take-away/action",
                   {"state": forged, "action": {"type": "take", "count": 1}})  # fmt: skip
        assert got.status_code == 400 and got.json()["ok"] is False, forged


def test_nim_refuses_an_illegal_take_and_lists_the_legal_ones(app):
    state = call(app, "GET", "/api/games/take-away/init?seed=0").json()["state"]
    for action in ({"type": "take", "count": 4}, {"type": "take", "count": True},
                   {"type": "take", "count": 1, "extra": 1}, {"count": 1}):  # fmt: skip
        got = call(app, "POST", "/api/games/take-away/action", {"state": state, "action": action})
        body = got.json()
        assert got.status_code == 200 and body["ok"] is False and isinstance(body["reason"], str)
        assert body["legalActions"] == [{"type": "take", "count": n} for n in (1, 2, 3)]


# --- hidden-number -----------------------------------------------------------------------


def guess(app: Any, state: Any, value: Any) -> httpx.Response:
    return call(app, "POST", "/api/games/hidden-number/action",
                {"state": state, "action": {"type": "guess", "value": value}})  # fmt: skip


def test_hidden_number_hints_for_seed_7(app):
    opening = call(app, "GET", "/api/games/hidden-number/init?seed=7").json()
    assert isinstance(opening["state"], str) and opening["state"].startswith("hn-")
    assert "stateToken" not in opening and "number" not in opening["observation"]
    assert opening["score"] == 10 and len(opening["legalActions"]) == 100
    assert opening["spec"]["actionGrammar"]["properties"]["value"]["maximum"] == 100
    state, hints = opening["state"], []
    for value in (50, 25, 37, 31, 35):  # the number of seed 7 is 35
        body = guess(app, state, value).json()
        hints.append(body["observation"]["guesses"][-1]["hint"])
        state = body["state"]
    assert hints == ["lower", "higher", "lower", "higher", "found"]
    assert body["observation"]["low"] == 32 and body["observation"]["high"] == 36
    assert (body["score"], body["gameOver"], body["legalActions"]) == (5, True, [])
    assert body["observation"]["number"] == 35 and body["observation"]["found"] is True


def test_hidden_number_narrows_its_legal_guesses_and_refuses_others(app):
    opening = call(app, "GET", "/api/games/hidden-number/init?seed=7").json()
    after = guess(app, opening["state"], 50).json()
    assert after["legalActions"] == [{"type": "guess", "value": v} for v in range(1, 50)]
    refused = guess(app, after["state"], 50).json()
    assert refused["ok"] is False and refused["reason"] == "guess a number from 1 to 49"
    assert refused["legalActions"] == after["legalActions"]


def test_hidden_number_ids_replay_and_expire(app):
    game = app.state.games["hidden-number"]
    now = [1000.0]
    game.clock = lambda: now[0]
    opening = call(app, "GET", "/api/games/hidden-number/init?seed=7").json()
    first = guess(app, opening["state"], 50).json()
    again = guess(app, opening["state"], 50).json()  # the same request: the same position
    assert again["observation"] == first["observation"] and again["state"] != first["state"]
    now[0] += game.ttl_s + 1
    late = guess(app, first["state"], 20)
    assert late.status_code == 400 and "expired" in late.json()["reason"]
    assert guess(app, "hn-nonsense", 20).status_code == 400


def test_hidden_number_keeps_at_most_max_live_positions():
    app = create_unseen_app(max_live=3)
    ids = [
        call(app, "GET", f"/api/games/hidden-number/init?seed={s}").json()["state"]
        for s in range(4)
    ]
    assert app.state.games["hidden-number"].live == 3
    assert guess(app, ids[0], 50).status_code == 400  # the oldest was forgotten
    assert guess(app, ids[3], 50).status_code == 200


def test_hidden_number_after_ten_wrong_guesses_scores_zero(app):
    state = call(app, "GET", "/api/games/hidden-number/init?seed=7").json()["state"]
    for value in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
        body = guess(app, state, value).json()
        state = body["state"]
    assert (body["score"], body["gameOver"], body["observation"]["number"]) == (0, True, 35)


# --- tic-tac-toe -------------------------------------------------------------------------


def mark(app: Any, carry: dict[str, Any], cell: int) -> dict[str, Any]:
    got: dict[str, Any] = call(app, "POST", "/api/games/tic-tac-toe/action",
                               {**carry, "action": {"type": "mark", "cell": cell}}).json()  # fmt: skip
    return got


def test_tic_tac_toe_house_takes_the_centre_then_blocks_to_a_draw(app):
    opening = call(app, "GET", "/api/games/tic-tac-toe/init?seed=5").json()
    assert opening["state"]["board"] == "........." and opening["stateToken"].startswith("ttt1.")
    boards = []
    pos = opening
    for cell in (0, 1, 6, 5):
        pos = mark(app, {"stateToken": pos["stateToken"]}, cell)
        boards.append(pos["state"]["board"])
    assert boards[:3] == ["X...O....", "XXO.O....", "XXOOO.X.."] and boards[3][:7] == "XXOOOXX"
    assert sorted(boards[3][7:]) == [".", "O"]  # the house's seeded draw between 7 and 8
    last = boards[3].index(".")
    end = mark(app, {"state": pos["state"]}, last)  # the plain state form works too
    assert end["state"]["result"] == "draw" and (end["score"], end["gameOver"]) == (0, True)


def test_tic_tac_toe_house_wins_when_it_can(app):
    pos = call(app, "GET", "/api/games/tic-tac-toe/init?seed=1").json()
    for cell in (1, 2, 7):  # O: centre, then blocks 0, then wins on 0-4-8
        pos = mark(app, {"state": pos["state"]}, cell)
    assert pos["state"]["board"] == "OXX.O..XO" and outcome(pos["state"]["board"]) == "loss"
    assert (pos["score"], pos["gameOver"], pos["legalActions"]) == (-1, True, [])
    assert pos["observation"]["rows"] == ["OXX", ".O.", ".XO"]


def test_tic_tac_toe_token_and_state_are_checked(app):
    pos = call(app, "GET", "/api/games/tic-tac-toe/init?seed=1").json()
    token = pos["stateToken"]
    body = token.rsplit(".", 1)[0]
    for bad in ({"stateToken": body + "." + "0" * 64}, {"stateToken": "nope"},
                {"state": {**pos["state"], "board": "XX......."}},
                {"state": {**pos["state"], "result": "win"}}, {"state": "abc"}):  # fmt: skip
        got = call(app, "POST", "/api/games/tic-tac-toe/action",
                   {**bad, "action": {"type": "mark", "cell": 4}})  # fmt: skip
        assert got.status_code == 400 and got.json()["ok"] is False, bad
    refused = mark(app, {"stateToken": token}, 9)
    assert refused["ok"] is False and len(refused["legalActions"]) == 9


# --- the server as a whole ---------------------------------------------------------------


def test_index_lists_the_three_games_with_extra_fields(app):
    index = call(app, "GET", "/api/games").json()
    assert index["count"] == 3 and index["generatedBy"] == "sunbot tests"
    assert [g["slug"] for g in index["games"]] == ["hidden-number", "take-away", "tic-tac-toe"]
    row = index["games"][2]
    assert row["initUrl"] == "/api/games/tic-tac-toe/init" and row["difficulty"] == "easy"
    answer = call(app, "GET", "/api/games/take-away/init?seed=0").json()
    assert answer["server"] == {"name": "unseen", "build": 3}


@pytest.mark.parametrize(
    ("method", "url", "raw", "status"),
    [
        ("GET", "/api/games/chess/init", None, 404),
        ("GET", "/api/games/take-away/init?seed=abc", None, 400),
        ("GET", f"/api/games/take-away/init?seed={2**63}", None, 400),
        ("POST", "/api/games/take-away/action", b"{not json", 400),
        ("POST", "/api/games/take-away/action", b"[1, 2]", 400),
        ("POST", "/api/games/hidden-number/action", b'{"action": {"type": "guess"}}', 400),
        ("GET", "/api/games/take-away/spec", None, 404),
    ],
)
def test_bad_requests_answer_4xx_with_a_reason(app, method, url, raw, status):
    got = call(app, method, url, raw=raw)
    assert got.status_code == status and got.json()["ok"] is False and got.json()["reason"]


def test_every_kth_request_is_a_429_with_retry_after():
    app = create_unseen_app(rate_limit_every=3, retry_after_s=2)
    codes = [call(app, "GET", "/api/games").status_code for _ in range(7)]
    assert codes == [200, 200, 429, 200, 200, 429, 200] and app.state.throttled == 2
    limited = call(app, "GET", "/api/games")  # the 8th passes, the 9th is limited
    limited = call(app, "GET", "/api/games")
    assert limited.status_code == 429 and limited.headers["retry-after"] == "2"


def test_options_are_checked():
    with pytest.raises(ValueError, match="at least 2"):
        create_unseen_app(rate_limit_every=1)
    with pytest.raises(SystemExit):
        main(["--port", "0"])
    with pytest.raises(SystemExit):
        main(["--rate-limit-every", "1"])


def test_the_seed_salt_changes_the_draws():
    numbers = set()
    for salt in ("a", "b", "c", "d"):
        app = create_unseen_app(seed_salt=salt)
        state = call(app, "GET", "/api/games/hidden-number/init?seed=7").json()["state"]
        for value in range(1, 11):
            body = guess(app, state, value).json()
            state = body["state"]
            if body["gameOver"]:
                break
        numbers.add(body["observation"]["number"])
    assert len(numbers) > 1
