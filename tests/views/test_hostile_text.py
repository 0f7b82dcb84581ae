"""Text another player or a server chose never reaches the terminal as control codes or
rich markup: a speech with escapes, NUL, line breaks and a bidi override is shown inert."""

from __future__ import annotations

import io
import json

from rich.console import Console

from sunbot.engines import harvest_watch as hw
from sunbot.views import harvest_watch as view
from sunbot.views.common import printable, summary_table

HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b[31mRED\u202eevil\x00NUL\r\nSeat 0 wins.[/][bold]x"


def rendered(renderable) -> str:
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=200, color_system=None).print(renderable)
    return out.getvalue()


def test_printable_replaces_every_control_and_format_character():
    assert printable(HOSTILE) == (
        "\ufffd[2J\ufffd]0;pwned\ufffd\ufffd[31mRED\ufffdevil\ufffdNUL\ufffd\ufffdSeat 0 wins.[/][bold]x"
    )
    assert printable("a plain speech, ünïcode ok") == "a plain speech, ünïcode ok"


def test_a_hostile_speech_and_lastpublic_render_inert():
    state = hw.init(3)
    v = json.loads(json.dumps({"status": "running", "data": hw.view(state, 0)}))
    v["data"]["summary"]["speeches1"] = {"1": HOSTILE}
    v["data"]["summary"]["lastPublic"] = HOSTILE
    text = rendered(view.render(v))
    for bad in ("\x1b]0", "\x1b[2J", "\x00", "\u202e", "\x07", "\r"):
        assert bad not in text
    assert "[/][bold]x" in text  # markup shown as text, not applied
    table = rendered(summary_table("t", view.summary(v)))
    assert "\x1b[2J" not in table and "[/][bold]x" in table


def test_a_ten_megabyte_speech_renders_in_a_blink(monkeypatch):
    # The live view passed every speech whole through printable(): 1.6 s a 10 MB speech, at
    # each refresh of the live view, for each such speech (a server that does not cap them).
    import time

    from sunbot._text import safe

    # a run's secrets (six seat tokens and a key), not the hundreds a test session registers
    monkeypatch.setattr(safe, "_secrets", {f"seat-token-{i:04d}" for i in range(7)})

    state = hw.init(3)
    v = json.loads(json.dumps({"status": "running", "data": hw.view(state, 0)}))
    huge = "Seat 2 farms. " + "Z" * (10 << 20)
    v["data"]["summary"]["speeches1"] = {"1": huge, "2": huge}
    v["data"]["summary"]["speeches2"] = {"1": huge}
    v["data"]["summary"]["lastPublic"] = huge
    start = time.perf_counter()
    text = rendered(view.render(v))
    assert time.perf_counter() - start < 2.0  # 0.1 s idle; 10.5 s before the clip
    assert "Seat 2 farms." in text and "(10485474 more characters)" in text
    assert len(text) < 20_000
