"""Certificates are signed with this user's key: a forged, edited, unsigned or another
user's certificate is refused with one line and the model recorded as uncertified; certify
leaves none behind after a divergence; a sandboxed model can neither plant one nor read the
key."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.agents.isolate_model import ModelChild
from sunbot.cli.agent_rows import search_rows
from sunbot.cli.main import app
from sunbot.forward import certificate
from sunbot.forward.load import load_model
from tests.forward.conftest import MODELS
from tests.forward.test_load import MODEL


def _model(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    path = tmp_path / "counter.py"
    path.write_text(MODEL)
    digest = load_model(str(path), "count-up", certificates=False).identity.sha256
    return path, {"class": "Counter", "game": "count-up", "sha256": digest, "seeds": "1-3",
                  "server": "embedded"}  # fmt: skip


def _plant(path: Path, entries: list[dict[str, object]]) -> None:
    body = {"type": certificate.KIND, "certificates": entries}
    certificate.path_for(path).write_text(json.dumps(body))


def test_a_signed_certificate_is_honoured_and_the_key_is_owner_only(
    tmp_path: Path, state_folder: Path
) -> None:
    path, entry = _model(tmp_path)
    assert not (state_folder / "certificate.key").exists()  # made on the first signature
    certificate.write(path, entry)
    key = state_folder / "certificate.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert len(bytes.fromhex(key.read_text().strip())) == 32
    got = load_model(str(path), "count-up").identity
    assert got.certificate_refused is None
    assert got.to_json()["certified"]["seeds"] == "1-3"
    assert "certificateRefused" not in got.to_json()
    # a second signature uses the same key: the first entry still verifies
    certificate.write(path, {**entry, "class": "Other"})
    assert load_model(str(path), "count-up").identity.certificate is not None


@pytest.mark.parametrize("how", ["unsigned", "forged", "edited", "another user's"])
def test_a_certificate_not_signed_by_this_sunbot_is_refused_with_one_line(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, entry = _model(tmp_path)
    certificate.write(path, {**entry, "class": "Kept"})  # this user has a key
    if how == "unsigned":  # as certify wrote them before they were signed
        _plant(path, [entry])
    elif how == "forged":
        _plant(path, [{**entry, "signature": "hmac-sha256:" + "ab" * 32}])
    elif how == "edited":  # a real signature, its seeds widened afterwards
        certificate.write(path, entry)
        body = json.loads(certificate.path_for(path).read_text())
        body["certificates"][-1]["seeds"] = "1-500"
        certificate.path_for(path).write_text(json.dumps(body))
    else:  # signed by the sunbot of another state folder (another user's key)
        mine = os.environ["SUNBOT_STATE_DIR"]
        monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "other-user"))
        certificate.write(path, entry)
        monkeypatch.setenv("SUNBOT_STATE_DIR", mine)
    with caplog.at_level(logging.WARNING, logger="sunbot.forward"):
        got = load_model(str(path), "count-up").identity
    line = f"certificate {certificate.path_for(path)} not valid (not signed by this sunbot):"
    assert got.certificate is None
    assert got.certificate_refused == line + " model unchecked"
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert said == [line + " model unchecked"]
    shown = got.to_json()
    assert shown["certified"] is None and shown["certificateRefused"] == line + " model unchecked"
    row = search_rows({"model": shown})["model"]
    assert row.endswith("not certified (its certificate is not signed by this sunbot)")


def test_without_a_key_no_certificate_is_honoured_and_none_is_made_by_reading(
    tmp_path: Path, state_folder: Path
) -> None:
    path, entry = _model(tmp_path)
    _plant(path, [{**entry, "signature": "hmac-sha256:" + "00" * 32}])
    assert load_model(str(path), "count-up").identity.certificate is None
    assert not (state_folder / "certificate.key").exists()


def test_writing_never_signs_an_entry_it_did_not_make_and_withdraw_cleans_up(
    tmp_path: Path,
) -> None:
    path, entry = _model(tmp_path)
    _plant(path, [{**entry, "class": "Planted"}])
    certificate.write(path, entry)
    kept = certificate._entries(certificate.path_for(path))
    assert [e["class"] for e in kept] == ["Counter"]  # the planted entry was dropped
    certificate.write(path, {**entry, "game": "other"})
    assert certificate.withdraw(path, "Counter", "count-up") == certificate.path_for(path)
    assert [e["game"] for e in certificate._entries(certificate.path_for(path))] == ["other"]
    assert certificate.withdraw(path, "Counter", "count-up") is None  # nothing left to drop
    certificate.withdraw(path, "Counter", "other")
    assert not certificate.path_for(path).exists()  # the last entry gone: the file too


def test_certify_leaves_no_certificate_after_a_divergence(unseen_url: str, tmp_path: Path) -> None:
    """A model that diverges keeps neither a planted certificate nor a signed one of an
    earlier pass; the one that passes gets a signed one that a run honours."""
    model = tmp_path / "take_away.py"
    model.write_text(Path(MODELS).read_text())
    digest = load_model(f"{model}:BrokenTakeAway", "take-away", certificates=False)
    entry = {"class": "BrokenTakeAway", "game": "take-away", "sha256": digest.identity.sha256,
             "seeds": "1-500", "server": unseen_url}  # fmt: skip
    certificate.write(model, entry)  # say it passed before, on other seeds
    body = json.loads(certificate.path_for(model).read_text())
    body["certificates"].append({**entry, "class": "TakeAway"})  # and a planted one
    certificate.path_for(model).write_text(json.dumps(body))
    runner = CliRunner()
    broken = runner.invoke(app, ["certify", "take-away", "--engine", f"{model}:BrokenTakeAway",
                                 "--server", unseen_url, "--seeds", "1", "--json"])  # fmt: skip
    assert broken.exit_code == 3, broken.output
    assert json.loads(broken.output)["certificateWithdrawn"] == str(certificate.path_for(model))
    assert not certificate.path_for(model).exists()
    good = runner.invoke(app, ["certify", "take-away", "--engine", f"{model}:TakeAway",
                               "--server", unseen_url, "--seeds", "1"])  # fmt: skip
    assert good.exit_code == 0, good.output
    assert load_model(f"{model}:TakeAway", "take-away").identity.certificate is not None


PROBE = """
import os, shutil, tempfile
from sunbot.agents.sandbox import Refused

def refused(what, *args, **kwargs):
    try:
        what(*args, **kwargs)
    except Refused:
        return
    raise AssertionError(f"the sandbox let {what.__name__}{args} through")

def plant(path):
    with open(path, "w") as fh:
        fh.write("{}")

refused(plant, "selfcert.certificate.json")  # into the working folder
refused(plant, os.path.join(CWD, "selfcert.certificate.json"))
refused(os.open, "selfcert.certificate.json", os.O_WRONLY | os.O_CREAT)
refused(open, os.path.join(STATE, "certificate.key"), "rb")
refused(os.listdir, STATE)
refused(os.chdir, tempfile.gettempdir())
refused(os.rename, "counter.py", "renamed.py")
refused(os.remove, "counter.py")
refused(shutil.copyfile, "counter.py", "copied.certificate.json")
refused(os.symlink, os.path.join(STATE, "certificate.key"), os.path.join(tempfile.gettempdir(), "k"))
refused(open, f"/proc/{os.getppid()}/environ", "rb")
# a path relative to a folder held open: the audit event does not say which folder
up = os.open(os.path.dirname(STATE), os.O_RDONLY)
refused(os.open, os.path.join(os.path.basename(STATE), "certificate.key"), os.O_RDONLY, dir_fd=up)
refused(os.open, "x.certificate.json", os.O_WRONLY | os.O_CREAT, dir_fd=up)
os.close(up)
import sqlite3  # SQL writes files with no audit event: ATTACH DATABASE, VACUUM INTO
refused(sqlite3.connect, ":memory:")
scratch = os.path.join(tempfile.gettempdir(), "scratch.txt")  # its private folder: allowed
plant(scratch)
os.replace(scratch, scratch + ".2")
assert open(scratch + ".2").read() == "{}"
"""


def test_a_sandboxed_model_cannot_plant_a_certificate_nor_read_the_key(
    tmp_path: Path, state_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, entry = _model(tmp_path)
    certificate.write(path, {**entry, "class": "Other"})  # the key exists
    probe = tmp_path / "probe.py"
    probe.write_text(f"CWD = {str(tmp_path)!r}\nSTATE = {str(state_folder)!r}\n" + PROBE + MODEL)
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    child = ModelChild(f"{probe}:Counter", "count-up")
    child.start()  # the probe's asserts ran at import: a failure would be ModelNotLoaded
    private = child.private
    assert private is not None and os.path.isdir(private)
    assert sorted(os.listdir(private)) == ["scratch.txt.2"]
    child.close()
    assert not os.path.exists(private)  # removed with the child
    assert sorted(os.listdir(tmp_path)) == before


def test_a_certificate_belongs_to_the_name_the_model_was_given_under(
    tmp_path: Path, state_folder: Path
) -> None:
    """A second class in the same file that calls itself by the certified class's
    ``__name__`` does not inherit its certificate: the name is the file's attribute."""
    path = tmp_path / "two.py"
    path.write_text(
        MODEL + "\n\nclass Liar(Counter):\n    def score(self, s):\n        return -999\n\n"
        "Liar.__name__ = Liar.__qualname__ = 'Counter'\n"
    )
    digest = load_model(f"{path}:Counter", "count-up", certificates=False).identity.sha256
    certificate.write(path, {"class": "Counter", "game": "count-up", "sha256": digest,
                             "seeds": "1-3", "server": "embedded"})  # fmt: skip
    assert load_model(f"{path}:Counter", "count-up").identity.certificate is not None
    liar = load_model(f"{path}:Liar", "count-up").identity
    assert (liar.name, liar.certificate) == ("Liar", None)


def test_the_bytes_hashed_are_the_bytes_that_run_never_a_cached_file(tmp_path: Path) -> None:
    """A ``__pycache__`` file beside the model (same size and time as the source) would run
    other code under the source's hash; the model is compiled from the bytes it hashed."""
    import importlib.util
    import py_compile

    path = tmp_path / "m.py"
    path.write_text(MODEL)
    other = tmp_path / "other.py"
    other.write_text(MODEL.replace("class Counter", "RAN_OTHER = True\n\n\nclass Counter", 1))
    cached = Path(importlib.util.cache_from_source(str(path)))
    cached.parent.mkdir(exist_ok=True)
    st = path.stat()
    py_compile.compile(str(other), cfile=str(cached), dfile=str(path))
    os.utime(other, (st.st_atime, st.st_mtime))
    # make the cache claim the source's size and time, as the attack did
    data = bytearray(cached.read_bytes())
    data[8:12] = int(st.st_mtime).to_bytes(4, "little")
    data[12:16] = (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cached.write_bytes(bytes(data))
    loaded = load_model(f"{path}:Counter", "count-up", certificates=False)
    module = __import__("sys").modules[loaded.factory.__module__]
    assert not hasattr(module, "RAN_OTHER")
    assert loaded.identity.sha256 == __import__("hashlib").sha256(path.read_bytes()).hexdigest()


def _cover_works(folder: Path) -> bool:
    """Whether this machine lets a child cover a folder in namespaces of its own."""
    from sunbot.agents import sandbox

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        ok = sandbox._leave_network() and sandbox._hide_state()
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def test_the_key_stays_out_of_reach_when_the_audit_guard_is_switched_off(
    tmp_path: Path, state_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Code in the same interpreter can switch an audit hook off (here: the guard's path
    reader replaced); the state folder is covered by the operating system, so the key is
    still unreadable (found from outside: a model did this and forged a certificate)."""
    path, entry = _model(tmp_path)
    certificate.write(path, {**entry, "class": "Other"})  # the key exists
    if not _cover_works(state_folder):
        pytest.skip("no unprivileged user and mount namespaces here")
    probe = tmp_path / "probe.py"
    probe.write_text(
        f"STATE = {str(state_folder)!r}\n"
        "import os\nimport sunbot.agents.sandbox as sb\n"
        "sb._real = lambda p: None  # the guard switched off, as attacking code can\n"
        "try:\n    open(os.path.join(STATE, 'certificate.key'), 'rb').read()\n"
        "except OSError:\n    pass\nelse:\n    raise AssertionError('the key was read')\n" + MODEL
    )
    monkeypatch.chdir(tmp_path)
    child = ModelChild(f"{probe}:Counter", "count-up")
    child.start()  # the probe's assert ran at import: a failure would be ModelNotLoaded
    child.close()
