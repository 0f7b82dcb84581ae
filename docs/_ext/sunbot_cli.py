"""The ``sunbot`` command as a click object, for the sphinx-click directive of the CLI page.

Typer (0.29 and later) builds its commands on a private copy of click, which sphinx-click
does not recognise, so this module rebuilds the tree that
``typer.main.get_command(sunbot.cli.main.app)`` returns out of plain ``click`` objects:
the same commands, names, help texts, arguments and options (with their flags, defaults and
``--x/--no-x`` pairs). ``command`` is that tree; the page documents nothing else.
"""

from __future__ import annotations

from typing import Any

import click
import typer

from sunbot.cli.main import app

_PLAIN = (str, int, float, bool, type(None))


def _default(param: Any) -> Any:
    value = param.default
    if isinstance(value, _PLAIN) or (
        isinstance(value, (list, tuple)) and all(isinstance(v, _PLAIN) for v in value)
    ):
        return value
    return None


def _param(param: Any) -> click.Parameter:
    name = str(param.name)
    if not param.opts or not str(param.opts[0]).startswith("-"):
        return click.Argument(
            [name],
            required=bool(param.required),
            nargs=int(param.nargs),
            metavar=name.upper(),
        )
    decls = list(param.opts)
    if param.secondary_opts:
        decls = [f"{decls[0]}/{param.secondary_opts[0]}", *decls[1:]]
    is_flag = bool(getattr(param, "is_flag", False))
    count = bool(getattr(param, "count", False))
    return click.Option(
        [*decls, name],
        help=getattr(param, "help", None),
        is_flag=is_flag,
        count=count,
        multiple=bool(param.multiple),
        required=bool(param.required),
        default=_default(param),
        show_default=bool(getattr(param, "show_default", False)) and not is_flag,
        metavar=None if is_flag or count else name.upper(),
        hidden=bool(getattr(param, "hidden", False)),
    )


def _command(cmd: Any, name: str) -> click.Command:
    params = [_param(p) for p in cmd.params if p.name != "help"]
    fields: dict[str, Any] = {
        "name": name,
        "params": params,
        "help": cmd.help,
        "short_help": cmd.short_help,
        "epilog": cmd.epilog,
        "hidden": bool(cmd.hidden),
    }
    subcommands = getattr(cmd, "commands", None)
    if subcommands is None:
        return click.Command(**fields)
    group = click.Group(**fields)
    for sub_name, sub in subcommands.items():
        group.add_command(_command(sub, sub_name))
    return group


command = _command(typer.main.get_command(app), "sunbot")
