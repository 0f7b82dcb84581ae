"""check_state: what the local server accepts as a plain Keelhold state."""

from __future__ import annotations

import copy

import pytest

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_schema import check_state


def _played(seed: int, n: int):
    s = kh.init(seed)
    for _ in range(n):
        if kh.is_over(s):
            break
        a = (
            {"type": "CAST_OFF"}
            if s["phase"] == "port"
            else {"type": "PLACE", "bay": s["safeBays"][0]}
        )
        s = kh.step(s, a)
    return s


@pytest.mark.parametrize("seed", [1, 7, 99])
def test_states_from_play_pass(seed):
    for n in (0, 5, 40, 200):
        check_state(_played(seed, n))


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda s: s.__setitem__("trim", s["trim"] + 1), "trim"),
        (lambda s: s.__setitem__("safeBays", [3]), "safeBays"),
        (lambda s: s.__setitem__("listing", not s["listing"]), "listing"),
        (lambda s: s.__setitem__("score", -5), "score"),
        (lambda s: s.__setitem__("score", True), "score"),
        (lambda s: s["queue"][0].__setitem__("weight", "3"), "queue.0.weight"),
        (lambda s: s.__setitem__("arms", [0] * 7), "arms"),
        (lambda s: s.__setitem__("phase", "port"), "port"),
        (lambda s: s.pop("hold"), "hold"),
        (lambda s: s.__setitem__("extra", 1), "extra"),
        (lambda s: s["queue"].append(copy.deepcopy(s["queue"][0])), "ids"),
    ],
)
def test_tampered_states_are_refused_with_the_field_named(edit, needle):
    s = _played(7, 12)
    edit(s)
    with pytest.raises(ValueError, match=needle):
        check_state(s)


def test_non_dict_refused():
    with pytest.raises(ValueError, match="malformed"):
        check_state([1, 2, 3])


def test_terms_must_be_the_ramps_and_bounded():
    s = _played(7, 12)
    big = copy.deepcopy(s)
    big["params"]["queueSize"] = 3_000_000
    with pytest.raises(ValueError, match="queueSize"):
        check_state(big)
    off_ramp = copy.deepcopy(s)
    off_ramp["params"]["queueSize"] = 4
    with pytest.raises(ValueError, match="terms of voyage"):
        check_state(off_ramp)
    check_state(off_ramp, ramp=False)  # a foreign server's ramp is its own business
    windy = copy.deepcopy(s)
    windy["next"]["wind"] = 9
    with pytest.raises(ValueError, match=r"next\.wind"):
        check_state(windy)


def test_a_fabricated_score_is_refused_and_real_ones_pass():
    """A plain state is the client's word: the server cannot know its score, but it refuses
    one that no run holds at that voyage and turn (score_bounds), and a history that cannot
    have happened."""
    import json
    from pathlib import Path

    from sunbot.engines.keelhold_schema import score_bounds

    golden = sorted((Path(__file__).parents[2] / "transcripts").glob("golden-keelhold*.jsonl"))
    checked = 0
    for line in golden[0].read_text().splitlines():
        state = (json.loads(line).get("response") or {}).get("state")
        if state and "voyage" in state:
            check_state(state)  # every state a real run (voyages 1-6) went through
            checked += 1
    assert checked > 100
    s = _played(7, 12)
    low, high = score_bounds(s)
    # voyage 1, turn 12: nothing completed yet; at most 12 placements of the largest award
    # at M = 4: a lot of 6 crates of weight 7 at lever 10, chain 8 -> 10*42*10*8*4//32 =
    # 4200, plus 6 rush crates (6*150), even keel (50), righting (75), voyage 1 (300)
    assert (low, high) == (0, 12 * (4200 + 900 + 50 + 75 + 300))
    for score in (high + 1, 10**12):
        bad = copy.deepcopy(s)
        bad["score"] = score
        with pytest.raises(ValueError, match=f"score {score} is not one a run holds"):
            check_state(bad)
    voyage2 = _played(7, 50)  # seed 7, first safe bay: voyage 2, turn 49, score 1,125
    assert (voyage2["voyage"], voyage2["turn"], voyage2["score"]) == (2, 49, 1125)
    assert score_bounds(voyage2)[0] == 300  # voyage 1 completed: 300 x 1
    poor = copy.deepcopy(voyage2)
    poor["score"] = 299
    with pytest.raises(ValueError, match="score 299 is not one a run holds at voyage 2"):
        check_state(poor)
    for edit, needle in [
        (lambda t: t.__setitem__("turn", kh.GUARD_TURNS + 1), "guard"),
        (lambda t: t.__setitem__("voyageStartTurn", t["turn"] + 1), "voyageStartTurn"),
    ]:
        bad = copy.deepcopy(s)
        edit(bad)
        with pytest.raises(ValueError, match=needle):
            check_state(bad)
