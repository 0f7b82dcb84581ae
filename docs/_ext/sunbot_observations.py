"""A Sphinx directive that renders a module's typed observations and actions as tables.

``.. sunbot-observations:: sunbot.observations.keelhold`` (in MyST: a ``{sunbot-observations}``
fence) writes, for every ``TypedDict`` the module defines, in source order, its docstring and
one table row per field: the field's name, its type as written in the module, and whether
the server always sends it. Type aliases of unions (``KeelholdAction = Place | CastOff``)
are listed after them. The page is rebuilt from the code, so it cannot drift from it.
"""

from __future__ import annotations

import importlib
import inspect
import types
import typing
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def _is_typeddict(obj: object) -> bool:
    return isinstance(obj, type) and typing.is_typeddict(obj)


def _type_text(hint: Any) -> str:
    """``list[Crate]``, ``int | None``, ``Literal['a', 'b']``: a type as a reader writes it."""
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    text = repr(hint)
    for prefix in ("typing.", "sunbot.observations.", "builtins."):
        text = text.replace(prefix, "")
    # ``keelhold.Crate`` -> ``Crate``: drop the module path the repr keeps.
    return " ".join(part.rsplit(".", 1)[-1] if "." in part else part for part in text.split(" "))


def _rows(cls: type) -> list[tuple[str, str, str]]:
    hints = typing.get_type_hints(cls)
    required = getattr(cls, "__required_keys__", frozenset())
    return [
        (name, _type_text(hint), "always" if name in required else "optional")
        for name, hint in hints.items()
    ]


def render(module_name: str) -> list[str]:
    """The reStructuredText lines for one module: a section per TypedDict, then the unions.

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
        title = f"``{cls.__name__}``"
        lines += [title, "~" * len(title), ""]
        doc = inspect.getdoc(cls) or ""
        lines += [*doc.splitlines(), ""]
        lines += [
            ".. list-table::",
            "   :header-rows: 1",
            "",
            "   * - field",
            "     - type",
            "     - sent",
        ]
        for name, type_text, sent in _rows(cls):
            lines += [f"   * - ``{name}``", f"     - ``{type_text}``", f"     - {sent}"]
        lines.append("")
    unions = [
        (name, obj)
        for name, obj in vars(module).items()
        if isinstance(obj, types.UnionType) and all(_is_typeddict(a) for a in typing.get_args(obj))
    ]
    if unions:
        lines += ["Action types", "~~~~~~~~~~~~", ""]
        for name, obj in unions:
            members = " | ".join(f"``{a.__name__}``" for a in typing.get_args(obj))
            lines += [f"- ``{name}`` = {members}"]
        lines.append("")
    return lines


class ObservationsDirective(SphinxDirective):
    """``sunbot-observations MODULE``: tables of the module's typed observations."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0]
        try:
            lines = render(module_name)
        except ImportError as exc:
            raise self.error(f"cannot import {module_name}: {exc}") from None
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(
            StringList(lines, source=module_name), 0, container, match_titles=True
        )
        return list(container.children)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive (Sphinx extension entry point)."""
    app.add_directive("sunbot-observations", ObservationsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
