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
