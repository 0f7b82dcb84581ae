"""Tournament schedules, and the play of one drawn Harvest Watch match on the engine.

``sunbot tournament GAME -s A -s B ...`` plays every entrant many times and rates them
(:mod:`sunbot.bench.ratings`). This module decides who plays where:

- :func:`schedule_matches` (Harvest Watch, six seats): one :class:`TableDraw` per match.
  Seats are dealt so every entrant gets about the same number overall: with at most six
  entrants each gets ``6 // E`` seats in every match and the ``6 % E`` remaining seats go to
  the entrants with the fewest seats so far; with more than six, the six with the fewest
  seats so far sit, one seat each. Ties between equally served entrants, and then the order
  of the six seats, are drawn from ``random.Random(f"sunbot-tournament/{seed}/{m}")`` for
  match ``m``. After every match the entrants' seat totals differ by at most one; match
  ``m`` plays seed ``seed + m``; the first ``k`` draws of a longer schedule are the
  schedule of ``k`` matches (so a tournament can be extended or resumed).
- :func:`schedule_seeds` (single-player games): every entrant on the same seeds.
- :func:`draw_job` / :func:`match_result`: a draw as a bench job (its lineup as given,
  :func:`sunbot.bench.jobs.run_match`), and that job's row back as a :class:`MatchResult`
  with every seat's rank; the tournament command runs the jobs on bench's backends.
- :func:`play_table` / :func:`play_draw`: one such match played in this process.

Like :mod:`sunbot.bench.jobs`, this module is imported by workers: no SciPy, no openskill.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sunbot.bench.jobs import HOUSE, MATCH_SEATS, MAX_MATCH_BEATS, Job, Result, run_job
from sunbot.games import MAX_SEED, MIN_SEED

#: The game :func:`schedule_matches` and :func:`play_table` are for.
GAME = "harvest-watch"
#: Most matches one schedule may hold (a typo like ``--matches 10000000`` fails fast).
MAX_MATCHES = 100_000
#: Most seeds :func:`schedule_seeds` takes (as ``sunbot bench --seeds``).
MAX_SEEDS = 1_000_000
#: Beats after which :func:`play_table` gives up on a match (the bench jobs' bound).
MAX_BEATS = MAX_MATCH_BEATS


@dataclass(frozen=True)
class TableDraw:
    """One scheduled Harvest Watch match.

    Attributes:
        match_index: 0-based position in the schedule.
        seed: the seed the match is played on (the tournament seed plus ``match_index``).
        lineup: the strategy in each of seats 0-5 (a name may repeat; :data:`HOUSE` is a
            house bot).
    """

    match_index: int
    seed: int
    lineup: tuple[str, ...]


@dataclass(frozen=True)
class SeedDraw:
    """One single-player run of a tournament: ``strategy`` on ``seed``."""

    strategy: str
    seed: int


@dataclass(frozen=True)
class MatchResult:
    """A finished match: who sat where and how each seat ranked.

    Attributes:
        match_index, seed: as in its :class:`TableDraw`.
        lineup: the strategy in each seat (2 to 6 seats; Harvest Watch has 6).
        ranks: each seat's final rank, 1 best, equal ranks for a tie (competition ranking,
            Harvest Watch's ``result.ranks``).

    Raises:
        ValueError: lineup and ranks differ in length, not 2 to 6 seats, an empty
            strategy name, or a rank that is not a whole number from 1 to the seat count.
    """

    match_index: int
    seed: int
    lineup: tuple[str, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.lineup)
        if not 2 <= n <= MATCH_SEATS or len(self.ranks) != n:
            raise ValueError(
                f"match {self.match_index}: {n} seats and {len(self.ranks)} ranks"
                f" (need the same number, 2 to {MATCH_SEATS})"
            )
        if not all(isinstance(name, str) and name for name in self.lineup):
            raise ValueError(f"match {self.match_index}: every seat needs a strategy name")
        for r in self.ranks:
            if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= n:
                raise ValueError(f"match {self.match_index}: rank {r!r} is not 1 to {n}")


class TableError(RuntimeError):
    """A match could not be played to its end; ``str()`` is one line naming the seat and
    strategy at fault (a strategy that raised) or the bound that was hit."""


def _check_entrants(entrants: Sequence[str]) -> list[str]:
    """The entrants as a list, or a one-line ``ValueError``."""
    names = list(entrants)
    if len(names) < 2:
        raise ValueError(f"a tournament needs at least two entrants, got {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"an entrant must be a non-empty strategy name, got {name!r}")
        if "," in name:
            raise ValueError(f"entrant {name!r}: a strategy name cannot hold ','")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"entrant named more than once: {', '.join(dup)}")
    return names


def _check_seed(seed: object, what: str = "seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED:
        raise ValueError(f"{what} must be an integer from {MIN_SEED} to {MAX_SEED}, got {seed!r}")
    return seed


def schedule_matches(entrants: Sequence[str], matches: int, seed: int) -> list[TableDraw]:
    """The Harvest Watch matches of a tournament, deterministic in its arguments.

    The rule (balanced seats, seeded ties and seat order) is the module's; e.g. three
    entrants sit twice in every match, seven entrants take turns sitting out.

    Args:
        entrants: distinct strategy names (registry names or bot files), at least two.
        matches: how many matches, 0 to :data:`MAX_MATCHES`.
        seed: match ``m`` plays seed ``seed + m`` and draws its seats from
            ``random.Random(f"sunbot-tournament/{seed}/{m}")``.

    Returns:
        ``matches`` draws in order, each with a six-seat lineup.

    Raises:
        ValueError: fewer than two entrants, a repeated or empty name (or one holding
            ``,``), ``matches`` out of range, or a match seed outside the signed 64-bit range.
    """
    names = _check_entrants(entrants)
    if isinstance(matches, bool) or not isinstance(matches, int):
        raise ValueError(f"matches must be a whole number, got {matches!r}")
    if not 0 <= matches <= MAX_MATCHES:
        raise ValueError(f"matches must be from 0 to {MAX_MATCHES:,}, got {matches:,}")
    _check_seed(seed)
    if matches:
        _check_seed(seed + matches - 1, "the last match's seed")
    base, extra = divmod(MATCH_SEATS, len(names)) if len(names) <= MATCH_SEATS else (0, MATCH_SEATS)
    seats_so_far = dict.fromkeys(names, 0)
    draws: list[TableDraw] = []
    for m in range(matches):
        rng = random.Random(f"sunbot-tournament/{seed}/{m}")
        order = rng.sample(names, len(names))  # breaks ties between equally served entrants
        counts = dict.fromkeys(names, base)
        for name in sorted(order, key=seats_so_far.__getitem__)[:extra]:  # stable: keeps order
            counts[name] += 1
        lineup = [name for name in order for _ in range(counts[name])]
        rng.shuffle(lineup)
        for name in lineup:
            seats_so_far[name] += 1
        draws.append(TableDraw(match_index=m, seed=seed + m, lineup=tuple(lineup)))
    return draws


def schedule_seeds(entrants: Sequence[str], seeds: Iterable[int]) -> list[SeedDraw]:
    """The runs of a single-player tournament: every entrant on every seed, seed by seed
    (all entrants on the first seed, then the second...), so a run cut short still has
    the entrants on the same seeds.

    Raises:
        ValueError: as :func:`schedule_matches` for the entrants; no seeds, more than
            :data:`MAX_SEEDS`, a repeated seed or one outside the signed 64-bit range.
    """
    names = _check_entrants(entrants)
    values: list[int] = []
    seen: set[int] = set()
    for s in seeds:
        if len(values) >= MAX_SEEDS:
            raise ValueError(f"at most {MAX_SEEDS:,} seeds")
        _check_seed(s)
        if s in seen:
            raise ValueError(f"seed {s} is listed more than once")
        seen.add(s)
        values.append(s)
    if not values:
        raise ValueError("a tournament needs at least one seed")
    return [SeedDraw(strategy=name, seed=s) for s in values for name in names]


def draw_job(draw: TableDraw) -> Job:
    """The bench job that plays ``draw``: its lineup as given, on its seed, reported on
    seat 0's entrant (the row holds every seat's strategy and rank)."""
    return Job(GAME, draw.lineup[0], draw.seed, lineup=draw.lineup)


def match_result(row: Result, match_index: int) -> MatchResult | None:
    """A stored row of a :func:`draw_job` as a :class:`MatchResult` (``match_index`` is the
    caller's: the row knows only its seed); ``None`` when the match ended on an error.

    Raises:
        ValueError: the row's lineup or ranks are not a whole match (not a lineup job's row).
    """
    if row.ended_by == "error" or not row.ranks:
        return None
    ranks = tuple(int(r) for r in row.ranks.split(","))
    return MatchResult(match_index, row.seed, tuple(row.lineup.split(",")), ranks)


def play_draw(draw: TableDraw) -> MatchResult:
    """:func:`play_table` on ``draw``'s lineup and seed, as a :class:`MatchResult`.

    Raises:
        ValueError, TableError: as :func:`play_table`.
    """
    ranks = play_table(draw.lineup, draw.seed)
    return MatchResult(draw.match_index, draw.seed, draw.lineup, tuple(ranks))


def play_table(lineup: Sequence[str], seed: int) -> list[int]:
    """Play one Harvest Watch match on the engine, ``lineup[s]`` in seat ``s``: the bench
    job ``Job("harvest-watch", lineup[0], seed, lineup=lineup)`` in this process
    (:func:`sunbot.bench.jobs.run_match`: the match RNG ``random.Random(seed)`` first draws
    the strategy seats' places as the match server draws a match of that many seats, so
    the house bots see the server's RNG stream; seat ``s``'s strategy gets
    ``random.Random(seed * 1000 + s)`` and the hooks ``on_start``, ``on_end``, ``close``;
    a command the rules refuse takes the beat's default, as a missed beat would).

    Args:
        lineup: six strategy names for ``harvest-watch`` (repeats allowed; :data:`HOUSE`
            is a house bot).
        seed: the match seed (signed 64-bit).

    Returns:
        Each seat's final rank, seats 0-5 (1 best; equal ranks for a draw).

    Raises:
        ValueError: not six names, a bad seed, or an unknown strategy
            (:class:`~sunbot.strategies.UnknownStrategy`, a ``ValueError``).
        TableError: a strategy raised (building it, in ``on_start`` or in ``choose``), or
            the match passed :data:`MAX_BEATS` beats; the message is the row's one-line
            ``error`` (``seat 2 (name): KeyError: 'x'``).
    """
    names = tuple(lineup)
    if len(names) != MATCH_SEATS or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"a Harvest Watch lineup is {MATCH_SEATS} strategy names, got {names!r}")
    _check_seed(seed)
    from sunbot.agents.spec import check_strategy

    for name in dict.fromkeys(names):
        if name != HOUSE:
            check_strategy(GAME, name)
    row = run_job(Job(GAME, names[0], seed, lineup=names))
    if row.ended_by == "error":
        raise TableError(row.error or "the match ended on an error")
    return [int(r) for r in row.ranks.split(",")]
