"""The checks of a *modelled* game: a forward model predicts every answer of a run.

:class:`ModelChecks` has the mirror's interface (:class:`sunbot.runs.loop.Checks`) with
``kind = "model"``: every answer gets the generic checks (the platform's envelope and the
served action grammar, :class:`~sunbot.generic.checks.GenericChecks`), and the model's
prediction of it: the opening read back (``from_observation`` then ``observation``,
``legal_actions``, ``score``, ``is_over``), and each later answer predicted from the one
before and the action sent (:mod:`sunbot.forward.predict`). A finding of the model is noted
``model: ...``; a model that raises is one finding (path ``model``) and the run goes on from
the server's answer, which the next prediction is rebuilt from.

The model only *predicts* (a :class:`Predictor`: :class:`InProcess` here, or a sandboxed
child for a model sunbot did not write, :mod:`sunbot.agents.isolate_model`); the
predictions are graded here, in sunbot's own process, against answers the predictor never
sees, so a model cannot grade itself.
"""

from __future__ import annotations

import json
import random
from typing import Any, Protocol

from sunbot._text.safe import describe
from sunbot.forward.predict import (
    ModelFailed,
    View,
    after,
    call,
    detach_view,
    draws,
    grade,
    patterns,
    read,
    rebuild,
    served_view,
)
from sunbot.generic.checks import GenericChecks
from sunbot.mirror import Divergence, Finding


def _model_note(f: Finding) -> Finding:
    return f._replace(note=f"model: {f.note}" if f.note else "model: predicted otherwise")


class Predictor(Protocol):
    """What a forward model is asked, wherever it runs. ``key`` seeds the draws (the same
    key, the same draws). Each method raises :class:`~sunbot.forward.predict.ModelFailed`
    when the model cannot answer."""

    def opening(self, served: View, key: str) -> list[View]:
        """The model's views of the served opening, read back (``from_observation``)."""
        ...

    def after(self, before: View, action: Any, key: str, served: View | None) -> list[View]:
        """The model's views after ``action`` from ``before``; ``served`` (the answer to
        grade) only to a trusted model, which may stop drawing once a view matches it."""
        ...

    def allows(self, before: View, action: Any, key: str) -> bool:
        """Whether the model lists ``action`` as legal in ``before``."""
        ...


class InProcess:
    """A :class:`Predictor` over a model built in sunbot's own process (a model file the
    user chose to run, ``--engine``)."""

    def __init__(self, model: Any, rng: random.Random) -> None:
        self.model, self.rng = model, rng

    def opening(self, served: View, key: str) -> list[View]:
        """As :meth:`Predictor.opening`."""
        own = detach_view(served)  # one copy for every draw: the model's own
        return draws(
            self.model, lambda k: read(self.model, self.rng, own, f"{key}/{k}", handed=True)
        )

    def after(self, before: View, action: Any, key: str, served: View | None) -> list[View]:
        """As :meth:`Predictor.after` (the model is handed copies, one for every draw)."""
        m, rng = self.model, self.rng
        own = detach_view(before)
        return draws(m, lambda k: after(m, rng, own, action, f"{key}/{k}", handed=True), served)

    def allows(self, before: View, action: Any, key: str) -> bool:
        """As :meth:`Predictor.allows`."""
        self.rng.seed(f"{key}/0")
        state = rebuild(self.model, before)
        legal = call(self.model.legal_actions, "legal_actions", state)
        return any(_key(a) == _key(action) for a in legal)


class ModelChecks:
    """Checks one run's answers with a forward model (see the module doc).

    Args:
        model: a built forward model (:mod:`sunbot.forward.contract`), run in this
            process; or ``None`` with ``predictor`` (a model run elsewhere).
        slug: the game.
        seed: the run's seed; the model's draws for step ``n`` are seeded from it and ``n``,
            so the same run is checked the same way twice.
        rng: the ``random.Random`` the model was built with (re-seeded per prediction).
        predictor: who makes the predictions (default: :class:`InProcess` over ``model``).

    Attributes:
        kind: ``"model"``.
        predictions: answers the model predicted (refusals and the opening included).
        model_errors: predictions the model could not make (it raised).
        unpredicted: path patterns of served fields the model does not predict.
    """

    kind = "model"

    def __init__(
        self,
        model: Any,
        slug: str,
        seed: int | None,
        rng: random.Random,
        predictor: Predictor | None = None,
    ) -> None:
        self.model = model
        self.predictor: Predictor = predictor or InProcess(model, rng)
        self.slug = slug
        self.seed = seed
        self.rng = rng
        self.generic = GenericChecks(slug)
        self.predictions = 0
        self.model_errors = 0
        self.unpredicted: set[str] = set()
        self.divergences: list[Divergence] = []

    @property
    def responses_checked(self) -> int:
        """Answers checked so far (init included)."""
        return self.generic.responses_checked

    @property
    def unknown_fields(self) -> set[str]:
        """Served fields the model does not predict (patterns)."""
        return self.unpredicted

    def _key(self, step: int) -> str:
        return f"{self.seed}/{step}"

    def _record(
        self, step: int, generic: list[Divergence], model: list[Finding]
    ) -> list[Divergence]:
        out = [Divergence(step, *_model_note(f)) for f in model]
        self.divergences.extend(generic)
        self.divergences.extend(out)
        return [*generic, *out]

    def check_init(self, raw: dict[str, Any]) -> list[Divergence]:
        """The generic checks of the opening, and the model's reading of it."""
        generic = self.generic.check_init(raw)
        if not isinstance(raw, dict) or not isinstance(raw.get("legalActions"), list):
            return self._record(0, generic, [])
        served = served_view(raw)
        self.predictions += 1
        key = self._key(0)
        try:
            found, unpredicted = _graded(self.predictor.opening(served, key), served)
        except ModelFailed as exc:
            self.model_errors += 1
            return self._record(0, generic, [_failed(exc)])
        self.unpredicted |= patterns(unpredicted)
        return self._record(0, generic, found)

    def check_action(
        self, step: int, before: dict[str, Any], action: Any, answer: dict[str, Any]
    ) -> list[Divergence]:
        """The generic checks of the answer to ``action``, and the model's prediction of it
        from ``before`` (a refusal: the model must not list ``action`` as legal)."""
        generic = self.generic.check_action(step, before, action, answer)
        if not isinstance(answer, dict) or not isinstance(before, dict):
            return self._record(step, generic, [])
        self.predictions += 1
        prev, key = served_view(before), self._key(step)
        try:
            if answer.get("ok") is False:
                allowed = self.predictor.allows(prev, action, key)
                found = [
                    Finding("ok", False, True, "the model allows the action the server refused")
                ]
                return self._record(step, generic, found if allowed else [])
            served = served_view(answer)
            found, unpredicted = _graded(self.predictor.after(prev, action, key, served), served)
        except ModelFailed as exc:
            self.model_errors += 1
            return self._record(step, generic, [_failed(exc)])
        self.unpredicted |= patterns(unpredicted)
        return self._record(step, generic, found)

    def warm(self, init: dict[str, Any], recorded: list[tuple[Any, dict[str, Any]]]) -> None:
        """Re-check a recorded run before it resumes; the counts start again from 0."""
        self.check_init(init)
        prev = init
        for i, (action, response) in enumerate(recorded, start=1):
            self.check_action(i, prev, action, response)
            if isinstance(response, dict) and response.get("ok") is not False:
                prev = response
        self.generic.warm(init, [])
        self.generic.responses_checked = 0
        self.predictions = self.model_errors = 0
        self.divergences = []


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _failed(exc: ModelFailed) -> Finding:
    """The one finding of a prediction the model could not make: path ``model``, no
    values (nothing was predicted, nothing served is at fault), the reason as the note
    (``model raised: step: ValueError: ...``)."""
    return Finding("model", None, None, str(exc))


def _graded(views: list[View], served: View) -> tuple[list[Finding], list[str]]:
    """:func:`~sunbot.forward.predict.grade`; a comparison that fails on what the model
    gave (an object the checks of :func:`~sunbot.forward.predict.view_of` let through,
    whose ``==`` or ``str`` raises) is the model's failure, not the run's."""
    try:
        return grade(views, served)
    except Exception as exc:
        raise ModelFailed(f"model's answer could not be compared: {describe(exc)}") from exc


__all__ = ["InProcess", "ModelChecks", "Predictor"]
