"""Fixtures of the replay-page tests: pages written from transcripts, and a headless Chromium.

The browser tests (marker ``browser``, not in the default run: ``pytest -m browser``) drive
the system's Chromium (``/usr/bin/chromium``, or ``SUNBOT_CHROMIUM``) through Playwright;
they skip when either is missing. Every request the page makes is recorded and refused, so a
test can assert that a page opened without touching the network.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sunbot.html import write_replay_page
from sunbot.transcripts.jsonl import read_transcript

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = {
    game: ROOT / "transcripts" / f"golden-{game}-seed7.jsonl"
    for game in ("keelhold", "sunloaf", "naptuft", "harvest-watch")
}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def lines(path: Path) -> list[dict[str, Any]]:
    """Every record of a transcript file."""
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write records as a transcript file."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def make_page(tmp_path: Path) -> Callable[[Path], Path]:
    """Write the replay page of a transcript file into ``tmp_path``; returns its path."""

    def make(transcript: Path) -> Path:
        out = tmp_path / (transcript.stem + ".html")
        write_replay_page(read_transcript(transcript), out)
        return out

    return make


@dataclass
class Browser:
    """An open headless Chromium page; ``requests`` lists every URL fetched besides the
    page itself (each one is refused)."""

    page: Any
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    page_url: str = ""

    def open(self, path: Path, step: int | None = None) -> None:
        """Open a page file (at ``#step=N``) and wait until its script has drawn it."""
        url = path.as_uri() + ("" if step is None else f"#step={step}")
        self.page_url = path.as_uri()
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready]", timeout=10_000)

    def text(self, selector: str) -> str:
        """The visible text of the first element matching ``selector``."""
        return str(self.page.inner_text(selector))

    def goto_step(self, k: int) -> None:
        """Move the slider to position ``k`` as a user dragging it would."""
        self.page.eval_on_selector(
            "#slider", "(s, k) => { s.value = String(k); s.dispatchEvent(new Event('input')); }", k
        )


def _chromium() -> str | None:
    path = os.environ.get("SUNBOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


@pytest.fixture(scope="session")
def _browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install '.[browser]'")
    exe = _chromium()
    if exe is None:
        pytest.skip("no Chromium (apt-get install chromium, or set SUNBOT_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(_browser: Any) -> Iterator[Browser]:
    """A fresh page in a fresh context; every request other than the page's own file is
    recorded in ``requests`` and aborted."""
    context = _browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    b = Browser(page)

    def seen(request: Any) -> None:
        if request.url.split("#")[0] != b.page_url:
            b.requests.append(request.url)

    context.route("http*://**/*", lambda r: r.abort())
    page.on("request", seen)
    page.on("pageerror", lambda exc: b.errors.append(str(exc)))
    yield b
    context.close()


@pytest.fixture(scope="session")
def three_seats(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The transcript of a local match with our default strategy in 3 seats (seed 7)."""
    import sunbot

    path = tmp_path_factory.mktemp("hw3") / "hw-seed7-3seats.jsonl"
    run = sunbot.play("harvest-watch", seed=7, seats=3, transcript=path)
    assert run.ended_by == "rules" and len(run.seats) == 3
    return path


def drawn_views(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per command of a match transcript, the view ``data`` its step shows: the answer's
    when it carries a position, else (a refusal, a lost answer) that seat's next view."""
    out = []
    for i, r in enumerate(records):
        if r["type"] != "command":
            continue
        answer = r.get("answer")
        if isinstance(answer, dict) and answer.get("ok") is not False and "data" in answer:
            out.append(answer["data"])
            continue
        later = (v for v in records[i + 1 :] if v["type"] == "view" and v["seat"] == r["seat"])
        out.append(next(later)["body"]["data"])
    return out
