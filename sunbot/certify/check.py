"""``sunbot certify``: a forward model checked against a server, answer by answer.

:func:`certify` plays seeded trajectories on the server (each seed with each policy:
``random`` and ``first``, the two generic strategies, by default) through the one run loop
(:func:`sunbot.api.run_plan`) with the model as the run's checks
(:class:`~sunbot.generic.model_checks.ModelChecks`): at every step the model's state is rebuilt
from the served observation, stepped with the action sent, and its observation, legal
actions, score and ``gameOver`` compared with the server's next answer, exactly where the
model draws nothing and by shape and range where it does (:mod:`sunbot.forward.predict`).
The :class:`CertifyReport` says how many predictions were checked, how many diverged and
where first; a model that passed is written down in its certificate
(:mod:`sunbot.forward.certificate`), so a run that uses the same file says it was certified.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sunbot
from sunbot.forward.load import ModelIdentity
from sunbot.mirror import Divergence

#: The policies a model is certified under by default (the generic strategies).
DEFAULT_POLICIES = ("random", "first")
#: Steps a trajectory plays at most.
DEFAULT_MAX_STEPS = 200
#: Divergences kept in detail (every one is counted).
KEPT = 20


@dataclass(frozen=True)
class Found:
    """One divergence of a trajectory: its seed and policy, and the divergence (step,
    field path, the model's value, the server's, a note)."""

    seed: int
    policy: str
    divergence: Divergence

    def to_json(self) -> dict[str, Any]:
        """``{seed, policy, step, path, expected, got, note}`` (``expected`` is the model's)."""
        return {"seed": self.seed, "policy": self.policy, **self.divergence.to_json()}

    def __str__(self) -> str:
        return f"seed {self.seed} {self.policy}: {self.divergence}"


@dataclass
class CertifyReport:
    """What :func:`certify` found.

    Attributes:
        predictions: the model's predictions compared with an answer (openings included).
        diverged: predictions that differed from the server's answer.
        divergences: the fields that differed, over every prediction.
        generic: the generic checks' findings (the server's envelope, not the model's).
        first: the first :data:`KEPT` divergences in the order played (seed by seed).
        unpredicted: path patterns of served fields the model does not predict.
        errors: trajectories that ended on an error (``seed policy: why``).
    """

    game: str
    server: str
    model: ModelIdentity
    seeds: list[int]
    policies: list[str]
    trajectories: int = 0
    steps: int = 0
    predictions: int = 0
    diverged: int = 0
    divergences: int = 0
    generic: int = 0
    model_errors: int = 0
    first: list[Found] = field(default_factory=list)
    generic_first: list[Found] = field(default_factory=list)
    unpredicted: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No divergence, no trajectory ended on an error, at least one prediction."""
        return not self.divergences and not self.errors and self.predictions > 0

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON (``sunbot certify --json``)."""
        return {
            "game": self.game,
            "server": self.server,
            "model": self.model.to_json(),
            "seeds": self.seeds,
            "policies": self.policies,
            "trajectories": self.trajectories,
            "steps": self.steps,
            "predictions": self.predictions,
            "diverged": self.diverged,
            "divergences": self.divergences,
            "modelErrors": self.model_errors,
            "genericFindings": self.generic,
            "passed": self.passed,
            "firstDivergences": [f.to_json() for f in self.first],
            "firstGenericFindings": [f.to_json() for f in self.generic_first],
            "unpredictedFields": sorted(self.unpredicted),
            "errors": self.errors,
        }

    def certificate(self, seeds_text: str) -> dict[str, Any]:
        """The certificate entry of a model that passed (:mod:`sunbot.forward.certificate`)."""
        return {
            "class": self.model.name,
            "game": self.game,
            "sha256": self.model.sha256,
            "server": self.server,
            "seeds": seeds_text,
            "policies": self.policies,
            "trajectories": self.trajectories,
            "predictions": self.predictions,
            "divergences": 0,
            "sunbotVersion": sunbot.__version__,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }


def _is_model(d: Divergence) -> bool:
    return d.note.startswith("model:")


async def certify_async(
    game: str,
    engine: str,
    *,
    server: str | None = None,
    seeds: Sequence[int] = tuple(range(1, 21)),
    policies: Sequence[str] = DEFAULT_POLICIES,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_trajectory: Callable[[int, str, CertifyReport], None] | None = None,
    isolate: bool = False,
    limits: Any = None,
) -> CertifyReport:
    """Certify the forward model ``engine`` of ``game`` on ``server`` (see the module doc).

    Args:
        game: the game's slug.
        engine: ``FILE.py:Class`` or an installed model's name.
        server: the server (a URL; ``None``: the embedded one, for a game it plays).
        seeds: the seeds; each is played with each of ``policies`` (strategy names).
        max_steps: the longest trajectory.
        on_trajectory: called after each trajectory (``seed, policy, report so far``).
        isolate: load and run the model only in a sandboxed child process
            (:class:`sunbot.agents.isolate_model.ModelChild`, bounded by ``limits``): a
            model sunbot did not write (a drafted one) never runs in this process.

    Raises:
        ValueError: an unknown game, a bad server URL, a policy that is not a strategy
            of the game, or a model that cannot be loaded or built.
    """
    from sunbot import api
    from sunbot.client.http import public_url

    plans = []
    for seed in seeds:
        for policy in policies:
            plan = api.plan_run(
                game, seed=seed, strategy=_policy(game, policy), server=server,
                engine=None if isolate else engine, max_steps=max_steps,
            )  # fmt: skip
            plan.model_checks = True
            plan.strategy = policy
            plans.append(plan)
    if not plans:
        raise ValueError("certify: give at least one seed and one policy")
    child = None
    if isolate:
        from sunbot.agents.isolate_model import ModelChild

        child = ModelChild(engine, plans[0].slug, limits=limits)
        child.start()
        identity = child.identity
    else:
        assert plans[0].model is not None
        identity = plans[0].model.identity
    where = "embedded" if server is None else public_url(server)
    report = CertifyReport(plans[0].slug, where, identity, list(seeds), list(policies))
    backend = api.open_backend(server, plans[0].info)
    try:
        for plan in plans:
            if child is not None:
                plan.checks = child.checks(plan.seed)
            await _trajectory(api, plan, backend, report)
            if on_trajectory is not None:
                on_trajectory(plan.seed, plan.strategy, report)
    finally:
        await backend.aclose()
        if child is not None:
            child.close()
    return report


def _policy(game: str, name: str) -> Any:
    """The policy ``name`` for ``game``: the game's strategy of that name, else the generic
    one (``first`` plays every game, a known one too), else the name (refused as usual)."""
    from sunbot import strategies
    from sunbot.games import resolve

    if name in strategies.names(game) or name not in strategies.GENERIC:
        return name
    return resolve(strategies.GENERIC[name])


async def _trajectory(api: Any, plan: Any, backend: Any, report: CertifyReport) -> None:
    """Play one planned trajectory on ``backend`` and add what it found to ``report``."""
    summary = await api.run_plan(plan, backend=backend)
    report.trajectories += 1
    report.steps += summary.steps
    report.predictions += summary.responses_checked
    report.diverged += len({d.step for d in summary.divergences if _is_model(d)})
    for d in summary.divergences:
        found = Found(plan.seed, plan.strategy, d)
        if _is_model(d):
            report.divergences += 1
            report.model_errors += d.path == "model"
            if len(report.first) < KEPT:
                report.first.append(found)
        else:
            report.generic += 1
            if len(report.generic_first) < KEPT:
                report.generic_first.append(found)
    report.unpredicted.update(summary.unknown_fields)
    if summary.ended_by == "error":
        report.errors.append(f"seed {plan.seed} {plan.strategy}: {summary.error}")


def certify(game: str, engine: str, **options: Any) -> CertifyReport:
    """:func:`certify_async` from synchronous code (no event loop may be running)."""
    return asyncio.run(certify_async(game, engine, **options))


__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_POLICIES",
    "KEPT",
    "CertifyReport",
    "Found",
    "certify",
    "certify_async",
]
