"""Parsing ``--seeds``, ``--seeds-file`` and ``--cap`` (used as typer parsers).

Each parser raises :class:`typer.BadParameter` with a message naming the bad part, so the
command line shows a clear usage error (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import typer

#: Most seeds one benchmark may list (a typo like ``1-10000000000`` fails fast).
MAX_SEEDS = 1_000_000
#: ``--cap`` keys -> the games table's ``cap_field``.
CAP_KEYS: dict[str, str] = {"voyages": "voyage", "voyage": "voyage", "days": "day", "day": "day"}
_ITEM = re.compile(r"^(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class Seeds:
    """The seeds of a benchmark, in the order given, without repeats; ``text`` as written."""

    values: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class Cap:
    """``--cap KEY=N``: end runs once ``field`` (``voyage``/``day``) reaches ``value``."""

    field: str
    value: int
    text: str


def _items(text: str, where: str) -> list[int]:
    out: list[int] = []
    for raw in re.split(r"[,\s]+", text.strip()):
        if not raw:
            continue
        m = _ITEM.match(raw)
        if m is None:
            raise typer.BadParameter(f"{where}{raw!r} is not a seed N or a range A-B (A <= B)")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise typer.BadParameter(f"{where}range {raw!r} runs backwards")
        if len(out) + (hi - lo + 1) > MAX_SEEDS:
            raise typer.BadParameter(f"more than {MAX_SEEDS:,} seeds")
        out.extend(range(lo, hi + 1))
    return out


def parse_seeds(text: str) -> Seeds:
    """``"1-500"``, ``"1,2,5-9"``, ``"7"`` -> :class:`Seeds` (non-negative integers).

    Raises:
        typer.BadParameter: a malformed item, a backwards range, no seed, too many seeds.
    """
    if isinstance(text, Seeds):  # typer may hand a default through the parser
        return text
    values = tuple(dict.fromkeys(_items(text, "")))
    if not values:
        raise typer.BadParameter("no seeds given")
    return Seeds(values, text)


def read_seeds_file(path: Path) -> Seeds:
    """Seeds from a file: items as for ``--seeds``, separated by commas, spaces or lines;
    ``#`` starts a comment.

    Raises:
        typer.BadParameter: unreadable file, a malformed item (with its line), no seed.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise typer.BadParameter(f"cannot read {path}: {exc.strerror or exc}") from None
    values: list[int] = []
    for i, line in enumerate(lines, start=1):
        values += _items(line.split("#", 1)[0], f"{path}:{i}: ")
    if not values:
        raise typer.BadParameter(f"{path} lists no seeds")
    return Seeds(tuple(dict.fromkeys(values)), str(path))


def parse_cap(text: str) -> Cap:
    """``"voyages=20"`` or ``"days=30"`` (singular accepted) -> :class:`Cap`.

    Raises:
        typer.BadParameter: not ``KEY=N``, an unknown key, or ``N < 1``.
    """
    if isinstance(text, Cap):
        return text
    key, sep, value = text.partition("=")
    key = key.strip().lower()
    if not sep or key not in CAP_KEYS:
        raise typer.BadParameter(f"{text!r}: expected voyages=N or days=N")
    try:
        n = int(value)
    except ValueError:
        raise typer.BadParameter(f"{text!r}: {value!r} is not an integer") from None
    if n < 1:
        raise typer.BadParameter(f"{text!r}: the cap must be at least 1")
    return Cap(CAP_KEYS[key], n, f"{key}={n}")
