"""A transcript walked into the steps a replay page shows.

Each step is a JSON object: ``i`` (the action's index; 0 for the opening position),
``a`` (the action's label, ``start`` for the opening), ``s`` (the score after it: for a match,
our seat's food, our lowest seat's with several), ``ss`` (a match with several seats of ours:
each one's food), ``d`` (its change from the step before, ``null`` when either is unknown),
``p`` (the game's progress: voyage, day, moment or round), ``r`` (a refusal's reason or a
failed POST's error, else ``null``), ``dv`` (the divergences found on this step's answer) and
``f`` (the drawn frame, as the fields that changed since the step before: see
:func:`compact`). ``nf`` is set instead of a frame when an answer cannot be drawn (a foreign
server that leaves a drawn field out), with the reason.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from sunbot.games import GAMES, GameInfo, generic_game
from sunbot.mirror import Divergence
from sunbot.transcripts.jsonl import Transcript

Frame = dict[str, Any]
#: Prefixes dropped from a divergence path to name the field it is in.
_PREFIXES = ("response.", "answer.", "body.", "state.", "observation.", "data.", "summary.")
_SHORT = 160


def action_label(action: Any) -> str:
    """A one-line name for an action: ``PLACE bay=4``, ``care brush``, ``speech="…"``.

    ``type`` and the string values of ``care``/``act`` are shown bare; every other field as
    ``key=value`` (strings JSON-quoted). A list (a match command's actions) joins its labels
    with ``; ``. Anything else is shown as JSON.
    """
    if isinstance(action, list):
        return "; ".join(action_label(a) for a in action) or "(no action)"
    if not isinstance(action, dict):
        return json.dumps(action, ensure_ascii=False)
    parts = []
    for key, value in action.items():
        if key == "type" or (key in ("care", "act") and isinstance(value, str)):
            parts.append(str(value))
        else:
            parts.append(f"{key}={json.dumps(value, ensure_ascii=False)}")
    return " ".join(parts)


def field_of(path: str) -> str:
    """The drawn field a divergence path names: ``state.hold[3][0].weight`` becomes
    ``hold[3][0].weight`` (the answer's wrapping objects dropped)."""
    changed = True
    while changed:
        changed = False
        for prefix in _PREFIXES:
            if path.startswith(prefix):
                path, changed = path[len(prefix) :], True
    return path


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHORT else text[: _SHORT - 1] + "…"


def divergence(d: dict[str, Any], source: str) -> dict[str, Any]:
    """A divergence as the page lists it: ``path``, ``field``, ``expected`` and ``got`` as
    short JSON text, ``note``, and ``source`` (``mirror`` or ``re-play``)."""
    path = str(d.get("path", ""))
    return {
        "path": path,
        "field": field_of(path),
        "expected": _short(d.get("expected")),
        "got": _short(d.get("got")),
        "note": str(d.get("note", "")),
        "source": source,
    }


def compact(frames: Sequence[Frame | None]) -> list[Frame]:
    """Each frame as the top-level fields that differ from the frame before (the first in
    full; a field that disappears becomes ``null``; a ``None`` frame keeps the one before).
    The page rebuilds frame ``k`` by applying deltas ``0..k`` in order."""
    out: list[Frame] = []
    prev: Frame = {}
    for f in frames:
        if f is None:
            out.append({})
            continue
        delta = {k: v for k, v in f.items() if k not in prev or prev[k] != v}
        delta.update({k: None for k in prev if k not in f})
        out.append(delta)
        prev = f
    return out


def _step(index: int, action: Any, score: Any, progress: str) -> dict[str, Any]:
    return {
        "i": index,
        "a": "start" if index == 0 and action is None else action_label(action),
        "s": score if isinstance(score, int | float) and not isinstance(score, bool) else None,
        "d": None,
        "p": progress,
        "r": None,
        "dv": [],
    }


def _drawable(
    make: Callable[[dict[str, Any]], Frame], candidates: Sequence[Any]
) -> tuple[Frame | None, dict[str, Any] | None, str | None]:
    """The first candidate object that can be drawn: ``(frame, object, None)``, else
    ``(None, None, why)``."""
    why = "no position in the answer"
    for obj in candidates:
        if not isinstance(obj, dict):
            continue
        try:
            return make(obj), obj, None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            why = f"cannot draw the answer: {type(exc).__name__} {exc}"
    return None, None, why


def page_module(game: str) -> tuple[GameInfo, ModuleType]:
    """The games table's entry of ``game`` and its replay page's drawing module
    (``GameInfo.page_ref``: ``frame`` and ``progress``, and ``food`` for a match). A game
    sunbot does not know (any game a server lists) is drawn by :mod:`sunbot.html.generic`
    under :func:`sunbot.games.generic_game`'s entry.

    Raises:
        KeyError: a game of the table that has no replay page.
    """
    info = GAMES.get(game)
    if info is None:
        return generic_game(game), importlib.import_module("sunbot.html.generic")
    if info.page_ref is None:
        raise KeyError(f"no replay page for game {game!r}")
    return info, importlib.import_module(info.page_ref)


def single_steps(
    t: Transcript, drawing: ModuleType
) -> tuple[list[dict[str, Any]], list[Frame | None]]:
    """Steps and frames of an init/step transcript (Keelhold, Sunloaf, Naptuft), drawn by
    the game's ``drawing`` module."""
    make: Callable[[dict[str, Any]], Frame] = drawing.frame
    progress: Callable[[dict[str, Any]], str] = drawing.progress
    steps: list[dict[str, Any]] = []
    frames: list[Frame | None] = []
    last_progress = ""
    records = ([t.init] if t.init is not None else []) + t.steps
    for rec in records:
        index = 0 if rec["type"] == "init" else int(rec["index"])
        response = rec.get("response") or {}
        frame: Frame | None = None
        why = None
        if response.get("ok") is not False:
            frame, obj, why = _drawable(make, [response.get("observation"), response.get("state")])
            if obj is not None:
                last_progress = progress(obj)
        score = response.get("score")
        if score is None and frame is not None:
            score = frame.get("score")
        step = _step(index, rec.get("action"), score, last_progress)
        if response.get("ok") is False:
            step["r"] = str(response.get("reason") or "refused")
            step["s"] = steps[-1]["s"] if steps else None
        elif why is not None:
            step["nf"] = why
        recorded = (rec.get("mirror") or {}).get("divergences", [])
        step["dv"] = [divergence(d, "mirror") for d in recorded]
        said = agent_said(rec.get("agent"))
        if said:
            step["m"] = said
        steps.append(step)
        frames.append(frame)
    return steps, frames


#: Characters of a model's answer, and of its reasoning, shown beside a step.
AGENT_SHOWN = 600


def agent_said(record: Any) -> str:
    """What the agent said of a step's decision, for the page: a model's answer (and its
    reasoning when the endpoint returned one), its attempts, time and tokens, or a clocked
    bot's time; ``""`` when the step has no agent record. The text is the model's, so the
    page only ever sets it as text; each part is clipped to :data:`AGENT_SHOWN`."""
    if not isinstance(record, dict):
        return ""
    parts: list[str] = []
    if record.get("timedOut"):
        parts.append("missed its deadline: the fallback was played")
    if record.get("fallback"):
        parts.append("fallback action (no legal answer)")
    facts = []
    for key, label in (("attempts", "{:g} attempt(s)"), ("latencyMs", "model {:.1f} ms"),
                       ("ms", "decision {:.1f} ms")):  # fmt: skip
        value = record.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            facts.append(label.format(value))
    tokens = [record.get("promptTokens"), record.get("completionTokens")]
    if all(isinstance(n, int) for n in tokens):
        facts.append(f"{tokens[0]} in / {tokens[1]} out tokens")
    if facts:
        parts.append(" · ".join(dict.fromkeys(facts)))
    for key, label in (("answer", "answer"), ("reasoning", "reasoning")):
        text = record.get(key)
        if isinstance(text, str) and text:
            clipped = text if len(text) <= AGENT_SHOWN else text[:AGENT_SHOWN] + "…"
            parts.append(f"{label}: {clipped}")
    return "\n".join(parts)


def our_seats(t: Transcript) -> list[int]:
    """Our seats in a match transcript, ascending: the ``seat`` of its view records."""
    return sorted(
        {r["seat"] for r in t.other if r["type"] == "view" and type(r.get("seat")) is int}
    )


def match_steps(
    t: Transcript, drawing: ModuleType
) -> tuple[list[dict[str, Any]], list[Frame | None]]:
    """Steps and frames of a match transcript, drawn by the game's ``drawing`` module (a
    seat view's ``frame``, ``food`` and ``progress``): the first view, then one step per command
    (drawn from its answer, or from that seat's next view when the answer carries no
    position), and one step per ``timeout`` line (a decision past its deadline: nothing
    sent, the store unchanged). A command's or a timeout's ``agent`` record is the step's
    ``m`` (:func:`agent_said`). A view's divergences go on the step whose position it shows.

    With several of our seats, each step is drawn as the commanding seat sees it (its
    ``you``, ``pending``, ``caught``, ``collided``), its label says which seat (``seat 2:
    guard``), every frame names all our seats (``ours``), and ``ss`` gives each of our seats'
    store (public ``foods``, in ``ours`` order) so the chart draws one line per seat."""
    ours = our_seats(t)
    several = len(ours) > 1
    steps: list[dict[str, Any]] = []
    frames: list[Frame | None] = []
    waiting: dict[Any, int] = {}  # seat -> its command step still to draw from its next view
    for rec in t.other:
        seat = rec.get("seat")
        if rec["type"] == "view":
            body = rec.get("body") or {}
            if not steps or seat in waiting:
                frame, obj, why = _drawable(drawing.frame, [body])
                if not steps:
                    steps.append(_step(0, None, None, ""))
                    frames.append(None)
                k = waiting.pop(seat, len(steps) - 1)
                frames[k] = frame
                if obj is not None:
                    steps[k]["s"] = drawing.food(obj)
                    steps[k]["p"] = drawing.progress(obj)
                elif why is not None:
                    steps[k]["nf"] = why
            if steps:
                mirror = rec.get("mirror") or {}
                steps[-1]["dv"] += [divergence(d, "mirror") for d in mirror.get("divergences", [])]
        elif rec["type"] == "command":
            body = rec.get("body") or {}
            answer = rec.get("answer")
            step = _step(len(steps), body.get("actions"), None, steps[-1]["p"] if steps else "")
            if several:
                step["a"] = f"seat {seat}: {step['a']}"
            step["s"] = steps[-1]["s"] if steps else None
            frame = None
            if isinstance(answer, dict) and answer.get("ok") is not False and "data" in answer:
                frame, obj, why = _drawable(drawing.frame, [answer])
                if obj is not None:
                    step["s"] = drawing.food(obj)
                    step["p"] = drawing.progress(obj)
                waiting.pop(seat, None)
            else:
                waiting[seat] = len(steps)
                if isinstance(answer, dict) and answer.get("ok") is False:
                    step["r"] = str(answer.get("reason") or "refused")
                elif rec.get("error"):
                    step["r"] = f"POST failed: {rec['error']}"
            if said := agent_said(rec.get("agent")):
                step["m"] = said
            steps.append(step)
            frames.append(frame)
        elif rec["type"] == "timeout":  # a decision past its deadline: nothing was sent
            step = _step(len(steps), None, None, steps[-1]["p"] if steps else "")
            step["a"] = f"missed round {rec.get('round')}: nothing sent"
            if several:
                step["a"] = f"seat {seat}: {step['a']}"
            step["s"] = steps[-1]["s"] if steps else None
            if said := agent_said(rec.get("agent")):
                step["m"] = said
            steps.append(step)
            frames.append(None)
    if several:
        _per_seat(steps, frames, ours)
    return steps, frames


def _per_seat(steps: list[dict[str, Any]], frames: list[Frame | None], ours: list[int]) -> None:
    """Several seats of ours: every frame gets ``ours``; every step ``ss`` (each seat's
    store from the newest drawn ``foods``) and ``s``, our lowest seat's store, so ``s``
    and its change follow one seat instead of whichever seat commanded."""
    stores: list[float | None] = [None] * len(ours)
    for step, frame in zip(steps, frames, strict=True):
        if frame is not None:
            frame["ours"] = ours
            foods = frame.get("foods")
            if isinstance(foods, list):
                stores = [_number(foods[s]) if s < len(foods) else None for s in ours]
        step["ss"] = list(stores)
        step["s"] = stores[0]


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def build(
    t: Transcript, extra: Sequence[Divergence] = (), extra_source: str = "re-play"
) -> tuple[list[dict[str, Any]], list[Frame]]:
    """The page's steps and compacted frames for ``t``.

    ``extra``: findings of an offline check (``sunbot replay``'s mirror re-run or engine
    re-play), added to the step they name unless the transcript already recorded the same
    step and path. A match finding's ``step`` is a round: it goes on the first step drawn
    at that round.

    Raises:
        KeyError: a match game sunbot has no page for.
    """
    game = str(t.header["game"])
    info, drawing = page_module(game)
    if info.kind == "match":
        steps, frames = match_steps(t, drawing)
    else:
        steps, frames = single_steps(t, drawing)
    if game not in GAMES:  # the generic board marks what changed since the last position
        frames = drawing.mark_changes(frames)
    prev: float | None = None
    for step in steps:
        score = step["s"]
        step["d"] = None if score is None or prev is None else score - prev
        prev = score if score is not None else prev
    _add_extra(t, steps, frames, extra, extra_source)
    return steps, compact(frames)


def _add_extra(
    t: Transcript,
    steps: list[dict[str, Any]],
    frames: Sequence[Frame | None],
    extra: Sequence[Divergence],
    source: str,
) -> None:
    if t.is_match:
        where: dict[int, int] = {}
        for k, f in enumerate(frames):
            if f is not None and isinstance(f.get("round"), int):
                where.setdefault(f["round"], k)
    else:
        where = {s["i"]: k for k, s in enumerate(steps)}
    for d in extra:
        at = where.get(d.step)
        if at is None or any(x["path"] == d.path for x in steps[at]["dv"]):
            continue
        steps[at]["dv"].append(divergence(d.to_json(), source))
