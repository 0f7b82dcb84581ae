"""The Python API reference as Markdown: :func:`render`.

For each public name of ``sunbot`` (grouped by :data:`GROUPS`): a heading, its signature
in a code block, its docstring (:func:`sunbot_markdown.docstring`) and, for a class, its
public methods and properties in the order the source defines them. :mod:`sunbot_pages`
writes it into ``docs/reference/api.md`` (a test checks it is up to date and that every
name of ``sunbot.__all__`` is there).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import typing
from typing import Any

from sunbot_markdown import docstring
from sunbot_observations import table

import sunbot

#: The page's sections: a title and the ``sunbot`` names it documents, in order.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Playing", ("play", "play_async", "RunSummary", "MatchSeat", "play_run", "play_match")),
    (
        "Benchmarks and tournaments",
        ("bench", "run_bench", "BenchResult", "BenchRow", "tournament", "TournamentResult"),
    ),
    (
        "Strategies",
        (
            "Strategy",
            "StrategyLike",
            "available",
            "UnknownStrategy",
            "Outcome",
            "LLMStrategy",
            "ExecStrategy",
            "HttpStrategy",
        ),
    ),
    (
        "Clients, mirror and servers",
        (
            "GameboardClient",
            "MatchClient",
            "RetryPolicy",
            "Position",
            "Mirror",
            "Divergence",
            "create_app",
            "TokenCodec",
        ),
    ),
    ("Games and transcripts", ("get_game", "GameInfo", "TranscriptWriter")),
)
#: Names of ``sunbot.__all__`` that are modules or the version, described in prose.
NOT_OBJECTS = ("__version__", "engines", "observations", "strategies")
#: The longest signature kept on one line; longer ones get a parameter a line.
WIDTH = 88


def _annotation(value: Any) -> str:
    if value is inspect.Parameter.empty:
        return ""
    if isinstance(value, str):
        return value
    return inspect.formatannotation(value)


def _default(value: Any) -> str:
    if isinstance(value, type) or inspect.isroutine(value):
        return str(getattr(value, "__qualname__", value.__name__))
    text = repr(value)
    if " at 0x" in text:  # an object's address differs from run to run
        return type(value).__name__ + "(...)"
    return text if len(text) <= 40 else "..."


def signature(name: str, obj: Any, *, drop_self: bool = False) -> str:
    """``name(a: int, *, b: str = 'x') -> T`` (one parameter a line when longer than
    :data:`WIDTH`); ``name`` alone when the object has no signature."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return name
    params = list(sig.parameters.values())
    if drop_self and params and params[0].name in ("self", "cls"):
        params = params[1:]
    parts: list[str] = []
    star = False
    for p in params:
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.kind is p.VAR_POSITIONAL:
            star = True
        prefix = "*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else ""
        text = prefix + p.name
        ann = _annotation(p.annotation)
        if ann:
            text += f": {ann}"
        if p.default is not p.empty:
            text += f" = {_default(p.default)}" if ann else f"={_default(p.default)}"
        parts.append(text)
        if p.kind is p.POSITIONAL_ONLY and (
            params.index(p) == len(params) - 1
            or params[params.index(p) + 1].kind is not p.POSITIONAL_ONLY
        ):
            parts.append("/")
    ret = _annotation(sig.return_annotation)
    tail = f" -> {ret}" if ret else ""
    one = f"{name}({', '.join(parts)}){tail}"
    if len(one) <= WIDTH:
        return one
    body = "".join(f"    {p},\n" for p in parts)
    return f"{name}(\n{body}){tail}"


def _members(cls: type) -> list[tuple[str, Any]]:
    """Public methods and properties ``cls`` itself defines, in source order."""
    out = []
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    for name, value in vars(cls).items():
        if name.startswith("_") or name in fields:
            continue
        if isinstance(value, property | staticmethod | classmethod) or inspect.isfunction(value):
            out.append((name, value))
    return out


def _member(cls_name: str, name: str, value: Any) -> list[str]:
    if isinstance(value, property):
        lines = [f"#### `{cls_name}.{name}`", "", "*property*", ""]
        doc = inspect.getdoc(value.fget) if value.fget else None
    else:
        func = value.__func__ if isinstance(value, staticmethod | classmethod) else value
        prefix = "async " if inspect.iscoroutinefunction(func) else ""
        sig = signature(name, func, drop_self=not isinstance(value, staticmethod))
        lines = [f"#### `{cls_name}.{name}`", "", "```python", prefix + sig, "```", ""]
        doc = inspect.getdoc(func)
    if doc:
        lines += [docstring(doc), ""]
    return lines


def _object(name: str) -> list[str]:
    obj = getattr(sunbot, name)
    lines = [f"### `sunbot.{name}`", ""]
    doc = inspect.getdoc(obj) if not isinstance(obj, typing._GenericAlias | type(int | str)) else ""
    if typing.is_typeddict(obj):
        lines += ["```python", f"class {name}(TypedDict)", "```", ""]
        if doc:
            lines += [docstring(doc), ""]
        return [*lines, *table(obj), ""]
    if isinstance(obj, type):
        kind = "exception" if issubclass(obj, BaseException) else "class"
        protocol = getattr(obj, "_is_protocol", False)
        if kind == "exception" or protocol:
            lines += ["```python", f"{kind} {name}", "```", ""]
        else:
            lines += ["```python", f"class {signature(name, obj)}", "```", ""]
        if doc:
            lines += [docstring(doc), ""]
        for member, value in _members(obj):
            lines += _member(name, member, value)
        return lines
    if callable(obj) and not hasattr(obj, "__origin__"):
        if inspect.ismodule(obj):  # the callable bench package: document its function
            target = importlib.import_module(f"{obj.__name__}.run").bench
            lines += ["```python", signature(name, target), "```", ""]
            doc = inspect.getdoc(target)
        else:
            prefix = "async " if inspect.iscoroutinefunction(obj) else ""
            lines += ["```python", prefix + signature(name, obj), "```", ""]
        if doc:
            lines += [docstring(doc), ""]
        return lines
    lines += ["```python", f"{name} = {_alias(obj)}", "```", ""]
    return lines


def _alias(obj: Any) -> str:
    """A type alias as its members joined by ``|``, module paths and forward refs dropped:
    ``str | Strategy | type | Callable[[Any, list[Any]], Any]``."""
    members = typing.get_args(obj) if typing.get_origin(obj) is typing.Union else (obj,)
    out = []
    for member in members:
        text = (
            _annotation(member)
            if not isinstance(member, typing.ForwardRef)
            else member.__forward_arg__
        )
        out.append(re.sub(r"\b(?:[a-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", text))
    return " | ".join(out)


def documented() -> set[str]:
    """Every name :data:`GROUPS` documents."""
    return {n for _, names in GROUPS for n in names}


def render() -> list[str]:
    """The reference's Markdown lines, one ``##`` section per group."""
    lines: list[str] = []
    for title, names in GROUPS:
        lines += [f"## {title}", ""]
        for name in names:
            lines += _object(name)
    while lines and not lines[-1]:
        lines.pop()
    return lines
