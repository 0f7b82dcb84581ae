"""Tournament schedules (balanced, seeded, deterministic) and play_table on the engine:
hand-worked Harvest Watch outcomes, refused commands, failing strategies, the hooks, and a
small tournament end to end."""

from __future__ import annotations

import json
import random
import time
from collections import Counter

import pytest

from sunbot.bench.ratings import rate_matches
from sunbot.bench.tournament import (
    MAX_MATCHES,
    MatchResult,
    SeedDraw,
    TableDraw,
    TableError,
    play_draw,
    play_table,
    schedule_matches,
    schedule_seeds,
)
from sunbot.strategies import UnknownStrategy, names

ENTRANTS = ["adaptive", "random", "guard"]


# --- schedule_matches -------------------------------------------------------------------


def test_schedule_follows_the_documented_rule_for_three_entrants():
    draws = schedule_matches(ENTRANTS, 3, seed=7)
    for m, d in enumerate(draws):
        # three entrants: two seats each; ties and seats from the (seed, match) RNG
        rng = random.Random(f"sunbot-tournament/7/{m}")
        order = rng.sample(ENTRANTS, 3)
        lineup = [n for n in order for _ in range(2)]
        rng.shuffle(lineup)
        assert d == TableDraw(match_index=m, seed=7 + m, lineup=tuple(lineup))
        assert Counter(d.lineup) == {"adaptive": 2, "random": 2, "guard": 2}


def test_schedule_is_deterministic_and_a_prefix_of_a_longer_one():
    a = schedule_matches(ENTRANTS, 20, seed=3)
    assert a == schedule_matches(ENTRANTS, 20, seed=3)
    assert schedule_matches(ENTRANTS, 8, seed=3) == a[:8]  # resume/extend keeps the draws
    assert [d.lineup for d in schedule_matches(ENTRANTS, 20, seed=4)] != [d.lineup for d in a]
    assert schedule_matches(ENTRANTS, 0, seed=3) == []


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 13])
def test_seats_stay_balanced(n):
    entrants = [f"s{i}" for i in range(n)]
    totals = Counter[str]()
    for d in schedule_matches(entrants, 40, seed=11):
        assert len(d.lineup) == 6 and set(d.lineup) <= set(entrants)
        per = Counter(d.lineup)
        if n <= 6:  # everyone sits, 6 // n or one more seats
            assert set(per) == set(entrants)
            assert set(per.values()) <= {6 // n, 6 // n + 1}
        else:  # six different entrants
            assert len(per) == 6
        totals.update(d.lineup)
        got = [totals[e] for e in entrants]
        assert max(got) - min(got) <= 1, (n, d.match_index, got)
    assert sum(totals.values()) == 240


def test_hand_counted_totals():
    # 4 entrants: 1 seat each + 2 extra a match -> after 2 matches 12 seats, 3 each
    four = schedule_matches(["a", "b", "c", "d"], 2, seed=1)
    assert Counter(n for d in four for n in d.lineup) == dict.fromkeys("abcd", 3)
    # 7 entrants over 7 matches: 42 seats, 6 each, each sits out exactly one match
    seven = schedule_matches(list("abcdefg"), 7, seed=5)
    assert Counter(n for d in seven for n in d.lineup) == dict.fromkeys("abcdefg", 6)
    out = [(set("abcdefg") - set(d.lineup)).pop() for d in seven]
    assert sorted(out) == list("abcdefg")


def test_every_entrant_sits_in_every_seat_over_a_long_schedule():
    seats = {e: set() for e in ENTRANTS}
    for d in schedule_matches(ENTRANTS, 30, seed=1):
        for s, name in enumerate(d.lineup):
            seats[name].add(s)
    assert seats == {e: set(range(6)) for e in ENTRANTS}


@pytest.mark.parametrize(
    ("entrants", "matches", "seed", "message"),
    [
        (["adaptive"], 3, 1, "at least two entrants"),
        (["a", "b", "a"], 3, 1, "more than once: a"),
        (["a", ""], 3, 1, "non-empty"),
        (["a", "b,c"], 3, 1, "cannot hold ','"),
        (["a", "b"], -1, 1, "from 0 to"),
        (["a", "b"], MAX_MATCHES + 1, 1, "from 0 to"),
        (["a", "b"], True, 1, "whole number"),
        (["a", "b"], 3, 2**63 - 2, "last match's seed"),
        (["a", "b"], 3, "1", "seed must be an integer"),
    ],
)
def test_schedule_refuses_bad_input_in_one_line(entrants, matches, seed, message):
    with pytest.raises(ValueError, match=message) as info:
        schedule_matches(entrants, matches, seed)
    assert "\n" not in str(info.value)


def test_schedule_seeds_puts_everyone_on_the_same_seeds_seed_by_seed():
    got = schedule_seeds(["planner", "random"], [5, 1, 9])
    assert got == [
        SeedDraw("planner", 5), SeedDraw("random", 5), SeedDraw("planner", 1),
        SeedDraw("random", 1), SeedDraw("planner", 9), SeedDraw("random", 9),
    ]  # fmt: skip
    with pytest.raises(ValueError, match="more than once"):
        schedule_seeds(["a", "b"], [1, 2, 1])
    with pytest.raises(ValueError, match="at least one seed"):
        schedule_seeds(["a", "b"], [])
    with pytest.raises(ValueError, match="at least two entrants"):
        schedule_seeds(["a"], [1])


# --- play_table -------------------------------------------------------------------------


def test_six_guards_all_draw():
    # every seat guards every night: 5.0 less 1.0 a night, all out on night 5 with the
    # same store before the cost (1.0): a six-way draw, rank 1 each
    assert play_table(["guard"] * 6, 1) == [1] * 6


@pytest.mark.parametrize("seat", [0, 3, 5])
def test_a_farmer_among_guards_wins_on_the_larger_store(seat):
    # farm +2.0, night cost 3.0: also -1.0 a day and out on night 5, but its store before
    # that night's cost is 1.0 + 2.0 = 3.0 against the guards' 1.0: sole rank 1
    lineup = ["guard"] * 6
    lineup[seat] = "farmer"
    want = [2] * 6
    want[seat] = 1
    assert play_table(lineup, 4) == want


def test_play_draw_keeps_the_draw_and_adds_the_ranks():
    draw = TableDraw(match_index=3, seed=1, lineup=("guard",) * 6)
    assert play_draw(draw) == MatchResult(3, 1, ("guard",) * 6, (1,) * 6)


def test_play_table_is_deterministic_with_house_bots_and_random_seats():
    lineup = ["random", "house", "adaptive", "house", "random", "guard"]
    first = play_table(lineup, 12)
    assert play_table(lineup, 12) == first
    assert sorted(first)[0] == 1 and all(1 <= r <= 6 for r in first)


def _bot_file(tmp_path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(body)
    return f"{path}:Bot"


HOOKS = """
import json
LOG = {log!r}

def note(*item):
    with open(LOG, "a") as fh:
        fh.write(json.dumps(item) + "\\n")

class Bot:
    game = "harvest-watch"

    def __init__(self, rng):
        self.n = 0

    def on_start(self, game, seed, cap=None):
        note("start", game, seed, cap)

    def choose(self, data, legal):
        self.n += 1
        if {boom} and self.n == 3:
            raise KeyError("no such thing")
        return {{"act": "fly"}} if data["phase"] == "action" else legal[0]

    def on_end(self, observation, outcome):
        note("end", outcome["score"], outcome["endedBy"], outcome["error"])

    def close(self):
        note("close")
"""


def _log(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_refused_commands_are_answered_as_on_a_server_and_hooks_are_called(tmp_path):
    log = tmp_path / "log.jsonl"
    bot = _bot_file(tmp_path, HOOKS.format(log=str(log), boom=False))
    # the bot's "fly" is refused every night; the seat loop answers a refusal as it does on
    # a server, with the beat's first legal command (farm): a farmer among five guards
    # outlasts them (tests/envs: the farmer outlasts the guards on the last night)
    assert play_table([bot, "guard", "guard", "guard", "guard", "guard"], 2) == [1, 2, 2, 2, 2, 2]
    assert _log(log) == [["start", "harvest-watch", 2, None], ["end", 5, "rules", None], ["close"]]


def test_a_strategy_that_raises_ends_the_match_naming_its_seat(tmp_path):
    log = tmp_path / "log.jsonl"
    bot = _bot_file(tmp_path, HOOKS.format(log=str(log), boom=True))
    with pytest.raises(TableError) as info:
        play_table(["guard", "guard", bot, "guard", "guard", "guard"], 2)
    message = str(info.value)
    assert message == f"seat 2 ({bot}): KeyError: 'no such thing'"
    events = _log(log)
    assert events[0] == ["start", "harvest-watch", 2, None]
    # on_end tells the bot its own error; the table's error names the seat too
    assert events[1:] == [["end", 0, "error", "KeyError: 'no such thing'"], ["close"]]


def test_a_failing_constructor_or_a_long_message_is_one_bounded_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(
        "class Bot:\n"
        "    def __init__(self, rng):\n"
        "        raise RuntimeError('line one\\nline two ' + 'x' * 5000)\n"
        "    def choose(self, data, legal):\n"
        "        return legal[0]\n"
    )
    with pytest.raises(TableError) as info:
        play_table(["guard", f"{path}:Bot", "guard", "guard", "guard", "guard"], 1)
    message = str(info.value)
    built = f"{path}:Bot could not be built: RuntimeError: line one line two xxx"
    assert message.startswith(f"seat 1 ({path}:Bot): BotNotBuilt: {built}")
    assert "\n" not in message and len(message) < 500 and "more characters" in message


def test_play_table_refuses_a_bad_lineup():
    with pytest.raises(ValueError, match="6 strategy names"):
        play_table(["guard"] * 5, 1)
    with pytest.raises(UnknownStrategy, match="unknown strategy 'nobody'"):
        play_table(["guard"] * 5 + ["nobody"], 1)


def test_match_result_checks_its_shape():
    MatchResult(0, 1, ("a", "b"), (1, 1))
    for lineup, ranks in [(("a",), (1,)), (("a", "b"), (1,)), (("a", "b"), (0, 1)),
                          (("a", "b"), (1, 3)), (("a", ""), (1, 2))]:  # fmt: skip
        with pytest.raises(ValueError):
            MatchResult(0, 1, lineup, ranks)


# --- end to end -------------------------------------------------------------------------


def _tournament(matches: int, seed: int = 1) -> tuple[list[MatchResult], float]:
    assert set(ENTRANTS) <= set(names("harvest-watch"))
    started = time.perf_counter()
    results = [play_draw(d) for d in schedule_matches(ENTRANTS, matches, seed)]
    return results, time.perf_counter() - started


def test_six_matches_rate_adaptive_above_random():
    results, _ = _tournament(6)
    assert [r.match_index for r in results] == list(range(6))
    assert all(sorted(Counter(r.lineup).values()) == [2, 2, 2] for r in results)
    by = {r.strategy: r for r in rate_matches(results)}
    assert by["adaptive"].mu > by["random"].mu
    assert all(r.matches == 6 for r in by.values())


# slow: the default plays its line play in this lineup (two seats of ours in the format
# are not a majority bloc), ~10-20 s; the six-match test keeps adaptive above random in the
# default run
@pytest.mark.slow
def test_thirty_matches_order_adaptive_guard_random():
    results, _ = _tournament(30)
    ratings = rate_matches(results)
    assert [r.strategy for r in ratings] == ["adaptive", "guard", "random"]
    # separated by more than two of its sigmas, not a coin toss (three before the default
    # stopped pairing on sight with a seat speaking its format in a bloc of two of six,
    # as its second seat here is: a stranger using its words robbed it that way)
    assert ratings[0].mu - 2 * ratings[0].sigma > ratings[1].mu
