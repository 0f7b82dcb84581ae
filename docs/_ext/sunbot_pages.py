"""The generated parts of the docs pages, committed into the Markdown files.

The observation tables of ``docs/writing-a-bot.md``, the command line reference
``docs/reference/cli.md`` and the Python API reference ``docs/reference/api.md`` are made
from the code (:mod:`sunbot_observations`, :mod:`sunbot_cli`, :mod:`sunbot_api`) and
written into the pages between two markers::

    <!-- generated: NAME (python docs/_ext/sunbot_pages.py) -->
    ...
    <!-- end generated: NAME -->

so a page reads the same on a code host as on the built site. After changing a typed
observation, a command's options or a public docstring::

    python docs/_ext/sunbot_pages.py            # rewrite every generated block
    python docs/_ext/sunbot_pages.py --check    # exit 1 naming each stale block

``tests/docs/test_generated_pages.py`` fails while a block is stale, and so does the docs
build (this module is also a Sphinx extension: it warns, and ``-W`` makes that an error).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
if str(HERE) not in sys.path:  # run as a script: the sibling modules
    sys.path.insert(0, str(HERE))

COMMAND = "python docs/_ext/sunbot_pages.py"


def _observations(module: str) -> Callable[[], list[str]]:
    def make() -> list[str]:
        import sunbot_observations

        return sunbot_observations.render(module)

    return make


def _cli() -> list[str]:
    import sunbot_cli

    return sunbot_cli.render()


def _api() -> list[str]:
    import sunbot_api

    return sunbot_api.render()


#: (page under docs/, block name) -> the block's lines.
BLOCKS: dict[tuple[str, str], Callable[[], list[str]]] = {
    ("writing-a-bot.md", "observations-keelhold"): _observations("sunbot.observations.keelhold"),
    ("writing-a-bot.md", "observations-sunloaf"): _observations("sunbot.observations.sunloaf"),
    ("writing-a-bot.md", "observations-naptuft"): _observations("sunbot.observations.naptuft"),
    ("writing-a-bot.md", "observations-harvest-watch"): _observations(
        "sunbot.observations.harvest_watch"
    ),
    ("reference/cli.md", "cli"): _cli,
    ("reference/api.md", "api"): _api,
}


def markers(name: str) -> tuple[str, str]:
    """The start and end marker lines of block ``name``."""
    return f"<!-- generated: {name} ({COMMAND}) -->", f"<!-- end generated: {name} -->"


def _pattern(name: str) -> re.Pattern[str]:
    start, end = markers(name)
    return re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.S)


def block_text(name: str, lines: list[str]) -> str:
    """Block ``name`` as it stands in a page: the markers around ``lines``."""
    start, end = markers(name)
    return "\n".join([start, "", *lines, "", end])


def updated(text: str, name: str, lines: list[str]) -> str:
    """``text`` (a page) with block ``name`` holding ``lines``.

    Raises ``ValueError`` when the page has no such block (its markers are missing).
    """
    pattern = _pattern(name)
    if pattern.search(text) is None:
        raise ValueError(f"no block {name!r}: add the two marker lines {markers(name)}")
    return pattern.sub(lambda _: block_text(name, lines), text, count=1)


def pages() -> dict[Path, str]:
    """Every page holding a generated block, as it should read now."""
    out: dict[Path, str] = {}
    for (page, name), make in BLOCKS.items():
        path = DOCS / page
        text = out.get(path) or path.read_text(encoding="utf-8")
        out[path] = updated(text, name, make())
    return out


def stale() -> list[str]:
    """``page: block`` of each generated block that differs from what the code makes."""
    found = []
    for (page, name), make in BLOCKS.items():
        text = (DOCS / page).read_text(encoding="utf-8")
        match = _pattern(name).search(text)
        if match is None or match.group(0) != block_text(name, make()):
            found.append(f"docs/{page}: {name}")
    return found


def write() -> list[Path]:
    """Rewrite the pages whose generated blocks changed; returns their paths."""
    changed = []
    for path, text in pages().items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    """``--check``: exit 1 listing the stale blocks; else rewrite them."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        found = stale()
        for line in found:
            print(f"stale: {line} (run {COMMAND})")
        return 1 if found else 0
    if args:
        print(f"usage: {COMMAND} [--check]", file=sys.stderr)
        return 2
    for path in write():
        print(f"wrote {path.relative_to(DOCS.parent)}")
    return 0


def _check_at_build(app: Any) -> None:
    from sphinx.util import logging

    for line in stale():
        logging.getLogger(__name__).warning(f"generated block is stale: {line}; run {COMMAND}")


def setup(app: Any) -> dict[str, Any]:
    """Sphinx extension: warn at the start of a build for each stale generated block."""
    app.connect("builder-inited", _check_at_build)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    sys.exit(main())
