"""Continue a run from its transcript (``sunbot play --resume FILE``).

After a crash, a kill or an outage, the transcript holds every whole step. Because the
single-player API is stateless, the last recorded answer (its ``stateToken`` or ``state``)
is all a server needs to go on. The strategy is rebuilt from the run's seed and shown every
recorded position again (its choices are discarded), so its random generator and memory
are where they were; the run then ends with the same final state as an uninterrupted one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot.mirror import Divergence
from sunbot.transcripts.jsonl import read_transcript


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
            resume).
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
    answer = t.init["response"]
    out = Resume(header=t.header, answer=answer, last_index=0, offset=t.resume_at, init=answer)
    out.checked = 1
    out.divergences = [_divergence(d) for d in t.init["mirror"]["divergences"]]
    for step in t.steps:
        obs = answer.get("observation") or answer.get("state") or {}
        out.history.append((obs, list(answer.get("legalActions") or []), step["action"]))
        out.last_index = int(step["index"])
        out.recorded.append((step["action"], step["response"]))
        out.checked += 1
        out.divergences += [_divergence(d) for d in step["mirror"]["divergences"]]
        if step["response"].get("ok") is False:
            out.refused += 1
        else:
            answer = step["response"]
    out.answer = answer
    return out


def _divergence(d: dict[str, Any]) -> Divergence:
    return Divergence(
        int(d["step"]), str(d["path"]), d.get("expected"), d.get("got"), d.get("note", "")
    )
