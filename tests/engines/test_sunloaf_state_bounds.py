"""A plain Sunloaf state's lists are bounded before their items are judged: an attacker's
1 MB list of cats had held the server's one event loop for seconds (the same on the action
route's direct path and through FastAPI)."""

from __future__ import annotations

import pytest

from sunbot.engines import sunloaf


@pytest.mark.parametrize(
    ("path", "room"),
    [(("cats",), 5), (("bowls",), 64), (("dogs",), 4), (("layout", "furniture"), 49),
     (("layout", "cloudTurns"), 64), (("layout", "dogLoops"), 4)],
)  # fmt: skip
def test_a_list_longer_than_the_rules_allow_is_refused_at_once(path, room) -> None:
    state = sunloaf.init(1)
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = [0] * 500_000
    with pytest.raises(ValueError, match=rf"{path[-1]}: List should have at most {room} items"):
        sunloaf.check_state(state)


def test_honest_states_pass() -> None:
    sunloaf.check_state(sunloaf.init(1))
