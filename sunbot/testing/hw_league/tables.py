"""The league's tables: five opponent seats each, as style names with parameters.

- ``issue``: the tables where the default strategy was reported to fail (five
  last-night opportunists; five joint-offer cooperators; five vengeful farmers; a voting
  bloc of four that fines the richest seat every day, with one joint-offer cooperator;
  then five always-steal seats that say they farm, and a seat that speaks the coalition
  format and robs its partner among four others, :data:`TURNCOAT_MIX`), default
  parameters;
- ``tuning``: every tuning style alone at a table (five of it, parameters drawn), and mixed
  tables drawn from the tuning styles (then the later styles' tables: five two-faced
  seats, and two two-faced seats with a cooperator, a reciprocator and a vengeful farmer;
  five plain-spoken seats, and three of them with a last-night opportunist and a two-faced
  seat; then each style that exploits trust, :data:`TRUST`, five times, and mixed tables
  where each seat is one of them half the time);
- ``held-out``: mixed tables whose seats come from the held-out styles (each seat held out
  with probability 0.7, else a tuning style), then each held-out style that exploits
  trust, :data:`TRUST_HELD_OUT`, five times and mixed tables with one of them at least
  (each other seat one of them half the time) -- never tune on these.

Everything is drawn from fixed seeds, so a table list is the same on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import HELD_OUT, TUNING, sample

GROUPS = ("issue", "tuning", "held-out")
#: The tuning styles that exploit trust (:mod:`~sunbot.testing.hw_league.trust`).
TRUST = ("turncoat", "false_farmer", "juror")
#: The held-out styles that exploit trust.
TRUST_HELD_OUT = ("vote_buyer", "cycler")
#: Tuning styles added after the first tuning tables were drawn: their tables are drawn
#: from their own seed, so the earlier tables (and their published figures) stay the same.
LATER = ("two_faced", "plain_spoken", *TRUST)
#: The held-out styles the first held-out tables were drawn from (kept, so they stay).
FIRST_HELD_OUT = tuple(s for s in HELD_OUT if s not in TRUST_HELD_OUT)
#: The issue table of a seat that speaks the coalition format and robs its partner.
TURNCOAT_MIX = ("turncoat", "reciprocator", "vengeful", "joint_offer", "last_night")
#: Mixed trust tables per group.
TRUST_MIXES = 4
#: The mixed table of the plain-spoken style: seats that say what they play, beside a
#: last-night opportunist and a two-faced seat.
PLAIN_MIX = ("plain_spoken", "plain_spoken", "plain_spoken", "last_night", "two_faced")
#: The mixed table of the later styles: two two-faced seats among seats that accept offers.
TWO_FACED_MIX = ("two_faced", "two_faced", "joint_offer", "reciprocator", "vengeful")


@dataclass(frozen=True)
class Table:
    """Five opponent seats: ``seats[i] = (style, params)``; ``group`` is one of
    :data:`GROUPS`; ``name`` a short label for reports."""

    name: str
    group: str
    seats: tuple[tuple[str, dict[str, Any]], ...] = field(default_factory=tuple)

    def styles(self) -> str:
        """The seats' style names, comma-separated."""
        return ",".join(s for s, _ in self.seats)


def _same(name: str, style: str, group: str = "issue") -> Table:
    return Table(name, group, tuple((style, {}) for _ in range(5)))


def issue_tables() -> list[Table]:
    """The four reported tables (the module doc), default parameters."""
    bloc: tuple[tuple[str, dict[str, Any]], ...] = (("bloc", {}),) * 4 + (("joint_offer", {}),)
    return [
        _same("5 last_night", "last_night"),
        _same("5 joint_offer", "joint_offer"),
        _same("5 vengeful", "vengeful"),
        Table("4 bloc + joint_offer", "issue", bloc),
        _same("5 false_farmer", "false_farmer"),
        Table("turncoat mix", "issue", tuple((s, {}) for s in TURNCOAT_MIX)),
    ]


def _drawn(rng: random.Random, styles: list[str]) -> tuple[tuple[str, dict[str, Any]], ...]:
    return tuple((s, sample(s, rng)) for s in styles)


def tuning_tables(mixed: int = 6, seed: int = 27) -> list[Table]:
    """Each tuning style five times (parameters drawn per seat), then ``mixed`` tables of
    five tuning styles drawn with replacement, all from ``random.Random(seed)``; then the
    two-faced style five times and :data:`TWO_FACED_MIX`, from ``random.Random(seed + 1)``;
    then the plain-spoken style five times and :data:`PLAIN_MIX`, from
    ``random.Random(seed + 2)``."""
    rng = random.Random(seed)
    first = [s for s in TUNING if s not in LATER]
    out = [Table(f"5 {s} (drawn)", "tuning", _drawn(rng, [s] * 5)) for s in first]
    for i in range(mixed):
        styles = [rng.choice(first) for _ in range(5)]
        out.append(Table(f"tuning mix {i + 1}", "tuning", _drawn(rng, styles)))
    later = random.Random(seed + 1)  # drawn apart: the tables above stay as they were
    out.append(Table("5 two_faced (drawn)", "tuning", _drawn(later, ["two_faced"] * 5)))
    out.append(Table("two_faced mix", "tuning", _drawn(later, list(TWO_FACED_MIX))))
    latest = random.Random(seed + 2)  # the plain-spoken tables, drawn apart again
    out.append(Table("5 plain_spoken (drawn)", "tuning", _drawn(latest, ["plain_spoken"] * 5)))
    out.append(Table("plain_spoken mix", "tuning", _drawn(latest, list(PLAIN_MIX))))
    trust = random.Random(seed + 3)  # the styles that exploit trust, drawn apart again
    earlier = [s for s in TUNING if s not in TRUST]
    out += [Table(f"5 {s} (drawn)", "tuning", _drawn(trust, [s] * 5)) for s in TRUST]
    for i in range(TRUST_MIXES):
        styles = [trust.choice(TRUST if trust.random() < 0.5 else earlier) for _ in range(5)]
        out.append(Table(f"trust mix {i + 1}", "tuning", _drawn(trust, styles)))
    return out


def held_out_tables(count: int = 6, seed: int = 2027) -> list[Table]:
    """``count`` mixed tables: each seat one of :data:`FIRST_HELD_OUT` with probability
    0.7, else a tuning style (not one of :data:`LATER`), parameters drawn, from
    ``random.Random(seed)``; then each of :data:`TRUST_HELD_OUT` five times and
    :data:`TRUST_MIXES` tables whose first seat is one of them and each other seat one of
    them with probability 0.5, else any other style, from ``random.Random(seed + 1)``."""
    rng = random.Random(seed)
    first = [s for s in TUNING if s not in LATER]  # the tables stay as they were drawn
    out = []
    for i in range(count):
        styles = [rng.choice(FIRST_HELD_OUT if rng.random() < 0.7 else first) for _ in range(5)]
        out.append(Table(f"held-out mix {i + 1}", "held-out", _drawn(rng, styles)))
    trust = random.Random(seed + 1)
    rest = [s for s in (*TUNING, *HELD_OUT) if s not in TRUST_HELD_OUT]
    out += [Table(f"5 {s} (drawn)", "held-out", _drawn(trust, [s] * 5)) for s in TRUST_HELD_OUT]
    for i in range(TRUST_MIXES):
        styles = [trust.choice(TRUST_HELD_OUT)]
        styles += [trust.choice(TRUST_HELD_OUT if trust.random() < 0.5 else rest) for _ in range(4)]
        out.append(Table(f"held-out trust mix {i + 1}", "held-out", _drawn(trust, styles)))
    return out


def tables(kind: str) -> list[Table]:
    """The tables of ``kind``: ``issue``, ``tuning``, ``held-out`` or ``all`` (in that order).

    Raises:
        ValueError: an unknown ``kind``.
    """
    makers = {"issue": issue_tables, "tuning": tuning_tables, "held-out": held_out_tables}
    if kind == "all":
        return [t for g in GROUPS for t in makers[g]()]
    if kind not in makers:
        raise ValueError(f"tables {kind!r}: one of issue, tuning, held-out, all")
    return makers[kind]()
