"""Types of the C extension :mod:`sunbot.strategies._sunloaf_beam` (``_sunloaf_beam.c``):
:class:`~sunbot.strategies.sunloaf_beam.FastBeam`'s search, node for node, in C."""

from collections.abc import Sequence

class Day:
    """One day's search tables, flattened once (``FastTables.native_day`` builds it).

    Raises:
        ValueError: a table has the wrong length or a value out of range.
    """

    def __init__(
        self,
        n: int,
        turns: int,
        mult: int,
        quota: int,
        weights: Sequence[int],
        ranges: Sequence[int],
        values: Sequence[Sequence[int]],
        reach_top: Sequence[Sequence[int]],
        warm: bytes,
        dogs: Sequence[int],
        serves: Sequence[Sequence[int]],
        paths: Sequence[Sequence[Sequence[tuple[int, int]]]],
    ) -> None: ...

class Search:
    """One beam search of ``width`` from the fast state ``start`` of ``day``."""

    used: int
    def __init__(self, day: Day, start: Sequence[int], width: int) -> None: ...
    def run(
        self, used: int, limit: int | None, deadline: float | None
    ) -> tuple[list[int] | None, int, bool]:
        """Search on from ``used`` nodes: ``(actions, used, False)`` when it finishes,
        ``(None, used, hit_deadline)`` when ``used`` passes ``limit`` after an expanded
        position, or the :func:`time.perf_counter` ``deadline`` (checked every 16)."""

def day_values(
    turns: int,
    warm: bytes,
    dogs: Sequence[int],
    serves: Sequence[Sequence[int]],
    paths: Sequence[Sequence[tuple[int, int]]],
) -> tuple[list[int], list[int]]:
    """One cat range's lone-cat values (``DayTables.value`` layout) and its ``reach_top``
    flattened ``[t * 49 + x]``, for a day of ``turns`` turns."""
