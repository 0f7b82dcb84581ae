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
from sunbot.runs.remote import play_run  # noqa: E402
from sunbot.server import TokenCodec, create_app  # noqa: E402


def first_safe(obs, mask) -> int:
    safe = np.flatnonzero(obs["bays"][0])
    return int(safe[0]) if safe.size else int(np.flatnonzero(mask)[0])


def last_but_one(obs, mask) -> int:
    """The highest legal index below the last legal one (never the end-run action)."""
    legal = np.flatnonzero(mask)
    return int(legal[-2] if legal.size > 1 else legal[0])


def env_score(env_id: str, policy, seed: int, cap: dict[str, int]) -> int:
    env = gym.make(env_id, **cap)
    obs, info = env.reset(seed=seed)
    term = trunc = False
    while not (term or trunc):
        obs, _, term, trunc, info = env.step(policy(obs, info["action_mask"]))
    env.close()
    return int(info["score"])


@pytest.mark.parametrize(
    ("game", "env_id", "policy", "cap"),
    [
        ("keelhold", "sunbot/Keelhold-v1", first_safe, {"max_voyages": 2}),
        ("sunloaf", "sunbot/Sunloaf-v1", last_but_one, {"max_days": 2}),
        ("naptuft", "sunbot/Naptuft-v1", last_but_one, {"max_days": 2}),
    ],
)
async def test_the_wrapped_policy_plays_a_run_like_the_environment(game, env_id, policy, cap):
    bot = PolicyStrategy(game, policy, random.Random(1))
    client = GameboardClient(transport=httpx.ASGITransport(app=create_app(TokenCodec())))
    async with client:
        summary = await play_run(
            client, game, 4, bot, strategy_name="policy", cap=next(iter(cap.values())),
            mirror=Mirror(game),
        )  # fmt: skip
    assert summary.error is None and summary.refused == 0
    assert summary.divergences == [] and summary.steps > 3
    assert summary.score == env_score(env_id, policy, 4, cap)


def test_an_index_outside_the_space_is_a_clear_error():
    bot = PolicyStrategy("keelhold", lambda obs, mask: 12)
    from sunbot.engines import keelhold

    s = keelhold.init(1)
    with pytest.raises(ValueError, match=r"index 12; the action space is 0\.\.8"):
        bot.choose(s, keelhold.legal_actions(s))


def test_unknown_game_lists_the_encodings():
    with pytest.raises(KeyError, match="keelhold"):
        codec_for("chess")
