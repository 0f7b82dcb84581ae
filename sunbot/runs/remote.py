"""The server backend: any Gameboard server through :class:`~sunbot.client.GameboardClient`.

The embedded server (in-process, over the same HTTP code path through httpx's ASGI
transport), one on loopback, or the live service: the loop cannot tell them apart. This is
the only module of :mod:`sunbot.runs` that imports HTTP code.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sunbot._text.safe import clip
from sunbot.client import GameboardClient, Position, Rejected, RetryInterrupted
from sunbot.client.http import public_url
from sunbot.client.models import Envelope
from sunbot.mirror import Divergence
from sunbot.runs.backends import Action, Answer
from sunbot.runs.loop import Interrupted, Run, play_loop
from sunbot.runs.summary import RunSummary
from sunbot.strategies import Strategy

if TYPE_CHECKING:
    from collections.abc import Callable

    from sunbot.runs.loop import Checks
    from sunbot.transcripts.jsonl import TranscriptWriter
    from sunbot.transcripts.resume import Resume

log = logging.getLogger("sunbot.runner")


def answer_of(pos: Position) -> Answer:
    """The loop's :class:`Answer` for a client position."""
    return Answer(
        pos.observation, pos.legal_actions, pos.score, pos.game_over, pos.state, pos.raw,
        None, pos,
    )  # fmt: skip


class ServerBackend:
    """A Gameboard server behind ``client``; ``label`` is where the transcript says the run
    was played (``embedded`` or the server's URL, any password removed)."""

    trusted = False

    def __init__(self, client: GameboardClient, label: str = "local") -> None:
        self.client = client
        self.label = public_url(label)

    @property
    def retries(self) -> int:
        """The client's retries so far."""
        return self.client.retries

    async def identify(self) -> dict[str, Any] | None:
        """What the server says of itself in ``GET /api/games``: ``{service, localChoices}``.

        Recorded in the transcript header so that ``sunbot replay`` re-plays a run through
        our engines only when it came from a server with our local choices
        (:data:`sunbot.games.LOCAL_CHOICES`). ``None`` when the index cannot be read (a run
        does not need it).
        """
        return await identify(self.client)

    async def init(self, slug: str, seed: int | None) -> Answer:
        """``GET .../init?seed=``.

        Raises:
            Interrupted: a stop request cut a retry wait short.
            sunbot.client.ClientError: no playable answer within the retry budget.
        """
        try:
            return answer_of(await self.client.init(slug, seed))
        except RetryInterrupted as exc:
            raise Interrupted(str(exc)) from exc

    async def act(self, slug: str, position: Answer, action: Action) -> Answer:
        """``POST .../action`` carrying the position the server gave (token or state).

        Raises:
            Interrupted, sunbot.client.ClientError: as :meth:`init`.
        """
        try:
            got = await self.client.act(slug, position.carry, action)
        except RetryInterrupted as exc:
            raise Interrupted(str(exc)) from exc
        if isinstance(got, Rejected):
            return Answer(
                position.observation, position.legal_actions, position.score,
                position.game_over, position.state, got.raw, got.reason or "refused",
                position.carry,
            )  # fmt: skip
        return answer_of(got)

    def resume_at(self, raw: dict[str, Any]) -> Answer:
        """The position of a recorded answer: its token or state is all a server needs."""
        return answer_of(Position(Envelope.model_validate(raw), raw))

    def interrupt(self) -> None:
        """Cut the client's retry wait short (the first Ctrl-C)."""
        self.client.interrupt()

    async def aclose(self) -> None:
        """Close the client's connections."""
        await self.client.aclose()


async def identify(client: GameboardClient) -> dict[str, Any] | None:
    """:meth:`ServerBackend.identify` for a bare client."""
    try:  # no retries but a rate limit's: a broken server must not cost a second budget
        index = await client.games(retry=False)
    except Exception as exc:  # an index we cannot read only costs the re-play
        log.info("server index not read (%s): transcripts will be mirrored, not re-played", exc)
        return None
    extra = index.model_extra or {}
    choices = extra.get("localChoices")
    service = clip(index.service) if index.service is not None else None  # the server's text
    choices = clip(choices) if isinstance(choices, str) else None
    return {"service": service, "localChoices": choices}


async def play_run(
    client: GameboardClient,
    slug: str,
    seed: int | None,
    strategy: Strategy,
    *,
    strategy_name: str = "",
    cap: int | None = None,
    strict: bool = False,
    mirror: Checks | None = None,
    transcript: TranscriptWriter | None = None,
    server_label: str = "local",
    on_position: Callable[[Position, int, list[Divergence]], None] | None = None,
    resume: Resume | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_steps: int | None = None,
) -> RunSummary:
    """One run of ``slug`` on the server behind ``client``: :func:`sunbot.runs.loop.play_loop`
    over a :class:`ServerBackend` (the form a loop of your own composes; ``sunbot.play``
    builds all of this for you). ``on_position`` receives the client's position; the other
    arguments are :func:`~sunbot.runs.loop.play_loop`'s and :class:`~sunbot.runs.loop.Run`'s.
    """
    from sunbot.runs.loop import MAX_STEPS

    def report(answer: Answer, step: int, found: list[Divergence]) -> None:
        if on_position is not None:
            on_position(answer.carry, step, found)

    run = Run(
        ServerBackend(client, server_label), slug, seed, strategy_name=strategy_name, cap=cap,
        checks=mirror, transcript=transcript, on_position=report,
    )  # fmt: skip
    return await play_loop(
        run, strategy, strict=strict, resume=resume, should_stop=should_stop,
        max_steps=MAX_STEPS if max_steps is None else max_steps,
    )  # fmt: skip
