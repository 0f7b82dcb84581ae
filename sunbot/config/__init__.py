"""The config file, ``sunbot.toml``: every command-line option's default, and where secrets are.

:func:`load_settings` finds the file (``--config FILE``, ``$SUNBOT_CONFIG``, or
``sunbot.toml`` in the working folder), reads it (:mod:`sunbot.config.file`), checks every
key against the commands' options (:mod:`sunbot.config.options`) and sets the secrets it
points at (:mod:`sunbot.config.secrets`). Any problem is one
:class:`~sunbot.config.file.ConfigError` line naming the file, line and key. The command
line wins over the file, the file over the built-in defaults. Reference:
``docs/guide-long-runs.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, MutableMapping
from pathlib import Path

from sunbot.config.file import CONFIG_ENV, CONFIG_NAME, ConfigError, find_config, read_config
from sunbot.config.options import OptionSpec, Setting, Settings, check_settings
from sunbot.config.secrets import SECRET_NAMES, Secret, apply_secrets, check_secrets


def load_settings(
    explicit: Path | None,
    commands: dict[str, list[OptionSpec]] | Callable[[], dict[str, list[OptionSpec]]],
    environ: MutableMapping[str, str] | None = None,
    cwd: Path | None = None,
) -> tuple[Settings, list[Secret]]:
    """The settings of the config file in use (none: empty settings), checked against
    ``commands`` (``{command: its options}``, or a function giving them, called only when
    there is a file), with its secrets set in ``environ`` (default ``os.environ``).

    Raises:
        ConfigError: the file is missing (when named), unreadable, not TOML, or a key or
            value is wrong (one line naming the file, line and key).
    """
    env: MutableMapping[str, str] = os.environ if environ is None else environ
    path = find_config(explicit, env, cwd)
    if path is None:
        return Settings(None), []
    config = read_config(path)
    check_secrets(config)
    settings = check_settings(config, commands() if callable(commands) else commands)
    return settings, apply_secrets(config, env)


__all__ = [
    "CONFIG_ENV",
    "CONFIG_NAME",
    "SECRET_NAMES",
    "ConfigError",
    "OptionSpec",
    "Secret",
    "Setting",
    "Settings",
    "load_settings",
]
