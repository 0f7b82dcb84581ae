"""`sunbot export --format md`: server text is shown in the table, never rendered as HTML or
as a link by a Markdown viewer."""

from __future__ import annotations

from sunbot.transcripts.export import to_markdown
from sunbot.transcripts.jsonl import Transcript

HTML = "<img src=x onerror=alert(1)><script>alert(2)</script> & co"
LINK = "[click here](javascript:alert(3)) ![x](http://127.0.0.1/t.png)"
_HEAD = {"type": "header", "schemaVersion": 1, "seed": 7, "strategy": "first-safe<b>",
         "server": "http://127.0.0.1:9", "sunbotVersion": "0", "startedAt": "now",
         "game": "keelhold"}  # fmt: skip
_MIRROR = {"ok": True, "divergences": []}


def test_markup_in_server_text_is_written_inert():
    # Raw HTML and links in a cause or a refusal reason went into the table as they came:
    # a viewer that renders HTML in Markdown (many do) ran the image's onerror.
    state = {"voyage": 1, "turn": 0, "phase": "loading", "cause": HTML}
    init = {"type": "init", "response": {"ok": True, "state": state, "score": 0},
            "mirror": _MIRROR, "elapsedMs": 1}  # fmt: skip
    refused = {"type": "step", "index": 1, "action": {"type": "PLACE", "bay": 9},
               "response": {"ok": False, "reason": LINK}, "mirror": _MIRROR, "elapsedMs": 1}  # fmt: skip
    md = to_markdown(Transcript(header=_HEAD, init=init, steps=[refused]))
    assert "<" not in md and ">" not in md
    assert "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; co" in md
    assert "\\[click here\\](javascript:alert(3)) !\\[x\\](http://127.0.0.1/t.png)" in md
    assert md.startswith("# keelhold · seed 7 · first-safe&lt;b&gt; (http://127.0.0.1:9)")
