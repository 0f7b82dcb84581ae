"""The structured output of the MCP tools (pydantic models: their JSON Schemas are the
tools' output schemas; field names in the platform's camelCase)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "ActOutcome",
    "Checks",
    "Ended",
    "GameEntry",
    "GameList",
    "Position",
    "Rules",
    "StepVerdict",
    "Suggestion",
]

Status = Literal["your-turn", "waiting", "over", "stopped"]


class Checks(BaseModel):
    """What checked the server's answers so far."""

    kind: Literal["rules", "generic"] = Field(
        description="rules: sunbot's rules engine re-checks every answer (the mirror); "
        "generic: a game sunbot has no engine for, checked against the platform's envelope "
        "and the served action grammar only"
    )
    responsesChecked: int = Field(description="answers checked so far")
    divergences: int = Field(description="findings where an answer broke the rules")


class Position(BaseModel):
    """Where a game stands, as an assistant needs it to decide (or to know it is over)."""

    game: str = Field(description="the game's id in this server (its transcript's name)")
    slug: str = Field(description="which game it is (naptuft, keelhold, harvest-watch, ...)")
    status: Status = Field(
        description="your-turn: act now; waiting: the game goes on without you for now "
        "(a match's other seats, a slow server), observe again; over: it ended; stopped: "
        "it was stopped (see stopReason) and can be resumed unless it is a match"
    )
    step: int = Field(
        description="actions sent so far, refused ones included (a match: commands our seat sent)"
    )
    score: float | int | None = Field(description="the game's score now (a match: once over)")
    gameOver: bool
    observation: Any = Field(description="the position as the server sent it (JSON)")
    legalActions: list[Any] = Field(
        description="what may be played now; send one unchanged (a Harvest Watch speech or "
        'diary beat: any {"speech": text} / {"diary": text} of the allowed length)'
    )
    secondsLeft: float | None = Field(
        default=None, description="a match beat's clock: seconds left to act on this beat"
    )
    seat: int | None = Field(default=None, description="Harvest Watch: our seat (0-5)")
    checks: Checks
    result: dict[str, Any] | None = Field(
        default=None,
        description="once over or stopped: how the run ended (the transcript's result)",
    )
    stopReason: str | None = None
    transcript: str = Field(description="the transcript's file name in the transcript folder")
    replay: str = Field(description="the MCP resource of the game's HTML replay page")


class StepVerdict(BaseModel):
    """The checks' verdict on the server's answer to one action."""

    ok: bool
    divergences: list[dict[str, Any]] = Field(default_factory=list)


class ActOutcome(BaseModel):
    """What became of an action."""

    sent: bool = Field(description="the action went to the server (false: refused before)")
    accepted: bool | None = Field(
        description="the server took it; null for a match, where the beat decides"
    )
    refused: str | None = Field(default=None, description="why it was refused, if it was")
    answer: StepVerdict | None = Field(
        default=None, description="the checks' verdict on the server's answer"
    )
    position: Position


class GameEntry(BaseModel):
    """One game a server offers."""

    slug: str
    name: str
    kind: Literal["single", "match"] = "single"
    support: Literal["rules", "generic"] = Field(
        description="rules: sunbot knows its rules (every answer re-checked); generic: "
        "played on the protocol alone"
    )
    description: str | None = None
    suggest: bool = Field(description="the suggest tool can say what sunbot would play")


class GameList(BaseModel):
    """The games a server offers."""

    server: str
    games: list[GameEntry]


class Rules(BaseModel):
    """A game's rules as served: the text, and the served spec as JSON."""

    slug: str
    server: str
    text: str
    spec: dict[str, Any]


class Ended(BaseModel):
    """A game stopped at the client's request."""

    position: Position
    resumable: bool = Field(description="resume_game continues it from its transcript")


class Suggestion(BaseModel):
    """What a sunbot strategy would play in the current position."""

    strategy: str
    action: Any
    choice: int | None = Field(description="its index in legalActions, if it is one")
