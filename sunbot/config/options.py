"""A config file's option defaults, checked against the commands they are for.

Every key of ``sunbot.toml`` but ``[secrets]`` is an option of a ``sunbot`` command, by
its long name without the dashes (``llm-url``; ``llm_url`` is the same key): at the top
level, for every command that has that option; under ``[COMMAND]``, for that command
only (it wins over the top level). A command's options are described to this module as
:class:`OptionSpec` (the command line builds them from its parameters,
:mod:`sunbot.cli.config`), so an option added to a command can be set in the file with no
change here. Each value is checked in two steps: its type by a pydantic model of the
command's options (strict: ``workers = "2"`` is not a number), then by the command line's
own conversion of the option (ranges, choices, parsers such as ``--seeds``); the first
problem is a :class:`~sunbot.config.file.ConfigError` naming the file, line and key.
"""

from __future__ import annotations

import difflib
import enum
import re
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from sunbot.config.file import ConfigText, normal
from sunbot.config.secrets import SECRET_NAMES

#: Tables of the file that are not commands.
RESERVED = ("secrets",)
#: A URL with a password in it (``scheme://user:password@host``).
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/@\s:]*:[^/@\s]+@")


@dataclass(frozen=True)
class OptionSpec:
    """One option (or argument) of a command, as the file may set it.

    Attributes:
        key: its name in the file, ``-`` form (``llm-url``).
        name: the parameter's name (``llm_url``): the key of the default map.
        annotation: its Python type (``int``, ``float``, ``bool``, ``str``, ``Path``, an
            ``Enum``, ``list[...]``, ``tuple[...]``, ``X | None``); anything else is read
            as text (a parser's input).
        multiple: the option may be given several times (the file gives a list, or one
            value).
        check: the command line's own conversion of a value (raising with the reason), or
            ``None``.
        default: its built-in default (for ``sunbot config show``).
    """

    key: str
    name: str
    annotation: Any = str
    multiple: bool = False
    check: Callable[[Any], Any] | None = None
    default: Any = None


@dataclass
class Setting:
    """One value the file sets for a command: ``value``, the table it was in (``None``:
    the top level), its ``line``."""

    value: Any
    section: str | None
    line: int | None


@dataclass
class Settings:
    """What a config file sets: ``config`` (the file read; ``None``: no file), and for
    each command the options it sets (:class:`Setting` by parameter name)."""

    config: ConfigText | None
    commands: dict[str, dict[str, Setting]] = field(default_factory=dict)

    def default_map(self) -> dict[str, dict[str, Any]]:
        """The command line's defaults: ``{command: {parameter: value}}``."""
        return {c: {n: s.value for n, s in opts.items()} for c, opts in self.commands.items()}


def _field_type(annotation: Any) -> Any:
    """The pydantic type a value of ``annotation`` must have in the file: ``Path`` and
    parsed types as text, an ``Enum`` as one of its values, a tuple as a list of its
    length; ``None`` is never a value in a file (TOML has none)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _field_type(kept[0]) if len(kept) == 1 else str
    if origin is Annotated:
        return _field_type(typing.get_args(annotation)[0])
    if origin is list:
        (inner,) = typing.get_args(annotation) or (str,)
        return list[_field_type(inner)]  # type: ignore[misc]
    if origin is tuple:
        inner = typing.get_args(annotation)
        one = _field_type(inner[0]) if inner else str
        return Annotated[list[one], Field(min_length=len(inner), max_length=len(inner))]  # type: ignore[valid-type]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return Literal[tuple(e.value for e in annotation)]
    if annotation in (bool, int, float, str):
        return annotation
    return str  # Path, a parsed type (seeds, caps): text the command line reads


def _model(command: str, specs: Iterable[OptionSpec]) -> type[BaseModel]:
    fields: dict[str, Any] = {
        s.name: (_field_type(s.annotation) | None, Field(default=None, alias=s.key)) for s in specs
    }
    config = ConfigDict(extra="forbid", strict=True, populate_by_name=False)
    return create_model(f"{command}_options", __config__=config, **fields)


def _hint(key: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _no_inline_secret(config: ConfigText, section: str | None, key: str, value: Any) -> None:
    """Refuse a URL carrying a password: the file holds no secret."""
    texts = value if isinstance(value, list) else [value]
    if any(isinstance(t, str) and _URL_PASSWORD.search(t) for t in texts):
        raise config.error(
            section,
            key,
            "a password in a URL is a secret, and the file holds none: give this URL on the"
            " command line",
        )


def check_settings(config: ConfigText, commands: dict[str, list[OptionSpec]]) -> Settings:
    """Check every key of ``config`` against ``commands`` (``{name: its options}``) and
    return what the file sets for each command.

    Raises:
        ConfigError: a key that is no option (of any command at the top level, of its
            command in a table), a table that is no command, a value of the wrong type or
            that the command line refuses; one line naming the file, line and key.
    """
    data = config.data
    by_key = {c: {s.key: s for s in specs} for c, specs in commands.items()}
    shared = {k for keys in by_key.values() for k in keys}
    top: dict[str, tuple[str, Any]] = {}
    tables: dict[str, dict[str, tuple[str, Any]]] = {}
    for raw_key, value in data.items():
        key = normal(raw_key)
        if raw_key in RESERVED:
            continue
        if key in by_key:  # a command's table
            if not isinstance(value, dict):
                raise config.error(None, raw_key, f"a table of sunbot {key}'s options ([{key}])")
            tables[key] = {normal(k): (k, v) for k, v in value.items()}
            continue
        if isinstance(value, dict):
            raise config.error(
                None, raw_key, f"not a sunbot command{_hint(key, [*by_key, *RESERVED])}"
            )
        if key not in shared:
            secret = " (secrets go in [secrets], by reference)" if raw_key in SECRET_NAMES else ""
            raise config.error(
                None, raw_key, f"not an option of any sunbot command{_hint(key, shared)}{secret}"
            )
        top[key] = (raw_key, value)
    out = Settings(config)
    for command, keys in by_key.items():
        own = tables.get(command, {})
        for key, (raw_key, _) in own.items():
            if key not in keys:
                raise config.error(
                    command, raw_key, f"not an option of sunbot {command}{_hint(key, keys)}"
                )
        chosen: dict[str, tuple[str | None, str, Any]] = {
            k: (None, *v) for k, v in top.items() if k in keys
        }
        chosen.update({k: (command, *v) for k, v in own.items()})
        if chosen:
            out.commands[command] = _check_command(config, command, keys, chosen)
    return out


def _check_command(
    config: ConfigText,
    command: str,
    keys: dict[str, OptionSpec],
    chosen: dict[str, tuple[str | None, str, Any]],
) -> dict[str, Setting]:
    """One command's values checked: ``chosen`` is ``{key: (table, key as written,
    value)}``."""
    values: dict[str, Any] = {}
    for key, (section, raw_key, value) in chosen.items():
        _no_inline_secret(config, section, raw_key, value)
        spec = keys[key]
        values[key] = [value] if spec.multiple and not isinstance(value, list) else value
    try:
        _model(command, keys.values()).model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = str(first["loc"][0])
        section, raw_key, value = chosen[key]
        at = "".join(f"[{p}]" for p in first["loc"][1:])
        got = f" (got {value!r:.60})" if first["type"] != "extra_forbidden" else ""
        why = first["msg"] + got + (f", as for sunbot {command}" if section is None else "")
        raise config.error(section, raw_key, why, within=at) from None
    settings: dict[str, Setting] = {}
    for key, value in values.items():
        spec = keys[key]
        section, raw_key, _ = chosen[key]
        if spec.check is not None:
            try:
                spec.check(value)
            except Exception as exc:  # the command line's own words for it
                why = _message(exc) + (f", as for sunbot {command}" if section is None else "")
                raise config.error(section, raw_key, why) from None
        settings[spec.name] = Setting(value, section, config.line_of(section, raw_key))
    return settings


def _message(exc: Exception) -> str:
    """An exception's message on one line (a click-style error's own formatting)."""
    text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    return " ".join(str(text).split()) or type(exc).__name__


def relative_paths_note(path: Path) -> str:
    """How relative paths in the file are read (for ``config show``)."""
    return f"relative paths in {path.name} are read from the working folder, as on the command line"
