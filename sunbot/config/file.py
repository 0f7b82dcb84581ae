"""Finding and reading ``sunbot.toml``, and naming the line of a key in it.

A config file is TOML (:mod:`tomllib`). :func:`find_config` picks the file:
``--config FILE``, else ``$SUNBOT_CONFIG``, else ``sunbot.toml`` in the working folder, else
none. :func:`read_config` parses it; :func:`locate` finds the line of a key (TOML readers
give values, not where they stood), so every error names the file, the line and the key
(:class:`ConfigError`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The file looked for in the working folder.
CONFIG_NAME = "sunbot.toml"
#: The environment variable naming a config file.
CONFIG_ENV = "SUNBOT_CONFIG"
#: Largest config file read, in bytes (a config is a few hundred).
MAX_CONFIG_BYTES = 1 << 20


class ConfigError(ValueError):
    """A config file that cannot be used; the message is one line naming the file, the
    line (when known) and the key: ``sunbot.toml:7: [bench] workers: ...``."""

    def __init__(self, path: Path, line: int | None, key: str | None, why: str) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {key}: {why}" if key else f"{where}: {why}")
        self.path, self.line, self.key, self.why = path, line, key, why


@dataclass(frozen=True)
class ConfigText:
    """A config file as read: its ``path``, ``text`` and parsed ``data``."""

    path: Path
    text: str
    data: dict[str, Any]

    def line_of(self, section: str | None, key: str | None = None) -> int | None:
        """The line (from 1) of ``key`` in table ``section`` (``None``: the top level),
        or of the table's header when ``key`` is ``None`` (:func:`locate`)."""
        return locate(self.text, section, key)

    def error(
        self, section: str | None, key: str | None, why: str, within: str = ""
    ) -> ConfigError:
        """A :class:`ConfigError` at ``key`` of ``section``, naming it ``[section] key``
        (then ``within``, e.g. ``[0]`` for a list's first item)."""
        shown = " ".join(p for p in (f"[{section}]" if section else None, key) if p)
        return ConfigError(self.path, self.line_of(section, key), shown + within or None, why)


def find_config(
    explicit: Path | None, environ: Mapping[str, str] = os.environ, cwd: Path | None = None
) -> Path | None:
    """The config file to use: ``explicit`` (``--config``), else ``$SUNBOT_CONFIG``, else
    ``sunbot.toml`` in ``cwd`` (default: the working folder) if it exists, else ``None``.

    Raises:
        ConfigError: ``--config`` or ``$SUNBOT_CONFIG`` names no file.
    """
    named = explicit if explicit is not None else environ.get(CONFIG_ENV) or None
    if named is not None:
        path = Path(named).expanduser()
        if not path.is_file():
            via = "--config" if explicit is not None else f"${CONFIG_ENV}"
            raise ConfigError(path, None, None, f"no such file (given by {via})")
        return path
    default = (cwd or Path.cwd()) / CONFIG_NAME
    return default if default.is_file() else None


def read_config(path: Path) -> ConfigText:
    """Read and parse the config file at ``path``.

    Raises:
        ConfigError: unreadable, too large, not UTF-8 or not TOML (naming the line).
    """
    try:
        raw = path.read_bytes()[: MAX_CONFIG_BYTES + 1]
    except OSError as exc:
        raise ConfigError(path, None, None, f"cannot read it ({exc.strerror or exc})") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(path, None, None, f"larger than {MAX_CONFIG_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise ConfigError(path, None, None, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        why = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        line = int(found.group(1)) if found else text.count("\n") + 1
        raise ConfigError(path, line, None, f"not valid TOML: {why}") from None
    return ConfigText(path, text, data)


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_PART = r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)"""
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _parts(dotted: str) -> list[str]:
    """A TOML key's parts, unquoted and normalised (``-`` for ``_``)."""
    out = []
    for part in re.findall(r""""[^"]*"|'[^']*'|[A-Za-z0-9_-]+""", dotted):
        out.append(normal(part.strip("\"'")))
    return out


def normal(key: str) -> str:
    """A key as compared: ``llm_url`` and ``llm-url`` are one key."""
    return key.replace("_", "-")


def locate(text: str, section: str | None, key: str | None) -> int | None:
    """The line (from 1) where ``key`` of table ``section`` is set in TOML ``text``
    (``section`` ``None``: the top level; ``key`` ``None``: the table's header), whether
    written under a ``[section]`` header, as a dotted key (``section.key = ...``) or in an
    inline table on the section's line; ``None`` when it is not found."""
    want_section = _parts(section) if section else []
    want = [*want_section, *([normal(key)] if key else [])]
    current: list[str] = []
    multiline = False
    for number, line in enumerate(text.splitlines(), 1):
        if multiline:  # inside a multi-line string: no keys here
            multiline = line.count('"""') % 2 == 0 and line.count("'''") % 2 == 0
            continue
        header = _HEADER.match(line)
        if header:
            current = _parts(header.group(1))
            if current == want:  # the table itself (key None, or a table named by key)
                return number
            continue
        found = _KEY.match(line)
        if found is None:
            continue
        path = [*current, *_parts(found.group(1))]
        if path == want or (key is not None and path == want[:-1] and "{" in line):
            return number  # the key itself, or the inline table that holds it
        rest = line[found.end() :]
        multiline = (rest.count('"""') % 2 == 1) or (rest.count("'''") % 2 == 1)
    return None
