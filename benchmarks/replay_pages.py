"""Replay pages of long runs: file size, time to open in headless Chromium, time per step.

    python benchmarks/replay_pages.py [--keep DIR]

Plays a 40-day Sunloaf run (``reference`` strategy, seed 7) and a 20-voyage Keelhold run
(default strategy, seed 7) on the embedded server with ``sunbot play --html``, then opens
each page in the system Chromium (Playwright; ``/usr/bin/chromium`` or ``SUNBOT_CHROMIUM``)
five times and prints: steps, transcript and page size, the time from navigation start
until the page has drawn its first step (median of five), and the mean time to draw one
step when stepping through the whole run. Targets (issue 14): open in under 2 s, a few MB
at most.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

RUNS = {
    "sunloaf-40-days": ["sunloaf", "--strategy", "reference", "--max-days", "40"],
    "keelhold-20-voyages": ["keelhold", "--max-voyages", "20"],
}
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
STEP_ALL = """() => {
  const s = document.getElementById('slider'), n = Number(s.max), t0 = performance.now();
  for (let k = 0; k <= n; k++) { s.value = String(k); s.dispatchEvent(new Event('input')); }
  return [(performance.now() - t0) / (n + 1), n + 1];
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="Keep transcripts and pages in this folder.")
    keep: Path | None = parser.parse_args().keep
    folder = keep or Path(tempfile.mkdtemp(prefix="sunbot-pages-"))
    folder.mkdir(parents=True, exist_ok=True)
    exe = os.environ.get("SUNBOT_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        for name, args in RUNS.items():
            log, page_file = folder / f"{name}.jsonl", folder / f"{name}.html"
            for f in (log, page_file):
                f.unlink(missing_ok=True)
            cmd = [sys.executable, "-m", "sunbot", "play", *args, "--seed", "7", "--quiet"]
            cmd += ["--transcript", str(log), "--html", str(page_file)]
            subprocess.run(cmd, check=True, capture_output=True)
            opened = []
            for _ in range(5):
                page = browser.new_page()
                page.goto(page_file.as_uri())
                page.wait_for_selector("body[data-ready]")
                opened.append(page.evaluate("performance.now()"))
                page.close()
            page = browser.new_page()
            page.goto(page_file.as_uri())
            page.wait_for_selector("body[data-ready]")
            per_step, steps = page.evaluate(STEP_ALL)
            page.close()
            print(
                f"{name}: {steps} steps, transcript {log.stat().st_size / 1e6:.1f} MB, "
                f"page {page_file.stat().st_size / 1e6:.2f} MB, opened in "
                f"{statistics.median(opened):.0f} ms (median of 5), {per_step:.1f} ms a step"
            )
        browser.close()
    if keep is None:
        print(f"(files in {folder})")


if __name__ == "__main__":
    main()
