"""The docs: README's size and set-up lines, no development history in user docs, and the
benchmark blocks (the generated reference pages: test_generated_pages.py)."""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

import pytest

from tests.benchmark_module import load_benchmark

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _user_docs() -> list[Path]:
    pages = [p for p in DOCS.rglob("*.md") if "_build" not in p.parts]
    return [ROOT / "README.md", *pages]


def test_readme_is_at_most_8_kb_and_keeps_the_two_set_up_lines() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 8 * 1024
    lines = text.splitlines()
    assert lines[2].strip().startswith("pip install . && sunbot play")
    # CI parses this line: the test command exactly.
    assert lines[3].strip().startswith("pip install '.[test]' && pytest ")


@pytest.mark.parametrize("pattern", [r"\bissue\s+\d+", r"(?<![\w&/])#\d+\b", r"\bshared" + "/"])
def test_user_docs_cite_no_issue_numbers_nor_shared_paths(pattern: str) -> None:
    found = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for p in _user_docs()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(pattern, line, re.I)
    ]
    assert not found, "\n".join(found)


def test_the_pattern_catches_an_issue_number() -> None:
    assert re.search(r"\bissue\s+\d+", "since issue 16's figures", re.I)
    assert re.search(r"(?<![\w&/])#\d+\b", "fixed in #12")
    assert not re.search(r"(?<![\w&/])#\d+\b", "open it at `#step=3` or &#39;")


def test_a_benchmark_block_is_replaced_in_place(tmp_path: Path, monkeypatch) -> None:
    docs_block = load_benchmark("docs_block")
    monkeypatch.setattr(docs_block, "DOCS", tmp_path)
    monkeypatch.setattr(sys, "argv", ["benchmarks/x.py", "--steps", "5", "--write-docs"])
    page = tmp_path / "p.md"
    page.write_text("# P\n\nbefore\n")
    docs_block.write_block("p", "t", "| a |\n|---|\n| 1 |", today=dt.date(2026, 1, 2))
    first = page.read_text()
    assert first.startswith("# P\n\nbefore\n\n<!-- bench:t start -->\nMeasured 2026-01-02 with ")
    assert "`python benchmarks/x.py --steps 5` on " in first
    docs_block.write_block("p", "t", "| a |\n|---|\n| 2 |", today=dt.date(2026, 1, 3))
    second = page.read_text()
    assert second.count("<!-- bench:t start -->") == 1 and "| 2 |" in second
    assert "| 1 |" not in second and "2026-01-03" in second
    with pytest.raises(ValueError, match="block name"):
        docs_block.write_block("p", "bad name", "x")
