"""``certify`` on sunbot's own server and on the other test server (another server's local
choices, its 429s and its extra fields): the example Sunloaf model passes, a broken copy of
it is flagged at its first divergence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sunbot.certify.check import certify
from sunbot.testing.otherserver import OtherOptions, create_other_app
from tests.conftest import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples/forward_models/sunloaf.py"


@pytest.fixture(scope="module")
def other() -> Iterator[str]:
    with LoopbackServer(create_other_app(OtherOptions(throttle_every=5))) as srv:
        yield srv.url


@pytest.fixture
def broken(tmp_path: Path) -> str:
    """The example model with its score one too high."""
    path = tmp_path / "broken_sunloaf.py"
    text = MODEL.read_text()
    assert "return sunloaf.score(state)\n" in text
    path.write_text(
        text.replace("return sunloaf.score(state)\n", "return sunloaf.score(state) + 1\n")
    )
    return f"{path}:Sunloaf"


@pytest.mark.parametrize("where", ["embedded", "other"])
def test_the_sunloaf_model_passes_and_a_broken_copy_is_flagged(
    where: str, other: str, broken: str
) -> None:
    server = None if where == "embedded" else other
    good = certify("sunloaf", f"{MODEL}:Sunloaf", server=server, seeds=[1], max_steps=6)
    assert good.passed, [str(f) for f in good.first[:3]]
    assert (good.trajectories, good.divergences, good.errors) == (2, 0, [])
    # every answer predicted: the two openings and every step's answer
    assert good.predictions == good.steps + 2 and good.steps > 2
    # what the server shows beyond the rules is listed, never a divergence
    assert good.unpredicted == ({"observation.rng"} if server is None else {"observation.tip"})
    bad = certify("sunloaf", broken, server=server, seeds=[1], policies=["first"], max_steps=1)
    assert not bad.passed
    first = bad.first[0]
    # the opening is the first prediction: the model's score is the served one plus one
    assert (first.seed, first.divergence.step, first.divergence.path) == (1, 0, "score")
    assert first.divergence.expected == first.divergence.got + 1


@pytest.mark.slow
@pytest.mark.parametrize("where", ["embedded", "other"])
def test_the_sunloaf_model_passes_on_twenty_seeds(where: str, other: str) -> None:
    server = None if where == "embedded" else other
    report = certify("sunloaf", f"{MODEL}:Sunloaf", server=server, seeds=range(1, 21),
                     max_steps=60)  # fmt: skip
    assert report.passed, [str(f) for f in report.first[:3]]
    assert (report.trajectories, report.divergences) == (40, 0)
