"""The config file's ``[secrets]``: never written in it, only named where they are.

Each entry names an environment variable sunbot reads a secret from (:data:`SECRET_NAMES`)
and where its value is: ``{ env = "VAR" }`` (another environment variable) or
``{ file = "PATH" }`` (a file holding it, such as a container's mounted secret). A secret
written inline (``OPENAI_API_KEY = "sk-..."``) is refused. :func:`apply_secrets` sets each
variable the environment does not set already (the environment wins), registers the value
for redaction (:func:`sunbot._text.safe.remember`), and returns how each was found, for
``sunbot config show`` (which never prints a value).
"""

from __future__ import annotations

import os
import stat
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from sunbot._text.safe import remember
from sunbot.config.file import ConfigText

#: The environment variables a config file may point at: a model's API key, the local
#: server's Fernet keys (one a line in a file, comma-separated in the variable), the bearer
#: token of ``sunbot mcp --http``.
SECRET_NAMES = ("OPENAI_API_KEY", "SUNBOT_SERVER_KEYS", "SUNBOT_MCP_TOKEN")
#: Largest secret file read, in bytes.
MAX_SECRET_BYTES = 64 * 1024


class SecretRef(BaseModel):
    """Where a secret is: ``env`` (a variable's name) or ``file`` (a path), exactly one."""

    model_config = ConfigDict(extra="forbid", strict=True)
    env: str | None = None
    file: str | None = None

    @model_validator(mode="after")
    def _one(self) -> SecretRef:
        if (self.env is None) == (self.file is None):
            raise ValueError('give exactly one of env = "VAR" or file = "PATH"')
        return self


@dataclass(frozen=True)
class Secret:
    """How a secret was found: ``name`` (the variable), ``source`` (``"environment"``,
    ``"env VAR"``, ``"file PATH"``), ``length`` (characters; 0: not set), ``line`` (in the
    config file), ``warning`` (a secret file others may read, or a source that is absent)."""

    name: str
    source: str
    length: int
    line: int | None = None
    warning: str | None = None


def _refs(config: ConfigText) -> dict[str, tuple[SecretRef, int | None]]:
    """The ``[secrets]`` table checked: ``{name: (where, line)}``.

    Raises:
        ConfigError: not a table, an unknown name, an inline value, a bad reference.
    """
    table = config.data.get("secrets", {})
    if not isinstance(table, dict):
        raise config.error(None, "secrets", "a table of NAME = { env = ... } or { file = ... }")
    out: dict[str, tuple[SecretRef, int | None]] = {}
    for name, value in table.items():
        if name not in SECRET_NAMES:
            known = ", ".join(SECRET_NAMES)
            raise config.error("secrets", name, f"not a secret sunbot reads ({known})")
        if not isinstance(value, dict):
            raise config.error(
                "secrets",
                name,
                "secrets are never written in the file: give"
                f' {name} = {{ env = "VAR" }} or {{ file = "PATH" }}',
            )
        try:
            ref = SecretRef.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            why = first["msg"].removeprefix("Value error, ")
            raise config.error("secrets", name, f"{where + ': ' if where else ''}{why}") from None
        out[name] = (ref, config.line_of("secrets", name))
    return out


def check_secrets(config: ConfigText) -> None:
    """Check the ``[secrets]`` table's shape without reading any secret.

    Raises:
        ConfigError: see :func:`apply_secrets`.
    """
    _refs(config)


def apply_secrets(
    config: ConfigText, environ: MutableMapping[str, str] | None = None
) -> list[Secret]:
    """Set each ``[secrets]`` variable from where the file says, unless ``environ``
    (default ``os.environ``) already sets it; returns how each was found.

    A source that is absent (the variable is not set, the file does not exist) leaves the
    secret unset with a warning on its :class:`Secret` (``length`` 0): a command that does not
    need it runs, one that does fails with its own line.

    Raises:
        ConfigError: the table is malformed, a file cannot be read, is not a regular file,
            is empty, is not UTF-8 or is larger than :data:`MAX_SECRET_BYTES`.
    """
    env: MutableMapping[str, str] = os.environ if environ is None else environ
    found: list[Secret] = []
    for name, (ref, line) in _refs(config).items():
        if env.get(name):
            found.append(Secret(name, "environment", len(env[name]), line))
            continue
        warning = None
        if ref.env is not None:
            value = env.get(ref.env, "")
            source = f"env {ref.env}"
            if not value:
                missing = f"the environment variable {ref.env} is not set"
                found.append(Secret(name, source, 0, line, _unset(config, name, missing)))
                continue
        else:
            path = Path(str(ref.file)).expanduser()
            source = f"file {path}"
            if not path.exists() and not path.is_symlink():
                missing = f"{path} does not exist"
                found.append(Secret(name, source, 0, line, _unset(config, name, missing)))
                continue
            value, warning = _read_secret(config, name, path)
        remember(value)
        env[name] = value
        found.append(Secret(name, source, len(value), line, warning))
    return found


def _unset(config: ConfigText, name: str, why: str) -> str:
    """The warning for a secret whose source is absent: it stays unset, and only a command
    that needs it fails (with its own line), not every command."""
    where = f"{config.path}:{config.line_of('secrets', name)}"
    return f"{where}: [secrets] {name}: {why}, so {name} stays unset"


def _read_secret(config: ConfigText, name: str, path: Path) -> tuple[str, str | None]:
    """A secret file's value (its text without the final line end) and a warning when
    others may read it."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise config.error("secrets", name, f"{path} is not a regular file")
        with path.open("rb") as fh:
            raw = fh.read(MAX_SECRET_BYTES + 1)
    except OSError as exc:
        raise config.error("secrets", name, f"cannot read {path} ({exc.strerror or exc})") from None
    if len(raw) > MAX_SECRET_BYTES:
        raise config.error("secrets", name, f"{path} is larger than {MAX_SECRET_BYTES} bytes")
    try:
        value = raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        raise config.error("secrets", name, f"{path} is not UTF-8 text") from None
    if not value.strip():
        raise config.error("secrets", name, f"{path} is empty")
    if "\x00" in value:  # no environment variable can hold it
        raise config.error("secrets", name, f"{path} holds a NUL byte")
    loose = info.st_mode & 0o077
    where = f"{config.path}:{config.line_of('secrets', name)}: [secrets] {name}"
    warning = f"{where}: {path} is readable by others: chmod 600 it" if loose else None
    return value, warning


def masked(value: Any) -> str:
    """How ``config show`` writes a secret: never the value."""
    return "***" if value else "(not set)"
