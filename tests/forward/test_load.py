"""Loading a forward model: file specs, checks of the contract and the game, the file's hash
and its certificate."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from sunbot.forward import certificate
from sunbot.forward.load import ModelNotLoaded, load_model

MODEL = """
class Counter:
    game = "count-up"
    def __init__(self, rng):
        self.rng = rng
    def from_observation(self, observation):
        return observation["n"]
    def legal_actions(self, n):
        return [] if n >= 3 else [{"type": "add"}]
    def step(self, n, action):
        return n + 1
    def observation(self, n):
        return {"n": n}
    def score(self, n):
        return n
    def is_over(self, n):
        return n >= 3
"""


def test_a_file_with_one_model_class_loads_with_its_hash(tmp_path: Path) -> None:
    path = tmp_path / "counter.py"
    path.write_text(MODEL)
    loaded = load_model(str(path), "count-up")
    model = loaded.build(random.Random(1))
    assert model.step(model.from_observation({"n": 1}), {"type": "add"}) == 2
    ident = loaded.identity
    assert ident.name == "Counter"
    assert ident.sha256 == hashlib.sha256(MODEL.encode()).hexdigest()
    assert ident.to_json()["certified"] is None
    assert load_model(f"{path}:Counter", "count-up").identity.sha256 == ident.sha256


def test_an_edited_file_is_loaded_again(tmp_path: Path) -> None:
    path = tmp_path / "counter.py"
    path.write_text(MODEL)
    first = load_model(str(path), "count-up")
    path.write_text(MODEL.replace("return n + 1", "return n + 2"))
    second = load_model(str(path), "count-up")
    assert first.identity.sha256 != second.identity.sha256
    assert second.build(random.Random(0)).step(0, {}) == 2


@pytest.mark.parametrize(
    ("source", "spec", "game", "message"),
    [
        (MODEL, "{path}", "tic-tac-toe", "models count-up, not tic-tac-toe"),
        (MODEL.replace("def is_over", "def ended"), "{path}:Counter", "count-up", "no is_over"),
        (MODEL, "{path}:Nope", "count-up", "has no 'Nope'"),
        ("raise RuntimeError('boom')", "{path}", "count-up", "did not load: RuntimeError: boom"),
        (MODEL + MODEL.replace("Counter", "Other"), "{path}", "count-up", "Counter, Other"),
    ],
)
def test_a_model_that_cannot_be_used_is_one_line(
    tmp_path: Path, source: str, spec: str, game: str, message: str
) -> None:
    path = tmp_path / "m.py"
    path.write_text(source)
    with pytest.raises(ModelNotLoaded, match=message):
        load_model(spec.format(path=path), game)


def test_no_file_and_no_entry_point_say_so(tmp_path: Path) -> None:
    with pytest.raises(ModelNotLoaded, match="no model file"):
        load_model(str(tmp_path / "absent.py"), "x")
    with pytest.raises(ModelNotLoaded, match="no forward model 'absent-model'"):
        load_model("absent-model", "x")


def test_a_certificate_counts_only_for_the_file_it_was_written_for(tmp_path: Path) -> None:
    path = tmp_path / "counter.py"
    path.write_text(MODEL)
    digest = load_model(str(path), "count-up").identity.sha256
    entry = {"class": "Counter", "game": "count-up", "sha256": digest, "seeds": "1-20"}
    written = certificate.write(path, entry)
    assert written == tmp_path / "counter.certificate.json"
    got = load_model(str(path), "count-up").identity
    assert got.certificate is not None and got.certificate.pop("signature").startswith("hmac")
    assert got.certificate == entry
    assert got.to_json()["certified"]["seeds"] == "1-20"
    path.write_text(MODEL + "\n# edited\n")
    assert load_model(str(path), "count-up").identity.certificate is None
    certificate.write(path, {**entry, "game": "other"})  # another game's entry is kept beside
    assert len(certificate._entries(written)) == 2
