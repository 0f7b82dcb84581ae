"""Parsing ``--seeds``, ``--seeds-file`` and ``--cap``.

Each parser raises ``ValueError`` with a one-line message naming the bad part; the command
line (:mod:`sunbot.cli.bench`) shows it as a usage error (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sunbot import games

#: Most seeds one benchmark may list (a typo like ``1-10000000000`` fails fast).
MAX_SEEDS = 1_000_000
#: Seeds are stored as SQLite INTEGERs: signed 64-bit (as everywhere, ``sunbot.games``).
MIN_SEED, MAX_SEED = games.MIN_SEED, games.MAX_SEED
#: ``--cap`` keys -> the games table's ``cap_field``.
CAP_KEYS: dict[str, str] = {
    "voyages": "voyage", "voyage": "voyage", "days": "day", "day": "day",
    "steps": "step", "step": "step",
}  # fmt: skip
#: A seed ``N`` or a range ``A-B``; each may be negative (``-3``, ``-5--1``, ``-2-2``).
_ITEM = re.compile(r"^(-?[0-9]+)(?:-(-?[0-9]+))?$")


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


def _seed(digits: str, raw: str, where: str, echo: bool = True) -> int:
    """``digits`` (``-?[0-9]+``) as a seed, refused outside the signed 64-bit range;
    ``echo=False`` (a file) names no content in the error."""
    # the length test first: int() refuses strings of more than 4300 digits
    n = int(digits) if len(digits.lstrip("-")) <= 20 else None
    if n is None or not MIN_SEED <= n <= MAX_SEED:
        if not echo:
            raise ValueError(
                f"{where}a seed does not fit a signed 64-bit integer ({MIN_SEED} to {MAX_SEED})"
            )
        part = "" if digits == raw or len(raw) > 60 else f" (in {raw!r})"
        shown = digits if len(digits) <= 40 else f"{digits[:20]}...({len(digits)} digits)"
        raise ValueError(
            f"{where}seed {shown}{part} does not fit a signed 64-bit integer"
            f" ({MIN_SEED} to {MAX_SEED})"
        )
    return n


def _items(text: str, where: str, echo: bool = True) -> list[int]:
    """The seeds of ``text``; ``echo=False`` (a seeds file) keeps its content out of errors,
    which then name only ``where`` (file and line), the item's position and the reason."""
    out: list[int] = []
    items = [raw for raw in re.split(r"[,\s]+", text.strip()) if raw]
    for k, raw in enumerate(items, start=1):
        shown = repr(raw) if echo else f"item {k}"
        m = _ITEM.match(raw)
        if m is None:
            raise ValueError(f"{where}{shown} is not a seed N or a range A-B (A <= B)")
        lo = _seed(m.group(1), raw, where, echo)
        hi = _seed(m.group(2), raw, where, echo) if m.group(2) is not None else lo
        if hi < lo:
            raise ValueError(f"{where}range {shown} runs backwards")
        if len(out) + (hi - lo + 1) > MAX_SEEDS:
            raise ValueError(f"more than {MAX_SEEDS:,} seeds")
        out.extend(range(lo, hi + 1))
    return out


def parse_seeds(text: str) -> Seeds:
    """``"1-500"``, ``"1,2,5-9"``, ``"7"``, ``"-3,5"``, ``"-5--1"`` -> :class:`Seeds`.

    Seeds are signed 64-bit integers (as stored); a negative one is written with its sign,
    also as a range end. On the command line write ``--seeds=-3,5`` (or ``--seeds -3,5``).

    Raises:
        ValueError: a malformed item, a backwards range, a seed outside the signed
            64-bit range, no seed, too many seeds.
    """
    if isinstance(text, Seeds):  # typer may hand a default through the parser
        return text
    values = tuple(dict.fromkeys(_items(text, "")))
    if not values:
        raise ValueError("no seeds given")
    return Seeds(values, text)


MAX_SEEDS_FILE_BYTES = 1024 * 1024
"""The largest ``--seeds-file`` read (1 MiB); a larger file (or an endless one such as
``/dev/zero``) is refused without being read whole."""


def read_seeds_file(path: Path) -> Seeds:
    """Seeds from a file: items as for ``--seeds``, separated by commas, spaces or lines;
    ``#`` starts a comment.

    Reads at most :data:`MAX_SEEDS_FILE_BYTES` (1 MiB, some 100,000 seeds).

    Raises:
        ValueError: unreadable, binary or non-UTF-8 file, a file over the cap, a
            malformed item (its file, line and position, never its text: the file may hold
            anything), no seed.
    """
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_SEEDS_FILE_BYTES + 1)  # bounded: /dev/zero has no end
        if len(data) > MAX_SEEDS_FILE_BYTES:
            raise ValueError(
                f"{path} is larger than {MAX_SEEDS_FILE_BYTES // 1024} KiB,"
                " the most a seeds file may hold"
            )
        text = data.decode("utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path} is not a UTF-8 text file (byte {exc.start}: {exc.reason})"
        ) from None
    if "\x00" in text:
        raise ValueError(f"{path} is a binary file, not a text file of seeds")
    lines = text.splitlines()
    values: list[int] = []
    for i, line in enumerate(lines, start=1):
        values += _items(line.split("#", 1)[0], f"{path}:{i}: ", echo=False)
    if not values:
        raise ValueError(f"{path} lists no seeds")
    return Seeds(tuple(dict.fromkeys(values)), str(path))


def parse_cap(text: str) -> Cap:
    """``"voyages=20"``, ``"days=30"`` or ``"steps=400"`` (singular accepted) -> :class:`Cap`.

    Raises:
        ValueError: not ``KEY=N``, an unknown key, or ``N < 1``.
    """
    if isinstance(text, Cap):
        return text
    key, sep, value = text.partition("=")
    key = key.strip().lower()
    if not sep or key not in CAP_KEYS:
        raise ValueError(f"{text!r}: expected voyages=N, days=N or steps=N")
    try:
        n = int(value)
    except ValueError:
        raise ValueError(f"{text!r}: {value!r} is not an integer") from None
    if n < 1:
        raise ValueError(f"{text!r}: the cap must be at least 1")
    return Cap(CAP_KEYS[key], n, f"{key}={n}")
