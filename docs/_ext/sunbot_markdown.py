"""Docstrings and help texts as Markdown that reads the same as a file and on the site.

The generated parts of the docs pages (:mod:`sunbot_pages`) are Markdown committed into
the pages, so a code host shows them as the built site does. Docstrings are written in
reStructuredText with Google-style sections; :func:`docstring` turns them into plain
Markdown: ````x```` becomes `` `x` ``, a role such as ``:func:`~sunbot.bench.run.bench``` its
target's last name, ``Args:``/``Raises:``/``Attributes:`` sections lists of names, a
paragraph ending in ``::`` a fenced code block. :func:`inline` does the inline part only,
and wraps long options (``--server``) in backticks so no typesetting turns their dashes
into one.
"""

from __future__ import annotations

import re

#: Google-style section heads, as written on a line of their own.
SECTIONS = (
    "Args",
    "Arguments",
    "Keyword Args",
    "Attributes",
    "Returns",
    "Yields",
    "Raises",
    "Warns",
    "Example",
    "Examples",
    "Note",
    "Notes",
)
#: Sections whose entries are ``name: text``.
_LISTED = {"Args", "Arguments", "Keyword Args", "Attributes", "Raises", "Warns"}

_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(~?)([^`<]*?)(?:\s*<([^`>]*)>)?`")
_DOUBLE = re.compile(r"``(.+?)``")
_OPTION = re.compile(r"(?<![\w`/=.-])(--[a-zA-Z][\w-]*(?:=(?:[^\s;),]|,(?=\S))+| [A-Z][A-Z_]*\b)?)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def _role(match: re.Match[str]) -> str:
    tilde, title, target = match.group(1), match.group(2).strip(), match.group(3)
    if target is None and tilde:
        title = title.rsplit(".", 1)[-1]
    return f"`{title}`"


def inline(text: str, *, options: bool = True) -> str:
    """One paragraph's inline markup as Markdown (see the module docstring). ``options``:
    also put option names such as ``--server`` or ``-v`` in code spans."""
    text = _ROLE.sub(_role, text)
    text = _DOUBLE.sub(lambda m: f"`{m.group(1)}`", text)
    parts = _CODE_SPAN.split(text)
    # split keeps (ticks, body) pairs: rebuild, touching only the text outside code spans
    out: list[str] = []
    i = 0
    while i < len(parts):
        plain = parts[i]
        plain = re.sub(r"<(?=[A-Za-z/!])", "&lt;", plain)
        if options:
            plain = _OPTION.sub(lambda m: f"`{m.group(1)}`", plain)
        out.append(plain)
        if i + 2 < len(parts):
            out.append(f"{parts[i + 1]}{parts[i + 2]}{parts[i + 1]}")
        i += 3
    return "".join(out)


def cell(text: str) -> str:
    """Text for a Markdown table cell: inline markup, one line, pipes escaped."""
    return inline(" ".join(text.split())).replace("|", "\\|")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _entries(block: list[str]) -> list[str]:
    """``name: text`` entries (continuations indented deeper) as Markdown list items."""
    items: list[list[str]] = []
    base = min((_indent(x) for x in block if x.strip()), default=0)
    for line in block:
        if not line.strip():
            continue
        if _indent(line) == base:
            items.append([line.strip()])
        elif items:
            items[-1].append(line.strip())
    out = []
    for words in items:
        head, sep, rest = words[0].partition(": ")
        text = " ".join([rest, *words[1:]]) if sep else " ".join(words[1:])
        if sep or head.endswith(":"):
            names = ", ".join(f"`{n.strip()}`" for n in head.rstrip(":").split(","))
            out.append(f"- {names}: {inline(text)}".rstrip())
        else:
            out.append(f"- {inline(' '.join(words))}")
    return out


def _paragraphs(lines: list[str]) -> list[str]:
    """Plain rst lines (no sections) as Markdown: literal blocks fenced, lists kept."""
    out: list[str] = []
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append(inline(" ".join(x.strip() for x in para)))
            para.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush()
            out.append("")
            i += 1
            continue
        stripped = line.strip()
        if stripped.startswith(("- ", "* ")) and not para:
            item = [stripped[2:]]
            i += 1
            while i < len(lines) and lines[i].strip() and _indent(lines[i]) > _indent(line):
                item.append(lines[i].strip())
                i += 1
            out.append("- " + inline(" ".join(item)))
            continue
        para.append(line)
        i += 1
        if stripped.endswith("::"):
            last = para[-1].rstrip()
            para[-1] = last[:-2].rstrip() + (":" if last[:-2].strip() else "")
            if not para[-1].strip():
                para.pop()
            flush()
            while i < len(lines) and not lines[i].strip():
                i += 1
            code: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > _indent(line)):
                code.append(lines[i])
                i += 1
            while code and not code[-1].strip():
                code.pop()
            depth = min((_indent(x) for x in code if x.strip()), default=0)
            out += ["", "```python", *(x[depth:] for x in code), "```", ""]
    flush()
    return out


def docstring(text: str) -> str:
    """A whole (dedented) docstring as Markdown (see the module docstring)."""
    lines = text.expandtabs().splitlines()
    out: list[str] = []
    body: list[str] = []
    i = 0
    while i < len(lines):
        head = lines[i].strip().rstrip(":")
        if lines[i].strip().endswith(":") and _indent(lines[i]) == 0 and head in SECTIONS:
            out += _paragraphs(body)
            body = []
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > 0):
                block.append(lines[i])
                i += 1
            out += ["", f"**{head}**", ""]
            if head in _LISTED:
                out += _entries(block)
            elif head.startswith("Example"):
                depth = min((_indent(x) for x in block if x.strip()), default=0)
                code = [x[depth:] for x in block]
                while code and not code[-1].strip():
                    code.pop()
                out += ["```python", *code, "```"]
            else:
                depth = min((_indent(x) for x in block if x.strip()), default=0)
                out += _paragraphs([x[depth:] for x in block])
            out.append("")
            continue
        body.append(lines[i])
        i += 1
    out += _paragraphs(body)
    return _squeeze(out)


def _squeeze(lines: list[str]) -> str:
    """Lines joined, runs of blank lines made one, none at either end."""
    text = "\n".join(x.rstrip() for x in lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")
