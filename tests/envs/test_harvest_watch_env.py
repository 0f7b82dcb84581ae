"""Harvest Watch as a PettingZoo ParallelEnv: the API test, the encoding, rewards by rank."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import parallel_api_test  # noqa: E402

from sunbot import strategies  # noqa: E402
from sunbot.engines import harvest_watch as hw  # noqa: E402
from sunbot.engines.harvest_watch_seats import seat_data  # noqa: E402
from sunbot.envs.harvest_watch import parallel_env  # noqa: E402
from sunbot.envs.harvest_watch_codec import (  # noqa: E402
    FARM,
    N_ACTIONS,
    command_of,
    index_of,
)
from sunbot.envs.policy import PolicyStrategy  # noqa: E402
from sunbot.observations.harvest_watch import legal_actions  # noqa: E402


@pytest.mark.parametrize(
    "options", [{}, {"seats": (1, 4), "fill": "coalition"}, {"seats": (2,), "max_days": 2}]
)
def test_pettingzoo_parallel_api_test_passes(options):
    parallel_api_test(parallel_env(**options), num_cycles=200)


def test_every_index_reads_back_on_its_beat():
    for i in range(N_ACTIONS):
        phase = "vote" if i >= 20 or i == 0 else "action"
        assert index_of(command_of(i, phase)) == i
    assert command_of(0, "action") == {"act": "guard"}
    assert command_of(0, "vote") == {"punish": None}
    assert command_of(20 + 6 * 4 + 1, "vote") == {"punish": 4, "giveTo": 1}
    assert command_of(8 + 3, "action") == {"act": "steal", "target": 3}
    with pytest.raises(ValueError, match="vote beat"):
        command_of(FARM, "vote")


def test_the_first_mask_is_every_ballot_and_the_observation_is_public():
    env = parallel_env()
    obs, infos = env.reset(seed=3)
    assert env.agents == [f"seat_{s}" for s in range(6)]
    o, mask = obs["seat_2"], infos["seat_2"]["action_mask"]
    assert infos["seat_2"]["phase"] == "vote"
    # abstain; punishing itself: 5 recipients; each of 5 others: 4 (neither it nor the voter)
    assert mask.sum() == 1 + 5 + 5 * 4 and mask[0] == 1
    assert mask[20 + 6 * 0 + 2] == 0 and mask[20 + 6 * 2 + 0] == 1
    assert o[:6].tolist() == [0, 0, 1, 0, 0, 0]
    assert o[6:12].tolist() == [1] * 6 and o[12:18].tolist() == [5.0] * 6
    assert o[18] == 1 and o[19:21].tolist() == [1, 0]


def play_fixed(act_of_seat: dict[int, int]):
    """Everyone abstains; on the action beat seat s plays act_of_seat[s] (default guard)."""
    env = parallel_env()
    _, infos = env.reset(seed=1)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        actions = {
            a: act_of_seat.get(infos[a]["seat"], 0) if infos[a]["phase"] == "action" else 0
            for a in env.agents
        }
        _, rewards, _, _, infos = env.step(actions)
        steps += 1
        for a, r in rewards.items():
            total[a] += r
    return total, steps, env.state_


def test_all_guard_is_a_six_way_draw_on_night_five():
    # 5.0 each, guard costs 1.0 a night: all out on night 5 with equal stores -> all rank 1
    total, steps, final = play_fixed({})
    assert steps == 10  # a vote and an action beat a day, five days
    assert final["result"]["ranks"] == [1] * 6
    assert total == dict.fromkeys(total, 0.0)


def test_the_farmer_outlasts_the_guards_on_the_last_night():
    # seat 0 farms: +2.0, night 3.0, so -1.0 a day like the guards, but on night 5 it holds
    # 3.0 before the cost against their 1.0: it ranks first alone and beats all five
    total, steps, final = play_fixed({0: FARM})
    assert steps == 10
    assert final["result"]["ranks"] == [1, 2, 2, 2, 2, 2]
    assert total == {"seat_0": 5.0, **{f"seat_{s}": 0.0 for s in range(1, 6)}}


def test_an_index_the_beat_refuses_takes_the_default():
    env = parallel_env(seats=(0,))
    env.reset(seed=2)
    _, _, _, _, infos = env.step({"seat_0": FARM})  # farm on the vote beat
    assert "vote beat" in infos["seat_0"]["refused"]
    assert env.state_["phase"] == "action"


def test_a_policy_plays_harvest_watch_through_the_strategy_contract():
    bot = PolicyStrategy("harvest-watch", lambda obs, mask: FARM if mask[FARM] else 0)
    state = hw.init(5, 6)
    talk = seat_data(state, 3, can_act=True, pending=None)
    assert bot.choose(talk, legal_actions(talk)) == {"speech": "\u2026"}
    for _ in range(2):
        state = hw.resolve_beat(state, {})
    vote = seat_data(state, 3, can_act=True, pending=None)
    assert bot.choose(vote, legal_actions(vote)) == {"punish": None}
    state = hw.resolve_beat(state, {})
    act = seat_data(state, 3, can_act=True, pending=None)
    assert bot.choose(act, legal_actions(act)) == {"act": "farm"}


def test_unknown_fill_and_bad_seats_are_clear_errors():
    with pytest.raises(strategies.UnknownStrategy, match="house"):
        parallel_env(fill="nobody")
    with pytest.raises(ValueError, match="distinct seats"):
        parallel_env(seats=(0, 0))
