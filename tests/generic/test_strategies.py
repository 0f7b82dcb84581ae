"""The strategies of any game: any JSON action, seeded, bounded."""

from __future__ import annotations

import random

import pytest

from sunbot.strategies.generic import ANY_GAME, GENERIC_STRATEGIES, First, RandomLegal

ODD = [{"type": "a", "deep": {"x": [1, {"y": None}]}}, {"type": "b"}, {"type": "c", "n": 1.5}]


def test_first_returns_the_first_legal_action_as_it_is():
    bot = First()
    assert bot.choose({}, ODD) is ODD[0]
    assert bot.choose({"value": "X.O"}, ODD[1:]) is ODD[1]
    assert bot.totals() == {"kind": "first", "decisions": 2}


def test_random_is_seeded_and_returns_a_legal_action_unchanged():
    picks = [RandomLegal(random.Random(5)).choose({}, ODD) for _ in range(3)]
    expected = random.Random(5).choice(ODD)
    assert picks == [expected] * 3 and any(p is a for p in ODD for a in picks)
    bot = RandomLegal(random.Random(1))
    seen = {bot.choose({}, ODD)["type"] for _ in range(60)}
    assert seen == {"a", "b", "c"} and bot.totals() == {"kind": "random", "decisions": 60}


@pytest.mark.parametrize("bot", [First(), RandomLegal(random.Random(0))])
def test_no_legal_action_is_a_clear_error(bot):
    with pytest.raises(ValueError, match="no legal action"):
        bot.choose({}, [])


def test_both_declare_any_game_and_are_listed():
    assert First.games == RandomLegal.games == (ANY_GAME,) == ("*",)
    assert list(GENERIC_STRATEGIES) == ["random", "first", "search"]
    for name, ref in GENERIC_STRATEGIES.items():
        module, _, attr = ref.partition(":")
        factory = getattr(__import__(module, fromlist=[attr]), attr)
        assert factory.games == ("*",)
        assert factory in (First, RandomLegal) or name == "search"
