"""The daily spend ledger: atomic adds and capped takes across connections (as runs in
other processes hold), days kept apart."""

from __future__ import annotations

import threading

import pytest

from sunbot.spend.ledger import Ledger


def _hammer(path, work, threads=4):
    """Run ``work(ledger)`` on ``threads`` threads, each with its own connection."""
    ledgers = [Ledger(path) for _ in range(threads)]
    start = threading.Barrier(threads)

    def go(ledger):
        start.wait()
        work(ledger)

    runners = [threading.Thread(target=go, args=(ledger,)) for ledger in ledgers]
    for t in runners:
        t.start()
    for t in runners:
        t.join(timeout=60)
    for ledger in ledgers:
        ledger.close()


def test_concurrent_adds_all_count(tmp_path):
    path = tmp_path / "spend.sqlite"
    _hammer(path, lambda ledger: [ledger.add("model-tokens", 3) for _ in range(150)])
    with Ledger(path) as ledger:
        assert ledger.used("model-tokens") == 4 * 150 * 3


def test_concurrent_capped_takes_never_pass_the_cap(tmp_path):
    path = tmp_path / "spend.sqlite"
    taken: list[float] = []
    lock = threading.Lock()

    def work(ledger):
        for _ in range(40):
            got = ledger.take("requests http://h:1", 1, 50)
            if got is not None:
                with lock:
                    taken.append(got)

    _hammer(path, work)
    with Ledger(path) as ledger:
        assert ledger.used("requests http://h:1") == 50  # 160 asked, exactly 50 taken
    assert sorted(taken) == [float(n) for n in range(1, 51)]  # each total seen once


def test_days_and_meters_are_kept_apart(tmp_path):
    day = ["2026-12-06"]
    with Ledger(tmp_path / "s.sqlite", today=lambda: day[0]) as ledger:
        ledger.add("model-tokens", 10)
        ledger.add("model-usd", 0.25)
        assert ledger.take("model-tokens", 5, 12) is None  # 15 > 12: nothing added
        assert ledger.used("model-tokens") == 10
        day[0] = "2026-12-07"
        assert ledger.used("model-tokens") == 0
        assert ledger.take("model-tokens", 12, 12) == 12
        assert ledger.day() == {"model-tokens": 12}
        assert ledger.day("2026-12-06") == {"model-tokens": 10, "model-usd": 0.25}


@pytest.mark.parametrize("amount", [-5, float("nan")])
def test_an_add_below_zero_adds_nothing(tmp_path, amount):
    with Ledger(tmp_path / "s.sqlite") as ledger:
        ledger.add("m", 4)
        ledger.add("m", amount)
        assert ledger.used("m") == 4
