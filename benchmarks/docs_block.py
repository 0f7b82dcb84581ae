"""Write a benchmark's table into its docs page: ``--write-docs`` for the scripts here.

A page of ``docs/benchmarks/`` holds one marked block per table::

    <!-- bench:NAME start -->
    ...generated: the date, the command, the machine, the table...
    <!-- bench:NAME end -->

:func:`write_block` replaces what lies between the two markers (or appends a new block at
the end of the page) and leaves the rest of the page, the prose around the table, as it
is. The block says when and where it was measured, so a table is never undated.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import re
import shlex
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks"


def machine() -> str:
    """``"2 cores, Linux x86_64, Python 3.11.9, load average 1.2"``: where a figure was made."""
    cores = os.cpu_count() or 0
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (
        f"{cores} cores, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}{load}"
    )


def command() -> str:
    """The command line that is running, as ``python benchmarks/<script>.py ARGS``."""
    script = Path(sys.argv[0])
    args = [a for a in sys.argv[1:] if a != "--write-docs"]
    return shlex.join(["python", f"benchmarks/{script.name}", *args])


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table from a header and rows of cells (already formatted as text)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_block(page: str, name: str, body: str, *, today: _dt.date | None = None) -> Path:
    """Put ``body`` (Markdown) into block ``name`` of ``docs/benchmarks/<page>.md``.

    The block starts with the date (``today``, default the local date), the command and the
    machine. Returns the page's path. Raises ``FileNotFoundError`` when the page does not
    exist and ``ValueError`` when ``name`` is not letters, digits, ``-`` or ``_``.
    """
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ValueError(f"block name {name!r}: letters, digits, '-' or '_' only")
    path = DOCS / f"{page}.md"
    text = path.read_text(encoding="utf-8")
    day = (today or _dt.date.today()).isoformat()
    start, end = f"<!-- bench:{name} start -->", f"<!-- bench:{name} end -->"
    block = f"{start}\nMeasured {day} with `{command()}` on {machine()}.\n\n{body.strip()}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
    return path
