"""Tournament standings: OpenSkill ratings, the crosstable, and the paired ranking.

- :func:`rate_matches`: Weng-Lin (OpenSkill) ratings from each match's ranks, by the
  ``openskill`` library (``openskill.models.PlackettLuce`` by default). Every entrant
  starts at the model's default (mu 25, sigma 25/3); ``ordinal = mu - 3 sigma`` (openskill's
  ``ordinal()``), a conservative skill estimate: the leaderboard's order.
- :func:`crosstable`: for each ordered pair of entrants, how their seats finished against
  each other in the matches where both sat.
- :func:`rank_paired` and :func:`paired_win_matrix`: single-player games, every entrant on
  the same seeds: mean scores, the paired difference to the best (:func:`sunbot.bench.stats.paired`)
  and wins per seed.
- :func:`leaderboard_json` and :func:`paired_json`: the same as plain JSON (``--json``).

**Several seats of one entrant in a match** (three entrants fill six seats twice each).
Each seat is a player of its own, rated with the entrant's rating before the match, and
its update is computed from the seats of the *other* entrants only: for each seat of A,
the model rates the match of that seat against every seat that is not A's (their ranks as
they finished; a seat of B met twice counts twice). A's mu moves by the sum of its seats'
mu changes and its variance shrinks by the product of their variance factors (the model's
``tau`` added once). So a seat pair of A and B is evidence once for each side, a match
between A's own seats says nothing about A (a table of A alone changes nothing), and with
one seat per entrant and no tie the update is exactly the model's own ``rate`` of the
match.

**Ties** (a Harvest Watch draw; seats out on the same night with the same store). The
library's Plackett-Luce rates a seat that shares first place below one that finishes third
alone (openskill.py issues #155 and #176): a tie there shares the winner's credit instead
of averaging the places. So a tie is rated as the mean of the updates over every order in
which the tied seats could have finished (mu and variance averaged; at most 6! = 720
orders for six seats): a draw between equal ratings moves no mu, a shared first place
lands between first and second. The same rule holds whichever model is chosen.

Matches are applied in the order given, each from the ratings before it: the same input
in the same order gives the same ratings.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import MODELS

import sunbot.bench.stats as stats
from sunbot.bench.tournament import MatchResult

#: Names ``rate_matches(model=...)`` accepts: the ``openskill.models`` classes.
MODEL_NAMES: tuple[str, ...] = tuple(m.__name__ for m in MODELS)
#: Standard deviations ``ordinal`` subtracts from mu (openskill's default).
ORDINAL_Z = 3.0


@dataclass(frozen=True)
class Rating:
    """One entrant's rating after the tournament.

    Attributes:
        strategy: the entrant's name.
        mu: the skill estimate (the model's scale: a new entrant has 25).
        sigma: its uncertainty, one standard deviation (a new entrant has 25/3).
        ordinal: ``mu - 3 * sigma``: the skill the entrant very likely exceeds.
        matches: matches it sat in (any number of its seats counts once).
    """

    strategy: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


@dataclass(frozen=True)
class HeadToHead:
    """How a row entrant did against a column entrant.

    Attributes:
        ahead, level, behind: crosstable: seat pairs (each seat of the row entrant against
            each seat of the column entrant, in one match) where the row's seat ranked
            better, equal, worse; win matrix: shared seeds where the row scored more,
            the same, less.
        meetings: matches both sat in (crosstable) or shared seeds (win matrix).
    """

    ahead: int
    level: int
    behind: int
    meetings: int

    @property
    def share(self) -> float:
        """``(ahead + level / 2) / (ahead + level + behind)``; ``nan`` if they never met."""
        n = self.ahead + self.level + self.behind
        return (self.ahead + self.level / 2) / n if n else math.nan


#: row entrant -> column entrant -> :class:`HeadToHead` (no diagonal).
Crosstable = dict[str, dict[str, HeadToHead]]


@dataclass(frozen=True)
class PairedRank:
    """One entrant of a single-player tournament, on the seeds every entrant played.

    Attributes:
        strategy: the entrant.
        rank: 1 for the highest mean score; equal means share a rank.
        seeds: the shared seeds the figures are over.
        mean: mean score on them.
        vs_best: this entrant minus the first-ranked one, paired per seed (mean difference,
            95% bootstrap CI, Wilcoxon test); ``None`` for the first-ranked entrant.
        wins: shared seeds on which it scored the most; a top score shared by ``k``
            entrants counts ``1/k`` to each.
    """

    strategy: str
    rank: int
    seeds: int
    mean: float
    vs_best: stats.Paired | None
    wins: float


def _model(name: str) -> Any:
    for cls in MODELS:
        if cls.__name__ == name:
            return cls()
    raise ValueError(f"unknown rating model {name!r}: use one of {', '.join(MODEL_NAMES)}")


def rate_matches(
    results: Iterable[MatchResult], *, model: str = "PlackettLuce", entrants: Sequence[str] = ()
) -> list[Rating]:
    """Rate the entrants of ``results``, applied in order (see the module doc for how
    several seats of one entrant and ties count).

    Args:
        results: finished matches; ranks 1 best, ties equal.
        model: one of :data:`MODEL_NAMES`, with the library's default parameters.
        entrants: names to list even without a match (at the starting rating, 0 matches),
            e.g. an entrant whose every match failed.

    Returns:
        One :class:`Rating` per entrant, by ordinal (highest first), then name.

    Raises:
        ValueError: an unknown ``model``.
    """
    rater = _model(model)
    current: dict[str, Any] = {name: rater.rating() for name in entrants}
    matches = dict.fromkeys(entrants, 0)
    for result in results:
        for name in dict.fromkeys(result.lineup):
            current.setdefault(name, rater.rating())
            matches[name] = matches.get(name, 0) + 1
        current.update(_updates(rater, result, current))
    out = [
        Rating(name, float(p.mu), float(p.sigma), float(p.ordinal(z=ORDINAL_Z)), matches[name])
        for name, p in current.items()
    ]
    return leaderboard_order(out)


def leaderboard_order(ratings: Iterable[Rating]) -> list[Rating]:
    """``ratings`` in leaderboard order: highest ordinal first; ordinals equal to 9
    decimals (a draw averaged over its orders differs only in float rounding) by name."""
    return sorted(ratings, key=lambda r: (-round(r.ordinal, 9), r.strategy))


def _updates(rater: Any, result: MatchResult, current: Mapping[str, Any]) -> dict[str, Any]:
    """Each entrant's rating after ``result``, from ``current`` (the ratings before it)."""
    lineup, ranks = result.lineup, result.ranks
    tau2 = float(rater.tau) ** 2
    rated: dict[tuple[int, ...], list[tuple[float, float]]] = {}  # seats -> (mu, var) each
    new: dict[str, Any] = {}
    for name in dict.fromkeys(lineup):
        others = [s for s, n in enumerate(lineup) if n != name]
        if not others:  # a table of one entrant: no evidence about it
            continue
        before = current[name]
        mu, var = float(before.mu), None
        for seat in (s for s, n in enumerate(lineup) if n == name):
            seats = tuple(sorted([seat, *others]))
            if seats not in rated:
                # one object per seat: the library deep-copies the teams, so a rating object
                # met twice would be one player given the seat's tau twice
                players = [_copy(rater, current[lineup[s]]) for s in seats]
                rated[seats] = _mean_rate(rater, players, [ranks[s] for s in seats])
            mu_after, var_after = rated[seats][seats.index(seat)]
            mu += mu_after - float(before.mu)
            var = var_after if var is None else var * var_after / (float(before.sigma) ** 2 + tau2)
        assert var is not None
        new[name] = rater.rating(mu=mu, sigma=math.sqrt(var))
    return new


def _copy(rater: Any, rating: Any) -> Any:
    return rater.rating(mu=float(rating.mu), sigma=float(rating.sigma))


def _mean_rate(rater: Any, players: list[Any], ranks: list[int]) -> list[tuple[float, float]]:
    """Each player's ``(mu, sigma**2)`` after the match, the mean over every finishing order
    the ranks allow (tied seats in each of their orders; one order when nothing ties)."""
    levels: dict[int, list[int]] = {}
    for i, r in enumerate(ranks):
        levels.setdefault(r, []).append(i)
    groups = [itertools.permutations(levels[r]) for r in sorted(levels)]
    sums = [[0.0, 0.0] for _ in players]
    orders = 0
    for split in itertools.product(*groups):
        strict = [0.0] * len(players)
        for place, i in enumerate(i for group in split for i in group):
            strict[i] = float(place + 1)
        for total, team in zip(sums, rater.rate([[p] for p in players], ranks=strict), strict=True):
            total[0] += float(team[0].mu)
            total[1] += float(team[0].sigma) ** 2
        orders += 1
    return [(m / orders, v / orders) for m, v in sums]


def crosstable(results: Iterable[MatchResult]) -> Crosstable:
    """Head to head: for each ordered pair of entrants (names sorted), their seat pairs'
    finishes over the matches where both sat (see :class:`HeadToHead`); pairs that never
    met are all zeros. ``table[a][b].ahead == table[b][a].behind``."""
    rows = list(results)
    names = sorted({n for r in rows for n in r.lineup})
    counts = {a: {b: [0, 0, 0, 0] for b in names if b != a} for a in names}
    for r in rows:
        present = set(r.lineup)
        for a in present:
            for b in present - {a}:
                counts[a][b][3] += 1
        for i, a in enumerate(r.lineup):
            for j, b in enumerate(r.lineup):
                if a != b:
                    ri, rj = r.ranks[i], r.ranks[j]
                    counts[a][b][0 if ri < rj else 1 if ri == rj else 2] += 1
    return {a: {b: HeadToHead(*c) for b, c in row.items()} for a, row in counts.items()}


def _shared(scores: Mapping[str, Mapping[int, float]]) -> list[int]:
    """The seeds every entrant has, ascending; ``ValueError`` when there are none, or a
    score is not a finite number."""
    if not scores:
        raise ValueError("no entrants to rank")
    for name, by_seed in scores.items():
        for seed, value in by_seed.items():
            if not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"{name}, seed {seed}: score {value!r} is not a finite number")
    seeds = set.intersection(*(set(s) for s in scores.values()))
    if not seeds:
        raise ValueError("no seed was played by every entrant")
    return sorted(seeds)


def _order(
    scores: Mapping[str, Mapping[int, float]], seeds: Sequence[int]
) -> tuple[dict[str, float], list[str]]:
    """Each entrant's mean on ``seeds``, and the entrants by mean (highest first), name."""
    means = {n: sum(float(s[k]) for k in seeds) / len(seeds) for n, s in scores.items()}
    return means, sorted(scores, key=lambda n: (-means[n], n))


def rank_paired(scores: Mapping[str, Mapping[int, float]]) -> list[PairedRank]:
    """Rank single-player entrants on the seeds every one of them played.

    Args:
        scores: entrant -> seed -> score (e.g. :func:`scores_of` of bench rows).

    Returns:
        One :class:`PairedRank` per entrant, best mean first (ties by name).

    Raises:
        ValueError: no entrants, no seed shared by all, or a score that is not finite.
    """
    seeds = _shared(scores)
    means, order = _order(scores, seeds)
    wins = dict.fromkeys(order, 0.0)
    for k in seeds:
        top = max(float(s[k]) for s in scores.values())
        best = [n for n in order if float(scores[n][k]) == top]
        for n in best:
            wins[n] += 1 / len(best)
    first = {k: float(scores[order[0]][k]) for k in seeds}
    out = []
    for name in order:
        mine = {k: float(scores[name][k]) for k in seeds}
        out.append(
            PairedRank(
                strategy=name,
                rank=1 + sum(m > means[name] for m in means.values()),
                seeds=len(seeds),
                mean=means[name],
                vs_best=None if name == order[0] else stats.paired(mine, first),
                wins=wins[name],
            )
        )
    return out


def paired_win_matrix(scores: Mapping[str, Mapping[int, float]]) -> Crosstable:
    """For each ordered pair of entrants (in :func:`rank_paired`'s order), the seeds every
    entrant played on which the row scored more / the same / less than the column.

    Raises:
        ValueError: as :func:`rank_paired`.
    """
    seeds = _shared(scores)
    _, names = _order(scores, seeds)
    out: Crosstable = {}
    for a in names:
        out[a] = {}
        for b in names:
            if a != b:
                d = [float(scores[a][k]) - float(scores[b][k]) for k in seeds]
                ahead, behind = sum(x > 0 for x in d), sum(x < 0 for x in d)
                out[a][b] = HeadToHead(ahead, len(d) - ahead - behind, behind, len(d))
    return out


def scores_of(results: Iterable[Any]) -> dict[str, dict[int, float]]:
    """Bench rows (:class:`sunbot.bench.jobs.Result`) as entrant -> seed -> score, for
    :func:`rank_paired`; a row that ended on an error has no score and is left out."""
    out: dict[str, dict[int, float]] = {}
    for r in results:
        if r.ended_by != "error":
            out.setdefault(r.strategy, {})[r.seed] = float(r.score)
    return out


def _h2h_json(table: Crosstable) -> dict[str, dict[str, dict[str, int]]]:
    return {
        a: {
            b: {"ahead": h.ahead, "level": h.level, "behind": h.behind, "meetings": h.meetings}
            for b, h in row.items()
        }
        for a, row in table.items()
    }


def leaderboard_json(ratings: Sequence[Rating], table: Crosstable) -> dict[str, Any]:
    """``{"ratings": [{"strategy", "mu", "sigma", "ordinal", "matches"}, ...], "crosstable":
    {row: {column: {"ahead", "level", "behind", "meetings"}}}}``, ratings by ordinal
    (highest first); plain JSON values only."""
    ordered = leaderboard_order(ratings)
    return {
        "ratings": [
            {
                "strategy": r.strategy,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "matches": r.matches,
            }
            for r in ordered
        ],
        "crosstable": _h2h_json(table),
    }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def paired_json(ranking: Sequence[PairedRank], wins: Crosstable) -> dict[str, Any]:
    """``{"ranking": [{"strategy", "rank", "seeds", "mean", "wins", "vsBest"}, ...],
    "wins": {row: {column: {"ahead", "level", "behind", "meetings"}}}}``; ``vsBest`` is
    ``null`` for the first-ranked entrant, else ``{"meanDiff", "ciLow", "ciHigh", "pValue",
    "better", "worse", "ties"}`` (an undefined CI or p value is ``null``)."""
    rows = []
    for r in ranking:
        p = r.vs_best
        vs = None
        if p is not None:
            vs = {"meanDiff": _finite(p.mean_diff), "ciLow": _finite(p.ci_low),
                  "ciHigh": _finite(p.ci_high), "pValue": _finite(p.p_value),
                  "better": p.better, "worse": p.worse, "ties": p.ties}  # fmt: skip
        rows.append({"strategy": r.strategy, "rank": r.rank, "seeds": r.seeds,
                     "mean": r.mean, "wins": r.wins, "vsBest": vs})  # fmt: skip
    return {"ranking": rows, "wins": _h2h_json(wins)}
