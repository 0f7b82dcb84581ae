"""Issue 12 case 6: the password of a ``--server http://user:password@host`` URL is sent to
the server but never written: not to the transcript, the screen, ``sunbot replay``'s
output, nor any log record (httpx logs request URLs)."""

from __future__ import annotations

import logging

import httpx
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.client.http import public_url
from sunbot.runs.match import run_match
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter
from tests.conftest import LoopbackServer

PASSWORD = "hunter2-Pw"
runner = CliRunner()


def test_public_url():
    assert public_url("http://u:p@h:8/x?y=1") == "http://h:8/x?y=1"
    assert public_url("https://gameboard.gg") == "https://gameboard.gg"


def test_credentials_never_written(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    with LoopbackServer(create_app(TokenCodec())) as srv:
        url = srv.url.replace("http://", f"http://player:{PASSWORD}@")
        for game in ("keelhold",):
            out = tmp_path / f"{game}.jsonl"
            res = runner.invoke(app, ["play", game, "--seed", "3", "--server", url, "--quiet",
                                      "--transcript", str(out), "--strategy", "first-safe"])  # fmt: skip
            assert res.exit_code in (0, 1), res.output
            assert PASSWORD not in res.output
            text = out.read_text()
            assert PASSWORD not in text and f'"server": "{srv.url}"' in text.replace(
                '"server":"', '"server": "'
            )
            replay = runner.invoke(app, ["replay", str(out)])
            assert PASSWORD not in replay.output
    assert caplog.records and all(PASSWORD not in r.getMessage() for r in caplog.records)


async def test_match_transcript_header_has_no_password(tmp_path):
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"ok": False, "reason": "no_such_game"})

    out = tmp_path / "hw.jsonl"
    with TranscriptWriter(out) as writer:
        result = await run_match(game="harvest-watch", seed=1, strategy="coalition",
                                 server=f"http://p:{PASSWORD}@h.test", match_id=None, seats=1,
                                 writer=writer, strict=False,
                                 transport=httpx.MockTransport(refuse))  # fmt: skip
    assert result["endedBy"] == "error" and "404" in result["error"]
    assert PASSWORD not in out.read_text() and "http://h.test" in out.read_text()
