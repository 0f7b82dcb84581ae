"""The config file on the command line: ``--config FILE`` and ``sunbot config show``.

:class:`ConfigGroup` is the ``sunbot`` command's group: it takes ``--config FILE`` before or
after the command (``sunbot --config F bench ...`` and ``sunbot bench ... --config F``).
:func:`apply_config` (called by the root callback) loads the file
(:func:`sunbot.config.load_settings`) against every command's options, read from the
commands themselves (:func:`option_specs`: a new option can be set in the file with no
change here), and hands the values to the commands as their defaults (the context's
``default_map``). ``sunbot config show`` prints what is in force, secrets masked.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperGroup

from sunbot._text.terminal import printable
from sunbot.cli.console import Exit, make_console
from sunbot.config import (
    CONFIG_ENV,
    CONFIG_NAME,
    SECRET_NAMES,
    ConfigError,
    OptionSpec,
    Secret,
    Settings,
    load_settings,
)
from sunbot.config.secrets import masked

console = make_console()
err_console = make_console(stderr=True)
#: Where the loaded settings are kept on the root context (``ctx.meta``).
META_KEY = "sunbot.config"
#: Environment variables ``config show`` lists (secrets among them masked).
SHOWN_ENV = ("OPENAI_BASE_URL", "OPENAI_MODEL", "SUNBOT_STATE_DIR", *SECRET_NAMES)
_PASSWORD = re.compile(r"(//[^/@\s:]*:)[^/@\s]+@")


class ConfigGroup(TyperGroup):
    """The ``sunbot`` group: ``--config FILE`` (or ``--config=FILE``) is taken wherever it
    stands and given to the root, so it works after the command too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """``args`` with each ``--config`` moved before the command, then parsed."""
        moved: list[str] = []
        rest: list[str] = []
        items = iter(args)
        for arg in items:
            if arg == "--":
                rest += [arg, *items]
                break
            if arg == "--config":
                moved += [arg, next(items, "")]
            elif arg.startswith("--config="):
                moved.append(arg)
            else:
                rest.append(arg)
        return super().parse_args(ctx, [*moved, *rest])


def option_specs(ctx: Any) -> dict[str, list[OptionSpec]]:
    """Every leaf command's options (and arguments) as the config file may set them,
    keyed by command name; read from the commands' own parameters."""
    group = ctx.command
    out: dict[str, list[OptionSpec]] = {}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or hasattr(command, "list_commands"):
            continue  # a group of commands (config): nothing of its own to set
        sub = typer.Context(command, info_name=name, parent=ctx)
        specs = [_spec(param, sub) for param in command.params if param.expose_value]
        out[name] = [s for s in specs if s is not None]
    return out


def _spec(param: Any, ctx: Any) -> OptionSpec | None:
    """One parameter as an :class:`OptionSpec` (``None`` for an eager one like
    ``--version``)."""
    if getattr(param, "is_eager", False):
        return None
    if param.param_type_name == "option":
        longs = [o for o in param.opts if o.startswith("--")]
        key = (longs[0] if longs else param.opts[0]).lstrip("-")
    else:
        key = str(param.name).replace("_", "-")
    descriptor = getattr(param, "type_descriptor", None)
    annotation = getattr(descriptor, "annotation", None)
    if getattr(param, "count", False):
        annotation = int
    return OptionSpec(
        key=key,
        name=str(param.name),
        annotation=annotation if annotation is not None else str,
        multiple=bool(param.multiple),
        check=lambda value: _convert(param, ctx, value),
        default=None if callable(param.default) else param.default,
    )


def _convert(param: Any, ctx: Any, value: Any) -> Any:
    """``value`` as the command line converts a default of ``param`` (its type, range,
    choices or parser), raising with the reason."""
    runtime = getattr(param, "get_runtime_param", None)
    if runtime is not None:  # typer's own parameters
        return runtime().coerce(value, param=param, ctx=ctx)
    return param.type_cast_value(ctx, value)  # click's


def apply_config(ctx: Any, explicit: Path | None) -> None:
    """Load the config file in use (``explicit``: ``--config``) and make its values the
    commands' defaults (``ctx.default_map``); keep it in ``ctx.meta`` for ``config show``.

    Raises:
        typer.Exit: 2 after one line naming the file, line and key of what is wrong.
    """
    try:
        settings, secrets = load_settings(explicit, lambda: option_specs(ctx))
    except ConfigError as exc:
        err_console.print(f"[bold red]error:[/] {escape(printable(exc))}", soft_wrap=True)
        raise typer.Exit(Exit.USAGE) from None
    for secret in secrets:
        if secret.warning:
            err_console.print(f"[yellow]warning:[/] {escape(secret.warning)}", soft_wrap=True)
    ctx.meta[META_KEY] = (settings, secrets)
    if settings.commands:
        ctx.default_map = settings.default_map()


config_app = typer.Typer(
    name="config",
    help="The config file (sunbot.toml): what it sets.",
    no_args_is_help=True,
    add_completion=False,
)


@config_app.command("show")
def show_command(
    ctx: typer.Context,
    command: Annotated[
        str | None,
        typer.Argument(
            metavar="[COMMAND]",
            help="Show every option of this command, with its default and where it comes from.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print it as one JSON object.")] = False,
) -> None:
    """Print the settings in force: the config file's values for each command, the
    secrets it points at and the environment's (never their values)."""
    root = ctx.find_root()
    settings, secrets = root.meta.get(META_KEY, (Settings(None), []))
    specs = option_specs(root)
    if command is not None and command not in specs:
        err_console.print(
            f"[bold red]error:[/] no command {escape(command)!r}: one of {', '.join(specs)}"
        )
        raise typer.Exit(Exit.USAGE)
    shown = _shown(settings, secrets, specs, command)
    if as_json:
        typer.echo(json.dumps(shown, indent=1, default=str))
        return
    _print(shown)


def _where(settings: Settings, line: int | None) -> str:
    config = settings.config
    if config is None:
        return "built-in"
    return f"{config.path.name}:{line}" if line is not None else config.path.name


def _shown(
    settings: Settings,
    secrets: list[Secret],
    specs: dict[str, list[OptionSpec]],
    command: str | None,
) -> dict[str, Any]:
    """What ``config show`` prints, as plain data."""
    config = settings.config
    out: dict[str, Any] = {
        "file": str(config.path) if config is not None else None,
        "looked for": f"--config FILE, ${CONFIG_ENV}, ./{CONFIG_NAME}",
    }
    commands: dict[str, Any] = {}
    for name, opts in specs.items():
        if command is not None and name != command:
            continue
        set_here = settings.commands.get(name, {})
        rows = {}
        for spec in opts:
            got = set_here.get(spec.name)
            if got is not None:
                rows[spec.key] = {"value": _visible(got.value), "from": _where(settings, got.line)}
            elif command is not None:
                rows[spec.key] = {"value": _visible(spec.default), "from": "built-in"}
        if rows:
            commands[name] = rows
    out["commands"] = commands
    out["secrets"] = {
        s.name: {"value": masked(s.length), "from": s.source, "characters": s.length}
        for s in secrets
    }
    env = {}
    for name in SHOWN_ENV:
        value = os.environ.get(name)
        if value is not None and name not in out["secrets"]:
            env[name] = "***" if name in SECRET_NAMES else _visible(value)
    out["environment"] = env
    return out


def _visible(value: Any) -> Any:
    """A value as shown: enums by value, paths as text, a URL's password masked."""
    if isinstance(value, list | tuple):
        return [_visible(v) for v in value]
    if hasattr(value, "value") and not isinstance(value, str | int | float | bool):
        value = value.value
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, str):
        return _PASSWORD.sub(r"\1***@", value)
    return value


def _print(shown: dict[str, Any]) -> None:
    file = shown["file"]
    console.print(
        escape(f"# config file: {file}" if file else f"# no config file ({shown['looked for']})"),
        soft_wrap=True,
    )
    for name, rows in shown["commands"].items():
        console.print(f"\n[bold]\\[{escape(name)}][/]")
        width = max(len(k) for k in rows)
        for key, row in rows.items():
            value = json.dumps(row["value"], default=str)
            console.print(
                escape(printable(f"{key:<{width}} = {value}  # {row['from']}")), soft_wrap=True
            )
    if shown["secrets"]:
        console.print("\n[bold]\\[secrets][/]")
        for name, row in shown["secrets"].items():
            console.print(
                escape(
                    f'{name} = "{row["value"]}"  # from {row["from"]}, '
                    f"{row['characters']} characters"
                ),
                soft_wrap=True,
            )
    if shown["environment"]:
        console.print("\n# environment")
        for name, value in shown["environment"].items():
            console.print(escape(printable(f"{name} = {json.dumps(value)}")), soft_wrap=True)
