"""The C Keelhold encoding (``sunbot/envs/_keelhold_encode.c``) gives the Python encoder's
arrays on every position of many runs, v1 (clipped) and v0, and on observations another
server could send (fields left out, other types, values beyond the bounds or 32 bits),
where it either writes the same numbers or leaves the observation to Python, which then
answers the same arrays or the same error as a Python codec that remembers nothing."""

from __future__ import annotations

import copy
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from sunbot.envs import keelhold  # noqa: E402
from sunbot.envs.keelhold import KeelholdCodec  # noqa: E402
from sunbot.envs.legacy import KeelholdCodecV0  # noqa: E402
from sunbot.games import get_game  # noqa: E402
from tests.envs import previous_encoders as previous  # noqa: E402

needs_c = pytest.mark.skipif(keelhold.native is None, reason="the C encoding is not built")


def _states(seed: int, steps: int) -> list[dict]:
    """Engine states of one run, the actions drawn among the legal ones (a safe one mostly,
    so runs last into later voyages)."""
    eng = get_game("keelhold").engine
    rng = random.Random(seed)
    state = eng.init(seed)
    out = [state]
    for _ in range(steps):
        if eng.is_over(state):
            break
        legal = eng.legal_actions(state)
        safe = [a for a in legal if a.get("bay") in state["safeBays"] or a["type"] == "CAST_OFF"]
        state = eng.step(state, rng.choice(safe if safe and rng.random() < 0.9 else legal))
        out.append(state)
    return out


def _encode_python(codec, observation):
    saved = keelhold.native
    keelhold.native = None
    try:
        return codec.encode(observation)
    finally:
        keelhold.native = saved


def _same(a, b, where) -> None:
    assert a.keys() == b.keys(), where
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape, (where, key)
        assert np.array_equal(a[key], b[key]), (where, key, a[key], b[key])


@needs_c
@pytest.mark.parametrize("codec_class", [KeelholdCodec, KeelholdCodecV0])
def test_c_and_python_encode_every_position_of_many_runs_alike(codec_class):
    eng = get_game("keelhold").engine
    c_codec, py_codec = codec_class(), codec_class()
    clip = codec_class.clip
    seen, voyages = 0, set()
    for seed in range(1, 41):
        for t, state in enumerate(_states(seed, 150)):
            got = c_codec.encode(state)
            assert c_codec._native_wrote, (seed, t)  # our engine's states never fall back
            _same(got, _encode_python(py_codec, state), (seed, t))
            if t % 7 == 0:  # the published observation too, and the stateless reference
                obs = eng.observation(state)
                _same(c_codec.encode(obs), previous.keelhold(obs, clip=clip), (seed, t, "ref"))
            seen += 1
            voyages.add(state["voyage"])
    assert seen > 1500 and max(voyages) >= 4  # well past the openings


def _variants(state: dict) -> list[tuple[str, dict]]:
    """Observations another server could send, each one change from ``state``."""
    out: list[tuple[str, dict]] = []

    def change(name, edit) -> None:
        o = copy.deepcopy(state)
        edit(o)
        out.append((name, o))

    change("no arms", lambda o: o.pop("arms"))
    change("empty arms", lambda o: o.update(arms=[]))
    change("six arms", lambda o: o.update(arms=o["arms"][:6]))
    change("no openBays", lambda o: o["params"].pop("openBays"))
    change("no voyage", lambda o: o.pop("voyage"))
    change("voyage None", lambda o: o.update(voyage=None))
    change("no optional fields", lambda o: [o.pop(k, None) for k in ("chain", "lotsShipped", "voyageStartTurn", "castOffSafe")])  # fmt: skip
    change("float turn", lambda o: o.update(turn=float(o["turn"])))
    change("bool listing", lambda o: o.update(listing=1))
    change("str listing", lambda o: o.update(listing="yes"))
    change("castOffSafe True", lambda o: o.update(castOffSafe=True))
    change("tuple hold", lambda o: o.update(hold=tuple(o["hold"])))
    change("six hatches", lambda o: o.update(hold=o["hold"][:6]))
    change("huge trim", lambda o: o.update(trim=2**40))
    change("trim past the bound", lambda o: o.update(trim=10_000))
    change("float weight", lambda o: o["queue"][0].update(weight=2.0))
    change("huge cargo", lambda o: o["queue"][0].update(cargo=2**31 - 1))
    change("five in the queue", lambda o: o.update(queue=o["queue"] * 5))
    change("bays out of range", lambda o: o.update(safeBays=[0, 9, -1], listingBays=[True]))
    change("bays of floats", lambda o: o.update(safeBays=[1.0]))
    change("bays a tuple", lambda o: o.update(safeBays=tuple(o["safeBays"])))
    change("unknown phase", lambda o: o.update(phase="sailing"))
    change("no phase", lambda o: o.pop("phase"))
    change("conditions a tuple", lambda o: o["params"].update(conditions=("squall",)))
    change("conditions not str", lambda o: o["params"].update(conditions=[1, "squall"]))
    change("a term None", lambda o: o["next"].update(wind=None))
    change("a term float", lambda o: o["next"].update(wind=2.5))
    change("a term huge", lambda o: o["params"].update(quota=2**33))
    change("long jams", lambda o: o.update(jammedUntil=[*o["jammedUntil"], 3]))
    change("short jams", lambda o: o.update(jammedUntil=o["jammedUntil"][:5]))
    change(
        "a jam past int32 from a turn below 0",  # C had clamped it, Python refuses
        lambda o: o.update(turn=-5, jammedUntil=[2**31 - 1, *o["jammedUntil"][1:]]),
    )
    change("crate not a dict", lambda o: o.update(queue=[[1, 2, 3]]))
    change("crate without cargo", lambda o: o["queue"][0].pop("cargo"))
    change("rush crate", lambda o: o["queue"][0].update(rushWindow=3))
    change("not a dict", lambda o: o.clear())
    return out


def _outcome(codec, observation, python: bool):
    try:
        return codec.encode(observation) if not python else _encode_python(codec, observation)
    except ValueError as exc:
        return str(exc)


@needs_c
@pytest.mark.parametrize("codec_class", [KeelholdCodec, KeelholdCodecV0])
def test_another_servers_observations_give_the_same_arrays_or_the_same_error(codec_class):
    c_codec, py_codec = codec_class(), codec_class()
    states = [s for seed in (3, 24) for s in _states(seed, 60)[::6]]
    for i, state in enumerate(states):
        for name, obs in _variants(state):
            got = _outcome(c_codec, obs, python=False)
            want = _outcome(codec_class(), obs, python=True)  # Python, nothing remembered
            if isinstance(want, str):
                assert got == want, (i, name)
            else:
                assert not isinstance(got, str), (i, name, got)
                _same(got, want, (i, name))
            # and the position after it is encoded right (nothing stale remembered)
            _same(c_codec.encode(state), _encode_python(py_codec, state), (i, name, "after"))


def test_without_the_extension_the_environment_encodes_as_before(monkeypatch):
    # the fallback: with the module flag off the codec encodes in Python, the same arrays
    from tests.envs.test_encoders_unchanged import (
        test_the_environment_returns_the_previous_encoding_at_every_step as same_as_before,
    )

    monkeypatch.setattr(keelhold, "native", None)
    same_as_before("keelhold")
    codec = KeelholdCodec()
    codec.encode(_states(5, 3)[-1])
    assert not codec._native_wrote


@needs_c
def test_the_c_mask_is_the_python_mask_of_every_legal_list():
    from sunbot.envs.core import mask_of

    codec = KeelholdCodec()
    eng = get_game("keelhold").engine
    lists = [eng.legal_actions(s) for seed in (3, 24, 31) for s in _states(seed, 80)]
    lists += [  # what another server could list: the Python mask's numbers, or Python does it
        [{"type": "PLACE", "bay": True}, {"type": "PLACE", "bay": 9}, {"type": "PLACE"}],
        [{"type": "PLACE", "bay": 2.0}, {"type": "PLACE", "bay": -1}, {"type": "WAIT"}],
        [{"type": "CAST_OFF", "extra": 1}, {"type": "END_RUN"}, {"type": "PLACE", "bay": 6}],
        [{"type": None}],
        [["PLACE", 1]],
        [],
    ]
    handled = 0
    for legal in lists:
        out = np.full(codec.n_actions, 7, np.int8)
        if codec.mask_into(legal, out):
            handled += 1
            assert out.tolist() == mask_of(codec, legal).tolist(), legal
        else:
            assert (out == 7).all(), legal  # untouched: the environment uses mask_of
    assert handled >= len(lists) - 2
