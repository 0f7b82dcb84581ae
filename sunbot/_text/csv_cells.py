"""CSV cells a spreadsheet reads as data, never as a formula (the OWASP CSV-injection rule).

Every CSV sunbot writes (``sunbot export --format csv``, the bench's ``results.csv`` and
``--format csv`` summary) holds outside text: a server's speech, ``lastPublic``, refusal
reason or error, a strategy's name. A cell such as ``=HYPERLINK("http://…","click")`` would
be a live formula once the file is opened in a spreadsheet. :func:`cell` neutralises it:
a text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
single quote in front (``'=HYPERLINK(…)``), which spreadsheets show as the text it is.

Left as they are (``docs/decisions.md``, "CSV cells"): numbers (``int``/``float``, ``-3``
stays ``-3``), a text cell that is a plain number (``-3``, ``+1.5``, ``-1,234``,
``-2e-3``, ``-12.5%``: digits, separators, a sign, an exponent, nothing a formula needs)
and the lone ``-`` our tables print for "no value".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: First characters that make a spreadsheet read a cell as a formula (OWASP).
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
#: A text cell that is only a number: an optional sign, digits (thousands commas allowed),
#: an optional decimal part, exponent and percent sign.
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?%?\Z")


def cell(value: Any) -> Any:
    """``value`` safe for a CSV cell: a ``str`` beginning with one of :data:`TRIGGERS` gets
    a ``'`` in front unless it is a plain number or a lone ``-``; anything else (numbers,
    booleans, ``None``, other text) is returned unchanged."""
    if not isinstance(value, str) or not value.startswith(TRIGGERS):
        return value
    if value == "-" or _NUMBER.match(value):
        return value
    return "'" + value


def row(values: Iterable[Any]) -> list[Any]:
    """Every value of a ``csv.writer`` row through :func:`cell`."""
    return [cell(v) for v in values]


def mapping(values: dict[str, Any]) -> dict[str, Any]:
    """A ``csv.DictWriter`` row with every value through :func:`cell` (keys are the
    header's, neutralised by :func:`row` when the header is written)."""
    return {k: cell(v) for k, v in values.items()}
