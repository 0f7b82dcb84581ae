"""The tutorials run as written: every page of docs/tutorials/ becomes one bash script, run in
a fresh folder (marked ``docs``; ``.ci/run`` runs them).

How a page's fenced code blocks are read (also in docs/contributing.md):

- ``sh`` blocks run in order, in one bash session (``set -euo pipefail``), so an
  ``export`` or a ``cd`` holds for the blocks after it. A line ending in ``&`` starts a
  background process (stopped when the page ends); when it has ``--port N``, the script
  waits until that port answers, and every ``N`` on the page is swapped for a free port.
- A block whose first line is a comment naming a file (``# mybot.py``, ``{# p.j2 #}``) is
  written to that file; a later block of the same name replaces it.
- Any other ``python`` block runs with ``python -``, self-contained (its own imports).
- Other blocks (``text``, ``js``, output) are shown, not run; so is a block right after an
  ``<!-- not run -->`` line.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "docs" / "tutorials"
PAGES = sorted(p for p in TUTORIALS.glob("*.md") if p.name != "index.md")

_FENCE = re.compile(
    r"^(?P<fence>`{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S
)
_FILE = re.compile(r"^(?:#|\{#)\s*([\w./-]+\.\w+)\s*(?:#\})?\s*$")
_PORT = re.compile(r"--port[ =](\d{4,5})\b")
#: Seconds a page may take (a bound, not a measure: each page runs in seconds).
PAGE_TIMEOUT_S = 600


def blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of every fenced block to run, in order (see the module
    docstring); a block after ``<!-- not run -->`` is left out."""
    out = []
    for m in _FENCE.finditer(text):
        before = text[: m.start()].rstrip().rsplit("\n", 1)[-1]
        if before.strip() == "<!-- not run -->":
            continue
        out.append(((m.group("info").split() or [""])[0], m.group("body")))
    return out


def _wait_for(port: str) -> str:
    """A bash line waiting (60 s at most) until something answers on ``port``."""
    return (
        f"for _ in $(seq 600); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break;"
        " sleep 0.1; done"
    )


def script(text: str) -> str:
    """The bash script of a page (see the module docstring)."""
    lines = ["set -euo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"]
    for n, (lang, body) in enumerate(blocks(text)):
        first = body.split("\n", 1)[0].strip()
        named = _FILE.match(first)
        if named and lang not in ("sh", "bash", "console", "text"):
            lines.append(f"cat > {shlex.quote(named.group(1))} <<'TUTORIAL_EOF_{n}'")
            lines += [body.rstrip("\n"), f"TUTORIAL_EOF_{n}"]
        elif lang in ("sh", "bash"):
            for line in body.splitlines():
                lines.append(line)
                port = _PORT.search(line)
                if line.rstrip().endswith("&") and port:
                    lines.append(_wait_for(port.group(1)))
        elif lang == "python":
            lines += [f"python - <<'TUTORIAL_EOF_{n}'", body.rstrip("\n"), f"TUTORIAL_EOF_{n}"]
    return "\n".join(lines) + "\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_free_ports(text: str) -> str:
    """``text`` with each port a ``--port N`` names swapped for a free one, everywhere."""
    for port in sorted(set(_PORT.findall(text))):
        text = re.sub(rf"\b{port}\b", str(_free_port()), text)
    return text


def test_a_page_becomes_a_script() -> None:
    page = (
        "Text.\n\n```sh\nsunbot games\nserve --port 8123 &\n```\n\n"
        "```python\n# bot.py\nclass B: ...\n```\n\n```python\nprint(1)\n```\n\n"
        "<!-- not run -->\n```sh\nrm -rf /\n```\n\n```text\noutput\n```\n\n"
        "````jinja\n{# p.j2 #}\n```legal-actions\n```\n````\n"
    )
    got = script(page).splitlines()
    assert got[2:4] == ["sunbot games", "serve --port 8123 &"]
    assert got[4].startswith("for _ in $(seq 600)") and "/127.0.0.1/8123)" in got[4]
    assert got[5:8] == ["cat > bot.py <<'TUTORIAL_EOF_1'", "# bot.py", "class B: ..."]
    assert got[9:12] == ["python - <<'TUTORIAL_EOF_2'", "print(1)", "TUTORIAL_EOF_2"]
    assert "rm -rf /" not in got and "output" not in got
    assert got[12:16] == ["cat > p.j2 <<'TUTORIAL_EOF_4'", "{# p.j2 #}", "```legal-actions", "```"]
    assert "8123" not in with_free_ports(page)


def test_there_are_five_tutorials_in_the_index() -> None:
    index = (TUTORIALS / "index.md").read_text(encoding="utf-8")
    assert len(PAGES) == 5
    for page in PAGES:
        assert f"({page.name})" in index and f"\n{page.stem}\n" in index, page.name
        assert script(page.read_text(encoding="utf-8")).count("\n") > 5, page.name


@pytest.mark.docs
@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_the_tutorial_runs_as_written(page: Path, tmp_path: Path) -> None:
    text = with_free_ports(page.read_text(encoding="utf-8"))
    (tmp_path / "tutorial.sh").write_text(script(text), encoding="utf-8")
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("OPENAI_BASE_URL", None)
    env.pop("OPENAI_API_KEY", None)
    done = subprocess.run(
        ["bash", "tutorial.sh"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=PAGE_TIMEOUT_S, start_new_session=True,
    )  # fmt: skip
    assert done.returncode == 0, f"{page.name}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
