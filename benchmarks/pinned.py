"""Run a measurement on a pinned earlier commit and on this tree, side by side (benchmarks only).

A figure of speed on a shared machine means little alone; the ratio of two codes measured
in the same run, round after round, means much more. :func:`pinned_tree` checks out
:data:`PINNED` (or any commit) into a temporary git worktree, so both codes run from this
same virtual environment: :func:`code_env` gives the environment that imports ``sunbot``
(and its built-in strategies) from one tree or the other. The temporary worktree is
removed on the way out, whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

#: The repository this script belongs to.
REPO = Path(__file__).resolve().parents[1]
#: main as it stood when issue 39 was taken on: the baseline of every "versus" figure.
PINNED = "dd04d8ef9efafea817a9ea40297114b1b17cc89c"


@contextlib.contextmanager
def pinned_tree(commit: str = PINNED) -> Iterator[Path]:
    """A temporary detached worktree of ``commit``, importable as ``sunbot``.

    The built-in strategies live in the top-level ``strategies/`` folder and are installed
    as ``sunbot.strategies``; a link inside the checkout makes the plain path import them the
    same way (the C beam search is not built there: the pinned code searches in Python).

    Raises:
        subprocess.CalledProcessError: git could not check the commit out.
    """
    where = Path(tempfile.mkdtemp(prefix="sunbot-pinned-"))
    tree = where / "tree"
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(tree), commit],
        check=True,
    )
    try:
        (tree / "sunbot" / "strategies").symlink_to(tree / "strategies")
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=False
        )
        shutil.rmtree(where, ignore_errors=True)


def code_env(tree: Path | None) -> dict[str, str]:
    """The environment of a process that imports ``sunbot`` from ``tree`` (``None``: this
    repository's own install); ``PYTHONPATH`` comes before the editable install."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH", "")])])
    return env


def side_by_side(
    measure: Callable[[Path | None], float], old: Path, rounds: int
) -> tuple[list[float], list[float]]:
    """``measure(old)`` and ``measure(None)`` (this tree) in turn, ``rounds`` times each,
    the first of each pair alternating, so that a slow spell of the machine falls on both.
    Returns ``(old figures, new figures)``."""
    olds: list[float] = []
    news: list[float] = []
    for i in range(rounds):
        order: list[Path | None] = [old, None] if i % 2 == 0 else [None, old]
        for tree in order:
            (olds if tree is not None else news).append(measure(tree))
    return olds, news


def ratio(olds: list[float], news: list[float]) -> float:
    """The median of the round-by-round ratios new / old (a figure where more is better)."""
    return statistics.median(n / o for o, n in zip(olds, news, strict=True) if o > 0)
