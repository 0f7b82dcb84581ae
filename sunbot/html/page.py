"""The replay page document: the run as JSON inside one HTML file with its CSS and scripts.

No part of the transcript is written into the markup: it travels as JSON in a
``<script type="application/json">`` element (``<``, ``>``, ``&`` and the JS line separators
escaped, so no text can close it) and the scripts put it on the page as text. A
Content-Security-Policy allows only the page's own script (by its hash) and no network
source at all, so even a broken escape could neither run injected script nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from sunbot._text.atomic_write import write_atomic
from sunbot.games import GAMES
from sunbot.html.steps import build, our_seats, page_module
from sunbot.mirror import Divergence
from sunbot.transcripts.jsonl import Transcript

_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
#: Bidirectional controls (embeddings, overrides, isolates, marks): text a server or a
#: player chose must not reorder what the page shows around it, so each is drawn as
#: U+FFFD, as in the terminal.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_BODY = """<body>
<header><h1 id="title">sunbot replay</h1><dl id="meta"></dl><p id="cut"></p></header>
<div id="controls">
<button id="first" title="first step (Home)">first</button>
<button id="prev" title="step back (&#x2190;)">&#x25c0; back</button>
<button id="play" title="play (space)">play</button>
<button id="next" title="step forward (&#x2192;)">forward &#x25b6;</button>
<button id="last" title="last step (End)">last</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="step">
<span id="counter"></span>
<select id="speed" aria-label="speed"><option value="1000">1 step/s</option>
<option value="400" selected>2.5 steps/s</option><option value="150">7 steps/s</option>
<option value="40">25 steps/s</option></select>
</div>
<section id="status">
<div><span class="k">the action that led here</span><span id="action"></span>
<span id="refused"></span></div>
<div><span class="k" id="score-label">score</span><span id="score"></span>
<span id="delta"></span></div>
<div><span class="k">progress</span><span id="progress"></span></div>
<div><span class="k">agent</span><span id="agent"></span></div>
<div id="nf"></div>
</section>
<main>
<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="board"></svg>
<div id="side">
<svg id="chart" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="score over time"></svg>
<p class="legend">line: the chart's value after each step (one line per seat when we play
several seats of a match) &#xb7; red dot: a step whose answer
{diverged} &#xb7; orange line: the step shown &#xb7; click to jump there.
Keys: <kbd>&#x2190;</kbd> <kbd>&#x2192;</kbd> step, <kbd>space</kbd> play/pause,
<kbd>Home</kbd> <kbd>End</kbd>.</p>
<div id="divergences"></div>
<div id="extra"></div>
</div>
</main>
"""


#: What the legend calls a red dot, and the divergence list a step without one: a game
#: with an engine is checked against its rules, any other only by the generic checks
#: (``docs/guide-any-game.md``), and its page must not claim rule checks.
_RULES = ("diverged from the rules", "the answer agrees with the rules")
_GENERIC = (
    "failed a generic check (sunbot has no rules engine for this game)",
    "the answer passes the generic checks",
)


def _asset(name: str) -> str:
    return (resources.files("sunbot.html") / "assets" / name).read_text(encoding="utf-8")


def embed_json(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script>`` element (no ``<``, ``>`` or ``&``),
    every bidirectional control drawn as U+FFFD."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    text = _BIDI.sub("\ufffd", text)
    for raw, escaped in _ESCAPES.items():
        text = text.replace(raw, escaped)
    return text


def _meta(t: Transcript) -> list[list[str]]:
    h = t.header
    rows = [
        ["game", str(h.get("game"))],
        ["seed", str(h.get("seed"))],
        ["strategy", str(h.get("strategy"))],
        ["server", str(h.get("server"))],
        ["sunbot", str(h.get("sunbotVersion"))],
        ["started", str(h.get("startedAt"))],
    ]
    if h.get("cap") is not None:
        rows.append(["cap", str(h["cap"])])
    r = t.result
    if r is None:
        rows.append(["result", "none (the run did not finish)"])
    else:
        ended = str(r.get("endedBy")) + (f" ({r['cause']})" if r.get("cause") else "")
        rows += [["final score", str(r.get("score"))], ["ended by", ended]]
        rows += [["steps", str(r.get("steps"))], ["divergences", str(r.get("divergences"))]]
        if r.get("timeouts"):  # a match's missed beats (a single-player run marks its steps)
            rows.append(["timeouts", str(r["timeouts"])])
    return rows


def _count_found(
    meta: list[list[str]], steps: list[dict[str, Any]], rechecked: bool, generic: bool
) -> None:
    """Put the offline check's own count into the ``divergences`` row: ``"0 recorded, 1
    found on re-play"`` (the result line's count alone would contradict the steps); for a
    game without an engine (``generic``) ``"found by the generic checks"``."""
    if not rechecked:
        return
    found = sum(d.get("source") == "re-play" for s in steps for d in s["dv"])
    how = "found by the generic checks" if generic else "found on re-play"
    recorded = next((row for row in meta if row[0] == "divergences"), None)
    if recorded is None:  # no result line: nothing was recorded as a count
        meta.append(["divergences", f"{found} {how}"])
    else:
        recorded[1] = f"{recorded[1]} recorded, {found} {how}"


def replay_page(t: Transcript, extra: Sequence[Divergence] = (), *, rechecked: bool = False) -> str:
    """The whole replay page of transcript ``t`` as one HTML document.

    Args:
        extra: findings of an offline check (``sunbot replay``), shown on their steps
            alongside the divergences the transcript recorded.
        rechecked: an offline check ran (``extra`` holds all it found, maybe nothing): the
            header then counts both, ``divergences 0 recorded, 1 found on re-play``.

    Raises:
        KeyError: a match game sunbot has no page for.
    """
    game = str(t.header["game"])
    info, drawing = page_module(game)
    steps, frames = build(t, extra)
    meta = _meta(t)
    generic = game not in GAMES
    if generic:  # say it where the divergences are counted: 0 of them proves no rule
        meta.append(["rules", "not checked (sunbot has no rules engine for this game)"])
    _count_found(meta, steps, rechecked, generic)
    seats = our_seats(t) if t.is_match else []
    checks = _GENERIC if generic else _RULES
    label = "score" if not t.is_match else "our food" if len(seats) <= 1 else "our seats' food"
    data = {
        "game": game,
        "name": info.name,
        "header": {"seed": t.header.get("seed")},
        "meta": meta + ([["our seats", ", ".join(map(str, seats))]] if seats else []),
        "cut": t.error,
        "scoreLabel": label,
        "seats": seats,
        "steps": steps,
        "frames": frames,
        "checks": {"agrees": checks[1]},
    }
    # the game's script is named like its drawing module: sunbot.html.harvest_watch draws
    # with assets/harvest_watch.js
    own = f"{drawing.__name__.rpartition('.')[2]}.js"
    script = "\n".join([_asset("page.js"), _asset(own), "SB.start();"])
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    title = html.escape(f"sunbot replay · {data['name']} · seed {t.header.get('seed')}")
    return "".join(
        [
            "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>\n",
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n',
            "<meta name='viewport' content='width=device-width, initial-scale=1'>\n",
            f"<title>{title}</title>\n<style>\n{_asset('page.css')}</style></head>\n",
            _BODY.replace("{diverged}", checks[0]),
            '<script type="application/json" id="sunbot-data">',
            embed_json(data),
            "</script>\n<script>",
            script,
            "</script>\n</body></html>\n",
        ]
    )


def is_replay_page(path: Path) -> bool:
    """Whether ``path`` holds a page :func:`replay_page` wrote: its first 4 KiB open with
    the doctype and hold the page's title (``sunbot replay · ...``)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return head.startswith(b"<!doctype html>") and b"<title>sunbot replay" in head


def write_replay_page(
    t: Transcript,
    out: Path,
    extra: Sequence[Divergence] = (),
    source: Path | None = None,
    *,
    rechecked: bool = False,
) -> int:
    """Write :func:`replay_page` of ``t`` to ``out`` (replacing an older replay page, never
    another file); returns the bytes written. ``source``: the transcript's own path, which
    is never overwritten; ``extra``, ``rechecked``: as :func:`replay_page`.

    Raises:
        ValueError: ``out`` is the transcript, a directory or an existing file that is not
        a replay page, or its folder does not exist (it is never created: a mistyped path
        fails instead of growing folders).
        KeyError: the game has no replay page. OSError: ``out`` cannot be written.
    """
    if source is not None and out.exists() and out.resolve() == source.resolve():
        raise ValueError(f"{out} is the transcript; choose another --html path")
    if out.is_dir():
        raise ValueError(f"{out} is a directory; --html needs a file path")
    if out.exists() and not is_replay_page(out):
        raise ValueError(f"{out} exists and is not a replay page; choose another --html path")
    if not out.parent.is_dir():
        raise ValueError(f"no folder {out.parent} (create it first)")
    # a lone surrogate a server sent (UTF-8 cannot hold it) becomes its backslash-u escape,
    # which inside the embedded JSON reads back as the very same string
    text = replay_page(t, extra, rechecked=rechecked).encode("utf-8", "backslashreplace")
    return write_atomic(out, text)  # whole or not at all: a full disk leaves no empty page
