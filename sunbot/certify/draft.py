"""``sunbot engine draft``: a forward model written by a language model, checked by
``certify``, corrected from its divergences (the Code World Model recipe).

:func:`draft_async` asks the model for a model class: the prompt holds the served ``spec``,
the contract (:mod:`sunbot.forward.contract`) and a few transitions played on the server;
the answer's Python block is certified against the server in a sandboxed child process
(:class:`sunbot.agents.isolate_model.ModelChild`: sunbot never imports it itself), and its
first divergences go back to the model, for at most ``rounds`` rounds. The last draft is
written to ``out`` for the user to review, with a certificate beside it when it passed.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sunbot
from sunbot._text.atomic_write import write_atomic
from sunbot._text.safe import clip

#: Rounds of drafting and correction by default.
DEFAULT_ROUNDS = 3
#: Transitions of example play shown in the first prompt, and the longest JSON of one.
EXAMPLES, EXAMPLE_CHARS = 6, 4_000
#: Longest served spec shown, in characters of its JSON.
SPEC_CHARS = 32_000
#: Divergences shown to the model after a round.
SHOWN = 8
_BLOCK = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.DOTALL)

CONTRACT = """\
Write a forward model of the game: a Python class (standard library only; no files, no
network, no processes) with these methods, on states of your own design (plain dicts are
best; never change a state in place):

- from_observation(self, observation) -> state: the position as the player sees it (the
  server's observation). You may also declare keyword arguments score and legal_actions
  to receive the served score and legal actions. Parts the player cannot see are drawn
  from self.rng.
- legal_actions(self, state) -> list: the actions the rules accept there, exactly as the
  server lists them (objects with a "type").
- step(self, state, action) -> state: the position after the action, including the
  opponent's reply when the server plays one in the same request.
- observation(self, state) -> dict: the observation the server would show.
- score(self, state) -> number: the served score. is_over(self, state) -> bool: gameOver.

The constructor takes one argument, rng (a random.Random): use it for everything the game
draws at random or hides, and then set the class attribute stochastic = True. Set the class
attribute game = "{game}". Optionally estimate(self, state) -> number: the final score you
expect from there (helps search). Answer with the whole file in one ```python block.
"""


@dataclass
class DraftRound:
    """One round: the draft's size, and what certifying it found."""

    number: int
    chars: int
    passed: bool
    predictions: int = 0
    diverged: int = 0
    first: list[str] = field(default_factory=list)
    error: str | None = None
    model_class: str = ""

    def to_json(self) -> dict[str, Any]:
        """The round as JSON (``sunbot engine draft --json``)."""
        return {
            "round": self.number, "chars": self.chars, "passed": self.passed,
            "predictions": self.predictions, "diverged": self.diverged,
            "firstDivergences": self.first, "error": self.error,
        }  # fmt: skip


@dataclass
class DraftReport:
    """What :func:`draft_async` did: the rounds, whether the last draft passed, where it and
    its certificate were written, what the model spent."""

    game: str
    model: str
    out: Path
    rounds: list[DraftRound] = field(default_factory=list)
    passed: bool = False
    certificate: Path | None = None
    calls: int = 0
    tokens: int = 0
    #: Whether a draft was written to ``out`` (no answer held Python code: nothing was).
    written: bool = False

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "game": self.game, "model": self.model, "out": str(self.out),
            "passed": self.passed, "written": self.written,
            "rounds": [r.to_json() for r in self.rounds],
            "certificate": str(self.certificate) if self.certificate else None,
            "calls": self.calls, "tokens": self.tokens,
        }  # fmt: skip


def code_of(answer: str) -> str | None:
    """The Python block of a model's answer (the longest fenced one; the whole answer when
    it has no fence but defines a class), or ``None``."""
    blocks = _BLOCK.findall(answer)
    if blocks:
        return str(max(blocks, key=len)).strip() + "\n"
    return answer.strip() + "\n" if "class " in answer and "def " in answer else None


def _json(value: Any, limit: int) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return (
        text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"
    )


async def examples(
    game: str, server: str | None, seed: int, steps: int = EXAMPLES
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The served ``spec`` of ``game`` and up to ``steps`` transitions of random play from
    ``seed``'s opening: ``{observation, legalActions, score, action, next: {observation,
    legalActions, score, gameOver}}``.

    Raises:
        sunbot.client.ClientError: the server could not be played.
    """
    from sunbot import api
    from sunbot.games import GAMES

    backend = api.open_backend(server, GAMES.get(game))
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    try:
        pos = await backend.init(game, seed)
        spec = (pos.raw or {}).get("spec")
        while len(out) < steps and not pos.game_over and pos.legal_actions:
            action = rng.choice(pos.legal_actions)
            nxt = await backend.act(game, pos, action)
            if nxt.refused is not None:
                break
            out.append({
                "observation": pos.observation, "legalActions": pos.legal_actions,
                "score": pos.score, "action": action,
                "next": {"observation": nxt.observation, "legalActions": nxt.legal_actions,
                         "score": nxt.score, "gameOver": nxt.game_over},
            })  # fmt: skip
            pos = nxt
    finally:
        await backend.aclose()
    return spec if isinstance(spec, dict) else {}, out


def first_prompt(
    game: str, spec: dict[str, Any], shown: Sequence[dict[str, Any]]
) -> list[dict[str, str]]:
    """The first round's messages: the contract, the spec and the example transitions."""
    lines = [f"Transition {i}: {_json(t, EXAMPLE_CHARS)}" for i, t in enumerate(shown, 1)]
    user = (
        f"The game {game!r}, as its server documents it (its served spec):\n"
        f"{_json(spec, SPEC_CHARS)}\n\nTransitions played on the server (observation, legal"
        " actions, score, the action sent, and the server's next answer):\n"
        + "\n".join(lines)
        + "\n\nWrite the forward model."
    )
    return [
        {"role": "system", "content": CONTRACT.format(game=game)},
        {"role": "user", "content": user},
    ]


def correction(round_: DraftRound) -> str:
    """The message sent after a round that did not pass: what certifying it found."""
    if round_.error is not None:
        return f"That model could not be checked: {round_.error}\nAnswer with the corrected file."
    found = "\n".join(f"- {line}" for line in round_.first)
    return (
        f"Certifying that model against the server, {round_.diverged} of {round_.predictions}"
        " predictions diverged (expected: your model's value; got: the server's). The first:\n"
        f"{found}\nAnswer with the corrected file."
    )


async def draft_async(
    game: str,
    llm: str,
    out: Path,
    *,
    server: str | None = None,
    seeds: Sequence[int] = tuple(range(1, 6)),
    rounds: int = DEFAULT_ROUNDS,
    max_steps: int = 60,
    base_url: str | None = None,
    client: Any = None,
    limits: Any = None,
    on_round: Callable[[DraftRound], None] | None = None,
) -> DraftReport:
    """Draft a forward model of ``game`` with the chat model ``llm`` (module doc).

    Args:
        game: the game's slug.
        llm: ``llm:MODEL`` (or the model's name).
        out: the file the last draft is written to (it may exist: it is replaced).
        server: the server the model is certified against (``None``: embedded).
        seeds: the certification's seeds (random and first-legal play on each).
        rounds: drafts at most (the first, then corrections).
        max_steps: steps a certification trajectory plays at most.
        base_url, client: the model's endpoint (default ``OPENAI_BASE_URL``) or an
            ``openai.OpenAI`` (tests).
        limits: the sandbox's bounds (:class:`sunbot.agents.sandbox.Limits`).
        on_round: called after each round.

    Raises:
        ValueError: ``rounds`` below 1, no folder for ``out``, an unknown game.
        ImportError: the ``openai`` SDK is missing.
        RuntimeError: the model gave no answer at all.
        sunbot.client.ClientError: the server could not be played.
    """
    from sunbot.agents.llm_text import TextModel
    from sunbot.certify.check import certify_async

    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: no folder {out.parent} (create it first)")
    spec, shown = await examples(game, server, seeds[0] if seeds else 1)
    writer = TextModel(llm, base_url=base_url, client=client)
    report = DraftReport(game, writer.model, out)
    messages = first_prompt(game, spec, shown)
    seeds_text = ",".join(map(str, seeds))
    code: str | None = None
    with tempfile.TemporaryDirectory(prefix="sunbot-draft-") as work:
        try:
            for number in range(1, rounds + 1):
                answer = writer.ask(messages)
                messages.append({"role": "assistant", "content": clip(answer, 60_000)})
                drafted = code_of(answer)
                if drafted is None:
                    r = DraftRound(number, 0, False, error="the answer holds no Python block")
                else:
                    code = _headed(drafted, game, writer.model, number)
                    candidate = Path(work) / f"round{number}.py"
                    candidate.write_text(code, encoding="utf-8")
                    r = await _certify(
                        certify_async,
                        game,
                        candidate,
                        server,
                        seeds,
                        max_steps,
                        limits,
                        number,
                        len(code),
                    )
                report.rounds.append(r)
                if on_round is not None:
                    on_round(r)
                if r.passed:
                    break
                messages.append({"role": "user", "content": correction(r)})
        finally:
            report.calls = writer.calls
            report.tokens = writer.prompt_tokens + writer.completion_tokens
            writer.close()
        report.passed = bool(report.rounds and report.rounds[-1].passed)
        if code is not None:
            write_atomic(out, code)
            report.written = True
            if report.passed:
                report.certificate = _certificate(out, game, server, seeds_text, report)
            elif report.rounds[-1].model_class:  # a draft that diverged keeps no certificate
                from sunbot.forward.certificate import withdraw

                with contextlib.suppress(OSError):  # not removable: never honoured anyway
                    withdraw(out, report.rounds[-1].model_class, game)
    return report


def _headed(code: str, game: str, model: str, number: int) -> str:
    head = (
        f"# A forward model of {game}, drafted by sunbot engine draft with the model {model}"
        f" (round {number}).\n# Review it before you use it: it was certified only on the"
        " seeds its certificate names.\n"
    )
    return head + code


async def _certify(
    certify_async: Any, game: str, candidate: Path, server: str | None, seeds: Sequence[int],
    max_steps: int, limits: Any, number: int, chars: int,
) -> DraftRound:  # fmt: skip
    from sunbot.forward.load import ModelNotLoaded

    try:
        found = await certify_async(
            game, str(candidate), server=server, seeds=seeds, max_steps=max_steps,
            isolate=True, limits=limits,
        )  # fmt: skip
    except ModelNotLoaded as exc:
        return DraftRound(number, chars, False, error=str(exc).replace(str(candidate), "the file"))
    first = [_said(f) for f in found.first[:SHOWN]]
    error = "; ".join(found.errors[:3]) or None
    return DraftRound(
        number, chars, found.passed, found.predictions, found.diverged, first, error,
        found.model.name,
    )  # fmt: skip


def _said(found: Any) -> str:
    d = found.divergence
    return clip(
        f"seed {found.seed}, {found.policy} play, step {d.step}: {d.path}: expected"
        f" {json.dumps(d.expected, default=str)}, got {json.dumps(d.got, default=str)}"
        + (f" ({d.note.removeprefix('model: ')})" if d.note else ""),
        600,
    )


def _certificate(
    out: Path, game: str, server: str | None, seeds: str, report: DraftReport
) -> Path | None:
    """The certificate of the written draft: the figures of its own certification (the
    same bytes, so the same hash)."""
    from sunbot.client.http import public_url
    from sunbot.forward import certificate
    from sunbot.forward.load import file_hash

    last = report.rounds[-1]
    entry = {
        "class": last.model_class, "game": game, "sha256": file_hash(out),
        "server": "embedded" if server is None else public_url(server), "seeds": seeds,
        "policies": ["random", "first"], "predictions": last.predictions, "divergences": 0,
        "draftedBy": report.model, "sunbotVersion": sunbot.__version__,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }  # fmt: skip
    return certificate.write(out, entry)


__all__ = [
    "CONTRACT",
    "DEFAULT_ROUNDS",
    "DraftReport",
    "DraftRound",
    "code_of",
    "correction",
    "draft_async",
    "examples",
    "first_prompt",
]
