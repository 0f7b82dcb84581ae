"""Every observation space has finite bounds from the rules (v1), every observation of many
seeds lies in it, our engine never needs the clipping but where it is documented, and
docs/rl.md carries the bounds as ``python -m sunbot.envs.tables`` prints them."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import sunbot.envs  # noqa: E402
from sunbot import strategies  # noqa: E402
from sunbot.engines import keelhold as kh  # noqa: E402
from sunbot.engines import naptuft as nt  # noqa: E402
from sunbot.engines import sunloaf as sl  # noqa: E402
from sunbot.engines.keelhold_gen import CONDITIONS, params_for, wind_limit  # noqa: E402
from sunbot.envs import keelhold as kenv  # noqa: E402
from sunbot.envs import tables  # noqa: E402
from sunbot.envs.harvest_watch import parallel_env  # noqa: E402
from sunbot.envs.harvest_watch_codec import DAY_MAX, FOOD_MAX, HarvestWatchCodec  # noqa: E402
from sunbot.envs.legacy import KeelholdCodecV0, NaptuftCodecV0, SunloafCodecV0  # noqa: E402
from sunbot.envs.naptuft import NaptuftCodec  # noqa: E402
from sunbot.envs.sunloaf import RAW_DAY_MAX, SunloafCodec  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("env_id", sorted(sunbot.envs.ENV_IDS))
def test_every_box_is_finite_with_room_and_no_stand_in_for_infinity(env_id):
    space = gym.make(env_id).observation_space
    for key, sub in space.spaces.items():
        if isinstance(sub, gym.spaces.MultiBinary):
            continue
        assert isinstance(sub, gym.spaces.Box) and sub.dtype == np.int32, key
        assert (sub.low < sub.high).all(), key
        # the largest bound is Sunloaf's raw ceiling of a day; v0 had 2**30
        assert sub.low.min() >= -400 and sub.high.max() <= RAW_DAY_MAX, key


def test_the_bounds_are_the_hand_computed_ones():
    # 4 + 5 + ... + 199 = 19,894 placements reach port of voyage 196; voyage 197's quota of
    # 200 would need 20,094 > the 20,000-placement guard
    assert sum(3 + v for v in range(1, 197)) == 19_894 and kh.GUARD_TURNS < 19_894 + 200
    assert kenv.VOYAGE_MAX == 197
    assert kenv.TRIM_MAX == 8 + (1 + 2 + 4) * 6 * 7 == 302
    assert kenv.VOYAGE_TURNS_MAX == 7 * 6 + 6 * 200
    # a day's raw ceiling: day 10, 5 cats, 21 turns (tiers 1..5 then 6 with pile 6), 4 bowls
    per_turn = [(10 * p * 10) // 4 for p in (1, 2, 3, 5, 7)] + [250] * 16
    assert RAW_DAY_MAX == 5 * sum(per_turn) + 4 * 240 == 23_210
    # Harvest Watch: (30.0 + 4 × 3.0) pays 42 days of two seats at 0.5; + 6 farms of 2.5
    assert DAY_MAX == 43 and FOOD_MAX == 57.0


def test_the_heaviest_list_our_rules_allow_is_the_trim_bound_and_is_not_clipped():
    s = kh.init(1)
    s["arms"] = list(kh.LONG_BOOM_ARMS)
    s["params"] = {**s["params"], "wind": 8, "conditions": ["longBoom"]}
    for b in (4, 5, 6):  # arms 1, 2, 4: six crates of weight 7 each
        s["hold"][b] = [{"id": b * 10 + i, "weight": 7, "cargo": None, "rushWindow": None,
                         "due": None} for i in range(6)]  # fmt: skip
    s["trim"] = kh.compute_trim(s)
    assert s["trim"] == 302
    v1, v0 = kenv.KeelholdCodec().encode(s), KeelholdCodecV0().encode(s)
    assert v1["status"][3] == v0["status"][3] == 302
    assert kenv.KeelholdCodec().observation_space().contains(v1)
    s["trim"] = -s["trim"]
    assert kenv.KeelholdCodec().encode(s)["status"][3] == -302


def test_every_voyage_of_the_ramp_fits_the_terms_bounds():
    codec, space = KeelholdCodecV0(), kenv.KeelholdCodec().observation_space()
    low, high = space["terms"].low, space["terms"].high
    base = kh.init(2)
    for voyage in range(1, kenv.VOYAGE_MAX + 2):
        sets = [[]]
        if voyage >= 21:
            sets += [[c] for c in CONDITIONS] + [[a, b] for a in CONDITIONS for b in CONDITIONS]
        w = wind_limit(voyage)
        for conditions in sets:
            for wind in {-w, w}:
                p = params_for(voyage, conditions, wind)
                terms = codec.encode({**base, "params": p, "next": p})["terms"]
                assert ((low <= terms) & (terms <= high)).all(), (voyage, conditions, wind)


def keelhold_walk(rng: random.Random):
    """Mostly safe bays (runs last voyages), sometimes any legal one; CAST_OFF at port."""

    def policy(obs, mask) -> int:
        legal = np.flatnonzero(mask).tolist()
        if obs["status"][0] == 1:
            return kenv.CAST_OFF if rng.random() < 0.95 else kenv.END_RUN
        safe = np.flatnonzero(obs["bays"][0]).tolist()
        return rng.choice(safe if safe and rng.random() < 0.9 else legal)

    return policy


def random_legal(rng: random.Random, avoid: int):
    def policy(obs, mask) -> int:
        legal = [i for i in np.flatnonzero(mask).tolist() if i != avoid]
        return rng.choice(legal or np.flatnonzero(mask).tolist())

    return policy


def assert_every_observation_is_in_the_space(env_id, seed, policy, limit, **options):
    env = gym.make(env_id, **options)
    space = env.observation_space
    obs, info = env.reset(seed=seed)
    assert space.contains(obs)
    for _ in range(limit):
        obs, _, term, trunc, info = env.step(policy(obs, info["action_mask"]))
        assert space.contains(obs), {k: v for k, v in obs.items() if not space[k].contains(v)}
        if term or trunc:
            break
    env.close()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), walk=st.integers(0, 2**32))
def test_keelhold_observations_stay_in_the_space(seed, walk):
    policy = keelhold_walk(random.Random(walk))
    assert_every_observation_is_in_the_space("sunbot/Keelhold-v1", seed, policy, 600)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), walk=st.integers(0, 2**32))
def test_sunloaf_observations_stay_in_the_space(seed, walk):
    policy = random_legal(random.Random(walk), avoid=248)
    assert_every_observation_is_in_the_space("sunbot/Sunloaf-v1", seed, policy, 300, max_days=3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), walk=st.integers(0, 2**32))
def test_naptuft_observations_stay_in_the_space(seed, walk):
    policy = random_legal(random.Random(walk), avoid=5)
    assert_every_observation_is_in_the_space("sunbot/Naptuft-v1", seed, policy, 400, max_days=12)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), walk=st.integers(0, 2**32), fill=st.booleans())
def test_harvest_watch_observations_stay_in_the_space_and_the_match_in_its_bounds(seed, walk, fill):
    rng = random.Random(walk)
    env = parallel_env(seats=(0, 2, 3, 5) if fill else tuple(range(6)))
    space = env.observation_space("seat_0")
    obs, infos = env.reset(seed=seed)
    for _ in range(200):
        assert all(space.contains(o) for o in obs.values())
        st_ = env.state_
        assert max(st_["food"]) <= FOOD_MAX * 10 and st_["day"] <= DAY_MAX
        if not env.agents:
            break
        actions = {a: rng.choice(np.flatnonzero(infos[a]["action_mask"]).tolist())
                   for a in env.agents}  # fmt: skip
        obs, _, _, _, infos = env.step(actions)
    assert not env.agents  # every match ends inside the loop


def test_our_keelhold_never_needs_the_clipping():
    # safe-greedy runs reach the voyage conditions (from 21): every key, every term
    v1, v0 = kenv.KeelholdCodec(), KeelholdCodecV0()
    deepest = 0
    for seed in (3, 8):
        bot, s = strategies.create("keelhold", "safe-greedy", random.Random(seed)), kh.init(seed)
        for _ in range(3000):
            o = kh.observation(s)
            assert same(v1.encode(o), v0.encode(o))
            if kh.is_over(s):
                break
            s = kh.step(s, bot.choose(o, kh.legal_actions(s)))
        deepest = max(deepest, s["voyage"])
    assert deepest >= 21


def test_sunloaf_clips_only_the_day_and_only_past_day_33():
    v1, v0 = SunloafCodec(), SunloafCodecV0()
    s = sl.init(4)
    while s["day"] <= 36:
        o = sl.observation(s)
        a, b = v1.encode(o), v0.encode(o)
        assert b["status"][1] == s["day"] and a["status"][1] == min(s["day"], 33)
        b["status"][1] = a["status"][1]
        assert same(a, b)  # nothing else clipped: the dayCosyRaw/dayPar/... bounds hold
        s = sl.step(s, sl.reference_action(s))
    assert s["day"] == 37


def lowest_need(o) -> dict:
    """Care for the lowest need that is not the last care (a run that never ends)."""
    if o["phase"] == "dayBreak":
        return {"type": "next-day"}
    names = [n for n in sorted(o["needs"], key=o["needs"].get) if n != o.get("lastCare")]
    care = {"food": "feed", "joy": "play", "cleanliness": "brush", "energy": "nap"}[names[0]]
    if o["lastCare"] == care:
        care = {"food": "feed", "joy": "play", "cleanliness": "brush", "energy": "nap"}[names[1]]
    return {"type": "care", "care": care}


def test_naptuft_clips_only_the_day_past_7_and_the_streak_past_2():
    v1, v0 = NaptuftCodec(), NaptuftCodecV0()
    s, most_streak = nt.init(9), 0
    for _ in range(12 * 13 + 12):
        o = nt.observation(s)
        a, b = v1.encode(o), v0.encode(o)
        assert a["clock"][0] == min(o["day"], 7) and a["status"][0] == min(o["wishStreak"], 2)
        b["clock"][0], b["status"][0] = a["clock"][0], a["status"][0]
        assert same(a, b)
        most_streak = max(most_streak, o["wishStreak"])
        s = nt.step(s, lowest_need(o))
    assert s["day"] == 13 and not nt.is_over(s)
    assert most_streak >= 1


def test_another_servers_larger_terms_are_clipped_into_the_space():
    s = kh.observation(kh.init(5))
    s["voyage"], s["turn"], s["voyageStartTurn"] = 500, 30_000, 0
    s["params"] = {**s["params"], "tolerance": 1000, "quota": 503, "jamEvery": 20}
    s["queue"][0] = {**s["queue"][0], "weight": 12}
    v1, v0 = kenv.KeelholdCodec().encode(s), KeelholdCodecV0().encode(s)
    assert v0["status"][1:3].tolist() == [500, 30_000] and v0["queue"][0, 0] == 12
    assert v1["status"][1:3].tolist() == [197, 1242] and v1["queue"][0, 0] == 7
    assert v1["terms"][0, [0, 6, 9]].tolist() == [400, 201, 9]
    assert kenv.KeelholdCodec().observation_space().contains(v1)
    o = nt.observation(nt.init(1))
    o["day"], o["wishStreak"] = 40, 9
    o["forecast"][0]["pressure"]["food"] = 7
    a, b = NaptuftCodec().encode(o), NaptuftCodecV0().encode(o)
    assert (a["clock"][0], a["status"][0], a["forecast"][0, 4]) == (7, 2, 4)
    assert (b["clock"][0], b["status"][0], b["forecast"][0, 4]) == (40, 9, 7)
    data = {"summary": {"you": 1, "day": 80, "foods": [99.5, 3.0]}, "phase": "vote"}
    v = HarvestWatchCodec().encode(data)
    assert (v[12], v[13], v[18]) == (57.0, 3.0, 43.0)


@pytest.mark.parametrize("env_id", sorted(sunbot.envs.LEGACY_ENV_IDS))
def test_the_v0_ids_keep_the_old_unbounded_spaces_and_say_they_are_out_of_date(env_id):
    with pytest.warns(DeprecationWarning, match="out of date"):
        old = gym.make(env_id)
    new = gym.make(env_id.replace("-v0", "-v1"))
    big = [s for s in old.observation_space.spaces.values() if isinstance(s, gym.spaces.Box)]
    assert max(int(s.high.max()) for s in big) == 2**30
    assert old.observation_space != new.observation_space
    a, _ = old.reset(seed=3)
    b, _ = new.reset(seed=3)
    assert same(a, b)  # an opening clips nothing: the same numbers
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert gym.spec(env_id).entry_point == sunbot.envs.LEGACY_ENV_IDS[env_id]
    old.close()
    new.close()


def test_versioned_ids():
    assert sunbot.envs.versioned("sunbot/Keelhold-v0", 1) == "sunbot/Keelhold-v1"
    assert sunbot.envs.versioned("sunbot/Keelhold-v12", 3) == "sunbot/Keelhold-v3"
    assert sunbot.envs.versioned("sunbot/Keelhold", 1) == "sunbot/Keelhold-v1"


@pytest.mark.parametrize("game", tables.games())
def test_docs_carry_the_bounds_tables_as_generated(game):
    text = DOCS.read_text(encoding="utf-8")
    assert f"<!-- bounds: {game} -->\n{tables.table(game)}\n" in text, (
        f"docs/rl.md is out of date for {game}: paste `python -m sunbot.envs.tables`"
    )


def test_a_table_names_every_key_and_each_range_is_its_entries_own():
    rows = tables.rows(kenv.KeelholdCodec().observation_space(), tables.KEELHOLD)
    by_name = {(key, name): (lo, hi) for key, name, lo, hi, _ in rows}
    assert by_name[("status", "voyage")] == ("0", "197")
    assert by_name[("hatches", "arm")] == ("-4", "4")
    assert by_name[("terms", "wind")] == ("-8", "8")
    with pytest.raises(ValueError, match="documented keys"):
        tables.rows(kenv.KeelholdCodec().observation_space(), {"hold": tables.KEELHOLD["hold"]})


@pytest.mark.slow
def test_a_thousand_seeds_of_every_single_player_game_stay_in_their_spaces():
    for seed in range(1000):
        rng = random.Random(seed)
        assert_every_observation_is_in_the_space(
            "sunbot/Keelhold-v1", seed, keelhold_walk(rng), 2000
        )
        assert_every_observation_is_in_the_space(
            "sunbot/Naptuft-v1", seed, random_legal(rng, avoid=5), 2000, max_days=20
        )
        assert_every_observation_is_in_the_space(
            "sunbot/Sunloaf-v1", seed, random_legal(rng, avoid=248), 500, max_days=5
        )
