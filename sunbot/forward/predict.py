"""A forward model's predictions of a server's answers, and their comparison with it.

"Rules exact, choices tolerant", as the mirror: a model that says it draws nothing
(``stochastic`` unset) is compared exactly; a stochastic one is stepped with fresh draws
until one of them is the served answer. When none of up to :data:`MAX_SAMPLES` draws is,
what every draw agrees on is compared exactly and the rest (a spawned tile, a dealt card)
by shape (the JSON type, a number within the sampled range). Fields a server shows that
the model does not predict are never a divergence: they are listed (``unpredicted``), as
the mirror lists unknown fields.
"""

from __future__ import annotations

import collections
import copy
import functools
import inspect
import json
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sunbot._text.safe import clip, describe
from sunbot.forward.contract import is_stochastic
from sunbot.mirror import MISSING_FIELD, UNKNOWN_FIELD, Finding, diff, same_set
from sunbot.mirror.fields import pattern

#: Draws of a stochastic model tried at least, and at most, before a served answer none of
#: them agrees with is compared by shape; and the seconds the draws may take past the first
#: :data:`SAMPLES`.
SAMPLES, MAX_SAMPLES, MAX_SAMPLE_S = 128, 2048, 1.0
#: The chance, by Good and Turing's estimate (the share of states drawn exactly once), that
#: the next draw is a model state no draw has shown, below which drawing stops.
UNSEEN = 0.002
_MISSING = "<missing>"
#: A list index in a field path.
_INDEX = re.compile(r"\[\d+\]")


class ModelFailed(Exception):
    """The model raised (or returned something that is no answer); the message is one
    line naming the method and the exception."""


@dataclass(frozen=True)
class View:
    """What a player sees of a position: the observation, the legal actions, the score
    and ``gameOver``."""

    observation: dict[str, Any]
    legal_actions: list[Any]
    score: float
    game_over: bool
    #: The model state it was drawn from, as JSON (``""``: none), which tells apart draws
    #: that show the same but differ in what is hidden.
    state_key: str = ""

    def to_json(self) -> dict[str, Any]:
        """The view as the platform's field names."""
        return {
            "observation": self.observation,
            "legalActions": self.legal_actions,
            "score": self.score,
            "gameOver": self.game_over,
        }


def observation_of(raw: dict[str, Any]) -> dict[str, Any]:
    """An answer's observation as sunbot's client reads it: the ``observation`` object,
    else the ``state`` object, else ``{"value": observation}`` (``{}`` without one)."""
    obs = raw.get("observation")
    if isinstance(obs, dict):
        return obs
    state = raw.get("state")
    if isinstance(state, dict):
        return state
    return {} if obs is None else {"value": obs}


def served_view(raw: dict[str, Any]) -> View:
    """The :class:`View` of a server's answer (raw JSON)."""
    legal = raw.get("legalActions")
    score = raw.get("score")
    return View(
        observation_of(raw),
        legal if isinstance(legal, list) else [],
        float(score) if isinstance(score, int | float) and not isinstance(score, bool) else 0.0,
        raw.get("gameOver") is True,
    )


def _takes(method: Callable[..., Any], name: str) -> bool:
    func = getattr(method, "__func__", method)
    try:
        names, any_name = _keywords(func)
    except TypeError:  # an unhashable callable: read its signature every time
        names, any_name = _keywords.__wrapped__(func)
    return any_name or name in names


@functools.lru_cache(maxsize=64)
def _keywords(func: Callable[..., Any]) -> tuple[frozenset[str], bool]:
    """The names ``func`` takes by keyword, and whether it takes any (``**kwargs``); read
    once per function (search rebuilds a stochastic model's root every iteration)."""
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return frozenset(), False
    named = frozenset(p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY)
    return named, any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


_SCALARS = frozenset({str, int, float, bool})


def detached(value: Any) -> Any:
    """A copy of the JSON data ``value`` that shares nothing with it: what a user's model
    is handed of the run's own objects (an answer's observation, its legal actions) and
    what the run sends, checks and records of the action a strategy returned, so a model
    or strategy that edits them later changes nothing of the run's. A scalar is its own
    copy and a flat object is copied as it is (the usual action: 0.6 us, not a JSON round
    trip); data JSON cannot hold is deep-copied instead, and returned as it is when even
    that fails (a backend then refuses it as it would have)."""
    if value is None or type(value) in _SCALARS:
        return value
    if type(value) is dict and all(v is None or type(v) in _SCALARS for v in value.values()):
        return dict(value)
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError, RecursionError):
        try:
            return copy.deepcopy(value)
        except Exception:
            return value


def detach_view(view: View) -> View:
    """``view`` with its observation and legal actions :func:`detached` (one copy for many
    calls of a model: what it edits of it is then its own problem, not the run's)."""
    observation, legal = detached([view.observation, view.legal_actions])
    return View(observation, legal, view.score, view.game_over, view.state_key)


def rebuild(model: Any, view: View, *, handed: bool = False) -> Any:
    """``model.from_observation(view.observation)``, with ``score=`` and
    ``legal_actions=`` passed when the method declares them. The model gets copies
    (:func:`detached`) unless ``handed`` says ``view`` is already a copy of its own.

    Raises:
        ModelFailed: the method raised.
    """
    method = model.from_observation
    kwargs: dict[str, Any] = {}
    if _takes(method, "score"):
        kwargs["score"] = view.score
    if _takes(method, "legal_actions"):
        kwargs["legal_actions"] = view.legal_actions if handed else detached(view.legal_actions)
    observation = view.observation if handed else detached(view.observation)
    return call(method, "from_observation", observation, **kwargs)


def call(method: Callable[..., Any], name: str, *args: Any, **kwargs: Any) -> Any:
    """``method(*args, **kwargs)``; what it raises becomes :class:`ModelFailed`
    (``model raised: NAME: Type: message``): any exception, ``SystemExit`` and other
    ``BaseException`` included (a model that calls ``sys.exit`` is wrong, not done), except
    ``KeyboardInterrupt``, which is the user's and goes on up."""
    try:
        return method(*args, **kwargs)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise ModelFailed(f"model raised: {name}: {describe(exc)}") from exc


def view_of(model: Any, state: Any) -> View:
    """The :class:`View` the model gives of ``state``.

    Raises:
        ModelFailed: a method raised or returned something of the wrong kind.
    """
    obs = call(model.observation, "observation", state)
    legal = call(model.legal_actions, "legal_actions", state)
    score = call(model.score, "score", state)
    over = call(model.is_over, "is_over", state)
    if not isinstance(obs, dict):
        raise ModelFailed(f"model's observation gave a {type(obs).__name__}, not a dict")
    if not isinstance(legal, list | tuple):
        raise ModelFailed(f"model's legal_actions gave a {type(legal).__name__}, not a list")
    _json_value(obs, "observation")
    _json_value(list(legal), "legalActions")
    number = _finite(score)
    if number is None:
        raise ModelFailed(f"model's score gave {_shown(score)}, not a finite number")
    return View(obs, list(legal), number, call(bool, "is_over (its answer's truth)", over))


#: How deep a model's observation or legal actions may nest (a served answer is a few
#: levels deep; the comparison walks it recursively).
MAX_DEPTH = 100
#: The largest magnitude of a number in a model's answer: what a float can hold (JSON's
#: numbers, as every server sends them, are read as floats by most clients).
_MAX_NUMBER = 2**1023
#: Characters of a field path shown in a model's failure.
_PATH_SHOWN = 80


def _finite(value: Any) -> float | None:
    """``value`` as a finite float; ``None`` for a bool, a non-number, an overflow, NaN."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _shown(value: Any) -> str:
    """A short text of a model's value that cannot fail (a huge int, a raising repr)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _MAX_NUMBER:
        return f"an integer of {value.bit_length()} bits"
    try:
        return repr(value)[:40]
    except Exception:
        return f"a {type(value).__name__}"


def _json_value(value: Any, path: str) -> None:
    """Check that ``value`` (a model's observation or legal actions) is a JSON value the
    comparison can walk: objects with string keys, no object inside itself, at most
    :data:`MAX_DEPTH` levels, numbers a float can hold. Walked without recursion, so a
    100,000-level value is refused, not a ``RecursionError``.

    Raises:
        ModelFailed: ``model's observation ..., at PATH`` naming the fault and the field.
    """
    stack: list[tuple[Any, str, int, tuple[int, ...]]] = [(value, path, 0, ())]
    while stack:
        item, at, depth, above = stack.pop()
        fault = ""
        if isinstance(item, dict | list | tuple):
            if id(item) in above:
                fault = "gave a value that holds itself"
            elif depth >= MAX_DEPTH:
                fault = f"nests deeper than {MAX_DEPTH} levels"
            elif isinstance(item, dict):
                odd = [k for k in item if not isinstance(k, str)]
                fault = f"has a key that is no string ({_shown(odd[0])})" if odd else ""
                more = [(v, f"{at}.{k}") for k, v in item.items()]
            else:
                more = [(v, f"{at}[{i}]") for i, v in enumerate(item)]
            if not fault:
                inner = (*above, id(item))
                stack.extend((v, sub, depth + 1, inner) for v, sub in more)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= _MAX_NUMBER:
            fault = f"has a number too large ({_shown(item)})"
        if fault:
            raise ModelFailed(f"model's {path} {fault}, at {clip(at, _PATH_SHOWN)}")


def after(
    model: Any, rng: random.Random, before: View, action: Any, key: str, *, handed: bool = False
) -> View:
    """One draw of the model's view after ``action`` from the position ``before`` (rebuilt
    with ``from_observation``); ``rng`` is seeded from ``key`` first, so a draw is
    reproducible. The model gets a copy of ``action`` (each draw its own: a model that edits
    the action it steps must not change the next draw's), and of ``before`` unless
    ``handed`` says it is the model's own already.

    Raises:
        ModelFailed: the model raised or answered something of the wrong kind.
    """
    rng.seed(key)
    state = call(model.step, "step", rebuild(model, before, handed=handed), detached(action))
    view = view_of(model, state)
    try:
        hidden = json.dumps(state, sort_keys=True, default=repr)
    except KeyboardInterrupt:
        raise
    except BaseException:  # a state JSON cannot hold (a key, a depth, a repr that raises)
        hidden = ""
    return View(view.observation, view.legal_actions, view.score, view.game_over, hidden)


def read(model: Any, rng: random.Random, view: View, key: str, *, handed: bool = False) -> View:
    """One draw of the model's view of a served position it rebuilt itself
    (``from_observation`` then back): what an opening is checked with (``handed``: as
    :func:`after`).

    Raises:
        ModelFailed: as :func:`after`.
    """
    rng.seed(key)
    return view_of(model, rebuild(model, view, handed=handed))


def draws(model: Any, draw: Callable[[int], View], served: View | None = None) -> list[View]:
    """The model's draws of one answer, ``draw(k)`` the k-th, in order.

    A model that draws nothing is asked once. A stochastic one is drawn at least
    :data:`SAMPLES` times, until a model state not drawn yet has become unlikely
    (:data:`UNSEEN`, and no new one in the second half of the draws), or :data:`MAX_SAMPLES`
    draws (:data:`MAX_SAMPLE_S` seconds past the first :data:`SAMPLES`); given the
    ``served`` answer (a model sunbot runs in its own process), it stops at the first draw
    that agrees with it.

    Raises:
        ModelFailed: as :func:`after`.
    """
    if not is_stochastic(model):
        return [draw(0)]
    views: list[View] = []
    deadline = time.monotonic() + MAX_SAMPLE_S
    drawn: collections.Counter[str] = collections.Counter()
    last_new = 0
    for k in range(MAX_SAMPLES):
        view = draw(k)
        views.append(view)
        state = view.state_key or _key(view.to_json())
        if state not in drawn:
            last_new = k
        drawn[state] += 1
        if served is not None and _matches(view, served) is not None:
            break
        if k + 1 >= SAMPLES:
            once = sum(1 for n in drawn.values() if n == 1)
            settled = once / (k + 1) < UNSEEN and last_new < (k + 1) // 2
            if served is not None:  # unmatched so far: draw on, so that a miss is evidence
                settled = False
            if settled or time.monotonic() > deadline:
                break  # what no draw has shown yet is unlikely (Good-Turing), or time is up
    return views


def _matches(view: View, served: View) -> list[str] | None:
    """The served paths ``view`` does not predict when it agrees with ``served`` on every
    field it predicts; ``None`` when it does not agree."""
    if not (_same(view.score, served.score) and view.game_over == served.game_over):
        return None
    shown, unpredicted = strip_unpredicted(served.observation, [view.observation], "observation")
    legal = sorted(map(_key, served.legal_actions))
    if _key(view.observation) == _key(shown) and sorted(map(_key, view.legal_actions)) == legal:
        return unpredicted
    return None


def grade(views: list[View], served: View) -> tuple[list[Finding], list[str]]:
    """The findings of ``served`` against a model's ``views`` of it (:func:`draws`): none
    when one view agrees on every field it predicts; else :func:`compare` of them all
    (exactly where they agree, by shape where they differ). sunbot grades in its own
    process, whoever drew the views.

    Draws that have settled (:func:`enumerated`: :data:`MAX_SAMPLES` draws in which every
    outcome the model gives has shown up more than once) and none of which is the served
    answer are a divergence even where each field is within the drawn range: the model says
    the server's answer cannot happen (a model that jitters every field within a few values
    would otherwise pass)."""
    if len(views) > 1:
        for view in views:
            unpredicted = _matches(view, served)
            if unpredicted is not None:
                return [], unpredicted
    findings, unpredicted = compare(views, served)
    outcomes = enumerated(views)
    if not findings and outcomes is not None:
        findings.append(
            Finding(
                "observation",
                f"one of the {outcomes} answers the model drew in {len(views)} draws",
                "an answer none of them is",
                "outside every outcome the model gives",
            )
        )
    return findings, unpredicted


def enumerated(views: list[View]) -> int | None:
    """How many different answers ``views`` hold when they cover every outcome the model
    gives: at least :data:`SAMPLES` draws in which no outcome was drawn only once (by Good
    and Turing's estimate, the chance that the next draw is new is then 0); ``None``
    otherwise (a model whose outcomes are too many to enumerate is checked by shape).
    It takes :data:`MAX_SAMPLES` draws: an outcome the model gives one time in 200 is then
    missed about once in 30,000 answers, where at :data:`SAMPLES` draws it was missed
    about once in 2."""
    if len(views) < MAX_SAMPLES:
        return None
    drawn = collections.Counter(v.state_key or _key(v.to_json()) for v in views)
    if len(drawn) < 2 or any(n == 1 for n in drawn.values()):
        return None
    return len(drawn)


def judge(model: Any, draw: Callable[[int], View], served: View) -> tuple[list[Finding], list[str]]:
    """The findings of ``served`` against the model's ``draw(k)`` (the k-th draw):
    :func:`grade` of :func:`draws`.

    Raises:
        ModelFailed: as :func:`after`.
    """
    return grade(draws(model, draw, served), served)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def strip_unpredicted(served: Any, predicted: list[Any], path: str) -> tuple[Any, list[str]]:
    """``served`` without the object keys none of ``predicted`` has at the same place, and
    the paths of what was left out."""
    if isinstance(served, dict):
        shapes = [p for p in predicted if isinstance(p, dict)]
        if not shapes:
            return served, []
        keys = set().union(*(p.keys() for p in shapes))
        out: dict[str, Any] = {}
        dropped: list[str] = []
        for k, v in served.items():
            sub = f"{path}.{k}"
            if k not in keys:
                dropped.append(sub)
                continue
            out[k], more = strip_unpredicted(v, [p[k] for p in shapes if k in p], sub)
            dropped += more
        return out, dropped
    if isinstance(served, list):
        lists = [p for p in predicted if isinstance(p, list)]
        if not lists:
            return served, []
        items: list[Any] = []
        dropped = []
        for i, v in enumerate(served):
            at = [p[i] for p in lists if i < len(p)]
            item, more = strip_unpredicted(v, at, f"{path}[{i}]")
            items.append(item)
            dropped += more
        return items, dropped
    return served, []


def _flat(value: Any, path: str, out: dict[str, Any]) -> dict[str, Any]:
    """Leaves of ``value`` by path; a list's length is the leaf ``path#len``, a dict's keys
    each their own path."""
    if isinstance(value, dict):
        out[f"{path}#keys"] = sorted(value)
        for k, v in value.items():
            _flat(v, f"{path}.{k}", out)
    elif isinstance(value, list):
        out[f"{path}#len"] = len(value)
        for i, v in enumerate(value):
            _flat(v, f"{path}[{i}]", out)
    else:
        out[path] = value
    return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if value is None:
        return "null"
    return type(value).__name__


def _drawn(path: str, values: list[Any], got: Any) -> Finding | None:
    """A field the draws disagree on: ``got`` has one of their kinds and, a number, lies
    within their range; missing, when some draw lacks it too (a drawn list one draw makes
    longer than another: its ``#len`` is checked by range)."""
    if got is _MISSING:
        if any(v is _MISSING for v in values):
            return None
        return Finding(path, values[0], got, MISSING_FIELD)
    kinds = {_kind(v) for v in values if v is not _MISSING}
    if path.endswith(("#len", "#keys")) or _kind(got) in kinds:
        numbers = [v for v in values if _kind(v) == "number"]
        if _kind(got) == "number" and numbers and not min(numbers) <= got <= max(numbers):
            return Finding(path, f"{min(numbers)}..{max(numbers)}", got, "outside the drawn range")
        return None
    return Finding(path, " or ".join(sorted(kinds)), got, "a drawn field of another kind")


def _tolerant(predicted: list[Any], served: Any, path: str) -> list[Finding]:
    flats = [_flat(p, path, {}) for p in predicted]
    got = _flat(served, path, {})
    out: list[Finding] = []
    pools: dict[str, list[Any]] = collections.defaultdict(list)
    for flat in flats:
        for k, v in flat.items():
            pools[_INDEX.sub("[*]", k)].append(v)
    for p in dict.fromkeys(k for f in flats for k in f):
        values = [f.get(p, _MISSING) for f in flats]
        if not all(_key(v) == _key(values[0]) for v in values):
            # a drawn item: any item the draws put in that list (a sorted list's third item
            # ranges over the list's values, not over the few third items drawn)
            values = [*values, *pools[_INDEX.sub("[*]", p)]]
        value = got.get(p, _MISSING)
        if all(_key(v) == _key(values[0]) for v in values):
            if p.endswith("#keys"):
                continue  # a missing key shows as its own path
            if value is _MISSING:
                out.append(Finding(p.partition("#")[0], values[0], value, MISSING_FIELD))
            elif not _same(values[0], value):
                note = "length differs" if p.endswith("#len") else ""
                out.append(Finding(p.removesuffix("#len"), values[0], value, note))
        elif (f := _drawn(p.removesuffix("#len"), values, value)) is not None:
            out.append(f)
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int) and isinstance(b, int):
        return a == b  # exact, and no float overflow on a server's huge integer
    if isinstance(a, int | float) and isinstance(b, int | float):
        try:
            return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
        except OverflowError:
            return False
    return bool(a == b)


def compare(predicted: list[View], served: View) -> tuple[list[Finding], list[str]]:
    """The findings of ``served`` against the model's ``predicted`` views (one, or one per
    draw), and the paths of served fields the model does not predict (not findings).

    A served answer equal to one of the draws on every predicted field agrees. Otherwise
    each part is compared exactly where the draws agree and by shape where they differ.
    """
    observations = [p.observation for p in predicted]
    obs, unpredicted = strip_unpredicted(served.observation, observations, "observation")
    for p in predicted:
        if _key(p.observation) == _key(obs) and _agrees(p, served):
            return [], unpredicted
    findings: list[Finding] = []
    if len(predicted) == 1:
        findings += [
            f for f in diff(observations[0], obs, "observation") if f.note != UNKNOWN_FIELD
        ]
    else:
        findings += _tolerant(observations, obs, "observation")
    legal = [p.legal_actions for p in predicted]
    if all(_key(sorted(map(_key, x))) == _key(sorted(map(_key, legal[0]))) for x in legal):
        findings += same_set(legal[0], served.legal_actions, "legalActions")
    else:
        types = {a.get("type") for x in legal for a in x if isinstance(a, dict)}
        odd = [
            a for a in served.legal_actions if not isinstance(a, dict) or a.get("type") not in types
        ]
        if odd:
            findings.append(
                Finding(
                    "legalActions",
                    f"actions of type {sorted(map(str, types))}",
                    odd[0],
                    "a drawn list of another shape",
                )
            )
    scores = [p.score for p in predicted]
    if all(_same(s, scores[0]) for s in scores):
        if not _same(scores[0], served.score):
            findings.append(Finding("score", scores[0], served.score))
    elif not min(scores) <= served.score <= max(scores):
        findings.append(
            Finding(
                "score", f"{min(scores)}..{max(scores)}", served.score, "outside the drawn range"
            )
        )
    overs = {p.game_over for p in predicted}
    if len(overs) == 1 and served.game_over not in overs:
        findings.append(Finding("gameOver", predicted[0].game_over, served.game_over))
    return findings, unpredicted


def _agrees(p: View, served: View) -> bool:
    return (
        _same(p.score, served.score)
        and p.game_over == served.game_over
        and sorted(map(_key, p.legal_actions)) == sorted(map(_key, served.legal_actions))
    )


def patterns(paths: list[str]) -> set[str]:
    """``observation.cells[3].x`` -> ``observation.cells[].x`` for each path."""
    return {pattern(p) for p in paths}


__all__ = [
    "MAX_DEPTH",
    "MAX_SAMPLES",
    "SAMPLES",
    "ModelFailed",
    "View",
    "after",
    "call",
    "compare",
    "draws",
    "enumerated",
    "grade",
    "judge",
    "observation_of",
    "patterns",
    "read",
    "rebuild",
    "served_view",
    "strip_unpredicted",
    "view_of",
]
