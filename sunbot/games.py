"""The one table of games: where each game's engine, served spec, plain-state check, mirror
hooks, terminal view, replay page, built-in strategies, environment and codec live, and how
a run cap ends a run. Everything else looks games up here by slug.

References are ``"module:attribute"`` (or ``"module"``) strings imported on first use, so a
game whose engine is not built yet simply does not appear in :func:`available`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # the engines and the mirror import this table, not the reverse
    from sunbot.engines import Engine, MatchEngine
    from sunbot.mirror.hooks import MirrorHooks

#: Names this project's local choices (generation ramps, decks, draws: ``docs/rules/``). Our
#: server announces it in ``GET /api/games`` (``localChoices``); a transcript recorded from a
#: server that announced it can be re-played through our engines, any other is only mirrored.
LOCAL_CHOICES = "sunbot-local-choices/2"
#: Seeds are signed 64-bit integers everywhere: ``init?seed=``, a match's ``seed``,
#: ``sunbot play --seed``, ``sunbot.play(seed=)`` and ``sunbot bench --seeds``.
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1


def seed_problem(seed: object, name: str = "seed") -> str | None:
    """Why ``seed`` is not a seed (an ``int``, not a ``bool``, from :data:`MIN_SEED` to
    :data:`MAX_SEED`), naming the argument ``name``; ``None`` when it is one."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        return f"{name} must be an integer, got {type(seed).__name__} {seed!r:.40}"
    if not MIN_SEED <= seed <= MAX_SEED:
        return f"{name} must fit a signed 64-bit integer ({MIN_SEED} to {MAX_SEED})"
    return None


@dataclass(frozen=True)
class GameInfo:
    """One game's entry.

    Attributes:
        slug: platform slug (``/api/games``).
        engine_ref: the engine module (:attr:`engine`); ``spec_ref``: the served ``spec``.
        kind: ``"single"`` for the stateless init/action games, ``"match"`` for the
            real-time multi-seat ones.
        hidden: the state has hidden parts: the token is the only carrier, ``state`` equals
            the observation and a plain ``state`` is refused.
        cap_field: the state field a run cap counts (``voyage``, ``day``).
        cap_phase: the phase at which a capped run is ended (port, sunset, dayBreak).
        end_action: the action that ends a run at that phase.
        check_state_ref: ``"module:function"`` raising ``ValueError`` on an inconsistent
            state: a plain ``state`` sent by a client, or, for hidden games (which refuse
            plain states), the state decoded from a token.
        default_cap: the run cap ``sunbot play`` uses when none is given (Naptuft: 10
            days, the spec's local default, since its runs have no end of their own;
            Sunloaf: 40 days, since the planner never misses a quota and the game stops
            changing by day 33, when the ramp, bonus and multiplier have all topped out).
        max_cap: the largest run cap accepted (``--max-voyages``, ``--max-days``, bench
            ``--cap``), so that no run is asked to go on for ever: Keelhold 20,000 voyages
            (its 20,000-placement guard ends any run before that), Sunloaf and Naptuft
            1,000 days (docs/decisions.md, "Largest run cap").
        answer_fields: observation fields every answer of this game carries by its published
            rules; an answer without them is not an answer of this game (the runner then
            blames the server, not the strategy, for a strategy that cannot read it).
        mirror_ref: the mirror hooks module (:mod:`sunbot.mirror`); ``None``: the game is
            mirrored otherwise (Harvest Watch: per seat, :mod:`sunbot.mirror.harvest_watch`).
        view_ref: ``"module:render"`` of the terminal view (:mod:`sunbot.views`).
        summary_ref: ``"module:function"`` of the closing-summary fields of a final
            position (plain values: :mod:`sunbot.observations`), shown by ``sunbot play``,
            ``replay`` and ``export``; ``None``: none.
        explain_ref: ``"module:function"`` ``(word) -> str | None``: what the game's own
            ending word (``cause``/``result``) means, in a few plain words, shown beside it
            in ``sunbot play``'s summary (:meth:`explain`); ``None``: none.
        page_ref: the replay page's module (:mod:`sunbot.html`): ``frame`` and ``progress``
            of a position (a match's: of a seat's view, and ``food``), drawn by the script
            of the same name in ``sunbot/html/assets/``.
        strategies: built-in strategy name -> ``"module:attribute"`` of its factory
            (:mod:`sunbot.strategies`); the first is the default (:attr:`default_strategy`).
        env_id, env_ref: the Gymnasium id and ``"module:class"`` of the game's environment
            (:mod:`sunbot.envs`), both or neither.
        codec_ref: ``"module:class"`` of the observation/action encoding a trained policy
            plays through (:mod:`sunbot.envs.policy`).
        fallback_ref: ``"module:function"`` ``(observation, legal_actions) -> action``: the
            cheap, safe action a decision past its move deadline plays
            (:mod:`sunbot.agents.fallbacks`); ``None``: the first legal action (a match:
            nothing is sent, the beat's default applies).
    """

    slug: str
    name: str
    genre: str
    description: str
    kind: Literal["single", "match"]
    hidden: bool
    engine_ref: str
    spec_ref: str
    check_state_ref: str | None
    mirror_ref: str | None
    view_ref: str | None
    cap_field: str | None
    cap_phase: str | None
    end_action: dict[str, Any] | None
    default_cap: int | None = None
    max_cap: int | None = None
    answer_fields: tuple[str, ...] = ()
    page_ref: str | None = None
    strategies: dict[str, str] = field(default_factory=dict)
    env_id: str | None = None
    env_ref: str | None = None
    codec_ref: str | None = None
    fallback_ref: str | None = None
    summary_ref: str | None = None
    explain_ref: str | None = None

    def check_cap(self, value: int, option: str) -> None:
        """Refuse a run cap (``option``: the option's name, for the message) below 1 or
        above :attr:`max_cap`.

        Raises:
            ValueError: one line naming the option, the value and the bound.
        """
        if value < 1:
            raise ValueError(f"{option} must be at least 1, got {value}")
        if self.max_cap is not None and value > self.max_cap:
            raise ValueError(
                f"{option} {value} is above the largest {self.slug} cap,"
                f" {self.max_cap} {self.cap_field}s (docs/decisions.md)"
            )

    @property
    def engine(self) -> Engine:
        """The engine module of an init/step game (:class:`~sunbot.engines.Engine`).

        A match game's module is typed by :attr:`match_engine`; this gives the same module.
        """
        return _loaded(self.engine_ref)

    @property
    def match_engine(self) -> MatchEngine:
        """The engine module of a match game (:class:`~sunbot.engines.MatchEngine`).

        Raises:
            ValueError: the game is not a match game.
        """
        if self.kind != "match":
            raise ValueError(f"{self.slug} is not a match game; its engine is GameInfo.engine")
        return _loaded(self.engine_ref)

    @property
    def mirror(self) -> MirrorHooks | None:
        """The mirror hooks module (:class:`~sunbot.mirror.hooks.MirrorHooks`); ``None`` for a
        game mirrored otherwise (:attr:`mirror_ref` unset)."""
        return importlib.import_module(self.mirror_ref) if self.mirror_ref is not None else None

    @property
    def default_strategy(self) -> str | None:
        """The default built-in strategy: the first of :attr:`strategies` (``None``: none)."""
        return next(iter(self.strategies), None)

    @property
    def spec(self) -> dict[str, Any]:
        """The self-documenting ``spec`` object served on init."""
        value: dict[str, Any] = resolve(self.spec_ref)
        return value

    def served_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        """What a faithful server's answer shows of the engine ``state``, its token aside
        (spec README, "The local server"): ``state`` (the observation for a hidden game),
        ``observation``, ``legalActions``, ``score``, ``gameOver``. Our server serves it;
        ``sunbot replay`` re-plays a recorded run against it."""
        eng = self.engine
        obs = eng.observation(state)
        return {
            "state": obs if self.hidden else state,
            "observation": obs,
            "legalActions": eng.legal_actions(state),
            "score": eng.score(state),
            "gameOver": eng.is_over(state),
        }

    def closing_summary(self, state: dict[str, Any]) -> dict[str, Any]:
        """The game's closing-summary fields for a final position (:attr:`summary_ref`;
        ``{}`` when the game has none)."""
        if self.summary_ref is None:
            return {}
        out: dict[str, Any] = resolve(self.summary_ref)(state)
        return out

    def explain(self, word: str) -> str | None:
        """A few plain words on what the game's own ending word means (``lurch``,
        ``zero:food``, ``missedQuota``), for the summary (:attr:`explain_ref`); ``None``
        for a word the game does not use, or a game without explanations."""
        if self.explain_ref is None:
            return None
        said: str | None = resolve(self.explain_ref)(word)
        return said

    def cap_action(self, state: dict[str, Any], cap: int | None) -> dict[str, Any] | None:
        """The action that ends a run capped at ``cap`` voyages/days, when it is due now.

        Returns ``None`` when there is no cap, the game has none, or it is not yet reached.
        """
        if cap is None or self.cap_field is None or self.end_action is None:
            return None
        if state.get("phase") == self.cap_phase and int(state.get(self.cap_field, 0)) >= cap:
            return dict(self.end_action)
        return None


def resolve(ref: str) -> Any:
    """Import ``"module:attribute"`` and return the attribute."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


GAMES: dict[str, GameInfo] = {
    "keelhold": GameInfo(
        slug="keelhold",
        name="Keelhold",
        genre="puzzle",
        description="Stow crates across seven hatches, keep the barge level, ship lots.",
        kind="single",
        hidden=False,
        engine_ref="sunbot.engines.keelhold",
        spec_ref="sunbot.engines.keelhold_spec:SPEC",
        check_state_ref="sunbot.engines.keelhold_schema:check_state",
        mirror_ref="sunbot.mirror.keelhold",
        view_ref="sunbot.views.keelhold:render",
        summary_ref="sunbot.observations.keelhold:summary",
        explain_ref="sunbot.observations.keelhold:explain",
        cap_field="voyage",
        cap_phase="port",
        end_action={"type": "END_RUN"},
        default_cap=30,  # the planner's runs last hundreds of voyages (docs/decisions.md)
        max_cap=20_000,  # the engine's placement guard (GUARD_TURNS) ends a run before that
        answer_fields=("hold", "queue"),
        page_ref="sunbot.html.keelhold",
        fallback_ref="sunbot.agents.fallbacks:keelhold",
        strategies={
            "planner": "sunbot.strategies.keelhold_planner:Planner",
            "safe-greedy": "sunbot.strategies.keelhold:SafeGreedy",
            "first-safe": "sunbot.strategies.keelhold:FirstSafe",
            "random": "sunbot.strategies.baselines:RandomLegal",
            "clairvoyant": "sunbot.strategies.keelhold_clairvoyant:Clairvoyant",
            "planner-v2": "sunbot.strategies.keelhold_planner:PlannerV2",
            "search": "sunbot.strategies.search:Search",
        },
        env_id="sunbot/Keelhold-v1",
        env_ref="sunbot.envs.keelhold:KeelholdEnv",
        codec_ref="sunbot.envs.keelhold:KeelholdCodec",
    ),
    "sunloaf": GameInfo(
        slug="sunloaf",
        name="Sunloaf",
        genre="puzzle",
        description="Move napping cats to follow a band of sunlight across a room.",
        kind="single",
        hidden=False,
        engine_ref="sunbot.engines.sunloaf",
        spec_ref="sunbot.engines.sunloaf:SPEC",
        check_state_ref="sunbot.engines.sunloaf:check_state",
        mirror_ref="sunbot.mirror.sunloaf",
        view_ref="sunbot.views.sunloaf:render",
        summary_ref="sunbot.observations.sunloaf:summary",
        explain_ref="sunbot.observations.sunloaf:explain",
        cap_field="day",
        cap_phase="sunset",
        end_action={"type": "END_RUN"},
        default_cap=40,
        max_cap=1_000,
        answer_fields=("cats",),
        page_ref="sunbot.html.sunloaf",
        fallback_ref="sunbot.agents.fallbacks:sunloaf",
        strategies={
            "planner": "sunbot.strategies.sunloaf:Planner",
            "planner-ahead": "sunbot.strategies.sunloaf:PlannerAhead",
            "planner-relay": "sunbot.strategies.sunloaf_relay:PlannerRelay",
            "planner-v1": "sunbot.strategies.sunloaf:PlannerV1",
            "reference": "sunbot.strategies.sunloaf:Reference",
            "rest": "sunbot.strategies.sunloaf:Rest",
            "random": "sunbot.strategies.baselines:RandomLegal",
            "search": "sunbot.strategies.search:Search",
        },
        env_id="sunbot/Sunloaf-v1",
        env_ref="sunbot.envs.sunloaf:SunloafEnv",
        codec_ref="sunbot.envs.sunloaf:SunloafCodec",
    ),
    "naptuft": GameInfo(
        slug="naptuft",
        name="Naptuft",
        genre="care",
        description="Keep one cat's four needs up and follow its wishes, day after day.",
        kind="single",
        hidden=True,
        engine_ref="sunbot.engines.naptuft",
        spec_ref="sunbot.engines.naptuft:SPEC",
        check_state_ref="sunbot.engines.naptuft:check_state_shape",
        mirror_ref="sunbot.mirror.naptuft",
        view_ref="sunbot.views.naptuft:render",
        summary_ref="sunbot.observations.naptuft:summary",
        explain_ref="sunbot.observations.naptuft:explain",
        cap_field="day",
        cap_phase="dayBreak",
        end_action={"type": "end-run"},
        default_cap=10,
        max_cap=1_000,
        answer_fields=("needs",),
        page_ref="sunbot.html.naptuft",
        fallback_ref="sunbot.agents.fallbacks:naptuft",
        strategies={
            "balancer": "sunbot.strategies.naptuft:Balancer",
            "rotation": "sunbot.strategies.naptuft:Rotation",
            "random": "sunbot.strategies.baselines:RandomLegal",
            "clairvoyant": "sunbot.strategies.naptuft:Clairvoyant",
        },
        env_id="sunbot/Naptuft-v1",
        env_ref="sunbot.envs.naptuft:NaptuftEnv",
        codec_ref="sunbot.envs.naptuft:NaptuftCodec",
    ),
    "harvest-watch": GameInfo(
        slug="harvest-watch",
        name="Harvest Watch",
        genre="social",
        description="Six seats, one clock: farm, guard, steal, vote fines, outlast the rest.",
        kind="match",
        hidden=True,
        engine_ref="sunbot.engines.harvest_watch",
        spec_ref="sunbot.engines.harvest_watch:SPEC",
        check_state_ref=None,
        mirror_ref=None,
        view_ref="sunbot.views.harvest_watch:render",
        summary_ref="sunbot.observations.harvest_watch_outcome:summary",
        cap_field=None,
        cap_phase=None,
        end_action=None,
        page_ref="sunbot.html.harvest_watch",
        strategies={
            "adaptive": "sunbot.strategies.harvest_watch_deeds:Deeds",
            "coalition": "sunbot.strategies.harvest_watch:Coalition",
            "guard": "sunbot.strategies.harvest_watch:Guard",
            "farmer": "sunbot.strategies.harvest_watch:Farmer",
            "random": "sunbot.strategies.harvest_watch:RandomSeat",
            "house": "sunbot.strategies.harvest_watch:House",
            "reciprocator": "sunbot.strategies.harvest_watch_reciprocator:Reciprocator",
            "adaptive-v1": "sunbot.strategies.harvest_watch_adaptive:Adaptive",
            "adaptive-v2": "sunbot.strategies.harvest_watch_reader:Foresight",
            "adaptive-v3": "sunbot.strategies.harvest_watch_line_play:LinePlay",
        },
        codec_ref="sunbot.envs.harvest_watch_codec:HarvestWatchCodec",
    ),
}


@cache
@cache
def _loaded(name: str) -> ModuleType:
    """The module ``name``, imported once: ``importlib.import_module`` costs a lookup and
    a lock on every call, and a server reads a game's engine several times a request.

    Raises:
        ImportError: the module cannot be imported (not cached: tried again next time).
    """
    return importlib.import_module(name)


def _importable(ref: str) -> bool:
    try:
        importlib.import_module(ref.partition(":")[0])
    except ModuleNotFoundError:
        return False
    return True


def available(kind: str | None = None) -> list[GameInfo]:
    """Games whose engine is importable (optionally only of ``kind``), in table order."""
    return [
        g for g in GAMES.values() if _importable(g.engine_ref) and (kind is None or g.kind == kind)
    ]


def get_game(slug: str) -> GameInfo:
    """The entry for ``slug``.

    Raises:
        KeyError: unknown or unavailable game; the message lists the available slugs.
    """
    game = GAMES.get(slug)
    if game is None or not _importable(game.engine_ref):
        names = ", ".join(g.slug for g in available())
        raise KeyError(f"unknown game {slug!r}; available: {names}")
    return game


#: The most steps a run of a game sunbot does not know may be capped at, and its default.
GENERIC_MAX_STEPS, GENERIC_DEFAULT_STEPS = 100_000, 1_000


def generic_game(slug: str) -> GameInfo:
    """An entry for a game sunbot has no engine for (any game a server lists): played on
    the platform's loop alone, capped by steps (``--cap steps=N``; default
    :data:`GENERIC_DEFAULT_STEPS`), checked by the generic checks. It is never in
    :data:`GAMES`: code that asks ``GAMES.get(slug)`` treats the game as unknown."""
    return GameInfo(
        slug=slug, name=slug, genre="", description="", kind="single", hidden=True,
        engine_ref="", spec_ref="", check_state_ref=None, mirror_ref=None, view_ref=None,
        cap_field="step", cap_phase=None, end_action=None, default_cap=GENERIC_DEFAULT_STEPS,
        max_cap=GENERIC_MAX_STEPS, page_ref="sunbot.html.generic",
    )  # fmt: skip
