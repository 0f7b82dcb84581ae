"""Screenshots of the golden transcripts' replay pages at their middle step, for the docs.

    python scripts/replay_screenshots.py [--out docs/screenshots]

Needs the browser extra (``pip install '.[browser]'``) and the system Chromium
(``/usr/bin/chromium`` or ``SUNBOT_CHROMIUM``); no browser is downloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from sunbot.html import write_replay_page
from sunbot.transcripts.jsonl import read_transcript

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("keelhold", "sunloaf", "naptuft", "harvest-watch")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    exe = os.environ.get("SUNBOT_CHROMIUM", "/usr/bin/chromium")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 800})
        for game in GAMES:
            html = Path(tmp) / f"{game}.html"
            golden = ROOT / "transcripts" / f"golden-{game}-seed7.jsonl"
            write_replay_page(read_transcript(golden), html)
            data = re.search(r'id="sunbot-data">(.*?)</script>', html.read_text("utf-8"), re.S)
            assert data is not None
            middle = len(json.loads(data.group(1))["steps"]) // 2
            page.goto(f"{html.as_uri()}#step={middle}")
            page.wait_for_selector("body[data-ready]")
            page.screenshot(path=str(out / f"replay-{game}.png"), full_page=True)
            print(f"{out / f'replay-{game}.png'} (step {middle})")
        browser.close()


if __name__ == "__main__":
    main()
