"""A policy wrapped as a strategy plays through the runner and bench like any strategy."""

from __future__ import annotations

import random

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import httpx  # noqa: E402

import sunbot.envs  # noqa: E402, F401
from sunbot.client import GameboardClient  # noqa: E402
from sunbot.envs.policy import PolicyStrategy, codec_for  # noqa: E402
from sunbot.mirror import Mirror  # noqa: E402
from sunbot.runner import play_run  # noqa: E402
from sunbot.server import TokenCodec, create_app  # noqa: E402


def first_safe(obs, mask) -> int:
    safe = np.flatnonzero(obs["bays"][0])
    return int(safe[0]) if safe.size else int(np.flatnonzero(mask)[0])


def env_score(seed: int, cap: int) -> int:
    env = gym.make("sunbot/Keelhold-v0", max_voyages=cap)
    obs, info = env.reset(seed=seed)
    term = trunc = False
    while not (term or trunc):
        obs, _, term, trunc, info = env.step(first_safe(obs, info["action_mask"]))
    env.close()
    return int(info["score"])


async def test_the_wrapped_policy_plays_a_run_like_the_environment():
    bot = PolicyStrategy("keelhold", first_safe, random.Random(1))
    client = GameboardClient(transport=httpx.ASGITransport(app=create_app(TokenCodec())))
    async with client:
        summary = await play_run(
            client, "keelhold", 4, bot, strategy_name="policy", cap=2, mirror=Mirror("keelhold")
        )
    assert summary.error is None and summary.refused == 0
    assert summary.divergences == []
    assert summary.score == env_score(4, 2) > 0


def test_an_index_outside_the_space_is_a_clear_error():
    bot = PolicyStrategy("keelhold", lambda obs, mask: 12)
    from sunbot.engines import keelhold

    s = keelhold.init(1)
    with pytest.raises(ValueError, match=r"index 12; the action space is 0\.\.8"):
        bot.choose(s, keelhold.legal_actions(s))


def test_unknown_game_lists_the_encodings():
    with pytest.raises(KeyError, match="keelhold"):
        codec_for("chess")
