"""Turn a transcript into a per-step table (CSV or Markdown) for reading elsewhere."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from typing import Any

from sunbot._text import csv_cells
from sunbot._text.terminal import outside, printable
from sunbot.games import get_game
from sunbot.transcripts.jsonl import Transcript


def rows(t: Transcript) -> list[dict[str, Any]]:
    """One row per answer (init as step 0): index, action, ok, score, key state fields.

    Key fields are the game's view summary (e.g. Keelhold: voyage, placements, cause) plus
    ``phase``; a refused step has ``ok`` false and the ``reason``.
    """
    game = str(t.header["game"])
    if t.is_match:
        return _match_rows(t)
    answers: list[tuple[int, Any, dict[str, Any]]] = []
    if t.init is not None:
        answers.append((0, None, t.init["response"]))
    answers += [(int(s["index"]), s["action"], s["response"]) for s in t.steps]
    out: list[dict[str, Any]] = []
    for index, action, resp in answers:
        ok = resp.get("ok") is not False
        row: dict[str, Any] = {
            "step": index,
            "action": "" if action is None else json.dumps(action, separators=(",", ":")),
            "ok": ok,
            "score": resp.get("score", ""),
        }
        state = resp.get("state") or resp.get("observation")
        if ok and isinstance(state, dict):
            row["phase"] = state.get("phase", "")
            with contextlib.suppress(KeyError, TypeError):
                row.update(get_game(game).closing_summary(state))
        else:
            row["reason"] = resp.get("reason", "")
        out.append(row)
    return out


def _match_rows(t: Transcript) -> list[dict[str, Any]]:
    """A match transcript: one row per view read (seat, round, phase and the view's
    summary fields), and the command each seat sent just before it."""
    out: list[dict[str, Any]] = []
    sent: dict[int, Any] = {}
    for rec in t.other:
        seat = rec.get("seat")
        if rec["type"] == "command":
            body = rec.get("body") or {}
            sent[int(seat or 0)] = body.get("actions")
            continue
        view = rec.get("body")
        if rec["type"] != "view" or not isinstance(view, dict):
            continue
        data = view.get("data") or {}
        actions = sent.pop(int(seat or 0), None)
        row: dict[str, Any] = {
            "step": rec.get("index", ""),
            "seat": seat,
            "action": "" if actions is None else json.dumps(actions, separators=(",", ":")),
            "round": data.get("round", ""),
            "phase": data.get("phase", ""),
        }
        with contextlib.suppress(KeyError, TypeError, AttributeError):
            row.update(
                {
                    k: v
                    for k, v in get_game("harvest-watch").closing_summary(view).items()
                    if k != "seat"
                }
            )
        out.append(row)
    return out


def _columns(table: list[dict[str, Any]]) -> list[str]:
    cols: list[str] = []
    for row in table:
        cols += [k for k in row if k not in cols]
    return cols


def _cell(value: Any) -> Any:
    """Table cells: ``None`` is empty, booleans are ``true``/``false`` (as in JSON)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _text_cell(value: Any) -> Any:
    """A CSV cell: :func:`_cell`, and a string with its control characters shown as
    ``\ufffd`` (a server's reason or cause may hold terminal escapes; the table may be
    printed). Not clipped: the CSV keeps the whole value."""
    value = _cell(value)
    return printable(value) if isinstance(value, str) else value


def to_csv(t: Transcript) -> str:
    """The table as CSV (header row first); no control character in any cell, and no cell
    a spreadsheet would run as a formula (:func:`sunbot._text.csv_cells.cell`: server text
    such as ``=HYPERLINK(..)`` gets a ``'`` in front; numbers stay numbers)."""
    table = [{printable(k): _text_cell(v) for k, v in row.items()} for row in rows(t)]
    cols = _columns(table)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(csv_cells.row(cols))
    writer.writerows(csv_cells.row(r.get(c, "") for c in cols) for r in table)
    return buf.getvalue()


def to_markdown(t: Transcript) -> str:
    """The table as a GitHub-flavoured Markdown table, with a title line. Every cell and
    the title's fields are outside text: clipped to :data:`~sunbot._text.safe.MAX_TEXT`
    characters, control characters shown as ``\ufffd`` (:func:`~sunbot._text.terminal.outside`),
    HTML, link brackets and ``|`` escaped (a viewer renders neither a tag nor a link)."""
    table = rows(t)
    cols = _columns(table)
    head = {k: _md(t.header.get(k)) for k in ("game", "seed", "strategy", "server")}
    lines = [
        f"# {head['game']} · seed {head['seed']} · {head['strategy']} ({head['server']})",
        "",
        "| " + " | ".join(_md(c) for c in cols) + " |",
        "|" + "---|" * len(cols),
    ]
    for row in table:
        cells = [_md(_cell(row.get(c))) for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


#: What a Markdown cell of outside text escapes: HTML (a viewer may render it: an image's
#: ``onerror``), link brackets (a live ``[click](…)``) and the cell separator.
_MD_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "\\[", "]": "\\]", "|": "\\|"}


def _md(value: Any) -> str:
    return "".join(_MD_ESCAPES.get(c, c) for c in outside(value))
