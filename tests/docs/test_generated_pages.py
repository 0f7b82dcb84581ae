"""The generated reference pages (docs/_ext/sunbot_pages.py): the observation tables, the
CLI reference and the API reference are Markdown committed into the pages, up to date with
the code, and render as tables and literal options on the built site (marked ``docs``:
``.ci/run`` builds the site and runs them)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
import typer

import sunbot
from sunbot.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import sunbot_api  # noqa: E402
import sunbot_markdown  # noqa: E402
import sunbot_observations  # noqa: E402
import sunbot_pages  # noqa: E402


def _commands() -> dict[str, object]:
    return dict(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def _long_options() -> set[str]:
    root = typer.main.get_command(app)
    out = {o for p in root.params for o in p.opts if o.startswith("--")}
    for cmd in _commands().values():
        for p in cmd.params:  # type: ignore[attr-defined]
            out |= {o for o in [*p.opts, *p.secondary_opts] if o.startswith("--")}
    return out - {"--help"}


def test_every_generated_block_is_up_to_date_with_the_code() -> None:
    assert sunbot_pages.stale() == [], "run: python docs/_ext/sunbot_pages.py"


def test_a_stale_block_is_found_and_rewritten(tmp_path: Path, monkeypatch) -> None:
    page = tmp_path / "p.md"
    start, end = sunbot_pages.markers("b")
    page.write_text(f"# P\n\nbefore\n\n{start}\nold\n{end}\n\nafter\n")
    monkeypatch.setattr(sunbot_pages, "DOCS", tmp_path)
    monkeypatch.setattr(sunbot_pages, "BLOCKS", {("p.md", "b"): lambda: ["| a |", "|---|"]})
    assert sunbot_pages.stale() == ["docs/p.md: b"]
    assert sunbot_pages.main(["--check"]) == 1
    assert sunbot_pages.write() == [page]
    assert page.read_text() == f"# P\n\nbefore\n\n{start}\n\n| a |\n|---|\n\n{end}\n\nafter\n"
    assert sunbot_pages.stale() == []
    with pytest.raises(ValueError, match="no block 'c'"):
        sunbot_pages.updated("no markers here", "c", [])


def test_the_observation_tables_are_markdown_pipe_tables_of_the_typed_dicts() -> None:
    lines = sunbot_observations.render("sunbot.observations.keelhold")
    assert lines[0] == "#### `Crate`"
    assert "| field | type | sent |" in lines
    assert "| `weight` | `int` | always |" in lines  # Crate.weight: an int, always sent
    assert "| `cargo` | `int \\| None` | always |" in lines  # a pipe in a cell is escaped
    assert "| `safeBays` | `list[int]` | optional |" in lines  # KeelholdObservation: total=False
    assert "- `KeelholdAction` = `Place` | `CastOff` | `EndRun`" in lines
    page = (DOCS / "writing-a-bot.md").read_text(encoding="utf-8")
    assert "\n".join(lines) in page


def test_the_cli_page_has_every_command_and_every_long_option_as_code() -> None:
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    for name in _commands():
        assert f"## `sunbot {name}`" in page, name
    for option in _long_options():
        assert re.search(rf"`[^`\n]*{re.escape(option)}\b[^`\n]*`", page), option
    # no long option outside a code span, where typesetting could turn -- into a dash
    prose = re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", page, flags=re.S))
    assert not re.findall(r"(?<![\w-])--[a-z][\w-]*", prose)


def test_the_api_page_documents_every_public_name() -> None:
    page = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    public = set(sunbot.__all__) - set(sunbot_api.NOT_OBJECTS)
    assert public == sunbot_api.documented()
    for name in public:
        assert f"### `sunbot.{name}`" in page, name
    assert "**Args**" in page and "- `seed`: the run's seed" in page  # play_async's Args


def test_docstrings_become_markdown() -> None:
    doc = (
        "Play ``game``; see :func:`~sunbot.bench.run.bench` and :class:`the result <X>`.\n\n"
        "Use --server URL or --seeds=-3,5, e.g.::\n\n    sunbot play x\n    # two\n\n"
        "Args:\n    game: a slug, ``keelhold``\n        or another.\n    a, b: two.\n\n"
        "Returns:\n    A <b>summary</b>.\n"
    )
    assert sunbot_markdown.docstring(doc).splitlines() == [
        "Play `game`; see `bench` and `the result`.",
        "",
        "Use `--server URL` or `--seeds=-3,5`, e.g.:",
        "",
        "```python",
        "sunbot play x",
        "# two",
        "```",
        "",
        "**Args**",
        "",
        "- `game`: a slug, `keelhold` or another.",
        "- `a`, `b`: two.",
        "",
        "**Returns**",
        "",
        "A &lt;b>summary&lt;/b>.",
    ]


class _Text(HTMLParser):
    """The text of an HTML page outside <pre> blocks, and the tables' cells."""

    def __init__(self) -> None:
        super().__init__()
        self.pre = 0
        self.text: list[str] = []
        self.pre_text: list[str] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "pre":
            self.pre += 1
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.pre -= 1
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        (self.pre_text if self.pre else self.text).append(data)
        if self._cell is not None:
            self._cell.append(data)


def _parse(path: Path) -> _Text:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The docs site built as .ci/run builds it (warnings are errors)."""
    pytest.importorskip("myst_parser")
    from sphinx.cmd.build import build_main

    out = tmp_path_factory.mktemp("site")
    code = build_main(["-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)])
    assert code == 0, "sphinx-build -W failed"
    yield out


@pytest.mark.docs
def test_the_built_observation_reference_is_tables_not_code(site: Path) -> None:
    page = _parse(site / "writing-a-bot.html")
    html = (site / "writing-a-bot.html").read_text(encoding="utf-8")
    source = (DOCS / "writing-a-bot.md").read_text(encoding="utf-8")
    tables = source.count("| field | type | sent |")
    assert tables >= 20  # every TypedDict of the four games
    assert html.count("<table") >= tables
    assert "list-table" not in html and "| field |" not in "".join(page.pre_text)
    assert "safeBays" in page.cells and "int | None" in page.cells  # a cell, pipe unescaped


@pytest.mark.docs
def test_the_built_cli_reference_has_every_option_unmangled(site: Path) -> None:
    page = _parse(site / "reference" / "cli.html")
    text = "".join(page.text)
    assert "\u2013" not in text and "\u2014" not in text  # no en or em dash anywhere
    words = set(re.findall(r"--[a-z][\w-]*", text))
    assert _long_options() <= words, _long_options() - words
    for name in _commands():
        assert f"sunbot {name}" in text


@pytest.mark.docs
def test_the_built_api_reference_renders_sections_and_tables(site: Path) -> None:
    html = (site / "reference" / "api.html").read_text(encoding="utf-8")
    page = _parse(site / "reference" / "api.html")
    text = "".join(page.text)
    for name in set(sunbot.__all__) - set(sunbot_api.NOT_OBJECTS):
        assert f"sunbot.{name}" in text, name
    assert "<strong>Args</strong>" in html and "**Args**" not in text
    assert "endedBy" in page.cells  # the Outcome TypedDict's table
