"""Whether a transcript's lines fit together, before ``--resume`` or ``replay`` trusts them.

The schema (:mod:`sunbot.transcripts.schema`) checks each line on its own; a hand-edited or
forged file can still hold lines that do not fit one run: a step index that is not a whole
number (``"31"``), that skips (``1, 2, 1000000000``) or goes back, or a header naming
another game than the one the answers are of (a Keelhold run relabelled ``sunloaf``).
:func:`check_lines` refuses such a file with one line naming the first line that does not
fit, before any of it reaches a strategy, a mirror or a server.

Checked (single-player transcripts; a match's views are checked by the seat mirror):

- **indices**: the step lines are numbered 1, 2, 3, ... in file order, as the runner writes
  them (a resumed run continues the numbering), each an ``int`` (not ``"3"`` nor ``3.0``);
- **game**: every accepted answer (init and each step not refused) is an answer of the
  header's game, by the fields that game's rules put in every answer
  (:attr:`sunbot.games.GameInfo.answer_fields`, the test the runner applies to a server).
"""

from __future__ import annotations

from typing import Any

from sunbot._text.terminal import outside
from sunbot.games import GAMES, GameInfo
from sunbot.transcripts.jsonl import Transcript


class Misfit(ValueError):
    """A transcript line that does not fit the lines before it or the header's game; the
    message is one line naming the file's line number."""


def line_of(t: Transcript, position: int) -> str:
    """``"line N"`` of the ``position``-th step line (0-based) when ``t`` was read from a
    file, else ``"step line K"`` (K from 1)."""
    if len(t.step_lines) == len(t.steps):
        return f"line {t.step_lines[position]}"
    return f"step line {position + 1}"


def init_line_of(t: Transcript) -> str:
    """``"line N"`` of the init line (``"the init line"`` when not read from a file)."""
    return f"line {t.init_line}" if t.init_line is not None else "the init line"


def check_lines(t: Transcript) -> None:
    """Check the step indices and the game of every accepted answer of ``t``.

    Raises:
        Misfit: the first line that does not fit, e.g. ``line 5: step index '31' is not a
            whole number (step lines are numbered 1, 2, 3, ... in order)`` or ``line 2: not
            an answer of sunloaf (it has no cats): the header's game is not the game of
            these steps``.
    """
    check_indices(t)
    check_game(t)


def check_indices(t: Transcript) -> None:
    """Each step line's ``index`` is the ``int`` one more than the line before it (1 first).

    Raises:
        Misfit: the first step line whose index is not that number.
    """
    for position, step in enumerate(t.steps):
        why = index_problem(step.get("index"), position + 1)
        if why is not None:
            raise Misfit(f"{line_of(t, position)}: {why}")


def index_problem(index: Any, want: int) -> str | None:
    """Why a step line's ``index`` does not fit as the ``want``-th step line (``None``: it
    fits), e.g. ``step index 7 where 3 belongs (after step 2); step lines are ...``."""
    if type(index) is not int:
        why = f"step index {outside(repr(index), 60)} is not a whole number"
    elif index != want:
        after = "the first step line" if want == 1 else f"after step {want - 1}"
        why = f"step index {index} where {want} belongs ({after})"
    else:
        return None
    return f"{why}; step lines are numbered 1, 2, 3, ... in order, with no gaps"


def check_game(t: Transcript) -> None:
    """Every accepted answer of ``t`` carries the header game's
    :attr:`~sunbot.games.GameInfo.answer_fields` (nothing is checked for a game sunbot
    does not know, nor for a match game).

    Raises:
        Misfit: the first answer without them.
    """
    game = GAMES.get(str(t.header.get("game")))
    if game is None or game.kind == "match" or not game.answer_fields:
        return
    answers: list[tuple[str, Any]] = []
    if t.init is not None:
        answers.append((init_line_of(t), t.init.get("response")))
    answers += [(line_of(t, i), s.get("response")) for i, s in enumerate(t.steps)]
    for where, response in answers:
        why = answer_problem(game, response)
        if why is not None:
            raise Misfit(f"{where}: {why}")


def answer_problem(game: GameInfo, response: Any) -> str | None:
    """Why ``response`` (an init or step line's) is not an answer of single-player
    ``game`` (``None``: it is one, or it is a refusal, which carries no position)."""
    if not isinstance(response, dict) or response.get("ok") is False or not game.answer_fields:
        return None
    obs = response.get("observation") or response.get("state")
    missing = (
        list(game.answer_fields)
        if not isinstance(obs, dict)
        else [f for f in game.answer_fields if f not in obs]
    )
    if not missing:
        return None
    return (
        f"not an answer of {game.slug} (it has no {', '.join(missing)}):"
        " the header's game is not the game of these answers"
    )
