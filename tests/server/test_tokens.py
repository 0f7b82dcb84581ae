"""Token tampering and secrecy: every forgery refused with a reason, no secret ever shown."""

from __future__ import annotations

import base64
import time

import httpx
import pytest
from cryptography.fernet import Fernet
from typer.testing import CliRunner

from sunbot.cli.main import app as cli
from sunbot.engines import keelhold as kh
from sunbot.server import BadToken, TokenCodec, create_app


def _flip(token: str, byte: int) -> str:
    raw = bytearray(base64.urlsafe_b64decode(token))
    raw[byte % len(raw)] ^= 0x40
    return base64.urlsafe_b64encode(bytes(raw)).decode()


@pytest.mark.parametrize("byte", [0, 1, 9, 30, 60, -40, -1])
def test_any_flipped_bit_is_refused(byte):
    codec = TokenCodec()
    token = codec.encode("keelhold", kh.init(7))
    with pytest.raises(BadToken) as err:
        codec.decode("keelhold", _flip(token, byte))
    assert str(err.value).startswith("badToken") and token[:20] not in str(err.value)


def test_expired_token_refused_fresh_one_accepted():
    k = Fernet.generate_key()
    codec = TokenCodec([k], ttl=60)
    old = codec.encode("keelhold", {"a": 1}, issued_at=int(time.time()) - 3600)
    with pytest.raises(BadToken, match="expired"):
        codec.decode("keelhold", old)
    assert codec.decode("keelhold", codec.encode("keelhold", {"a": 1})) == {"a": 1}


@pytest.mark.parametrize("junk", ["", "x", "gAAAAA" + "A" * 80, "é" * 10, 12, None, "a" * 300_000])
def test_junk_tokens_refused(junk):
    with pytest.raises(BadToken):
        TokenCodec().decode("keelhold", junk)


async def test_refusals_name_no_secret(monkeypatch, tmp_path):
    key = Fernet.generate_key()
    codec = TokenCodec([key])
    app = create_app(codec)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        init = (await c.get("/api/games/keelhold/init", params={"seed": 7})).json()
        forged = _flip(init["stateToken"], 50)
        r = await c.post(
            "/api/games/keelhold/action",
            json={"stateToken": forged, "action": {"type": "PLACE", "bay": 3}},
        )
    assert r.status_code == 400
    text = r.text
    assert key.decode() not in text and forged not in text and init["stateToken"] not in text


def test_transcripts_and_output_hold_no_server_key(monkeypatch, tmp_path):
    key = Fernet.generate_key().decode()
    monkeypatch.setenv("SUNBOT_SERVER_KEYS", key)
    path = tmp_path / "t.jsonl"
    res = CliRunner().invoke(
        cli,
        [
            "play",
            "keelhold",
            "--seed",
            "3",
            "--max-voyages",
            "1",
            "--quiet",
            "--transcript",
            str(path),
        ],
    )
    assert res.exit_code == 0
    assert key not in path.read_text() and key not in res.output
