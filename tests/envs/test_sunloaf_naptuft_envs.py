"""sunbot/Sunloaf-v1 and sunbot/Naptuft-v1: the checker, encodings, caps, both backends."""

from __future__ import annotations

import warnings

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import sunbot.envs  # noqa: E402
from sunbot.engines import naptuft, sunloaf  # noqa: E402
from sunbot.envs.naptuft import NaptuftCodec  # noqa: E402
from sunbot.envs.sunloaf import DOZE, END_RUN, REST, SunloafCodec  # noqa: E402
from tests.envs.helpers import assert_backends_agree, play, random_legal  # noqa: E402


@pytest.mark.parametrize("env_id", sorted({**sunbot.envs.ENV_IDS, **sunbot.envs.LEGACY_ENV_IDS}))
def test_gymnasium_check_env_passes_for_every_single_player_game(env_id):
    with warnings.catch_warnings():  # a v0 id says it is out of date (test_bounds checks it)
        warnings.simplefilter("ignore", DeprecationWarning)
        env = gym.make(env_id)
    check_env(env.unwrapped)
    env.close()


def test_sunloaf_reset_encodes_the_opening_room():
    env = gym.make("sunbot/Sunloaf-v1")
    obs, info = env.reset(seed=7)
    s = sunloaf.init(7)
    legal = sunloaf.legal_actions(s)
    moves = [49 * a["cat"] + a["tile"] for a in legal if a["type"] == "MOVE"]
    assert np.flatnonzero(info["action_mask"]).tolist() == [*moves, REST, DOZE, END_RUN]
    cats = obs["cats"].tolist()
    assert cats[:2] == [[1, c["tile"], 0, c["range"], 0] for c in s["cats"]]
    assert cats[2:] == [[0] * 5] * 3
    room = obs["room"].reshape(8, 49)
    assert np.flatnonzero(room[0]).tolist() == s["layout"]["furniture"]
    assert np.flatnonzero(room[1]).tolist() == [s["layout"]["hearth"]]
    assert room[2, s["cats"][1]["tile"]] == 2
    bowl = s["bowls"][0]
    assert room[4, bowl["mat"]] == bowl["serveTurn"] + 1  # turn 0
    assert obs["bowls"][0].tolist() == [1, bowl["mat"], bowl["serveTurn"]]
    warm_tiles = [t for t in range(49) if sunloaf.warm(s, t, 0)]
    assert np.flatnonzero(room[7]).tolist() == warm_tiles
    # day 1: mult 100, turnsInDay 21, quota ceil(par / 10)
    status = obs["status"].tolist()
    assert status[:7] == [0, 1, 0, 21, 3, 2, 100]
    assert status[10] == -(-s["dayPar"] // 10)
    env.close()


def test_sunloaf_actions_round_trip():
    codec = SunloafCodec()
    for i in range(codec.n_actions):
        assert codec.index(codec.action(i)) == i
    assert codec.action(2 * 49 + 30) == {"type": "MOVE", "cat": 2, "tile": 30}
    assert codec.action(END_RUN) == {"type": "END_RUN"}
    assert codec.index({"type": "MOVE", "cat": 5, "tile": 0}) is None


def test_naptuft_reset_encodes_the_published_observation():
    env = gym.make("sunbot/Naptuft-v1")
    obs, info = env.reset(seed=7)
    o = naptuft.observation(naptuft.init(7))
    assert info["action_mask"].tolist() == [1, 1, 1, 1, 0, 1]  # cares, no next-day, end-run
    assert obs["needs"].tolist() == [70, 70, 70, 70]
    assert obs["clock"].tolist() == [1, 0, 0, 0]
    codes = {"feed": 1, "play": 2, "brush": 3, "nap": 4}
    wish = [codes[c] for c in o["wish"]["actions"]]
    assert obs["wish"].tolist() == [*wish, *[0] * (4 - len(wish)), 0, 1]
    first = o["forecast"][0]
    assert obs["forecast"][0, 4:].tolist() == [
        first["pressure"][n] for n in ("food", "joy", "cleanliness", "energy")
    ]
    env.close()


def test_naptuft_actions_round_trip_and_bad_wishes_are_refused():
    codec = NaptuftCodec()
    for i in range(codec.n_actions):
        assert codec.index(codec.action(i)) == i
    o = naptuft.observation(naptuft.init(1))
    o["wish"] = {"actions": ["feed", "play", "brush", "nap", "feed"], "progress": 0}
    with pytest.raises(ValueError, match="5 cares"):
        codec.encode(o)


def test_naptuft_cap_truncates_at_day_break():
    env = gym.make("sunbot/Naptuft-v1", max_days=1)
    steps, info = play(env, 3, random_legal(0, avoid=(5,)))
    _, _, terminated, truncated = steps[-1]
    if truncated:  # survived the day: at dayBreak of day 1
        assert steps[-1][0]["clock"].tolist()[::3] == [1, 1]
    else:
        assert terminated
    assert sum(r for _, r, _, _ in steps) == info["score"]
    env.close()


@pytest.mark.parametrize(
    ("env_id", "cap", "seed", "end"),
    [
        ("sunbot/Sunloaf-v1", {"max_days": 2}, 5, END_RUN),
        ("sunbot/Naptuft-v1", {"max_days": 2}, 8, 5),
    ],
)
def test_engine_and_embedded_server_give_the_same_observations_and_rewards(env_id, cap, seed, end):
    assert_backends_agree(env_id, seed, lambda: random_legal(seed, avoid=(end,)), **cap)
