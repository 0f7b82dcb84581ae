"""sunbot/Keelhold-v1: Gymnasium's checker, the encoding, rewards, caps, both backends."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import sunbot.envs  # noqa: E402, F401  (registers the ids)
from sunbot.engines import keelhold  # noqa: E402
from sunbot.envs.keelhold import KeelholdCodec  # noqa: E402
from tests.envs.helpers import assert_backends_agree, assert_same_runs, play  # noqa: E402


def first_safe(obs, mask) -> int:
    """Lowest safe bay while loading; CAST_OFF at port."""
    safe = np.flatnonzero(obs["bays"][0])
    if safe.size:
        return int(safe[0])
    return int(np.flatnonzero(mask)[0])


def test_reset_is_the_engines_init_for_that_seed():
    env = gym.make("sunbot/Keelhold-v1")
    obs, info = env.reset(seed=7)
    state = keelhold.init(7)
    assert info["seed"] == 7 and info["score"] == 0
    # voyage 1 opens hatches 1..5 only: PLACE 1..5 legal, no port actions
    assert info["action_mask"].tolist() == [0, 1, 1, 1, 1, 1, 0, 0, 0]
    assert env.unwrapped.action_masks().tolist() == info["action_mask"].tolist()
    q = state["queue"]
    assert obs["queue"][:3].tolist() == [[c["weight"], 2 + c["cargo"], 0] for c in q]
    assert obs["queue"][3].tolist() == [0, 0, 0]
    assert obs["hold"].sum() == -7 * 8  # every slot empty: (0, 0, -1)
    assert obs["hatches"][:, 0].tolist() == [-3, -2, -1, 0, 1, 2, 3]
    assert obs["hatches"][:, 2].tolist() == [0, 1, 1, 1, 1, 1, 0]
    assert obs["bays"][0].tolist() == [1 if b in state["safeBays"] else 0 for b in range(7)]
    # status: loading, voyage 1, 0 turns in, trim 0, level, chain 0, 0 lots, castOffSafe null
    assert obs["status"].tolist() == [0, 1, 0, 0, 0, 0, 0, -1]
    terms = obs["terms"][0].tolist()
    assert terms[:9] == [6, 6, 3, 3, 1, 3, 4, 0, 3]  # voyage 1: tolerance 6 ... queueSize 3
    env.close()


def test_the_encoding_never_reads_rng():
    state = keelhold.init(11)
    codec = KeelholdCodec()
    with_rng = codec.encode(state)
    without = codec.encode({k: v for k, v in state.items() if k != "rng"})
    moved = codec.encode({**state, "rng": [123456789, 0, 1]})
    for key in with_rng:
        assert np.array_equal(with_rng[key], without[key])
        assert np.array_equal(with_rng[key], moved[key])


UNPROMISED = ("arms", "voyage", "chain", "lotsShipped", "voyageStartTurn", "drawn", "rng")


def test_a_server_that_sends_only_the_rule_texts_fields_encodes_the_same_barge():
    state = keelhold.init(6)
    for _ in range(30):  # into voyage 2: all hatches open, a chain and lots on the books
        if state["phase"] == "port":
            state = keelhold.step(state, {"type": "CAST_OFF"})
        elif state["phase"] == "loading":
            state = keelhold.step(state, {"type": "PLACE", "bay": state["safeBays"][0]})
    assert state["voyage"] == 2
    bare = {k: v for k, v in state.items() if k not in UNPROMISED}
    bare["params"] = {k: v for k, v in state["params"].items() if k != "openBays"}
    codec = KeelholdCodec()
    full, thin = codec.encode(state), codec.encode(bare)
    for key in ("hold", "queue", "hatches", "bays"):
        assert np.array_equal(full[key], thin[key]), key
    assert thin["status"].tolist() == [
        *full["status"][:1].tolist(),
        0,
        -1,
        *full["status"][3:5].tolist(),
        0,
        0,
        full["status"][7],
    ]
    with pytest.raises(ValueError, match="missing or bad 'safeBays'"):
        codec.encode({k: v for k, v in state.items() if k != "safeBays"})


def test_a_placed_rush_crate_and_ballast_are_encoded():
    state = keelhold.init(3)
    state["turn"] = 40
    state["hold"][2] = [
        {"id": 90, "weight": 4, "cargo": None, "rushWindow": None, "due": None},
        {"id": 91, "weight": 2, "cargo": 1, "rushWindow": 8, "due": 48},
    ]
    obs = KeelholdCodec().encode(state)
    assert obs["hold"][2, :3].tolist() == [[4, 1, -1], [2, 3, 8], [0, 0, -1]]


def test_rewards_sum_to_the_engines_score_and_a_cap_truncates():
    env = gym.make("sunbot/Keelhold-v1", max_voyages=1)
    chosen = []

    def recording(obs, mask):
        chosen.append(first_safe(obs, mask))
        return chosen[-1]

    steps, info = play(env, 5, recording)
    state = keelhold.init(5)
    for a in chosen:  # the same actions on the engine
        state = keelhold.step(state, KeelholdCodec().action(a))
    assert sum(r for _, r, _, _ in steps) == state["score"] == info["score"] > 0
    _, _, terminated, truncated = steps[-1]
    if state["phase"] == "port":  # reached port on voyage 1: the cap ends it, not the rules
        assert truncated and not terminated
        assert steps[-1][0]["status"][0] == 1
    else:
        assert terminated and not truncated
    with pytest.raises(RuntimeError, match="reset"):
        env.step(7)
    env.close()


def test_a_refused_index_changes_nothing_and_pays_nothing():
    env = gym.make("sunbot/Keelhold-v1")
    obs, _ = env.reset(seed=7)
    obs2, reward, term, trunc, info2 = env.step(0)  # hatch 0 is shut on voyage 1
    assert reward == 0.0 and not term and not trunc
    assert "shut" in info2["refused"]
    for key in obs:
        assert np.array_equal(obs[key], obs2[key])
    with pytest.raises(ValueError, match=r"0\.\.8"):
        env.step(9)
    env.close()


@pytest.mark.parametrize("seed", [2, 9])
def test_engine_and_embedded_server_give_the_same_observations_and_rewards(seed):
    assert_backends_agree("sunbot/Keelhold-v1", seed, lambda: first_safe, max_voyages=2)


def test_a_bad_server_option_is_one_clear_error():
    with pytest.raises(ValueError, match="embedded"):
        gym.make("sunbot/Keelhold-v1", server="ftp://example")


def test_a_server_url_backend_plays_like_the_engine(loopback):
    # the same app served over real HTTP on loopback: the client's network path
    engine = gym.make("sunbot/Keelhold-v1", max_voyages=1)
    served = gym.make("sunbot/Keelhold-v1", max_voyages=1, server=loopback.url)
    a, _ = play(engine, 12, first_safe)
    b, info = play(served, 12, first_safe)
    assert len(a) > 5
    assert_same_runs(a, b)
    assert "divergences" not in info
    engine.close()
    served.close()
