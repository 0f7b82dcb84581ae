"""Small command-line defects, each pinned: errors on stderr, markup in names, plural words,
a busy port, and a client that follows redirects and names the URL of a non-JSON answer."""

from __future__ import annotations

import io
import socket

import httpx
import pytest
from rich.console import Console
from typer.testing import CliRunner

from sunbot.cli import transcripts as cli_transcripts
from sunbot.cli.main import app
from sunbot.client import GameboardClient, MalformedResponse, ServerRefused
from sunbot.mirror import Divergence
from sunbot.server import TokenCodec, create_app
from tests.conftest import FAST_RETRY

runner = CliRunner()


def test_replay_and_export_errors_go_to_stderr(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    for command in (["replay", str(bad)], ["export", str(bad)]):
        res = runner.invoke(app, command)
        assert res.exit_code == 2 and res.stdout == ""
        assert "error:" in res.stderr


def test_markup_in_user_paths_is_shown_not_parsed(tmp_path):
    for folder in ("x[", "o["):  # 'x[/]y' is the file ']y' in the folder 'x['
        (tmp_path / folder).mkdir()
    weird = tmp_path / "x[/]y[bold].jsonl"
    play = ["play", "keelhold", "--seed", "1", "--max-voyages", "1", "--quiet"]
    res = runner.invoke(app, [*play, "--transcript", str(weird)], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    assert "x[/]y[bold].jsonl" in res.stdout
    assert runner.invoke(app, ["replay", str(weird)]).exit_code == 0
    out = tmp_path / "o[/]x.csv"
    res = runner.invoke(app, ["export", str(weird), "--out", str(out)], env={"COLUMNS": "300"})
    assert res.exit_code == 0 and f"wrote {out}" in res.stderr
    res = runner.invoke(app, ["replay", str(tmp_path / "missing[/].jsonl")])
    assert res.exit_code == 2 and "MarkupError" not in res.output


def test_mismatches_are_spelled_right(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(cli_transcripts, "console", Console(file=buf, width=200))
    found = [Divergence(step=i, path="score", expected=1, got=2) for i in (1, 2)]
    cli_transcripts._print_findings("re-play mismatch", found, plural=("", "es"))
    assert "2 re-play mismatches" in buf.getvalue()


def test_serve_on_a_busy_port_fails_before_its_banner():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = runner.invoke(app, ["serve", "--port", str(port)])
    assert res.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in " ".join(res.stderr.split())
    assert "serving on" not in res.output


def _server(handler):
    inner = httpx.ASGITransport(app=create_app(TokenCodec()))

    async def handle(request: httpx.Request) -> httpx.Response:
        return await handler(request, inner)

    return httpx.MockTransport(handle)


async def test_the_client_follows_a_redirect():
    async def handler(request, inner):
        if request.url.path.startswith("/old/"):
            new = request.url.copy_with(path=request.url.path.removeprefix("/old"))
            return httpx.Response(308, headers={"location": str(new)})
        return await inner.handle_async_request(request)

    client = GameboardClient("http://moved.test/old", transport=_server(handler))
    async with client:
        pos = await client.init("keelhold", 7)
    assert pos.observation["voyage"] == 1


@pytest.mark.parametrize(("status", "error"), [(200, MalformedResponse), (404, ServerRefused)])
async def test_a_non_json_answer_names_the_url_not_the_html(status, error):
    async def handler(request, inner):
        page = b"<html><body>" + b"x" * 500 + b"</body></html>"
        return httpx.Response(status, content=page, headers={"content-type": "text/html"})

    client = GameboardClient("http://www.test", transport=_server(handler), policy=FAST_RETRY)
    async with client:
        with pytest.raises(error) as exc:
            await client.init("keelhold", 7)
    message = str(exc.value)
    assert "from GET http://www.test/api/games/keelhold/init is not JSON (text/html" in message
    assert "<html" not in message and "seed=" not in message


def test_a_ctrl_c_while_the_command_loads_is_one_line_and_exit_130(monkeypatch, capsys):
    import importlib.abc
    import sys

    import sunbot.cli

    class Interrupt(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "sunbot.cli.main":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "sunbot.cli.main")
    monkeypatch.setattr(sys, "meta_path", [Interrupt(), *sys.meta_path])
    with pytest.raises(SystemExit) as stop:
        sunbot.cli.run_cli()
    assert stop.value.code == 130
    assert capsys.readouterr().err == "sunbot: interrupted while starting\n"
