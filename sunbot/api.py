"""The Python API and the one assembly point of every run: :func:`play`, :func:`play_async`.

Every run, whatever started it (``sunbot play``, :func:`sunbot.play`, a notebook), is
assembled here: the backend (the embedded server in-process over the same HTTP code path as
a remote one, any server by URL, or the engine itself with ``server="engine"``), the checks
(the game's mirror), the transcript writer, the strategy, the cap; then
:func:`sunbot.runs.loop.play_loop` steps it. Faces hand in views and stop checks as callbacks
and wire nothing themselves. ``sunbot.play("keelhold", seed=7, max_voyages=3)`` scores what
``sunbot play keelhold --seed 7 --max-voyages 3`` scores.

:func:`play` works in a plain script and inside a running event loop (a notebook cell): with
a loop running in this thread it plays on a worker thread with a loop of its own and waits.
In async code, ``await play_async(...)`` instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sunbot import bots, strategies
from sunbot.bots import StrategyLike
from sunbot.games import GameInfo, get_game, seed_problem
from sunbot.runs.summary import MatchSeat, MatchSummary, RunSummary
from sunbot.transcripts.bounds import DEFAULT_MAX_TRANSCRIPT_MB

if TYPE_CHECKING:
    from sunbot.forward.load import LoadedModel
    from sunbot.runs.backends import Backend
    from sunbot.runs.loop import OnPosition
    from sunbot.search.peek import Verdict
    from sunbot.transcripts.jsonl import TranscriptWriter
    from sunbot.transcripts.resume import Resume

#: ``server`` value that plays on the engine in-process, with no HTTP at all.
ENGINE = "engine"


class SetupError(ValueError):
    """A run could not be set up: the embedded server's key cannot be read or made."""


def run_cap(
    info: GameInfo,
    max_voyages: int | None,
    max_days: int | None,
    names: tuple[str, str] = ("max_voyages", "max_days"),
) -> int | None:
    """The run cap from ``max_voyages`` / ``max_days`` (else the game's default cap);
    ``names`` are the options' names in the error messages.

    Raises:
        ValueError: the option does not apply to this game, is below 1 or above the
            game's :attr:`~sunbot.games.GameInfo.max_cap`.
    """
    voyages, days = names
    for option, value, unit in ((voyages, max_voyages, "voyage"), (days, max_days, "day")):
        if value is None:
            continue
        if info.cap_field != unit:
            raise ValueError(f"{option} does not apply to {info.slug}")
        info.check_cap(value, option)
        return value
    return info.default_cap


def new_seed() -> int:
    """A fresh random seed (0 to 2**31 - 1) for a run given none: the one place one is
    drawn."""
    return random.SystemRandom().randrange(2**31)


def check_server(server: str | None, name: str = "server") -> None:
    """Refuse a ``server`` that is neither ``None``, ``"engine"`` nor an absolute http(s)
    URL.

    Raises:
        ValueError: naming ``name``.
    """
    if server is None or server == ENGINE:
        return
    from sunbot.client.http import url_problem

    if (problem := url_problem(server)) is not None:
        raise ValueError(f"{name}: {problem}")


def resume_command(transcript: Path | str, server: str | None) -> str:
    """The command that continues a cut run: ``sunbot play --resume FILE``, with
    ``--server URL`` (its ``user:password@`` part left out) when the run played on a server
    other than the embedded one, since a resume is sent to the header's server only when
    the user names it (``docs/decisions.md``, "Where ``--resume`` sends")."""
    command = f"sunbot play --resume {transcript}"
    if server is None or server == ENGINE:
        return command
    from sunbot.client.http import public_url

    return f"{command} --server {public_url(server)}"


def resolve_strategy(
    game: str,
    strategy: StrategyLike | None,
    *,
    isolate: bool = False,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[str, Any]:
    """``(label, make)`` where ``make(rng)`` builds the strategy for one run or seat.

    A text is a strategy name, a bot file, or an agent (``exec:``, ``http(s)://``,
    ``llm:``; ``options`` go to it). ``isolate``: a name or bot file plays in a child
    process (:class:`sunbot.agents.isolate.IsolatedStrategy`, seeded with ``seed``).

    Raises:
        ValueError: an unknown strategy name (:class:`sunbot.strategies.UnknownStrategy`),
            a malformed agent text, or ``isolate`` asked of an object.
    """
    if strategy is None:
        strategy = strategies.default_name(game)
    extra = dict(options or {})
    if isinstance(strategy, str):
        from sunbot.agents.spec import check_strategy, create_agent

        check_strategy(game, strategy)
        text = strategy
        return _shown(text), lambda rng: create_agent(
            game, text, rng, seed=seed, isolate=isolate, **extra
        )
    if isolate:
        raise ValueError(
            "isolate plays a strategy name or bot file in a child process, not an object"
        )
    label = bots.label(strategy)
    return label, lambda rng: bots.from_object(game, strategy, rng, name=label)


def _shown(text: str) -> str:
    """The strategy's name as summaries, transcripts and file names show it: an HTTP bot's
    URL without its ``user:password@`` or query string (which may hold a key)."""
    if text.strip().lower().startswith(("http://", "https://")):
        import httpx

        from sunbot.agents.http import public_label

        try:
            return public_label(httpx.URL(text.strip()))
        except (httpx.InvalidURL, ValueError):
            return "http bot"
    return text


@dataclass
class RunPlan:
    """A checked run, ready to play: what :func:`plan_run` resolved from the options.

    ``bot`` is the strategy, built with ``random.Random(seed)`` (``make(rng)`` builds
    another); ``cap`` is in the game's unit (voyages or days). ``info`` is ``None`` for a
    game sunbot has no engine for (played on ``server`` with the generic checks);
    ``max_steps`` ends such a run (any run) after that many steps. ``model`` is the forward
    model given with ``engine`` (:mod:`sunbot.forward`): a game sunbot has no engine for is
    then checked by it (``checks: model``; ``model_checks``: a known game's too, instead of
    its mirror, as ``sunbot certify`` does), and the run's transcript header names it with
    its file's hash. ``lookahead``: what the header records of a ``search`` looking ahead
    through the server (:func:`search_options`, then :func:`peek_check`'s verdict).
    ``checks``: check the answers with these instead (a model in a sandboxed child,
    :class:`sunbot.agents.isolate_model.ChildPredictor`).
    """

    slug: str
    info: GameInfo | None
    seed: int
    strategy: str
    make: Callable[[random.Random], Any]
    bot: Any
    server: str | None = None
    cap: int | None = None
    strict: bool = False
    mirror: bool = True
    move_timeout: float | None = None
    max_steps: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    model: LoadedModel | None = None
    model_checks: bool = False
    lookahead: dict[str, Any] | None = None
    checks: Any = None


#: The most steps ``max_steps`` accepts (the loop's own bound).
MAX_STEPS_CAP = 100_000


def unknown_game(slug: str) -> str:
    """The one-line error for a slug the embedded server does not play."""
    from sunbot.games import available

    names = ", ".join(g.slug for g in available())
    return (
        f"unknown game {slug!r}: the embedded server plays {names}; "
        f"--server URL plays any game that server lists (sunbot games --server URL)"
    )


def plan_run(
    game: str,
    *,
    seed: int | None = None,
    strategy: StrategyLike | None = None,
    server: str | None = None,
    max_voyages: int | None = None,
    max_days: int | None = None,
    strict: bool = False,
    mirror: bool = True,
    cap_names: tuple[str, str] = ("max_voyages", "max_days"),
    move_timeout: float | None = None,
    isolate: bool = False,
    agent_options: dict[str, Any] | None = None,
    max_steps: int | None = None,
    engine: str | None = None,
    lookahead: int | None = None,
    lookahead_budget: int | None = None,
    allow_peek: bool = False,
    objective: str | None = None,
) -> RunPlan:
    """Check a single-player run's options and resolve them (no file or connection is
    opened): the game, the seed (drawn when ``None``), the strategy, the cap, and the
    forward model ``engine`` names (``FILE.py:Class`` or an installed model's name,
    :func:`sunbot.forward.load.load_model`; loaded, not built). ``lookahead``,
    ``lookahead_budget``, ``allow_peek`` and ``objective`` are the ``search`` strategy's
    (:func:`search_options`).

    A slug sunbot has no engine for is played on ``server`` (a URL) with the generic
    checks and the generic strategies (``random``, ``first``), a bot file, or an agent;
    without a URL it is refused (:func:`unknown_game`).

    Raises:
        ValueError: an unknown game or strategy, an option that does not apply, a bad seed
            or server (the message names the option as ``cap_names`` and ``server`` do), a
            strategy that cannot be built for this game, a ``move_timeout`` that is not a
            positive number of seconds, a model that cannot be loaded for this game
            (:class:`sunbot.forward.load.ModelNotLoaded`).
    """
    info: GameInfo | None
    try:
        info = get_game(game)
    except KeyError:
        from sunbot.generic.index import check_slug

        if server is None or server == ENGINE:
            raise ValueError(unknown_game(game)) from None
        check_slug(game)
        info = None
    if info is not None and info.kind == "match":
        raise ValueError(f"{info.slug} is a match game: use play_async(..., seats=...)")
    if seed is None:
        seed = new_seed()
    elif (problem := seed_problem(seed)) is not None:
        raise ValueError(problem)
    check_server(server)
    if info is not None:
        cap = run_cap(info, max_voyages, max_days, cap_names)
    elif max_voyages is not None or max_days is not None:
        raise ValueError(
            f"{cap_names[0]} and {cap_names[1]} apply to the games sunbot knows: "
            f"cap {game} with max steps"
        )
    else:
        cap = None
    if info is None and max_steps is None:  # a game we do not know may never end
        from sunbot.games import GENERIC_DEFAULT_STEPS

        max_steps = GENERIC_DEFAULT_STEPS
    if max_steps is not None and not 1 <= max_steps <= MAX_STEPS_CAP:
        raise ValueError(f"max steps must be 1 to {MAX_STEPS_CAP}, got {max_steps}")
    check_move_timeout(move_timeout)
    slug = info.slug if info is not None else game
    model = None
    if engine is not None:
        from sunbot.forward.load import load_model

        model = load_model(engine, slug)
    options, looking = search_options(
        strategy, engine=engine, server=server, lookahead=lookahead,
        lookahead_budget=lookahead_budget, allow_peek=allow_peek, objective=objective,
        agent_options=agent_options,
    )  # fmt: skip
    name, make = resolve_strategy(slug, strategy, isolate=isolate, seed=seed, options=options)
    bot = make(random.Random(seed))  # before any file exists: a bad bot leaves nothing behind
    return RunPlan(
        slug, info, seed, name, make, bot, server, cap, strict, mirror, move_timeout, max_steps,
        model=model, lookahead=looking,
    )  # fmt: skip


def search_options(
    strategy: StrategyLike | None,
    *,
    engine: str | None = None,
    server: str | None = None,
    lookahead: int | None = None,
    lookahead_budget: int | None = None,
    allow_peek: bool = False,
    objective: str | None = None,
    agent_options: dict[str, Any] | None = None,
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The options of the ``search`` strategy (:mod:`sunbot.strategies.search`) on top of
    ``agent_options``, and what the transcript header records of a lookahead
    (``{perDecision, budget, allowPeek}``; ``None`` without one).

    Raises:
        ValueError: a search option with another strategy; a lookahead on the engine
            backend, or below 1.
    """
    given = [
        name
        for name, value in (
            ("lookahead", lookahead), ("lookahead_budget", lookahead_budget),
            ("objective", objective), ("allow_peek", allow_peek or None),
        )
        if value is not None
    ]  # fmt: skip
    if strategy != "search":
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise ValueError(f"{', '.join(given)} {verb} to the search strategy")
        return agent_options, None
    from sunbot.search.lookahead import DEFAULT_BUDGET
    from sunbot.search.objective import OBJECTIVES

    if objective is not None and objective not in OBJECTIVES:
        raise ValueError(f"objective {objective!r}: one of {', '.join(OBJECTIVES)}")
    for name, value in (("lookahead", lookahead), ("lookahead_budget", lookahead_budget)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 1
        ):
            raise ValueError(f"{name} must be a whole number of requests >= 1, got {value!r:.40}")
    options = dict(agent_options or {})
    if engine is not None:
        options["engine"] = engine
    options.update(
        {k: v for k, v in (("lookahead", lookahead), ("lookahead_budget", lookahead_budget),
                           ("objective", objective)) if v is not None}
    )  # fmt: skip
    if allow_peek:
        options["allow_peek"] = True
    if lookahead is None:
        return options or None, None
    if server == ENGINE:
        raise ValueError("lookahead asks a server: the engine backend has none")
    options["server"] = server
    budget = lookahead_budget or DEFAULT_BUDGET
    return options, {"perDecision": lookahead, "budget": budget, "allowPeek": allow_peek}


async def peek_check(plan: RunPlan) -> Verdict | None:
    """The peek guard on the opening of ``plan``'s run (one init request to its server),
    before anything is written, when its ``search`` looks ahead through the server; the
    verdict is recorded in ``plan.lookahead`` (``guard``, ``clairvoyant``). ``None``
    without a lookahead.

    Raises:
        sunbot.search.peek.PeekRefused: the answers hold what the player cannot see and
            ``allow_peek`` was not given (the message is the guard's one line).
        sunbot.client.ClientError: the server could not be asked.
    """
    if plan.lookahead is None:
        return None
    from sunbot.search.peek import PeekRefused, classify, decision

    backend = open_backend(plan.server, plan.info)
    try:
        opening = await backend.init(plan.slug, plan.seed)
    finally:
        await backend.aclose()
    verdict = classify(opening.raw or {})
    allowed = bool(plan.lookahead.get("allowPeek"))
    said = decision(verdict, allowed)
    if verdict.peeks and not allowed:
        raise PeekRefused(said)
    plan.lookahead.update(guard=said, clairvoyant=verdict.peeks)
    return verdict


def check_move_timeout(seconds: float | None, name: str = "move_timeout") -> None:
    """Refuse a move timeout that is not a positive, finite number of seconds.

    Raises:
        ValueError: naming ``name``.
    """
    import math

    if seconds is None:
        return
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError(f"{name} must be a number of seconds, got {seconds!r:.40}")
    if not 0 < seconds < math.inf:
        raise ValueError(f"{name} must be a positive number of seconds, got {seconds!r}")


def embedded_transport() -> Any:
    """The embedded server as an httpx transport (in-process ASGI; its key from
    :meth:`sunbot.server.TokenCodec.embedded`).

    Raises:
        sunbot.server.tokens.BadKey, OSError: the key file cannot be read or made.
    """
    import httpx

    from sunbot.server import TokenCodec, create_app

    codec = TokenCodec.embedded()
    app = _EMBEDDED_APPS.get(codec.identity)
    if app is None:  # building the app costs more than a short run: one per key per process
        _EMBEDDED_APPS.clear()
        app = _EMBEDDED_APPS[codec.identity] = create_app(codec)
    return httpx.ASGITransport(app=app)


#: The embedded server's app by its codec's identity (the latest one only).
_EMBEDDED_APPS: dict[str, Any] = {}


def open_backend(server: str | None, info: GameInfo | None) -> Backend:
    """The backend for ``server``: ``None`` the embedded server, ``"engine"`` the engine
    in-process, else the server at that URL (through the client and its retry policy).

    Raises:
        SetupError: the embedded server's key cannot be had.
    """
    if server == ENGINE:
        from sunbot.runs.backends import EngineBackend

        if info is None:
            raise ValueError("the engine backend plays only the games sunbot knows")
        return EngineBackend(info)
    from sunbot.client import GameboardClient
    from sunbot.runs.remote import ServerBackend

    if server:
        return ServerBackend(GameboardClient(server), server)
    from sunbot.server.tokens import BadKey

    try:
        transport = embedded_transport()
    except (BadKey, OSError) as exc:
        raise SetupError(str(exc)) from exc
    return ServerBackend(GameboardClient(transport=transport), "embedded")


async def run_plan(
    plan: RunPlan,
    *,
    writer: TranscriptWriter | None = None,
    resume: Resume | None = None,
    on_position: OnPosition | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_backend: Callable[[Backend], None] | None = None,
    backend: Backend | None = None,
) -> RunSummary:
    """Play a planned run to its end and return its summary (the loop never raises for a
    run that fails midway: ``ended_by == "error"`` says why).

    Args:
        writer: the transcript to write (opened by the caller; closed by the caller).
        resume: continue the run recorded in ``writer``'s file.
        on_position: called after every answer (a face's live view).
        should_stop: polled before every action (a face's Ctrl-C).
        on_backend: called once the backend exists (a face wires its stop to
            ``backend.interrupt``, which cuts a retry wait short).
        backend: play on this backend (:func:`open_backend` of the plan's server), which
            the caller closes: several runs on one connection pool (``sunbot certify``).

    Raises:
        ValueError: a transcript or a resume with the engine backend (it has no answers to
            record).
    """
    from sunbot.mirror import Mirror
    from sunbot.runs.loop import Run, play_loop

    if plan.server == ENGINE and (writer is not None or resume is not None):
        raise ValueError("the engine backend keeps no transcript: give server=None or a URL")
    info = plan.info
    bot = plan.bot
    owned = backend is None
    backend = open_backend(plan.server, info) if backend is None else backend
    if on_backend is not None:
        on_backend(backend)
    checks = plan.checks
    if checks is None and plan.mirror and not backend.trusted:
        if info is not None and not (plan.model_checks and plan.model is not None):
            checks = Mirror(plan.slug)
        elif plan.model is not None:
            checks = model_checks(plan.model, plan.slug, plan.seed)
        else:
            checks = _generic_checks(plan.slug)
    about: dict[str, Any] = {}
    if plan.model is not None:
        about["model"] = plan.model.identity.to_json()
    if plan.lookahead is not None:
        about["lookahead"] = plan.lookahead
    run = Run(
        backend, plan.slug, plan.seed, strategy_name=plan.strategy, cap=plan.cap,
        checks=checks, transcript=writer, on_position=on_position, about=about,
    )  # fmt: skip
    run.summary.clairvoyant = bool(plan.lookahead and plan.lookahead.get("clairvoyant"))
    try:
        return await play_loop(
            run, bot, strict=plan.strict, resume=resume, should_stop=should_stop,
            move_timeout=plan.move_timeout, step_cap=plan.max_steps,
        )  # fmt: skip
    finally:
        if owned:
            await backend.aclose()


async def first_prompt(plan: RunPlan, prompt: str | Path | None = None) -> list[dict[str, str]]:
    """The messages a language-model agent would be sent at the first decision of
    ``plan``'s run (the game's served spec, the opening observation and its legal actions),
    without calling any model: the dry run. Plays only the init.

    Raises:
        ValueError: the template is missing or does not render; ``plan`` plays on the
            engine (which serves no spec).
        ImportError: Jinja2 is not installed (``pip install 'sunbot[llm]'``).
        sunbot.client.ClientError: the server could not be reached.
    """
    from sunbot.agents.llm import render_prompt

    if plan.server == ENGINE:
        raise ValueError("a dry run reads the server's init answer: give a server or none")
    backend = open_backend(plan.server, plan.info)
    try:
        pos = await backend.init(plan.slug, plan.seed)
    finally:
        await backend.aclose()
    spec = (pos.raw or {}).get("spec")
    return render_prompt(
        plan.slug, pos.observation, pos.legal_actions,
        spec=spec if isinstance(spec, dict) else None, prompt=prompt,
    )  # fmt: skip


def first_match_prompt(
    slug: str, seed: int, prompt: str | Path | None = None
) -> list[dict[str, str]]:
    """The messages a language-model seat would be sent at a match's first beat (the
    speech beat of day 1, seat 0's view of the match sunbot's engine deals from ``seed``),
    without creating a match anywhere or calling any model: a match's dry run.

    Raises:
        ValueError: ``slug`` is not a match game; the template is missing or does not
            render.
        ImportError: Jinja2 is not installed (``pip install 'sunbot[llm]'``).
    """
    from sunbot.agents.llm import render_prompt
    from sunbot.client.matches import observation_of
    from sunbot.engines import harvest_watch as hw
    from sunbot.engines.harvest_watch_seats import seat_data
    from sunbot.observations.harvest_watch import legal_actions

    info = get_game(slug)
    if info.kind != "match":
        raise ValueError(f"{slug} is not a match game")
    data = seat_data(hw.init(seed), 0, can_act=True, pending=None)
    observation = observation_of(data)
    return render_prompt(slug, observation, legal_actions(observation), spec=info.spec,
                         prompt=prompt)  # fmt: skip


def _bytes(mb: int | None) -> int | None:
    """``mb`` MiB in bytes (``None`` stays ``None``: no limit).

    Raises:
        ValueError: ``mb`` is not a positive whole number.
    """
    if mb is None:
        return None
    if isinstance(mb, bool) or not isinstance(mb, int) or mb < 1:
        raise ValueError(f"max_transcript_mb must be a whole number of MiB >= 1, got {mb!r:.40}")
    return mb << 20


def model_checks(model: LoadedModel, slug: str, seed: int | None) -> Any:
    """The checks of a modelled game: ``model`` built with its own ``random.Random(seed)``
    predicts every answer (:class:`sunbot.generic.model_checks.ModelChecks`).

    Raises:
        sunbot.forward.load.ModelNotLoaded: the model cannot be built.
    """
    from sunbot.generic.model_checks import ModelChecks

    rng = random.Random(seed)
    return ModelChecks(model.build(rng), slug, seed, rng)


def _generic_checks(slug: str) -> Any:
    from sunbot.generic.checks import GenericChecks

    return GenericChecks(slug)


async def play_async(
    game: str,
    *,
    seed: int | None = None,
    strategy: StrategyLike | None = None,
    server: str | None = None,
    transcript: str | Path | None = None,
    max_voyages: int | None = None,
    max_days: int | None = None,
    strict: bool = False,
    mirror: bool = True,
    seats: int = 1,
    match: str | None = None,
    move_timeout: float | None = None,
    isolate: bool = False,
    agent_options: dict[str, Any] | None = None,
    max_steps: int | None = None,
    max_transcript_mb: int | None = DEFAULT_MAX_TRANSCRIPT_MB,
    engine: str | None = None,
    lookahead: int | None = None,
    lookahead_budget: int | None = None,
    allow_peek: bool = False,
    objective: str | None = None,
) -> RunSummary:
    """Play one run of ``game`` (or one match of a match game) and return its summary.

    Args:
        game: a slug: ``keelhold``, ``sunloaf``, ``naptuft``, ``harvest-watch``, or any
            game ``server`` lists (played with the generic checks: the platform's envelope
            and the served action grammar).
        seed: the run's seed (random when ``None``).
        strategy: a strategy name (``sunbot games`` lists them), ``"path/bot.py:Class"``,
            a class, an object with ``choose``, or a function
            ``choose(observation, legal_actions)`` (:mod:`sunbot.bots`). ``None``: the
            game's default.
        server: a server origin such as ``https://gameboard.gg``; ``None``: embedded;
            ``"engine"``: the rules engine in-process (no HTTP, no transcript, unchecked:
            the answers are the rules).
        transcript: a JSON Lines file to write (it must not exist); ``None``: none.
        max_voyages, max_days: end the run at port after that voyage (Keelhold) / after
            that day (Sunloaf, Naptuft; default 40 / 10).
        strict: stop at the first mirror divergence (``ended_by == "strict"``).
        mirror: re-check every answer with the local engine (single-player games; a match
            is always mirrored).
        seats, match: match games: seats our strategy plays; an existing match id to join
            on ``server``.
        move_timeout: seconds one decision may take; a late one plays the game's fallback
            action (a safe one where the game knows safety; in Harvest Watch nothing is
            sent and the rules' default for a missed beat applies) and counts in
            ``timeouts``. ``None``: no clock.
        isolate: play a strategy name or bot file in a child process (a bot you do not
            trust cannot take the run down).
        agent_options: options of an agent strategy (``llm:MODEL``: ``base_url``,
            ``temperature``, ``price``...; :mod:`sunbot.agents`).
        max_steps: end the run after this many steps (``ended_by == "cap"``): the cap of a
            game sunbot does not know, whose runs may never end by themselves (default
            for such a game: :data:`sunbot.games.GENERIC_DEFAULT_STEPS`, 1,000).
        max_transcript_mb: the transcript's size limit in MiB (``None``: none): the line
            that would pass it is not written and the run ends (``ended_by == "error"``,
            the transcript whole up to there; ``docs/transcripts.md``, "Bounds").
        engine: a forward model of the game, ``FILE.py:Class`` or an installed model's
            name (``docs/guide-forward-models.md``): a game sunbot has no engine for is
            checked by it, and ``strategy="search"`` plans with it. Single-player games.
        lookahead: ``strategy="search"`` looks ahead through the server, at most this many
            requests a decision, when the peek guard finds nothing hidden in its answers
            (:mod:`sunbot.search.peek`); ``lookahead_budget``: requests a run may send
            (default 2,000); ``allow_peek``: look ahead anyway, the run then labelled
            clairvoyant. ``objective``: ``max``, ``min`` or ``win``, where the served spec
            does not say which way its score counts.

    Returns:
        A :class:`~sunbot.runs.summary.RunSummary`. A run that fails midway (network,
        strategy error) is not raised: ``ended_by == "error"`` and ``error`` says why.

    Raises:
        ValueError: an unknown game or strategy, an option that does not apply, a seed
            that is not an integer of signed 64 bits (``"7"``, ``1.5`` and ``True`` are
            refused), a ``server`` that is not an absolute http(s) URL, a transcript in a
            folder that does not exist (it is not created, as ``sunbot play --transcript``).
        sunbot.search.peek.PeekRefused: a ``ValueError``: the lookahead would see what the
            player cannot (nothing is played or written).
        FileExistsError, OSError: the transcript cannot be created.
    """
    from sunbot.transcripts.jsonl import TranscriptWriter

    info: GameInfo | None
    try:
        info = get_game(game)
    except KeyError:
        if server is None or server == ENGINE:
            raise ValueError(unknown_game(game)) from None
        info = None
    if transcript is not None and not Path(transcript).parent.is_dir():
        raise ValueError(
            f"transcript {transcript}: no folder {Path(transcript).parent} (create it first)"
        )
    if info is not None and info.kind == "match" and engine is not None:
        raise ValueError(
            f"engine (a forward model) applies to single-player games, not {info.slug}"
        )
    if info is not None and info.kind == "match":
        if max_voyages is not None or max_days is not None:
            raise ValueError(f"max_voyages and max_days do not apply to {info.slug}")
        mplan = plan_match(
            game, seed=seed, strategy=strategy, server=server, seats=seats, match=match,
            strict=strict, move_timeout=move_timeout, isolate=isolate,
            agent_options=agent_options,
        )  # fmt: skip
        return await run_match_plan(
            mplan, transcript=transcript, max_transcript_bytes=_bytes(max_transcript_mb)
        )
    if seats != 1 or match is not None:
        raise ValueError("seats and match apply to match games only")
    plan = plan_run(
        game, seed=seed, strategy=strategy, server=server, max_voyages=max_voyages,
        max_days=max_days, strict=strict, mirror=mirror, move_timeout=move_timeout,
        isolate=isolate, agent_options=agent_options, max_steps=max_steps, engine=engine,
        lookahead=lookahead, lookahead_budget=lookahead_budget, allow_peek=allow_peek,
        objective=objective,
    )  # fmt: skip
    if server == ENGINE and transcript is not None:
        raise ValueError("the engine backend keeps no transcript: give server=None or a URL")
    await peek_check(plan)
    limit = _bytes(max_transcript_mb)
    writer = TranscriptWriter(Path(transcript), max_bytes=limit) if transcript is not None else None
    try:
        summary = await run_plan(plan, writer=writer)
    finally:
        if writer is not None:
            writer.close()
    return summary


@dataclass
class MatchPlan:
    """A checked match, ready to play: what :func:`plan_match` resolved from the options.

    ``make(rng)`` builds one seat's strategy (``label`` names it); ``match_id`` joins an
    existing match on ``server`` instead of creating one; ``start_ms`` is a created match's
    countdown on ``server`` (others may join meanwhile; ``None``: the server's default);
    ``beat_ms`` the beat lengths of a match created on the embedded server (``None``:
    :data:`sunbot.runs.match.LOCAL_BEAT_MS`, or the slow ones for clocked or slow seats).
    """

    info: GameInfo
    seed: int
    strategy: str
    make: Callable[[random.Random], Any]
    server: str | None = None
    match_id: str | None = None
    seats: int = 1
    strict: bool = False
    move_timeout: float | None = None
    start_ms: int | None = None
    beat_ms: dict[str, int] | None = None

    @property
    def shown_seed(self) -> int | None:
        """The match's seed as summaries show it: a joined match's is its creator's."""
        return self.seed if self.match_id is None else None


def plan_match(
    game: str,
    *,
    seed: int | None = None,
    strategy: StrategyLike | None = None,
    server: str | None = None,
    seats: int = 1,
    match: str | None = None,
    strict: bool = False,
    move_timeout: float | None = None,
    isolate: bool = False,
    agent_options: dict[str, Any] | None = None,
    wait_s: int | None = None,
) -> MatchPlan:
    """Check a match's options and resolve them (nothing is opened or played): the seed,
    the strategy of our ``seats``, where the match lives, its beats.

    Args:
        wait_s: a match created on ``server`` waits this many seconds for other players.

    Raises:
        ValueError: an unknown game, a game that is not a match game, a bad seed or server,
            ``server="engine"``, ``match`` or ``wait_s`` without a server, ``wait_s`` with
            ``match``, seats outside 1..6, one strategy object for several seats, a bad
            ``move_timeout``, an unknown strategy or a bot file whose constructor raises.
    """
    try:
        info = get_game(game)
    except KeyError:
        raise ValueError(unknown_game(game)) from None
    if info.kind != "match":
        raise ValueError(f"{info.slug} is not a match game: use plan_run")
    if seed is None:
        seed = new_seed()
    elif (problem := seed_problem(seed)) is not None:
        raise ValueError(problem)
    check_server(server)
    check_move_timeout(move_timeout)
    if server == ENGINE:
        raise ValueError("a match plays on a server: give server=None (embedded) or a URL")
    if match is not None and server is None:
        raise ValueError("match needs server (the match lives there)")
    if wait_s is not None and (server is None or match is not None):
        raise ValueError("wait creates a match on a server that others can join")
    if not 1 <= seats <= 6:
        raise ValueError(f"seats must be 1 to 6, got {seats}")
    shared = not isinstance(strategy, str | type | None) and hasattr(strategy, "choose")
    if shared and seats > 1:
        raise ValueError("one strategy object cannot play several seats: pass its class")
    name, make = resolve_strategy(
        info.slug, strategy, isolate=isolate, seed=seed, options=agent_options
    )
    if isinstance(strategy, str) and bots.is_file_spec(strategy) and not isolate:
        _close(make(random.Random(seed)))  # a constructor that raises: before any file
    plan = MatchPlan(
        info, seed, name, make, server, match, seats, strict, move_timeout,
        None if wait_s is None else wait_s * 1000,
    )  # fmt: skip
    return plan


def _close(bot: Any) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        close()


async def run_match_plan(
    plan: MatchPlan,
    *,
    transcript: str | Path | None = None,
    max_transcript_bytes: int | None = DEFAULT_MAX_TRANSCRIPT_MB << 20,
    on_recorder: Callable[[Any], None] | None = None,
    announce: Callable[[str], None] | None = None,
    transport: Any = None,
) -> MatchSummary:
    """Play a planned match and return its summary: the seats' strategies built
    (``random.Random(seed * 1000 + i)`` for our i-th seat), the embedded server started
    when ``plan.server`` is ``None``, the transcript written, every seat played by the one
    seat loop with its mirror (:func:`sunbot.runs.match.run_match`).

    Args:
        transcript: the JSON Lines file to write (it must not exist); ``None``: none.
        max_transcript_bytes: its size limit (``None``: none).
        on_recorder: called once with the match's recorder (a face's live view follows
            its ``latest`` view).
        announce: called with the match id once the match exists.
        transport: an httpx transport to the server (tests); default: the embedded server
            in-process, or the network for ``plan.server``.

    Returns:
        A :class:`~sunbot.runs.summary.MatchSummary`; a match that fails midway is not
        raised: ``ended_by == "error"`` and ``error`` says why. A transcript that cannot
        be written whole (a full disk) ends it the same way.

    Raises:
        SetupError: the embedded server's key cannot be had.
        FileExistsError, OSError: the transcript cannot be created.
        sunbot.agents.clock.BotError: an isolated bot that cannot start.
    """
    from sunbot.runs.match import run_match
    from sunbot.transcripts.jsonl import TranscriptWriter

    if plan.server is None and transport is None:
        transport = _embedded_match_transport()
    writer = (
        TranscriptWriter(Path(transcript), max_bytes=max_transcript_bytes)
        if transcript is not None
        else None
    )
    try:
        result = await run_match(
            game=plan.info.slug, seed=plan.seed, strategy=plan.strategy, server=plan.server,
            match_id=plan.match_id, seats=plan.seats, writer=writer, strict=plan.strict,
            on_recorder=on_recorder, transport=transport, make=plan.make,
            start_ms=plan.start_ms, announce=announce, move_timeout=plan.move_timeout,
            beat_ms=plan.beat_ms,
        )  # fmt: skip
    finally:
        if writer is not None:
            writer.close()
    summary = match_summary(plan.info.slug, plan.seed, plan.strategy, plan.match_id, result, writer)
    if writer is not None and writer.failed is not None:  # the disk filled up mid-match
        summary.transcript_error = str(writer.failed)
        summary.ended_by, summary.error = "error", summary.transcript_error
    return summary


def _embedded_match_transport() -> Any:
    """The embedded server for a match: a fresh key (a match's seat tokens are its own)."""
    import httpx

    from sunbot.server import TokenCodec, create_app

    return httpx.ASGITransport(app=create_app(TokenCodec()))


def match_summary(
    slug: str,
    seed: int,
    name: str,
    match: str | None,
    result: dict[str, Any],
    writer: TranscriptWriter | None,
) -> MatchSummary:
    """The :class:`MatchSummary` of a match from its ``result`` record
    (:func:`sunbot.runs.match.run_match`)."""
    from sunbot.observations.harvest_watch_outcome import final_summary, winner_line

    final = result.get("final") or {}
    fs = final_summary(final)
    return MatchSummary(
        game=slug,
        seed=seed if match is None else None,  # a joined match's seed is its creator's
        strategy=name,
        score=int(result["score"]),
        steps=int(result["steps"]),
        refused=int(result["refused"]),
        game_over=bool(result["gameOver"]),
        ended_by=result["endedBy"],
        error=result["error"],
        error_traceback=result.get("errorTraceback"),
        final_state=final.get("data"),
        responses_checked=int(result["responsesChecked"]),
        divergences=list(result["mirrorDivergences"]),
        retries=int(result["retries"]),
        timeouts=int(result.get("timeouts", 0)),
        agent=dict(result.get("agent") or {}),
        cut_fields=int(result.get("cutFields", 0)),
        elapsed_s=float(result["elapsedMs"]) / 1000,
        transcript=writer.path if writer is not None else None,
        match_id=result["matchId"],
        ranks=result["ranks"],
        seats=[
            MatchSeat(s["seat"], s["rank"], s["food"], s["alive"], s["outNight"])
            for s in result["seats"]
        ],
        outcome=winner_line(result["ranks"], fs.get("aliveSeats"), fs.get("day")),
        unknown_fields=list(result.get("unknownFields") or []),
        beats_checked=int(result.get("beatsChecked", 0)),
        nights_undecided=int(result.get("nightsUndecided", 0)),
        result={k: v for k, v in result.items() if k not in ("final", "mirrorDivergences")},
        final_view=result.get("final"),
    )


def play(
    game: str,
    *,
    seed: int | None = None,
    strategy: StrategyLike | None = None,
    server: str | None = None,
    transcript: str | Path | None = None,
    max_voyages: int | None = None,
    max_days: int | None = None,
    strict: bool = False,
    mirror: bool = True,
    seats: int = 1,
    match: str | None = None,
    move_timeout: float | None = None,
    isolate: bool = False,
    agent_options: dict[str, Any] | None = None,
    max_steps: int | None = None,
    max_transcript_mb: int | None = DEFAULT_MAX_TRANSCRIPT_MB,
    engine: str | None = None,
    lookahead: int | None = None,
    lookahead_budget: int | None = None,
    allow_peek: bool = False,
    objective: str | None = None,
) -> RunSummary:
    """:func:`play_async` from synchronous code; arguments, result and errors are the same.

    Inside a running event loop (a notebook cell) it plays on a worker thread with its own
    loop and blocks until the run ends; from async code prefer ``await play_async(...)``.
    """
    run = play_async(
        game,
        seed=seed,
        strategy=strategy,
        server=server,
        transcript=transcript,
        max_voyages=max_voyages,
        max_days=max_days,
        strict=strict,
        mirror=mirror,
        seats=seats,
        match=match,
        move_timeout=move_timeout,
        isolate=isolate,
        agent_options=agent_options,
        max_steps=max_steps,
        max_transcript_mb=max_transcript_mb,
        engine=engine,
        lookahead=lookahead,
        lookahead_budget=lookahead_budget,
        allow_peek=allow_peek,
        objective=objective,
    )
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sunbot-play") as pool:
        return pool.submit(asyncio.run, run).result()


__all__ = [
    "ENGINE",
    "MatchPlan",
    "RunPlan",
    "SetupError",
    "check_move_timeout",
    "check_server",
    "first_match_prompt",
    "first_prompt",
    "new_seed",
    "open_backend",
    "peek_check",
    "plan_match",
    "plan_run",
    "play",
    "play_async",
    "resolve_strategy",
    "run_cap",
    "run_match_plan",
    "run_plan",
    "search_options",
]
