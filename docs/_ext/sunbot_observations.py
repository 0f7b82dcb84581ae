"""A module's typed observations and actions as Markdown tables: :func:`render`.

For every ``TypedDict`` the module defines, in source order: a heading, its docstring and
one table row per field (the field's name, its type as written in the module, and whether
the server always sends it); then the type aliases of unions (``KeelholdAction = Place |
CastOff``). :mod:`sunbot_pages` writes the result into ``docs/writing-a-bot.md`` (a test
checks it is up to date), so the page reads the same as a file and on the site.
"""

from __future__ import annotations

import importlib
import inspect
import re
import types
import typing
from typing import Any

from sunbot_markdown import cell, docstring


def _is_typeddict(obj: object) -> bool:
    return isinstance(obj, type) and typing.is_typeddict(obj)


def type_text(hint: Any) -> str:
    """``list[Crate]``, ``int | None``, ``Literal['a', 'b']``: a type as a reader writes it."""
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    text = repr(hint)
    for prefix in ("typing.", "sunbot.observations.", "builtins."):
        text = text.replace(prefix, "")
    # ``keelhold.Crate`` -> ``Crate``: drop the module path the repr keeps.
    return re.sub(r"(?<![\w'\"])(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", text)


def rows(cls: type) -> list[tuple[str, str, str]]:
    """``(field, type, "always" | "optional")`` of each field of the ``TypedDict`` ``cls``."""
    hints = typing.get_type_hints(cls)
    required = getattr(cls, "__required_keys__", frozenset())
    return [
        (name, type_text(hint), "always" if name in required else "optional")
        for name, hint in hints.items()
    ]


def table(cls: type) -> list[str]:
    """The field table of the ``TypedDict`` ``cls``, as Markdown lines."""
    out = ["| field | type | sent |", "|---|---|---|"]
    out += [f"| `{name}` | {cell(f'``{kind}``')} | {sent} |" for name, kind, sent in rows(cls)]
    return out


def render(module_name: str, level: int = 4) -> list[str]:
    """The Markdown lines for one module: a section (heading ``level``) per TypedDict, then
    the unions.

    Raises ``ImportError`` when the module cannot be imported.
    """
    module = importlib.import_module(module_name)
    classes = [
        obj
        for _, obj in vars(module).items()
        if _is_typeddict(obj) and obj.__module__ == module_name
    ]
    classes.sort(key=lambda c: inspect.getsourcelines(c)[1])
    lines: list[str] = []
    for cls in classes:
        lines += [f"{'#' * level} `{cls.__name__}`", ""]
        doc = inspect.getdoc(cls) or ""
        if doc:
            lines += [docstring(doc), ""]
        lines += [*table(cls), ""]
    unions = [
        (name, obj)
        for name, obj in vars(module).items()
        if isinstance(obj, types.UnionType) and all(_is_typeddict(a) for a in typing.get_args(obj))
    ]
    if unions:
        lines += [f"{'#' * level} Action types", ""]
        for name, obj in unions:
            members = " | ".join(f"`{a.__name__}`" for a in typing.get_args(obj))
            lines += [f"- `{name}` = {members}"]
        lines.append("")
    while lines and not lines[-1]:
        lines.pop()
    return lines
