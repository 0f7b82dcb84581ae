"""The ``sunbot`` command's reference as Markdown: :func:`render`.

Built from the command itself (``typer.main.get_command(sunbot.cli.main.app)``): for every
command, its help text, its usage line and one table row per argument and option, as
``sunbot COMMAND --help`` prints them (the declaration and the help with its
``[default: ...]``). :mod:`sunbot_pages` writes it into ``docs/reference/cli.md`` (a test
checks it is up to date). Every option is a code span, so no typesetting turns ``--server``
into a dash.
"""

from __future__ import annotations

from typing import Any

import typer
from sunbot_markdown import cell, docstring

from sunbot.cli.main import app


def command() -> Any:
    """The ``sunbot`` command as typer builds it (a click group)."""
    return typer.main.get_command(app)


def _params(cmd: Any, ctx: Any) -> list[str]:
    out = ["| argument or option | meaning |", "|---|---|"]
    for param in cmd.params:
        if param.name == "help" or getattr(param, "hidden", False):
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        decl, help_text = record
        out.append(f"| `{decl.replace('|', chr(92) + '|')}` | {cell(help_text) or ' '} |")
    return out


def _section(cmd: Any, name: str, parent: Any | None, level: int) -> list[str]:
    ctx = cmd.make_context(name, [], parent=parent, resilient_parsing=True)
    title = ctx.command_path
    lines = [f"{'#' * level} `{title}`", ""]
    if cmd.help:
        lines += [docstring(cmd.help), ""]
    usage = cmd.get_usage(ctx).removeprefix("Usage: ")
    lines += ["```text", usage, "```", ""]
    table = _params(cmd, ctx)
    if len(table) > 2:
        lines += [*table, ""]
    return lines


def render(commands: list[str] | None = None) -> list[str]:
    """The reference's Markdown lines: the ``sunbot`` group's own options, then each
    command (``commands`` in this order, default: the group's), one ``##`` section each.

    Raises ``KeyError`` for a name in ``commands`` that is not a command.
    """
    root = command()
    ctx = root.make_context("sunbot", [], resilient_parsing=True)
    lines = _section(root, "sunbot", None, 2)
    names = commands if commands is not None else list(root.commands)
    for name in names:
        lines += _section(root.commands[name], name, ctx, 2)
    while lines and not lines[-1]:
        lines.pop()
    return lines
