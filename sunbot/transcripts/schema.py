"""The transcript schema (version 1) as pydantic models, and its JSON Schema file.

The models are the single source: :data:`RECORD` validates each line on read, and the JSON
Schema shipped in the package (``sunbot/schemas/transcript-v1.schema.json``) is generated
from them::

    python -m sunbot.transcripts.schema > sunbot/schemas/transcript-v1.schema.json

(a test keeps the committed file equal to the generated one). Format: ``docs/transcripts.md``.
Unknown extra fields are allowed so that a newer writer's lines still read.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

SCHEMA_VERSION = 1
SCHEMA_FILE = "transcript-v1.schema.json"


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow")


class DivergenceRecord(_Record):
    """One mirror divergence: the action's index (0 for init), a field path, both values."""

    step: int
    path: str
    expected: Any = None
    got: Any = None
    note: str = ""


class MirrorRecord(_Record):
    """The mirror's verdict on one answer."""

    ok: bool
    divergences: list[DivergenceRecord]


class CutRecord(_Record):
    """Unknown fields cut from this line's answer for their size (``docs/transcripts.md``,
    "Bounds"): how many, their bytes as JSON, and the first paths."""

    fields: int = Field(ge=1)
    bytes: int = Field(ge=0)
    paths: list[str] = Field(default_factory=list)


_CUT = Field(
    default=None,
    description="Unknown fields of the answer cut for their size (over 16 KiB each) before it "
    "was checked and recorded; absent when none was.",
)


class Header(_Record):
    """First line: what was played, by which strategy, against which server."""

    type: Literal["header"]
    schemaVersion: Literal[1]
    game: str
    seed: int | None
    strategy: str
    server: str
    sunbotVersion: str
    startedAt: str
    cap: int | None = None
    serverIdentity: dict[str, str | None] | None = Field(
        default=None,
        description="What the server said of itself in GET /api/games ({service, "
        "localChoices}); replay re-plays through our engines only when localChoices is ours.",
    )
    model: dict[str, Any] | None = Field(
        default=None,
        description="The forward model the run used (--engine): {spec, path, class, sha256, "
        "certified}; certified is the figures of sunbot certify for that very file, signed by "
        "this user's sunbot, or null; certificateRefused, when present, is the line saying why "
        "the certificate beside it was not honoured.",
    )
    lookahead: dict[str, Any] | None = Field(
        default=None,
        description="Search looking ahead through the server (--lookahead): {perDecision, "
        "budget, allowPeek, guard, clairvoyant}; guard is the peek guard's one line.",
    )


class InitRecord(_Record):
    """The init answer exactly as received."""

    type: Literal["init"]
    response: dict[str, Any]
    mirror: MirrorRecord
    elapsedMs: float = Field(ge=0)
    cut: CutRecord | None = _CUT


class StepRecord(_Record):
    """One action sent (index from 1) and the answer, refusals included."""

    type: Literal["step"]
    index: int = Field(ge=1)
    action: Any
    response: dict[str, Any]
    mirror: MirrorRecord
    elapsedMs: float = Field(ge=0)
    agent: dict[str, Any] | None = Field(
        default=None,
        description="What the agent said of this decision (a model's tokens, latency, "
        "attempts, each call's prompt by id, answer and verdict; a clocked decision's ms and "
        "timedOut), at most 64 KiB.",
    )
    cut: CutRecord | None = _CUT


class ResultRecord(_Record):
    """Last line: how the run ended."""

    type: Literal["result"]
    score: int | float = Field(
        description="The run's score: a whole number in the four known games, any finite "
        "number in a game sunbot does not know."
    )
    gameOver: bool
    steps: int = Field(ge=0)
    divergences: int = Field(ge=0)
    endedBy: Literal["rules", "cap", "strict", "error", "interrupted"]
    cause: str | None = None
    refused: int = 0
    responsesChecked: int = 0
    retries: int = 0
    elapsedMs: float = 0
    error: str | None = None
    errorTraceback: str | None = Field(
        default=None,
        description="When the run ended on an exception (a strategy's included): its Python "
        "traceback, as text.",
    )
    stopReason: str | None = Field(
        default=None,
        description="Why an interrupted run stopped when no one stopped it: a daily spend "
        "cap reached (requests, model tokens or money), in one line.",
    )
    unknownFields: list[str] = Field(
        default_factory=list,
        description="Path patterns of fields the server sent that the rules do not define "
        "(ignored by the mirror, listed once).",
    )
    checks: Literal["rules", "model", "generic", "none"] = Field(
        default="rules",
        description="What checked the answers: the game's rules mirror, a forward model of "
        "the game (--engine; with the generic checks), the generic checks of a game sunbot "
        "has no engine for (the envelope and the served action grammar only), or nothing. "
        "Written only when not 'rules'.",
    )
    clairvoyant: bool = Field(
        default=False,
        description="The strategy looked ahead through a server whose answers hold what the "
        "player cannot see (--allow-peek): the score is no honest player's. Written only when "
        "true.",
    )
    timeouts: int = Field(
        default=0, ge=0, description="Decisions past the move deadline (the fallback played)."
    )
    agent: dict[str, Any] | None = Field(
        default=None,
        description="The agent's totals: a model's calls, tokens and cost, re-asks and "
        "fallbacks; an external bot's counters; the move clock's.",
    )
    cutFields: int = Field(
        default=0, ge=0, description="Unknown fields cut from the answers for their size."
    )
    unknownFieldsNotListed: int = Field(
        default=0, ge=0, description="Unknown field paths past the first 100, not listed."
    )


class MatchRecord(_Record):
    """Match games (Harvest Watch): a seat's ``view`` as received, a ``command`` sent, or a
    ``timeout``: a decision past its deadline (nothing sent; ``round`` and ``agent``)."""

    type: Literal["view", "command", "timeout"]
    seat: int | None = None
    body: Any = None
    sameAs: int | None = Field(
        default=None,
        ge=1,
        description="A view identical to an earlier full view line of the same seat (one of "
        "its last two) is written without a body: this is that line's index, and readers "
        "take the body from it.",
    )
    cut: CutRecord | None = _CUT


class ResumeRecord(_Record):
    """A run resumed here (``sunbot play --resume``) after the step ``fromStep``."""

    type: Literal["resume"]
    fromStep: int = Field(ge=0)
    at: str


Record = Annotated[
    Header | InitRecord | StepRecord | ResultRecord | MatchRecord | ResumeRecord,
    Field(discriminator="type"),
]
RECORD: TypeAdapter[Any] = TypeAdapter(Record)


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one transcript line."""
    schema: dict[str, Any] = RECORD.json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "sunbot transcript line, schemaVersion 1"
    return schema


def packaged_schema() -> dict[str, Any]:
    """The JSON Schema file shipped inside the package."""
    text = resources.files("sunbot").joinpath("schemas", SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


if __name__ == "__main__":  # pragma: no cover - the regeneration command
    sys.stdout.write(json.dumps(json_schema(), indent=2, sort_keys=True) + "\n")
