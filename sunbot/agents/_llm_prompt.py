"""Prompts of :class:`sunbot.agents.llm.LLMStrategy`: Jinja2 templates, untrusted text, history.

Private helpers; the public names (:func:`~sunbot.agents.llm.render_prompt`) live in
:mod:`sunbot.agents.llm`. Templates render in a sandboxed Jinja2 environment (autoescape
off, undefined variables are errors); ``docs/guide-llm.md`` lists their variables.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

#: Characters of one untrusted string kept in a prompt (a speech is at most 200).
UNTRUSTED_MAX = 300
#: Untrusted strings kept in one prompt; later ones become one "omitted" marker.
UNTRUSTED_COUNT = 64
#: Characters of the observation's JSON kept in one prompt (a hostile server's 1 MB answer).
OBSERVATION_MAX = 24_000
#: Characters of the served spec's JSON kept in the system prompt (the known games' are about
#: 2,000-3,300; a hostile or bloated server's is cut, not sent to the model with every call).
SPEC_MAX = 32_000
#: Legal actions listed in one prompt.
LEGAL_SHOWN = 200
#: Characters of one history line's change description.
CHANGE_MAX = 160
#: Nested levels of an observation walked; deeper values are replaced by a marker.
DEPTH_MAX = 12

BLOCKS = ("system", "turn", "reask")
_DEFAULT_REASK = (
    "That answer was not accepted: {{ reason }}. Answer again with exactly one action, "
    "as a JSON object{% if not text_command %} (or its number in the list){% endif %}."
)
#: A string that reads as an identifier or a number, not as free text (kept in place).
_TOKEN = re.compile(r"[A-Za-z0-9_.:+#/-]{0,40}")


def dumps(value: Any) -> str:
    """Compact JSON, UTF-8 kept as it is (the ``json`` filter of the templates)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def shown_spec(spec: Any) -> Any:
    """The served ``spec`` as a prompt shows it: ``{}`` for ``None``, the spec itself while its
    compact JSON is at most :data:`SPEC_MAX` characters, else that JSON's first
    :data:`SPEC_MAX` characters as one string ending in how many more were not shown."""
    if spec is None:
        return {}
    text = dumps(spec)
    if len(text) <= SPEC_MAX:
        return spec
    return text[:SPEC_MAX] + f"… ({len(text) - SPEC_MAX:,} more characters of the spec not shown)"


def _sanitize(text: str) -> str:
    """Untrusted text flattened to one line: control, format and line/paragraph separator
    characters become spaces, code fences are broken, length capped."""
    flat = "".join(
        " " if unicodedata.category(c)[0] == "C" or c in "\u2028\u2029" else c
        for c in text[: UNTRUSTED_MAX * 2]
    )
    flat = flat.replace("```", "'''").strip()
    return flat if len(flat) <= UNTRUSTED_MAX else flat[:UNTRUSTED_MAX] + "…"


class _Splitter:
    """Moves free text out of an observation into a separate, labelled mapping."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def _take(self, path: str, text: str) -> str:
        if len(self.found) >= UNTRUSTED_COUNT:
            self.found.setdefault("omitted", "more text was left out")
            return "<untrusted omitted>"
        self.found[path] = _sanitize(text)
        return f"<untrusted {path}>"

    def walk(self, value: Any, path: str, depth: int) -> Any:
        if isinstance(value, str):
            return value if _TOKEN.fullmatch(value) else self._take(path or "text", value)
        if depth >= DEPTH_MAX and isinstance(value, dict | list):
            return "<nested too deep>"
        if isinstance(value, list):
            return [
                self.walk(v, f"{path}.{i}" if path else str(i), depth + 1)
                for i, v in enumerate(value)
            ]
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for key, v in value.items():
                name = str(key)
                if not _TOKEN.fullmatch(name):
                    name = self._take(f"{path}.key" if path else "key", name)
                    name = f"{name}#{len(out)}"
                out[name] = self.walk(v, f"{path}.{name}" if path else name, depth + 1)
            return out
        return value


def split_untrusted(observation: Any) -> tuple[Any, dict[str, str]]:
    """``(observation, untrusted)``: the observation with every free-text string (anything
    that is not an identifier or number of at most 40 characters: speeches, diaries,
    ``lastPublic``, any server text) replaced by a marker ``<untrusted PATH>``, and the
    mapping ``PATH -> text`` (one line each, at most :data:`UNTRUSTED_MAX` characters, at
    most :data:`UNTRUSTED_COUNT` entries). Keys that are free text are moved out the same
    way. The input is not changed."""
    splitter = _Splitter()
    clean = splitter.walk(observation, "", 0)
    return clean, splitter.found


def score_of(observation: Any) -> float | None:
    """The score an observation shows: ``score`` (the single-player games), else Harvest
    Watch's ``summary.food``; ``None`` when there is no number."""
    if not isinstance(observation, dict):
        return None
    value = observation.get("score")
    if not _is_number(value):
        summary = observation.get("summary")
        value = summary.get("food") if isinstance(summary, dict) else None
    return value if _is_number(value) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _scalars(observation: Any) -> dict[str, Any]:
    """Top-level scalars and those one level down (``summary.food``), free text left out."""
    out: dict[str, Any] = {}
    if not isinstance(observation, dict):
        return out
    for key, value in observation.items():
        items = value.items() if isinstance(value, dict) else [("", value)]
        for sub, v in items:
            if (
                v is None
                or isinstance(v, bool | int | float)
                or (isinstance(v, str) and _TOKEN.fullmatch(v))
            ):
                name = f"{key}.{sub}" if sub else str(key)
                if _TOKEN.fullmatch(name):
                    out[name] = v
    return out


def change_line(before: Any, after: Any) -> str:
    """What changed between two observations in one short line, e.g. ``turn 3→4, trim
    0→2``: scalar fields (one level deep), the score left out (it has its own column),
    at most :data:`CHANGE_MAX` characters."""
    old, new = _scalars(before), _scalars(after)
    parts = [
        f"{k} {dumps(old.get(k))}→{dumps(v)}"
        for k, v in new.items()
        if k not in ("score", "summary.food") and (k not in old or old[k] != v)
    ]
    line = ", ".join(parts[:6]) + (f", +{len(parts) - 6} more" if len(parts) > 6 else "")
    line = line or "no visible change"
    return line if len(line) <= CHANGE_MAX else line[: CHANGE_MAX - 1] + "…"


@dataclass
class HistoryEntry:
    """One past decision as a template sees it (``history`` items)."""

    step: int
    action: str
    score_delta: float | None
    change: str
    fallback: bool


def history_entry(step: int, action: Any, before: Any, after: Any, fallback: bool) -> HistoryEntry:
    """The history entry of the decision at ``step`` that turned ``before`` into ``after``."""
    old, new = score_of(before), score_of(after)
    delta = None if old is None or new is None else round(new - old, 6)
    text = dumps(action)
    return HistoryEntry(step, text[:200], delta, change_line(before, after), fallback)


class Templates:
    """The three prompt templates (``system``, ``turn``, ``reask``), compiled once.

    Args:
        prompt: ``None`` (the default ``prompts/default.j2``), a file holding
            ``{% block system %}`` and ``{% block turn %}`` (and optionally ``reask``), or a
            directory holding ``system.j2`` and ``turn.j2`` (and optionally ``reask.j2``).

    Raises:
        ValueError: one line: the file or a block is missing, or a template does not
            compile.
    """

    def __init__(self, prompt: str | Path | None = None) -> None:
        from jinja2 import StrictUndefined, TemplateSyntaxError
        from jinja2.sandbox import SandboxedEnvironment

        self.env = SandboxedEnvironment(
            autoescape=False, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True
        )
        self.env.filters["json"] = dumps
        self.source = "default" if prompt is None else str(prompt)
        sources = _sources(prompt)
        try:
            self.parts = {name: self.env.from_string(text) for name, text in sources.items()}
        except TemplateSyntaxError as exc:
            raise ValueError(f"prompt {self.source}: line {exc.lineno}: {exc.message}") from None

    def render(self, block: str, variables: dict[str, Any]) -> str:
        """Render one block with ``variables``.

        Raises:
            ValueError: one line, when the template uses a variable that is not defined
                or fails in the sandbox.
        """
        from jinja2 import TemplateError

        template = self.parts[block]
        try:
            if block in template.blocks:
                context = template.new_context(variables)
                text = "".join(template.blocks[block](context))
            else:
                text = template.render(variables)
        except TemplateError as exc:
            raise ValueError(f"prompt {self.source}, block {block}: {exc}") from None
        return text.strip()


def _sources(prompt: str | Path | None) -> dict[str, str]:
    """Template text per block name."""
    if prompt is None:
        text = (
            resources.files("sunbot")
            .joinpath("agents", "prompts", "default.j2")
            .read_text(encoding="utf-8")
        )
        return {"system": text, "turn": text, "reask": text}
    path = Path(prompt)
    if path.is_dir():
        out: dict[str, str] = {}
        for name in BLOCKS:
            file = path / f"{name}.j2"
            if file.is_file():
                out[name] = file.read_text(encoding="utf-8")
            elif name != "reask":
                raise ValueError(f"prompt {path}: no {name}.j2 in that folder")
        out.setdefault("reask", _DEFAULT_REASK)
        return out
    if not path.is_file():
        raise ValueError(f"prompt {path}: no such file or folder")
    text = path.read_text(encoding="utf-8")
    for name in ("system", "turn"):
        if not re.search(r"{%-?\s*block\s+" + name + r"\b", text):
            raise ValueError(f"prompt {path}: no {{% block {name} %}} in it")
    has_reask = re.search(r"{%-?\s*block\s+reask\b", text) is not None
    return {"system": text, "turn": text, "reask": text if has_reask else _DEFAULT_REASK}


def _game_facts(game: str) -> tuple[str, str | None]:
    """``(name, cap unit)`` of a game sunbot knows, else ``(slug, None)``."""
    try:
        from sunbot.games import get_game

        info = get_game(game)
    except Exception:  # an unknown game: the slug is all there is
        return game, None
    return info.name, info.cap_field


#: Observation fields that say how much time is left, not what the game is: left out of the
#: prompt, so the same position gives the same prompt (and the decision cache's key).
CLOCK_FIELDS = ("remainMs", "deadlineMs")


def _without_clock(observation: Any) -> Any:
    if isinstance(observation, dict) and any(k in observation for k in CLOCK_FIELDS):
        return {k: v for k, v in observation.items() if k not in CLOCK_FIELDS}
    return observation


class Prompter:
    """The messages of one run's decisions: the system prompt (rendered once, so it stays
    the same for the whole run) and each turn's user message.

    Args:
        game: the game's slug.
        spec: the served ``spec`` (``None``: an empty object is shown).
        templates: the compiled :class:`Templates`.
        cap: the run's cap in the game's unit, or ``None``.
    """

    def __init__(self, game: str, spec: Any, templates: Templates, cap: int | None = None) -> None:
        self.game, self.spec, self.templates, self.cap = game, spec, templates, cap
        self._shown_spec = shown_spec(spec)
        self.name, self.cap_unit = _game_facts(game)
        self._system: str | None = None

    def _base(self) -> dict[str, Any]:
        from sunbot.agents._llm_parse import TEXT_LIMITS

        return {
            "game": self.game,
            "game_name": self.name,
            "spec": self._shown_spec,
            "cap": self.cap,
            "cap_unit": self.cap_unit or "step",
            "text_limits": dict(TEXT_LIMITS),
        }

    def system(self, example: Any) -> str:
        """The system prompt; ``example`` (an action shown as the answer's form) is used on
        the first call only, and not when it is a text beat's placeholder command (a model
        shown ``{"speech": "…"}`` as the form says ``…``): the template gets ``None``."""
        if self._system is None:
            from sunbot.agents._llm_parse import text_command

            if text_command(self.game, [example]) is not None:
                example = None
            self._system = self.templates.render("system", {**self._base(), "example": example})
        return self._system

    def turn(
        self,
        observation: Any,
        legal_actions: list[Any],
        *,
        step: int,
        history: list[HistoryEntry],
        last_error: str | None,
    ) -> str:
        """The user message of one decision."""
        from sunbot.agents._llm_parse import text_command

        text_cmd = text_command(self.game, legal_actions)
        shown = _without_clock(observation)
        if text_cmd is not None and isinstance(shown, dict) and "schema" in shown:
            # the platform's example command ({"speech": "…"}) is a placeholder that models
            # copied (or its untrusted marker); the turn says the beat's shape itself
            shown = {k: v for k, v in shown.items() if k != "schema"}
        clean, untrusted = split_untrusted(shown)
        shown_obs = dumps(clean)
        if len(shown_obs) > OBSERVATION_MAX:
            clean = shown_obs[:OBSERVATION_MAX] + f"… ({len(shown_obs) - OBSERVATION_MAX} more)"
        # the server's list, as JSON (one line each); a text beat's "list" is one
        # placeholder command, which a model copies instead of writing: not shown
        listed = [] if text_cmd is not None else legal_actions[:LEGAL_SHOWN]
        return self.templates.render(
            "turn",
            {
                **self._base(),
                "example": legal_actions[0] if legal_actions else {},
                "observation": clean,
                "untrusted": untrusted,
                "legal_actions": listed,
                "legal_count": 0 if text_cmd is not None else len(legal_actions),
                "text_command": text_cmd,
                "history": history,
                "step": step,
                "score": score_of(observation),
                "last_error": last_error,
            },
        )

    def reask(self, reason: str, text_command: Any = None) -> str:
        """The user message asking again after an answer that was not accepted
        (``text_command``: the beat's, on a speech or diary beat)."""
        variables = {**self._base(), "reason": reason, "text_command": text_command}
        return self.templates.render("reask", variables)
