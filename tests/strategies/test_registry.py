"""Strategy registry, plug-ins and the Keelhold strategies' guarantees."""

from __future__ import annotations

import random
from dataclasses import replace
from importlib.metadata import EntryPoint

import pytest

from sunbot import strategies
from sunbot.engines import keelhold as kh
from sunbot.games import GAMES


class PluginBot:
    game = "keelhold"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, observation, legal_actions):
        return legal_actions[-1]


def test_builtin_names_and_default():
    assert strategies.names("keelhold")[:4] == ["planner", "safe-greedy", "first-safe", "random"]
    assert strategies.default_name("keelhold") == "planner"


def test_the_default_is_the_games_tables_first_strategy(monkeypatch):
    defaults = {slug: g.default_strategy for slug, g in GAMES.items()}
    assert defaults == {
        "keelhold": "planner", "sunloaf": "planner", "naptuft": "balancer",
        "harvest-watch": "adaptive",
    }  # fmt: skip
    assert all(strategies.default_name(slug) == name for slug, name in defaults.items())
    # the table decides: another first entry is another default
    reordered = {"random": "sunbot.strategies.baselines:RandomLegal", **GAMES["naptuft"].strategies}
    monkeypatch.setitem(GAMES, "naptuft", replace(GAMES["naptuft"], strategies=reordered))
    assert strategies.default_name("naptuft") == "random"
    assert strategies.names("naptuft")[:2] == ["random", "balancer"]
    # a game sunbot does not know (any game a server lists) gets the generic strategies
    assert strategies.default_name("chess") == "random"
    assert strategies.names("chess") == ["random", "first"]


def test_unknown_strategy_lists_valid_names():
    with pytest.raises(strategies.UnknownStrategy) as err:
        strategies.create("keelhold", "nope", random.Random(1))
    assert "safe-greedy" in str(err.value) and "first-safe" in str(err.value)


@pytest.fixture(autouse=True)
def _fresh_plugins():
    """Plug-ins are loaded once per process: start and end each test with none loaded."""
    strategies._loaded_plugins.cache_clear()
    strategies._warn_shadowed.cache_clear()
    yield
    strategies._loaded_plugins.cache_clear()
    strategies._warn_shadowed.cache_clear()


def test_entry_point_plugins_are_found(monkeypatch):
    ep = EntryPoint(
        name="my-bot", value="tests.strategies.test_registry:PluginBot", group="sunbot.strategies"
    )
    broken = EntryPoint(name="broken", value="no.such.module:X", group="sunbot.strategies")
    monkeypatch.setattr(
        strategies,
        "entry_points",
        lambda group: [ep, broken] if group == "sunbot.strategies" else [],
    )
    assert "my-bot" in strategies.names("keelhold")
    assert "my-bot" not in strategies.names("sunloaf")
    bot = strategies.create("keelhold", "my-bot", random.Random(0))
    assert isinstance(bot, PluginBot) and isinstance(bot, strategies.Strategy)
    # another game: the same clear message as a bot file gets, from create and check alike
    for call in (strategies.create, lambda g, n, _: strategies.check(g, n)):
        with pytest.raises(
            strategies.UnknownStrategy, match=r"^my-bot plays keelhold, not naptuft$"
        ):
            call("naptuft", "my-bot", random.Random(0))
    with pytest.raises(
        strategies.UnknownStrategy, match=r"^first-safe plays keelhold, not sunloaf$"
    ):
        strategies.create("sunloaf", "first-safe", random.Random(0))
    with pytest.raises(strategies.UnknownStrategy, match=r"^unknown strategy 'nope' for naptuft"):
        strategies.check("naptuft", "nope")


def test_a_broken_plugin_warns_once_and_a_shadowing_one_is_refused_loudly(monkeypatch, caplog):
    shadow = EntryPoint(
        name="safe-greedy",
        value="tests.strategies.test_registry:PluginBot",
        group="sunbot.strategies",
    )
    broken = EntryPoint(name="broken", value="no.such.module:X", group="sunbot.strategies")
    monkeypatch.setattr(strategies, "entry_points", lambda group: [shadow, broken])
    for _ in range(3):
        names = strategies.names("keelhold")
        bot = strategies.create("keelhold", "safe-greedy", random.Random(0))
    assert names.count("safe-greedy") == 1 and not isinstance(bot, PluginBot)
    messages = [r.getMessage() for r in caplog.records]
    assert sum("'broken' (no.such.module:X) did not load" in m for m in messages) == 1
    (warned,) = [m for m in messages if "has the name of a built-in" in m]
    assert (
        "'safe-greedy' (tests.strategies.test_registry:PluginBot)" in warned and "rename" in warned
    )


@pytest.mark.parametrize(
    ("name", "seeds"),
    [
        ("planner", range(1, 4)),  # its decisions cost ~100x a baseline's
        pytest.param("planner", range(4, 9), marks=pytest.mark.slow),
        ("safe-greedy", range(1, 9)),
        ("first-safe", range(1, 9)),
    ],
)
def test_never_places_outside_safe_bays_while_one_exists(name, seeds):
    for seed in seeds:
        bot = strategies.create("keelhold", name, random.Random(seed))
        s = kh.init(seed)
        while not kh.is_over(s) and s["turn"] < 400:
            a = bot.choose(kh.observation(s), kh.legal_actions(s))
            if s["phase"] == "loading":
                assert a["type"] == "PLACE" and a["bay"] in s["safeBays"]
            else:
                assert a == ({"type": "CAST_OFF"} if s["castOffSafe"] else {"type": "END_RUN"})
            s = kh.step(s, a)


def test_first_safe_is_lowest_safe_bay():
    s = kh.init(5)
    bot = strategies.create("keelhold", "first-safe", random.Random(0))
    assert bot.choose(s, kh.legal_actions(s)) == {"type": "PLACE", "bay": s["safeBays"][0]}


def test_random_is_seeded():
    s = kh.init(5)
    picks = [
        strategies.create("keelhold", "random", random.Random(3)).choose(s, kh.legal_actions(s))
        for _ in range(3)
    ]
    assert picks[0] == picks[1] == picks[2]
