"""The move clock (sunbot.agents.clock): deadlines and fallbacks, the worker thread, escapes
(SystemExit, KeyboardInterrupt, os._exit, os.fork), counters and the default fallbacks."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from sunbot.agents import clock
from sunbot.agents.clock import BotEscape, Decider, default_fallback, in_forked_child, owner_pid
from sunbot.engines import keelhold as kh
from sunbot.engines import sunloaf as sl
from sunbot.strategies.keelhold import FirstSafe

FB = {"fallback": True}


def fallback() -> dict[str, bool]:
    return FB


class Numbered:
    """Answers ``legal[0]`` and records which decisions reached it and on which thread;
    sleeps ``slow`` seconds on the decisions listed in ``slow_on`` (1-based call numbers)."""

    def __init__(self, slow: float = 0.0, slow_on: set[int] | None = None, every: int = 0):
        self.calls: list[object] = []
        self.threads: set[int] = set()
        self.slow, self.slow_on, self.every = slow, slow_on or set(), every

    def choose(self, observation, legal):
        self.calls.append(legal[0]["k"])
        self.threads.add(threading.get_ident())
        n = len(self.calls)
        if n in self.slow_on or (self.every and n % self.every == 0):
            time.sleep(self.slow)
        return legal[0]


def legal(k: int) -> list[dict[str, int]]:
    return [{"k": k}]


async def test_a_bot_slow_on_every_fifth_decision_gets_the_fallback_there_and_is_counted():
    # The bot's late calls (1.5 s) are far beyond the clock (0.2 s), so a busy machine cannot
    # make a late call look on time.
    bot = Numbered(slow=1.5, every=5)
    d = Decider(bot, move_timeout_s=0.2)
    actions = []
    for k in range(1, 11):
        decision = await d.decide({}, legal(k), fallback=fallback)
        actions.append(decision.action)
        if decision.timed_out:
            assert 150 < decision.elapsed_ms < 1400 and decision.error is None
            await asyncio.sleep(1.4)  # the late call ends: the next decision is not queued
    assert actions == [{"k": k} if k % 5 else FB for k in range(1, 11)]
    c = d.counters()
    assert (c["decisions"], c["timeouts"], c["errors"]) == (10, 2, 0)
    assert c["maxMs"] >= 150 and c["p50Ms"] < 100  # 8 of the 10 were quick
    assert len(bot.threads) == 1 and threading.get_ident() not in bot.threads
    d.close()


async def test_a_decision_queued_behind_a_late_call_waits_only_its_own_deadline():
    bot = Numbered(slow=2.0, slow_on={1})
    d = Decider(bot, move_timeout_s=0.2)
    first = await d.decide({}, legal(1), fallback=fallback)
    t0 = time.monotonic()
    second = await d.decide({}, legal(2), fallback=fallback)  # the late call still runs
    assert first.timed_out and second.timed_out and time.monotonic() - t0 < 1.5
    await asyncio.sleep(2.0)
    third = await d.decide({}, legal(3), fallback=fallback)
    assert third.action == {"k": 3} and not third.timed_out
    assert bot.calls == [1, 3]  # decision 2 gave up while queued: it never reached the bot
    assert d.counters()["timeouts"] == 2
    d.close()


async def test_without_a_clock_a_plain_strategy_runs_on_the_loop_thread():
    bot = Numbered()
    d = Decider(bot)
    for k in (1, 2):
        assert (await d.decide({}, legal(k), fallback=fallback)).action == {"k": k}
    assert bot.threads == {threading.get_ident()}
    assert d.last_decision() is None  # nothing to record for an on-time in-process decision
    assert d.totals()["kind"] == "in-process" and d.totals()["clock"]["decisions"] == 2


async def test_a_blocking_strategy_runs_on_the_worker_even_without_a_clock():
    class Blocking(Numbered):
        blocking = True

        def last_decision(self):
            return {"mine": len(self.calls)}

    bot = Blocking()
    d = Decider(bot)
    assert (await d.decide({}, legal(1), fallback=fallback)).action == {"k": 1}
    assert threading.get_ident() not in bot.threads
    assert d.last_decision()["mine"] == 1 and d.last_decision()["ms"] >= 0
    d.close()


async def test_the_budget_and_the_move_timeout_the_smaller_wins():
    bot = Numbered(slow=1.5, slow_on={1})
    d = Decider(bot, move_timeout_s=5)
    t0 = time.monotonic()
    decision = await d.decide({}, legal(1), budget_s=0.2, fallback=fallback)
    assert decision.timed_out and time.monotonic() - t0 < 1.2
    none_left = await d.decide({}, legal(2), budget_s=0, fallback=fallback)
    assert none_left.timed_out and none_left.action == FB
    await asyncio.sleep(1.5)
    assert bot.calls == [1]  # no time left: the bot was not even asked
    d.close()


async def test_an_ordinary_error_comes_back_in_the_decision_with_the_fallback():
    class Broken:
        def choose(self, observation, legal):
            raise ValueError("no idea")

    for timeout in (None, 1.0):
        d = Decider(Broken(), move_timeout_s=timeout)
        decision = await d.decide({}, legal(1), fallback=fallback)
        assert decision.action == FB and not decision.timed_out
        assert isinstance(decision.error, ValueError) and str(decision.error) == "no idea"
        assert d.counters()["errors"] == 1
        d.close()


class Raises:
    def __init__(self, exc: BaseException):
        self.exc = exc

    def choose(self, observation, legal):
        raise self.exc


@pytest.mark.parametrize(
    ("exc", "text"),
    [(SystemExit(2), "the bot raised SystemExit(2) at decision 1"),
     (KeyboardInterrupt(), "the bot raised KeyboardInterrupt at decision 1")],
)  # fmt: skip
@pytest.mark.parametrize("timeout", [None, 1.0])
async def test_system_exit_and_keyboard_interrupt_in_choose_are_bot_errors(exc, text, timeout):
    # on the loop's thread a KeyboardInterrupt counts as the bot's only when no real Ctrl-C
    # can be behind it: a Python-level SIGINT handler is installed (as the CLI does)
    previous = signal.signal(signal.SIGINT, lambda *a: None)
    try:
        d = Decider(Raises(exc), move_timeout_s=timeout)
        with pytest.raises(BotEscape) as caught:
            await d.decide({}, legal(1), fallback=fallback)
        assert str(caught.value) == text
        d.close()
    finally:
        signal.signal(signal.SIGINT, previous)


async def test_a_real_ctrl_c_during_choose_is_not_taken_for_the_bot():
    def handler(signum, frame):
        raise KeyboardInterrupt

    class WaitsForCtrlC:
        def choose(self, observation, legal):
            signal.raise_signal(signal.SIGINT)  # the handler runs here, as on a real Ctrl-C
            return legal[0]

    previous = signal.signal(signal.SIGINT, handler)
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            await Decider(WaitsForCtrlC()).decide({}, legal(1), fallback=fallback)
        assert not isinstance(caught.value, BotEscape)
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no SIGALRM timer here")
async def test_the_grace_timer_during_choose_is_not_taken_for_the_bot():
    # sunbot play's SIGTERM grace ends with a SIGALRM handler raising KeyboardInterrupt:
    # in a run's first decision it was called the bot's escape (exit 1, endedBy "error")
    def handler(signum, frame):
        raise KeyboardInterrupt

    class WaitsForTheTimer:
        def choose(self, observation, legal):
            signal.raise_signal(signal.SIGALRM)  # as the timer fires mid-decision
            return legal[0]

    previous = signal.signal(signal.SIGALRM, handler)
    old_int = signal.signal(signal.SIGINT, lambda *a: None)  # as the CLI installs one
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            await Decider(WaitsForTheTimer()).decide({}, legal(1), fallback=fallback)
        assert not isinstance(caught.value, BotEscape)
    finally:
        signal.signal(signal.SIGALRM, previous)
        signal.signal(signal.SIGINT, old_int)


# os._exit and os.fork are tried in a child interpreter: if the guard failed, the test
# process itself would end (or fork)
_ESCAPES = textwrap.dedent(
    """
    import asyncio, os, time
    from sunbot.agents.clock import Decider, BotEscape, in_forked_child

    class Exit:
        def choose(self, o, legal):
            os._exit(3)

    class SwallowsExit:
        def choose(self, o, legal):
            try:
                os._exit(4)
            except BaseException:
                pass
            return legal[0]

    class Fork:
        def choose(self, o, legal):
            if os.fork() == 0:
                print("CHILD PLAYS ON", flush=True)
            return legal[0]

    class LateExit:
        def __init__(self):
            self.n = 0
        def choose(self, o, legal):
            self.n += 1
            if self.n == 1:
                time.sleep(0.4)
                os._exit(5)
            return legal[0]

    class ForkBehindTheGuard:  # a reference to the real fork, saved before the guard
        def choose(self, o, legal):
            pid = os.fork.__wrapped__()
            if pid == 0:
                print("child sees in_forked_child", in_forked_child(), flush=True)
                return legal[0]  # the guard ends this copy as choose returns
            _, status = os.waitpid(pid, 0)
            print("fork child exit", os.waitstatus_to_exitcode(status), flush=True)
            return legal[0]

    async def main():
        for bot in (Exit(), SwallowsExit(), Fork()):
            for timeout in (None, 1.0):
                try:
                    await Decider(bot, move_timeout_s=timeout).decide({}, [1], fallback=lambda: 0)
                    print("no error")
                except BotEscape as exc:
                    print(exc)
        d = Decider(LateExit(), move_timeout_s=0.1)
        print((await d.decide({}, [1], fallback=lambda: 0)).timed_out)
        await asyncio.sleep(0.6)
        try:
            await d.decide({}, [1], fallback=lambda: 0)
        except BotEscape as exc:
            print("late:", exc)
        print((await Decider(ForkBehindTheGuard()).decide({}, [1], fallback=lambda: 0)).action)
        print("parent still owns the run", not in_forked_child())

    asyncio.run(main())
    """
)


def test_os_exit_and_os_fork_in_choose_are_bot_errors_and_end_nothing():
    out = subprocess.run(
        [sys.executable, "-c", _ESCAPES], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "the bot called os._exit(3) at decision 1",
        "the bot called os._exit(3) at decision 1",
        "the bot called os._exit(4) at decision 1",
        "the bot called os._exit(4) at decision 1",
        "the bot called os.fork() at decision 1",
        "the bot called os.fork() at decision 1",
        "True",
        "late: the bot called os._exit(5) at decision 1",
        "child sees in_forked_child True",
        "fork child exit 70",
        "1",
        "parent still owns the run True",
    ]


def test_a_fork_outside_any_bot_makes_the_child_the_owner():
    import os

    clock.install_guard()
    read, write = os.pipe()
    parent = os.getpid()
    pid = os.fork()  # outside choose: passes through the guard
    if pid == 0:  # pragma: no cover - runs in the child
        os.write(write, f"{owner_pid() == os.getpid()} {in_forked_child(parent)}".encode())
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    assert os.read(read, 100).decode() == "True True" and status == 0
    os.close(read)
    assert owner_pid() == parent and not in_forked_child()


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan")])
def test_a_move_timeout_must_be_a_positive_number(bad):
    with pytest.raises(ValueError, match="move timeout must be a positive number"):
        Decider(Numbered(), move_timeout_s=bad)


async def test_percentiles_are_the_nearest_rank_of_the_decisions_times(monkeypatch):
    class FakeTime:
        now = 0.0

        def perf_counter(self):
            return self.now

        def monotonic(self):
            return self.now

    fake = FakeTime()

    class Ticks:
        n = 0

        def choose(self, observation, legal):
            self.n += 1
            fake.now += self.n / 100  # decision n takes n * 10 ms
            return legal[0]

    monkeypatch.setattr(clock, "time", fake)
    d = Decider(Ticks())
    for k in range(10):
        await d.decide({}, legal(k), fallback=fallback)
    c = d.counters()
    assert (c["p50Ms"], c["p95Ms"], c["maxMs"]) == (50.0, 100.0, 100.0)


async def test_close_does_not_wait_for_a_stuck_call_and_closes_the_strategy():
    class Stuck(Numbered):
        closed = 0

        def close(self):
            self.closed += 1

    bot = Stuck(slow=1.0, slow_on={1})
    d = Decider(bot, move_timeout_s=0.1)
    assert (await d.decide({}, legal(1), fallback=fallback)).timed_out
    t0 = time.monotonic()
    d.close()
    d.close()
    assert time.monotonic() - t0 < 0.5 and bot.closed == 2


# ---------------------------------------------------------------- default fallbacks


def test_keelhold_falls_back_on_first_safe():
    state = kh.init(11)
    obs, legal_ = kh.observation(state), kh.legal_actions(state)
    assert obs["safeBays"] and len(legal_) > len(obs["safeBays"]) - 1
    assert default_fallback("keelhold", obs, legal_) == {"type": "PLACE", "bay": obs["safeBays"][0]}
    port = {**obs, "phase": "port", "castOffSafe": False}
    ends = [{"type": "CAST_OFF"}, {"type": "END_RUN"}]
    assert default_fallback("keelhold", port, ends) == {"type": "END_RUN"}
    assert default_fallback("keelhold", port, ends) == FirstSafe(None).choose(port, ends)


def test_sunloaf_falls_back_on_the_reference_policy():
    state = sl.init(4)
    obs, legal_ = sl.observation(state), sl.legal_actions(state)
    expected = sl.reference_action(state)
    assert expected != legal_[0]  # the first legal action (a MOVE of cat 0) is not it
    assert default_fallback("sunloaf", obs, legal_) == expected
    sunset = [{"type": "NEXT_DAY"}, {"type": "END_RUN"}]
    assert default_fallback("sunloaf", {**obs, "phase": "sunset"}, sunset) == {"type": "NEXT_DAY"}


def test_naptuft_falls_back_on_the_care_of_the_lowest_need():
    cares = [{"type": "care", "care": c} for c in ("feed", "play", "brush", "nap")]
    legal_ = [*cares, {"type": "end-run"}]
    obs = {"phase": "care", "needs": {"food": 70, "joy": 41, "cleanliness": 55, "energy": 41}}
    # joy and energy tie at 41: canonical order (feed, play, brush, nap) picks play
    assert default_fallback("naptuft", obs, legal_) == {"type": "care", "care": "play"}
    day_break = [{"type": "next-day"}, {"type": "end-run"}]
    assert default_fallback("naptuft", {"phase": "dayBreak"}, day_break) == {"type": "next-day"}


def test_harvest_watch_falls_back_on_sending_nothing_and_others_on_the_first_legal():
    assert default_fallback("harvest-watch", {}, [{"act": "guard"}]) is None
    assert default_fallback("harvest-watch", {}, []) is None
    assert default_fallback("tic-tac-toe", {}, [{"cell": 4}, {"cell": 0}]) == {"cell": 4}
    # an observation the safe choice cannot read: the first legal action, no error
    assert default_fallback("keelhold", {"phase": "load"}, [{"type": "PLACE", "bay": 6}]) == {
        "type": "PLACE",
        "bay": 6,
    }
    assert default_fallback("naptuft", {"phase": "care"}, [{"type": "end-run"}]) == {
        "type": "end-run"
    }
    with pytest.raises(ValueError, match="no legal action to fall back on in keelhold"):
        default_fallback("keelhold", {}, [])


async def test_a_decision_cancelled_while_queued_never_reaches_the_bot():
    bot = Numbered(slow=0.5, slow_on={1})
    d = Decider(bot, move_timeout_s=5)
    first = asyncio.ensure_future(d.decide({}, legal(1), fallback=fallback))
    await asyncio.sleep(0.05)
    second = asyncio.ensure_future(d.decide({}, legal(2), fallback=fallback))
    await asyncio.sleep(0.05)
    second.cancel()  # the run stopped while decision 2 waited behind the slow call
    assert (await first).action == {"k": 1}
    with pytest.raises(asyncio.CancelledError):
        await second
    await asyncio.sleep(0.1)
    assert bot.calls == [1]
    d.close()
