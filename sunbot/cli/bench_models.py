"""``sunbot bench`` for language models: prompt variants with their null twin, the health
table, the fallback gate (:mod:`sunbot.bench.costs`).

``--llm-variant NAME=FILE`` (repeated) plays each ``llm:MODEL`` strategy once per prompt
template, labelled ``llm:MODEL@NAME``, and once more with the first template again,
``llm:MODEL@NAME-again``: the same prompt twice, whose difference is the noise floor the
other differences are read against (sampling, the endpoint's own variation).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from sunbot.bench.costs import HEALTH_HEAD, health_rows, over_fallback
from sunbot.bench.jobs import Result
from sunbot.cli.bench_output import text_table

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
#: The null twin's label suffix.
AGAIN = "-again"


def parse_variants(given: Sequence[str]) -> list[tuple[str, Path]]:
    """``NAME=FILE`` pairs, checked.

    Raises:
        ValueError: a pair that is not ``NAME=FILE``, a name used twice or not a short
            identifier, a file that does not exist.
    """
    out: list[tuple[str, Path]] = []
    for text in given:
        name, sep, file = text.partition("=")
        if not sep or not _NAME.fullmatch(name) or name.endswith(AGAIN):
            raise ValueError(
                f"--llm-variant {text!r:.60}: give NAME=FILE (NAME: letters, digits, . _ -)"
            )
        if any(name == n for n, _ in out):
            raise ValueError(f"--llm-variant {name}: given twice")
        path = Path(file)
        if not path.is_file():
            raise ValueError(f"--llm-variant {name}: no such file {file}")
        out.append((name, path))
    return out


def expand_variants(
    names: list[str], variants: list[tuple[str, Path]], options: dict[str, Any]
) -> tuple[list[str], dict[str, dict[str, Any]], list[tuple[str, str]]]:
    """``(labels, options by label, twins)``: each ``llm:`` strategy of ``names`` replaced
    by one label per variant and the null twin of the first (``twins``: ``(label, twin)``
    pairs); other strategies kept with ``options``. No variants: ``names`` as they are."""
    if not variants:
        return names, {}, []
    labels: list[str] = []
    per: dict[str, dict[str, Any]] = {}
    twins: list[tuple[str, str]] = []
    for s in names:
        if not s.startswith("llm:"):
            labels.append(s)
            continue
        for name, path in variants:
            label = f"{s}@{name}"
            labels.append(label)
            per[label] = {**options, "agent": s, "prompt": path}
        first, path = variants[0]
        twin = f"{s}@{first}{AGAIN}"
        labels.append(twin)
        per[twin] = {**options, "agent": s, "prompt": path, "variant": f"{first}{AGAIN}"}
        twins.append((f"{s}@{first}", twin))
    return labels, per, twins


def show_health(
    console: Console, game: str, results: Sequence[Result], names: Sequence[str]
) -> None:
    """The model health table (per strategy and phase), when any row carries health."""
    rows = health_rows(game, _groups(results, names))
    if rows:
        console.print(text_table("model health (share of decisions)", HEALTH_HEAD, rows, left=2))


def fallback_problems(
    game: str, results: Sequence[Result], names: Sequence[str], threshold: float
) -> list[str]:
    """The phases whose fallback share passes ``threshold``, one line each."""
    return over_fallback(game, _groups(results, names), threshold)


def noise_lines(analysis: Any, twins: Sequence[tuple[str, str]]) -> list[str]:
    """``noise floor: A - A-again: mean diff X [CI] on N seeds`` for each twin pair found
    among the analysis's pairs."""
    from sunbot.bench.analysis import ci, num

    out = []
    for a, b, p in analysis.pairs:
        if (a, b) in twins or (b, a) in twins:
            out.append(
                f"noise floor (the same prompt twice): {a} - {b}: mean diff {num(p.mean_diff)}"
                f" {ci(p.ci_low, p.ci_high)} on {p.n} seeds"
            )
    return out


def _groups(results: Sequence[Result], names: Sequence[str]) -> list[tuple[str, list[Result]]]:
    by: dict[str, list[Result]] = {n: [] for n in names}
    for r in results:
        by.setdefault(r.strategy, []).append(r)
    return [(n, rows) for n, rows in by.items() if rows]


__all__ = [
    "AGAIN",
    "expand_variants",
    "fallback_problems",
    "noise_lines",
    "parse_variants",
    "show_health",
]
