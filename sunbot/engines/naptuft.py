"""Naptuft rules engine: one cat, four needs, a hidden descriptor deck (spec ``naptuft.md``).

Pure functions on plain JSON dicts (the engine API of :mod:`sunbot.engines`). The engine state
is the §3 observation then the hidden ``seed``, ``cursor``, ``version``; descriptor ``k`` is
recomputed from ``(seed, k)`` (§4). A care reads the state's own ``forecast``, so the same
resolver serves a player who sees only the observation (:func:`step_observation`); only
``next-day`` reveals new descriptors. Local choices and decisions: ``docs/rules/naptuft.md``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from sunbot.engines import IllegalAction

SLUG, NAME, VERSION = "naptuft", "Naptuft", 1
#: Canonical orders (§2).
NEEDS: tuple[str, ...] = ("food", "joy", "cleanliness", "energy")
CARES: tuple[str, ...] = ("feed", "play", "brush", "nap")
CARE_NEED: dict[str, str] = dict(zip(CARES, NEEDS, strict=True))
INITIAL_NEED = 70  # local choice (§3)
RESTORE_MAX = 36  # §6.2 step 1
LOSS_BASE, LOSS_CAP = 6, 8  # §6.2 step 3
COMFORT_MIN, COMFORT_BONUS = 40, 10  # §6.2 step 5
WISH_UNIT, STREAK_CAP = 60, 3  # §6.2 step 6
DAY_MIN, DAY_BONUS = 30, 120  # §6.2 step 8
REPEAT_FROM_DAY = 7  # §5
MOMENTS_PER_WINDOW, WINDOWS_PER_DAY = 4, 3
#: Observation keys in the order of the §3 table; the engine state appends ``HIDDEN``.
OBS_KEYS: tuple[str, ...] = (
    "day", "moment", "window", "phase", "needs", "wish", "wishStreak",
    "forecast", "nextWindow", "lastCare", "score", "result", "cause",
)  # fmt: skip
HIDDEN: tuple[str, ...] = ("seed", "cursor", "version")

State = dict[str, Any]
Action = dict[str, Any]
#: A deck: ``deck(seed, k)`` is descriptor ``k`` (``{wish, pressure}``) of ``seed`` (§4).
Deck = Callable[[int, int], dict[str, Any]]

END_RUN: Action = {"type": "end-run"}
NEXT_DAY: Action = {"type": "next-day"}
#: Every well-formed action; actions compare as JSON objects (§2), so this is the grammar.
ALL_ACTIONS: tuple[Action, ...] = (*({"type": "care", "care": c} for c in CARES), NEXT_DAY, END_RUN)


def _clone(value: Any) -> Any:
    """Deep copy of a JSON value (dicts keep their key order)."""
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


def descriptor(seed: int, k: int) -> dict[str, Any]:
    """Deck descriptor ``k`` of ``seed``: ``{wish: [care...], pressure: {need: 0..4}}`` (§4).

    Raises:
        ValueError: ``seed`` or ``k`` is not an int, or ``k < 0``.
    """
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (seed, k)) or k < 0:
        raise ValueError(f"seed must be an int and k an int >= 0, got {seed!r}, {k!r}")
    h = hashlib.sha256(f"naptuft:{seed}:{k}".encode("ascii")).digest()
    day = k // 3 + 1
    length = 1 + h[0] % 2 if day <= 2 else 2 + h[0] % (2 if day <= 5 else 3)
    order = list(CARES)
    for i, t in ((3, 1), (2, 2), (1, 3)):
        j = h[t] % (i + 1)
        order[i], order[j] = order[j], order[i]
    cap = min(4, (day + 1) // 2)
    pressure = {n: h[4 + i] % (cap + 1) for i, n in enumerate(NEEDS)}
    return {"wish": order[:length], "pressure": pressure}


def loss(pressure: int) -> int:
    """What one need loses at one moment under ``pressure``: ``min(6 + p, 8)`` (§4, §6.2)."""
    return min(LOSS_BASE + pressure, LOSS_CAP)


def init(seed: int) -> State:
    """Opening state of ``seed`` (§3 "Initial state"): observation keys then hidden ones."""
    return init_with(seed, descriptor, INITIAL_NEED)


def init_with(seed: int, deck: Deck, initial_need: int) -> State:
    """:func:`init` with another server's deck (``deck(seed, k)`` gives descriptor ``k``)
    and starting need value (both local choices, §3 and §4)."""
    forecast = [deck(seed, k) for k in range(WINDOWS_PER_DAY)]
    return {
        "day": 1,
        "moment": 0,
        "window": 0,
        "phase": "care",
        "needs": dict.fromkeys(NEEDS, initial_need),
        "wish": {"actions": list(forecast[0]["wish"]), "progress": 0},
        "wishStreak": 0,
        "forecast": forecast,
        "nextWindow": deck(seed, WINDOWS_PER_DAY),
        "lastCare": None,
        "score": 0,
        "result": None,
        "cause": None,
        "seed": seed,
        "cursor": 0,
        "version": VERSION,
    }


def legal_actions(state: State) -> list[Action]:
    """Legal actions in the pinned order of §5 (works on a state or an observation)."""
    phase = state["phase"]
    if phase == "care":
        banned = state["lastCare"] if state["day"] >= REPEAT_FROM_DAY else None
        cares = [{"type": "care", "care": c} for c in CARES if c != banned]
        return [*cares, dict(END_RUN)]
    if phase == "dayBreak":
        return [dict(NEXT_DAY), dict(END_RUN)]
    return []


def refusal(state: State, action: object) -> str | None:
    """The refusal reason ``"<code>: <sentence>"`` for ``action``, or None if legal (§6.1).

    Codes in check order: ``malformed``, ``gameOver``, ``dayBreak``, ``notDayBreak``,
    ``repeatCare`` (``badToken`` belongs to the server, which checks it before this).
    """
    if not isinstance(action, dict) or action not in ALL_ACTIONS:
        return "malformed: send exactly a care (feed|play|brush|nap), next-day or end-run"
    kind, phase = action["type"], state["phase"]
    if phase == "over":
        return "gameOver: the run is over and accepts no more actions"
    if kind == "care" and phase == "dayBreak":
        return "dayBreak: the day is done; send next-day or end-run"
    if kind == "next-day" and phase == "care":
        return "notDayBreak: next-day is only possible at a day break"
    if kind == "care" and state["day"] >= REPEAT_FROM_DAY and action["care"] == state["lastCare"]:
        return f"repeatCare: from day {REPEAT_FROM_DAY} on, {action['care']} cannot follow itself"
    return None


def _resolve(state: State, action: Action, fresh: list[Any] | None) -> State:
    """Apply a legal action to a copy of ``state`` (§6.2-§6.4).

    ``fresh`` (next-day only): the new day's windows 0, 1, 2 and its next window.
    """
    s: State = _clone(state)
    kind = action["type"]
    if kind == "end-run":  # §6.4
        s.update(phase="over", result="ended", cause="end-run")
        return s
    if kind == "next-day":  # §6.3
        assert fresh is not None, "next-day needs the new day's descriptors"
        s["day"] += 1
        s.update(moment=0, window=0, phase="care")
        s["forecast"] = _clone(fresh[:WINDOWS_PER_DAY])
        s["nextWindow"] = _clone(fresh[WINDOWS_PER_DAY])
        s["wish"] = {"actions": list(s["forecast"][0]["wish"]), "progress": 0}
        return s
    care, m, needs = action["care"], s["moment"], s["needs"]
    pressure = s["forecast"][s["window"]]["pressure"]
    need = CARE_NEED[care]
    restored = min(RESTORE_MAX, 100 - needs[need])  # 1. restore
    needs[need] += restored
    s["score"] += restored
    s["lastCare"] = care  # 2. record
    for n in NEEDS:  # 3. decay
        needs[n] = max(0, needs[n] - loss(pressure[n]))
    zeros = [n for n in NEEDS if needs[n] == 0]
    if zeros:  # 4. fatal: nothing else happens
        s.update(phase="over", result="fatal", cause="zero:" + ",".join(zeros))
        return s
    if all(needs[n] >= COMFORT_MIN for n in NEEDS):  # 5. comfort
        s["score"] += COMFORT_BONUS
    wish = s["wish"]
    if wish is not None and care == wish["actions"][wish["progress"]]:  # 6. wish step
        wish["progress"] += 1
        size = len(wish["actions"])
        if wish["progress"] == size:
            s["score"] += WISH_UNIT * size * min(s["wishStreak"] + 1, STREAK_CAP)
            s["wishStreak"] += 1
            s["wish"] = None
    if m % MOMENTS_PER_WINDOW == MOMENTS_PER_WINDOW - 1:  # 7. window end
        if s["wish"] is not None:
            s["wishStreak"] = 0
        if m < 11:
            s["window"] += 1
            s["wish"] = {"actions": list(s["forecast"][s["window"]]["wish"]), "progress": 0}
    if m == 11:  # 8. day end
        if all(needs[n] >= DAY_MIN for n in NEEDS):
            s["score"] += DAY_BONUS
        s.update(phase="dayBreak", wish=None)
    else:
        s["moment"] = m + 1
    return s


def step(state: State, action: Action) -> State:
    """The state after ``action`` (§6); never mutates ``state``.

    Raises:
        IllegalAction: refused (§6.1); the message is ``"<code>: <sentence>"``.
    """
    return step_with(state, action, descriptor)


def step_with(state: State, action: Action, deck: Deck) -> State:
    """:func:`step` with another server's deck (``deck(seed, k)``, a local choice).

    Raises:
        IllegalAction: refused (§6.1); the message is ``"<code>: <sentence>"``.
    """
    reason = refusal(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    fresh = None
    if action["type"] == "next-day":
        base = WINDOWS_PER_DAY * state["day"]  # the new day's first deck index
        fresh = [deck(state["seed"], base + i) for i in range(WINDOWS_PER_DAY + 1)]
    new = _resolve(state, action, fresh)
    new["cursor"] = WINDOWS_PER_DAY * (new["day"] - 1) + new["window"]
    return new


def observation(state: State) -> dict[str, Any]:
    """What the player sees: the §3 fields in table order, without seed/cursor/version."""
    return {k: _clone(state[k]) for k in OBS_KEYS}


def score(state: State) -> int:
    """The run's score so far (§3 ``score``)."""
    return int(state["score"])


def is_over(state: State) -> bool:
    """True once the run is over (phase ``over``, no legal action; §5)."""
    return bool(state["phase"] == "over")


def revealed_from(next_obs: dict[str, Any]) -> dict[str, Any]:
    """The descriptors a ``next-day`` answer reveals, taken from its observation.

    Returns ``{"windows": [window 1, window 2], "nextWindow": descriptor}`` of the new day.
    """
    windows, nxt = next_obs["forecast"][1:], next_obs["nextWindow"]
    return {"windows": _clone(windows), "nextWindow": _clone(nxt)}


def step_observation(
    obs: dict[str, Any], action: Action, revealed: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A player's next observation from ``obs`` and ``action`` (§6), never mutating ``obs``.

    A care and end-run are fully determined by the observation (the pressure and the next
    window's wish are in ``forecast``); ``revealed`` is ignored for them. A next-day needs
    ``revealed`` = ``{"windows": [new window 1, new window 2], "nextWindow": ...}`` (see
    :func:`revealed_from`); the new window 0 is ``obs["nextWindow"]``.

    Raises:
        IllegalAction: refused, exactly as :func:`step` would.
        ValueError: next-day without a well-formed ``revealed``.
    """
    reason = refusal(obs, action)
    if reason is not None:
        raise IllegalAction(reason)
    fresh = None
    if action["type"] == "next-day":
        if revealed is None:
            raise ValueError("next-day reveals new descriptors: pass them as `revealed`")
        r = _Revealed.model_validate(revealed)
        fresh = [obs["nextWindow"], *(d.model_dump() for d in r.windows), r.nextWindow.model_dump()]
    return _resolve(obs, action, fresh)


_STRICT = ConfigDict(strict=True, extra="forbid")
Care = Literal["feed", "play", "brush", "nap"]


class _Needs(BaseModel):
    model_config = _STRICT
    food: int = Field(ge=0, le=100)
    joy: int = Field(ge=0, le=100)
    cleanliness: int = Field(ge=0, le=100)
    energy: int = Field(ge=0, le=100)


class _Pressure(BaseModel):
    model_config = _STRICT
    # a household modifier: ours are 0..4 (a local choice, §4); the rule text states no
    # range, only that a need loses 6 plus it with the loss capped at 8, so any whole
    # number >= 0 is a faithful server's (a negative one would make a need gain)
    food: int = Field(ge=0)
    joy: int = Field(ge=0)
    cleanliness: int = Field(ge=0)
    energy: int = Field(ge=0)


def _distinct(cares: list[str]) -> list[str]:
    if len(set(cares)) != len(cares):
        raise ValueError(f"wish cares must be distinct: {cares}")
    return cares


Cares = Annotated[list[Care], Field(min_length=1, max_length=4), AfterValidator(_distinct)]


class _Descriptor(BaseModel):
    model_config = _STRICT
    wish: Cares
    pressure: _Pressure


class _Wish(BaseModel):
    model_config = _STRICT
    actions: Cares
    progress: int = Field(ge=0)

    @model_validator(mode="after")
    def _check(self) -> _Wish:
        if self.progress >= len(self.actions):
            raise ValueError("a shown wish has progress < its length")
        return self


class _Revealed(BaseModel):
    model_config = _STRICT
    windows: list[_Descriptor] = Field(min_length=2, max_length=2)
    nextWindow: _Descriptor


class _Observation(BaseModel):
    model_config = _STRICT
    day: int = Field(ge=1)
    moment: int = Field(ge=0, le=11)
    window: int = Field(ge=0, le=2)
    phase: Literal["care", "dayBreak", "over"]
    needs: _Needs
    wish: _Wish | None
    wishStreak: int = Field(ge=0)
    forecast: list[_Descriptor] = Field(min_length=3, max_length=3)
    nextWindow: _Descriptor
    lastCare: Care | None
    score: int = Field(ge=0)
    result: Literal["ended", "fatal"] | None
    cause: str | None

    @model_validator(mode="after")
    def _relations(self) -> _Observation:
        if self.window != self.moment // MOMENTS_PER_WINDOW:
            raise ValueError("window must be moment // 4")
        if (self.phase == "over") != (self.result is not None):
            raise ValueError("result is set exactly when phase is over")
        zeros = [n for n in NEEDS if getattr(self.needs, n) == 0]
        if (self.result == "fatal") != bool(zeros):
            raise ValueError("result is fatal exactly when a need is at 0")
        # cause: its wording is the server's (the rule text names none): only that it is
        # a non-empty text exactly when the run is over
        if (self.cause is None) != (self.result is None) or self.cause == "":
            raise ValueError(f"cause {self.cause!r} must be a text exactly when the run is over")
        if self.phase == "dayBreak" and (self.wish is not None or self.moment != 11):
            raise ValueError("at dayBreak the wish is null and the moment is 11")
        if self.wish is not None and self.wish.actions != self.forecast[self.window].wish:
            raise ValueError("the shown wish must be the current window's forecast wish")
        if self.lastCare is None and (self.day, self.moment, self.score) != (1, 0, 0):
            raise ValueError("lastCare is null only before the first care")
        return self


class _State(_Observation):
    seed: int
    cursor: int = Field(ge=0)
    version: int = Field(ge=VERSION, le=VERSION)


def check_observation_shape(obs: object) -> None:
    """Raise ValueError unless ``obs`` fits the §3 observation schema and its relations.

    Checks types (strict: no bools or floats for ints), ranges, required and extra keys,
    ``window == moment // 4``, phase/result/cause agreement, a dayBreak's null wish, the
    shown wish being the current window's forecast wish. Key order is not checked.
    """
    _Observation.model_validate(obs)


def check_state_shape(state: object) -> None:
    """Like :func:`check_observation_shape` for a full engine state (§3 hidden parts).

    Also checks ``version``, ``cursor == 3*(day-1) + window`` and that ``forecast`` and
    ``nextWindow`` are the seed's descriptors for the day.
    """
    s = _State.model_validate(state)
    base = WINDOWS_PER_DAY * (s.day - 1)
    if s.cursor != base + s.window:
        raise ValueError("cursor must be 3*(day-1) + window")
    deck = [descriptor(s.seed, base + i) for i in range(WINDOWS_PER_DAY + 1)]
    shown = [d.model_dump() for d in s.forecast] + [s.nextWindow.model_dump()]
    if shown != deck:
        raise ValueError("forecast/nextWindow differ from the seed's deck")


def _variant(kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **extra},
        "required": ["type", *extra],
        "additionalProperties": False,
    }


SPEC: dict[str, Any] = {
    "goal": (
        "Keep one cat's four needs (food, joy, cleanliness, energy) above zero for as many "
        "days as you like, follow its wishes when safe, and end the run to bank the score."
    ),
    "scoring": (
        "Each care scores what it really restores (0..36, before decay). +10 when every need "
        "is at least 40 after decay. A wish finished in order pays 60 x its length x the "
        "streak multiplier (1, 2, then 3 for every further wish in a row); a wish left "
        "unfinished when its window closes resets the streak. +120 when the 12th moment of "
        "a day leaves every need at 30 or more. A care that empties a need keeps only its "
        "restoration points. No cap."
    ),
    "rules": [
        "A day has 12 care moments in three windows of 4; each window has a wish (ordered, "
        "distinct cares) and a pressure per need; the forecast shows today's three windows "
        "and the next day's first.",
        "feed, play, brush and nap raise food, joy, cleanliness and energy by up to 36 "
        "(never past 100); then every need drops by 6 + its pressure, at most 8.",
        "A need at 0 ends the run at once (result fatal).",
        "A wish advances only when its next care is chosen; other cares cost nothing.",
        "From day 7 on a care may not repeat the previous care, even across a day break.",
        "After the 12th moment comes a day break: send next-day (no points) or end-run.",
        "end-run ends the run at any time it is legal and keeps the score; an ended run "
        "accepts nothing.",
        "A refused action changes nothing and spends no moment; the reason starts with "
        "malformed, gameOver, dayBreak, notDayBreak or repeatCare.",
    ],
    "actionSchema": {
        "type": "object",
        "oneOf": [
            _variant("care", care={"enum": list(CARES)}),
            _variant("next-day"),
            _variant("end-run"),
        ],
    },
}
