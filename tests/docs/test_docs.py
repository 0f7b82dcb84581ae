"""The docs: README's size and set-up lines, no development history in user docs, the CLI
page names every command, the observation tables and the benchmark blocks."""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

import pytest
import typer

from sunbot.cli.main import app
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


def _app_commands() -> set[str]:
    return set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_the_cli_page_lists_every_command_of_the_app() -> None:
    source = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    (listed,) = re.findall(r"^\s*:commands:\s*(.+)$", source, re.M)
    names = {n.strip() for n in listed.split(",")}
    assert "play" in _app_commands()
    assert _app_commands() <= names, (
        f"missing from docs/reference/cli.md: {_app_commands() - names}"
    )


def test_the_click_tree_for_sphinx_click_has_every_command_and_option() -> None:
    pytest.importorskip("click")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import sunbot_cli
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    assert set(sunbot_cli.command.commands) == _app_commands()
    play = sunbot_cli.command.commands["play"]
    opts = {o for p in play.params for o in p.opts}
    assert {"--seed", "--strategy", "--max-voyages", "--strict", "--resume"} <= opts
    (game,) = [p for p in play.params if p.name == "game"]
    assert game.param_type_name == "argument"


def test_the_built_cli_page_names_every_command(tmp_path: Path) -> None:
    """Builds the CLI page alone with sphinx-click (skipped without the docs extra)."""
    pytest.importorskip("sphinx_click")
    pytest.importorskip("myst_parser")
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "index.md").write_text((DOCS / "reference" / "cli.md").read_text(encoding="utf-8"))
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['myst_parser', 'sphinx_click']\n"
    )
    out = tmp_path / "out"
    sphinx = Sphinx(str(src), str(src), str(out), str(tmp_path / "doctrees"), "text",
                    status=None, warning=None, warningiserror=True)  # fmt: skip
    sphinx.build()
    text = (out / "index.txt").read_text(encoding="utf-8")
    for name in _app_commands():
        assert f"sunbot {name} [OPTIONS]" in text, name


def test_the_observation_tables_come_from_the_typed_dicts() -> None:
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import sunbot_observations
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    lines = sunbot_observations.render("sunbot.observations.keelhold")
    text = "\n".join(lines)
    assert "``KeelholdObservation``" in text
    i = lines.index("   * - ``weight``")  # Crate.weight: an int, always sent
    assert lines[i + 1 : i + 3] == ["     - ``int``", "     - always"]
    j = lines.index("   * - ``safeBays``")  # KeelholdObservation is total=False
    assert lines[j + 1 : j + 3] == ["     - ``list[int]``", "     - optional"]
    assert "- ``KeelholdAction`` = ``Place`` | ``CastOff`` | ``EndRun``" in lines


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
