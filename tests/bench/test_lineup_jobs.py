"""Bench jobs with a six-seat lineup (a tournament's draw): every seat as given, every seat's
rank in the row, the same beat loop as a table job, the hooks for every seat, and the
``ranks`` column added to an older store."""

from __future__ import annotations

import json
import sqlite3

import pytest

from sunbot.bench.jobs import LINEUP_SEATING, Job, job_key, run_job
from sunbot.bench.store import COLUMNS, Store
from sunbot.bench.tournament import TableDraw, draw_job, match_result, play_table

GUARDS = ("guard",) * 5


def test_a_farmer_among_guards_as_a_lineup_row():
    # guards: 5.0 food less 1.0 a night, out on night 5; the farmer (+2.0, cost 3.0) also
    # goes out on night 5, with 3.0 before that night's cost against the guards' 1.0
    lineup = ("guard", "guard", "farmer", "guard", "guard", "guard")
    guard = run_job(Job("harvest-watch", "guard", 4, lineup=lineup))
    assert (guard.seat, guard.rank, guard.score, guard.cause) == (0, 2, 0, "lost")
    assert guard.ranks == "2,2,1,2,2,2" and guard.lineup == ",".join(lineup)
    assert (guard.table, guard.seating) == ("guard,farmer,guard,guard,guard", LINEUP_SEATING)
    assert (guard.progress, guard.steps, guard.refused, guard.win_share) == (5, 24, 0, 0.0)
    farmer = run_job(Job("harvest-watch", "farmer", 4, lineup=lineup))
    assert (farmer.seat, farmer.rank, farmer.score, farmer.cause) == (2, 1, 5, "win")
    assert farmer.ranks == guard.ranks and farmer.table == ",".join(GUARDS)
    assert job_key(Job("harvest-watch", "farmer", 4, lineup=lineup)) == (
        "farmer",
        ",".join(GUARDS),
        4,
    )


def test_a_lineup_job_ignores_table_and_seating():
    lineup = ("random", "house", "adaptive", "house", "random", "guard")
    plain = run_job(Job("harvest-watch", "random", 12, lineup=lineup))
    odd = run_job(
        Job("harvest-watch", "random", 12, table=("farmer",), seating="server", lineup=lineup)
    )
    assert plain.deterministic() == odd.deterministic()
    assert [int(r) for r in plain.ranks.split(",")] == play_table(lineup, 12)
    assert plain.rank == int(plain.ranks.split(",")[0]) and plain.seat == 0


def test_table_rows_carry_every_seats_rank_too():
    r = run_job(Job("harvest-watch", "coalition", 2, table=GUARDS))
    ranks = [int(x) for x in r.ranks.split(",")]
    assert len(ranks) == 6 and ranks[r.seat] == r.rank
    assert r.score == sum(x > r.rank for x in ranks)
    # the guards all go out on night 5 with the same store: one shared rank
    assert len({ranks[s] for s in range(6) if s != r.seat}) == 1
    assert run_job(Job("keelhold", "first-safe", 2)).ranks == ""


@pytest.mark.parametrize(
    ("lineup", "strategy", "message"),
    [
        (GUARDS, "guard", "a lineup is 6 strategy names, got 5"),
        (("guard",) * 6, "farmer", "strategy 'farmer' has no seat in the lineup"),
    ],
)
def test_a_bad_lineup_is_a_bad_job(lineup, strategy, message):
    # as a table of six names: not a failing run but a job that cannot be keyed or stored
    job = Job("harvest-watch", strategy, 1, lineup=lineup)
    with pytest.raises(ValueError, match=message):
        job_key(job)
    with pytest.raises(ValueError, match=message):
        run_job(job)


def test_draw_jobs_and_their_rows_as_match_results():
    draw = TableDraw(match_index=7, seed=4, lineup=("guard", "guard", "farmer", *GUARDS[:3]))
    job = draw_job(draw)
    assert job == Job("harvest-watch", "guard", 4, lineup=draw.lineup)
    result = match_result(run_job(job), 7)
    assert result is not None
    assert (result.match_index, result.seed, result.lineup) == (7, 4, draw.lineup)
    assert result.ranks == (2, 2, 1, 2, 2, 2)
    failed = run_job(Job("harvest-watch", "nobody", 1, lineup=("nobody", *GUARDS)))
    assert failed.ended_by == "error" and failed.ranks == ""
    assert failed.error.startswith("seat 0 (nobody): UnknownStrategy: unknown strategy 'nobody'")
    assert match_result(failed, 0) is None


HOOKS = """
import json
LOG = {log!r}

class Bot:
    game = "harvest-watch"

    def __init__(self, rng):
        pass

    def on_start(self, game, seed):
        self.note("start", game, seed)

    def choose(self, data, legal):
        return {{"act": "guard"}} if data["phase"] == "action" else legal[0]

    def on_end(self, observation, outcome):
        self.note("end", observation["summary"]["you"], outcome["score"], outcome["endedBy"])

    def close(self):
        self.note("close")

    def note(self, *item):
        with open(LOG, "a") as fh:
            fh.write(json.dumps(item) + "\\n")
"""


def test_every_strategy_seat_of_a_table_job_gets_the_hooks(tmp_path):
    log = tmp_path / "log.jsonl"
    bot = tmp_path / "bot.py"
    bot.write_text(HOOKS.format(log=str(log)))
    spec = f"{bot}:Bot"
    r = run_job(Job("harvest-watch", spec, 3, table=(spec, "guard")))
    events = [json.loads(line) for line in log.read_text().splitlines()]
    seats = sorted(s for s, name in enumerate(r.lineup.split(",")) if name == spec)
    assert len(seats) == 2 and r.seat in seats
    assert events[:2] == [["start", "harvest-watch", 3]] * 2
    ranks = [int(x) for x in r.ranks.split(",")]
    table_seat = next(s for s in seats if s != r.seat)

    def end(s):
        return ["end", s, sum(x > ranks[s] for x in ranks), "rules"]

    # the table's seat is built first, ours last; each gets on_end, then close
    assert events[2:] == [end(table_seat), ["close"], end(r.seat), ["close"]]


def test_a_store_from_before_ranks_gains_the_column(tmp_path):
    path = tmp_path / "mid.sqlite"
    cols = [c for c in COLUMNS if c != "ranks"]
    db = sqlite3.connect(path)
    names = ", ".join(f'"{c}"' for c in cols)
    db.execute(f'CREATE TABLE results ({names}, PRIMARY KEY (run, strategy, "table", seed))')
    row = run_job(Job("harvest-watch", "guard", 4, table=GUARDS)).to_row()
    values = ["mid", *(row[c] for c in cols[1:-1]), "2026-01-01T00:00:00"]
    db.execute(f"INSERT INTO results VALUES ({', '.join('?' * len(values))})", values)
    db.commit()
    db.close()
    with Store(path) as store:
        [old] = store.results("mid")
        assert old.ranks == "" and old.rank == row["rank"]
        new = run_job(Job("harvest-watch", "guard", 5, table=GUARDS))
        store.add("mid", new)
        assert [r.ranks for r in store.results("mid")] == ["", new.ranks]
        assert new.ranks.count(",") == 5
