"""A game's position for the client: the structured :class:`~sunbot.mcp.models.Position`
and the same as text an assistant reads well (the game's terminal view, from
:mod:`sunbot.views`, laid out as plain text; then the legal actions, numbered)."""

from __future__ import annotations

import json
import time
from typing import Any

from sunbot import views
from sunbot._text.terminal import outside, tidy
from sunbot.mcp.game import McpGame
from sunbot.mcp.models import Checks, Position
from sunbot.runs.seats import seat_score
from sunbot.views.text import plain_text

__all__ = ["MAX_LISTED", "position", "replay_uri", "text_of"]

#: Legal actions listed in the text (the JSON has them all).
MAX_LISTED = 60
#: Characters of one listed action.
_ACTION_CHARS = 200
#: Fields of a result line the client is shown.
_RESULT_FIELDS = (
    "score", "gameOver", "steps", "refused", "endedBy", "cause", "error", "divergences",
    "responsesChecked", "ranks", "matchId",
)  # fmt: skip


def replay_uri(game_id: str) -> str:
    """The MCP resource of a game's replay page."""
    return f"sunbot://replay/{game_id}"


def _status(game: McpGame) -> str:
    if game.finished:
        return "stopped" if game.stop_reason or _ended_by(game) == "interrupted" else "over"
    return "your-turn" if game.turn is not None else "waiting"


def _ended_by(game: McpGame) -> str | None:
    return None if game.result is None else str(game.result.get("endedBy"))


def position(game: McpGame) -> Position:
    """Where ``game`` stands now."""
    turn = game.turn
    pos = game.position
    match = game.kind == "match"
    if turn is not None:
        observation, legal = turn.observation, turn.legal_actions
    elif match:
        observation, legal = _final_data(game) or game.seen, []
    else:
        observation = pos.observation if pos is not None else None
        legal = [] if game.finished or pos is None else pos.legal_actions
    left = None
    if turn is not None and turn.deadline is not None:
        left = round(max(turn.deadline - time.monotonic(), 0.0), 1)
    checked, found = game.match_checks() if match else (game.checked, game.divergences)
    result = None
    if game.result is not None:
        result = {k: game.result[k] for k in _RESULT_FIELDS if k in game.result}
    elif game.finished and game.error is not None:
        result = {"endedBy": "error", "error": game.error}
    score: int | float | None
    if match:  # our seat's score: the seats ranked below it (the summary's is our best seat's)
        ranks = game.summary.ranks if game.summary is not None else None
        score = seat_score(game.seat or 0, ranks) if ranks else None
        over = game.summary is not None and game.summary.game_over
        if result is not None and "score" in result:
            result["score"] = score
    else:
        score = pos.score if pos is not None else None
        over = bool(pos is not None and pos.game_over)
    return Position(
        game=game.id,
        slug=game.slug,
        status=_status(game),  # type: ignore[arg-type]
        step=game.sent if match else game.step,
        score=score,
        gameOver=over,
        observation=observation,
        legalActions=legal,
        secondsLeft=left,
        seat=game.seat,
        checks=Checks(
            kind="generic" if game.kind == "generic" else "rules",
            responsesChecked=checked,
            divergences=found,
        ),
        result=result,
        stopReason=game.stop_reason,
        transcript=game.path.name,
        replay=replay_uri(game.id),
    )


def _final_data(game: McpGame) -> Any:
    """A finished match's last view ``data`` (``None`` before any)."""
    view = game.summary.final_view if game.summary is not None else None
    return view.get("data") if isinstance(view, dict) else None


def _view(game: McpGame, pos: Position) -> str:
    """The game's terminal view of the position, as plain text."""
    obs = pos.observation
    if obs is None:
        return "(no position yet)\n"
    if game.kind == "match":
        from sunbot.views import harvest_watch

        if not isinstance(obs, dict):
            return "(no view yet)\n"
        ours = [game.seat] if game.seat is not None else []
        return plain_text(harvest_watch.render(tidy(obs), ours=ours))
    answer = game.position
    if game.kind == "generic" or answer is None:
        from sunbot.views import generic

        return plain_text(
            generic.render(
                tidy(obs),
                score=pos.score,
                step=pos.step,
                legal=len(pos.legalActions),
                over=pos.gameOver,
            )
        )
    shown = answer.shown
    return plain_text(views.render(game.slug, shown if isinstance(shown, dict) else obs))


def _action_line(i: int, action: Any) -> str:
    text = json.dumps(action, ensure_ascii=False, separators=(", ", ": "))
    if len(text) > _ACTION_CHARS:
        text = text[: _ACTION_CHARS - 1] + "…"
    return f"  [{i}] {outside(text, _ACTION_CHARS + 10)}"


def text_of(game: McpGame, pos: Position, note: str | None = None) -> str:
    """``pos`` as text: a head line, ``note`` (what became of an action), the view, the
    legal actions numbered for ``act(choice=N)``, or how the game ended."""
    head = f"{game.slug} (game {game.id}), seed {game.seed}, step {pos.step}"
    if pos.seat is not None:
        head += f", seat {pos.seat}"
    if pos.score is not None:
        head += f", score {pos.score}"
    lines = [head]
    if note:
        lines.append(note)
    lines.append(_view(game, pos).rstrip("\n"))
    if pos.status == "your-turn":
        when = f" ({pos.secondsLeft:.0f} s left on this beat)" if pos.secondsLeft else ""
        lines.append(f"Your turn{when}. Legal actions ({len(pos.legalActions)}):")
        lines += [_action_line(i, a) for i, a in enumerate(pos.legalActions[:MAX_LISTED])]
        if len(pos.legalActions) > MAX_LISTED:
            lines.append(f"  ... {len(pos.legalActions) - MAX_LISTED} more in legalActions")
        if game.kind == "match" and pos.legalActions and _is_text_beat(pos.legalActions):
            lines.append("  (any text of the allowed length in place of the example)")
        lines.append("Play with act(game, choice=N) or act(game, action=<one of them>).")
    elif pos.status == "waiting":
        lines.append("Waiting: the game goes on without you for now; observe again.")
    else:
        r = pos.result or {}
        how = f"{pos.status}: ended by {r.get('endedBy', '?')}"
        if r.get("error"):
            how += f" ({r['error']})"
        if pos.stopReason:
            how += f"; {pos.stopReason}"
        lines.append(how)
        lines.append(
            f"checks ({pos.checks.kind}): {pos.checks.responsesChecked} answers checked, "
            f"{pos.checks.divergences} divergences; transcript {pos.transcript}; "
            f"replay page {pos.replay}"
        )
    return "\n".join(lines) + "\n"


def _is_text_beat(legal: list[Any]) -> bool:
    first = legal[0]
    return len(legal) == 1 and isinstance(first, dict) and list(first) in (["speech"], ["diary"])
