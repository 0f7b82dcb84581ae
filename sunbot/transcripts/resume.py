"""Continue a run from its transcript (``sunbot play --resume FILE``).

After a crash, a kill or an outage, the transcript holds every whole step. Because the
single-player API is stateless, the last recorded answer (its ``stateToken`` or ``state``)
is all a server needs to go on. The strategy is rebuilt from the run's seed and shown every
recorded position again (its choices are discarded), so its random generator and memory
are where they were; the run then ends with the same final state as an uninterrupted one.

Nothing is sent before the file is trusted: its lines must fit one run
(:func:`~sunbot.transcripts.integrity.check_lines`), no recorded answer may diverge from the
rules where its recorded mirror verdict says it did not (an edited score or state), and a
run recorded on another server than the embedded one goes there only when the user names it
(:func:`resume_server`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot._text.terminal import outside
from sunbot.games import GAMES
from sunbot.mirror import Divergence, Mirror
from sunbot.transcripts.integrity import Misfit, check_lines, init_line_of, line_of
from sunbot.transcripts.jsonl import Transcript, read_transcript


@dataclass
class Resume:
    """Where and how a run continues.

    ``answer``: the last accepted answer (raw JSON); ``last_index``: the index of the last
    recorded step; ``history``: ``(observation, legal_actions, action)`` of every recorded
    step, in order, to replay into the strategy; ``init`` and ``recorded`` (``(action,
    answer)`` per step, the same objects as ``answer``) to warm the mirror up;
    ``offset``: the transcript is cut back to this byte offset before writing on.
    """

    header: dict[str, Any]
    answer: dict[str, Any]
    last_index: int
    history: list[tuple[dict[str, Any], list[Any], Any]] = field(default_factory=list)
    refused: int = 0
    checked: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    offset: int = 0
    init: dict[str, Any] = field(default_factory=dict)
    recorded: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)


class NoInitAnswer(ValueError):
    """The transcript stops before the server's init answer (killed right after its header):
    nothing to resume, but the run can start again from ``header`` in the same file."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        super().__init__(f"{path} has no init answer: start a new run instead")
        self.header = header


def load_resume(path: Path) -> Resume:
    """Read ``path`` and work out where its run stopped.

    Raises:
        NoInitAnswer: only a header (the caller may start the run again from it).
        ValueError: not a transcript, a corrupt line with lines after it (resuming would
            cut them off), or a run that already ended by the rules or its cap (nothing to
            resume); :class:`~sunbot.transcripts.integrity.Misfit` (a ``ValueError``): a
            step index out of order, answers of another game than the header's
            (:func:`~sunbot.transcripts.integrity.check_lines`), or an answer the mirror
            finds edited since it was recorded (its score would be carried on).
    """
    t = read_transcript(path)
    if t.corrupt:  # resuming writes from the last whole step on: it would cut what follows
        raise ValueError(
            f"{path}: {t.error}; resuming would overwrite them, so it is refused"
            " (repair or remove that line first)"
        )
    if t.is_match:
        raise ValueError(
            f"{path} is a match transcript: a match runs against the clock and cannot be "
            "resumed; start a new match"
        )
    if t.init is None:
        raise NoInitAnswer(path, dict(t.header))
    if t.result is not None and t.result.get("endedBy") in ("rules", "cap"):
        raise ValueError(f"{path} is a finished run (ended by {t.result['endedBy']})")
    try:
        check_lines(t)
        _check_verdicts(t)
    except Misfit as exc:
        raise Misfit(f"{path}: {exc}; resuming is refused") from None
    answer = t.init["response"]
    out = Resume(header=t.header, answer=answer, last_index=0, offset=t.resume_at, init=answer)
    out.checked = 1
    out.divergences = [_divergence(d) for d in t.init["mirror"]["divergences"]]
    for step in t.steps:
        obs = answer.get("observation") or answer.get("state") or {}
        out.history.append((obs, list(answer.get("legalActions") or []), step["action"]))
        out.last_index = int(step["index"])  # 1, 2, 3, ...: check_lines made sure
        out.recorded.append((step["action"], step["response"]))
        out.checked += 1
        out.divergences += [_divergence(d) for d in step["mirror"]["divergences"]]
        if step["response"].get("ok") is False:
            out.refused += 1
        else:
            answer = step["response"]
    out.answer = answer
    return out


#: The header's ``server`` of a run played on the embedded server.
EMBEDDED = "embedded"


class ServerNotConfirmed(ValueError):
    """A resumed run would send its state to a server the user did not name."""


def resume_server(
    path: Path,
    header: dict[str, Any],
    named: str | None,
    confirm: Callable[[str], bool] | None = None,
) -> str | None:
    """The server a resumed run sends its last state token to (``None``: the embedded one).

    ``named`` (``--server``) always wins: the user named it. Without it, a run recorded on
    the embedded server resumes there; a run recorded on another server (the header's
    ``server``, which anyone who edits the file chooses) resumes there only when
    ``confirm(question)`` answers true, as a bot file in the header must be confirmed
    (``confirm`` is ``None`` when nobody can be asked: not a terminal).

    Raises:
        ServerNotConfirmed: not confirmed; the one-line message names ``--server URL``.
    """
    if named is not None:
        return named
    recorded = str(header.get("server"))
    if recorded == EMBEDDED:
        return None
    shown = outside(recorded)
    where = f"{path} was recorded on the server {shown}: resuming sends its last state token"
    if confirm is not None and confirm(f"{where} there. Send it?"):
        return recorded
    raise ServerNotConfirmed(
        f"{where} there, and no --server was named; add --server {shown} to confirm (or"
        " name the server to resume on)"
    )


def _check_verdicts(t: Transcript) -> None:
    """Re-check the recorded answers with the game's mirror: a divergence the recorded
    verdict of that line does not list means the answer was edited after it was recorded
    (a forged score or state), so the run must not go on from it.

    Raises:
        Misfit: the first such line, naming the field and both values.
    """
    slug = str(t.header["game"])
    if slug not in GAMES or t.init is None:
        return
    mirror = Mirror(slug)
    init = t.init["response"]
    _same_verdict(init_line_of(t), t.init, mirror.check_init(init))
    prev = init
    for i, step in enumerate(t.steps):
        found = mirror.check_action(i + 1, prev, step["action"], step["response"])
        _same_verdict(line_of(t, i), step, found)
        if step["response"].get("ok") is not False:
            prev = step["response"]


def _same_verdict(where: str, record: dict[str, Any], found: list[Divergence]) -> None:
    """Raise :class:`Misfit` for the first of ``found`` that ``record``'s recorded mirror
    verdict does not list (by field path)."""
    listed = {d["path"] for d in record["mirror"]["divergences"]}
    new = next((d for d in found if d.path not in listed), None)
    if new is not None:
        raise Misfit(
            f"{where}: the recorded answer does not follow from the one before it by the"
            f" rules ({new.path}: expected {outside(repr(new.expected), 60)}, got"
            f" {outside(repr(new.got), 60)}) and its recorded mirror verdict does not say so:"
            " the line was edited"
        )


def _divergence(d: dict[str, Any]) -> Divergence:
    return Divergence(
        int(d["step"]), str(d["path"]), d.get("expected"), d.get("got"), d.get("note", "")
    )
