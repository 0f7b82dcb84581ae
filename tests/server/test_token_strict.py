"""A state token is accepted only as the exact text the server issued: one character
appended, or any one character changed, is refused with the protocol's 400 ``badToken``
(never a 500). The lenient base64 decoder once ignored everything after the padding, so
all 97 one-character appends of a Keelhold token were accepted as the original."""

from __future__ import annotations

import base64
import hashlib
import string

import httpx
import pytest

from sunbot.server import BadToken, TokenCodec, create_app

#: Every printable ASCII character, the controls a header or JSON can carry, and non-ASCII.
APPENDS = [*string.printable, "\x00", "\x7f", "é", "\u00a0", "\ufeff", "=="]
ALPHABET = string.ascii_letters + string.digits + "-_="


def test_a_token_decodes_only_as_issued():
    codec = TokenCodec()
    token = codec.encode("keelhold", {"seed": 1})
    assert codec.decode("keelhold", token) == {"seed": 1}
    for ch in APPENDS:
        with pytest.raises(BadToken, match=r"^badToken: the state token was altered"):
            codec.decode("keelhold", token + ch)
        with pytest.raises(BadToken):
            codec.decode("keelhold", ch + token)
    for i, old in enumerate(token):
        for new in {ALPHABET[(ALPHABET.index(old) + 1) % len(ALPHABET)], "A", "=", "."} - {old}:
            with pytest.raises(BadToken):
                codec.decode("keelhold", token[:i] + new + token[i + 1 :])
        with pytest.raises(BadToken):
            codec.decode("keelhold", token[:i] + token[i + 1 :])  # one character dropped


def test_unused_bits_of_the_last_character_count():
    """``...EcI=``: the last character before the padding carries unused low bits; a token
    that differs only there decodes to the same bytes, and is still refused."""
    codec = TokenCodec()
    noise = "".join(hashlib.sha256(bytes([i])).hexdigest() for i in range(8))  # compresses little
    tokens = (codec.encode("keelhold", {"p": noise[:n]}) for n in range(1, 200))
    token = next(t for t in tokens if t.endswith("=") and not t.endswith("=="))
    b64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
    body = token.rstrip("=")
    sibling = b64[b64.index(body[-1]) ^ 1]  # the lowest of the 2 unused bits flipped
    forged = body[:-1] + sibling + "="
    assert base64.urlsafe_b64decode(forged) == base64.urlsafe_b64decode(token)
    with pytest.raises(BadToken):
        codec.decode("keelhold", forged)


async def test_every_append_and_every_change_is_refused_over_http():
    app = create_app(TokenCodec())
    action = {"type": "PLACE", "bay": 3}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        token = (await c.get("/api/games/keelhold/init", params={"seed": 7})).json()["stateToken"]
        ok = await c.post(
            "/api/games/keelhold/action", json={"stateToken": token, "action": action}
        )
        assert ok.status_code == 200 and ok.json()["ok"] is True
        forged = [token + ch for ch in APPENDS]
        for i, old in enumerate(token):
            forged.append(
                token[:i] + ALPHABET[(ALPHABET.index(old) + 7) % len(ALPHABET)] + token[i + 1 :]
            )
        answers = {}
        for bad in forged:
            r = await c.post(
                "/api/games/keelhold/action", json={"stateToken": bad, "action": action}
            )
            answers[r.status_code, r.json().get("reason", "").split(":")[0]] = bad
    assert set(answers) == {(400, "badToken")}, answers
    assert len(forged) == len(APPENDS) + len(token) > 700
