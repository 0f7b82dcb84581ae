"""LLMStrategy's prompt sizes and its own time per decision, without a model's time.

Plays each game with the scripted ``legal`` model of ``sunbot.testing.llm_endpoint``,
served in-process (no socket), which answers at once. For each game it prints:

- the first decision's prompt: system and user message in characters, and tokens
  estimated at characters / 4;
- the user message per step over the run (mean and largest), and the whole prompt per step;
- sunbot's own overhead per decision: the time of ``choose`` less the time spent inside
  the SDK call (``latencyMs``), i.e. rendering the prompt, moving untrusted text, building
  the response schema, reading and checking the answer (median and 95th percentile, ms);
- the SDK call's time with the instant endpoint, for scale (median, ms).

Usage: ``python benchmarks/llm_overhead.py [--seed N] [--runs N] [--days N] [--voyages N]
[--write-docs]``; ``--write-docs`` also writes the table into ``docs/benchmarks/llm.md``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import sunbot
from sunbot.agents.llm import LLMStrategy
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.observations.harvest_watch import legal_actions
from sunbot.testing.llm_endpoint import create_llm_app, in_process_client


class Timed:
    """Wraps an LLMStrategy: the wall time of each ``choose`` and its record."""

    def __init__(self, inner: LLMStrategy) -> None:
        self.inner = inner
        self.rows: list[tuple[float, dict[str, Any]]] = []

    def on_start(self, game: str, seed: int | None, *, cap: int | None = None) -> None:
        self.inner.on_start(game, seed, cap=cap)

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        t0 = time.perf_counter()
        action = self.inner.choose(observation, legal)
        took = time.perf_counter() - t0
        record = self.inner.last_decision()
        assert record is not None
        self.rows.append((took, record))
        return action


def _harvest_watch(bot: Timed, seed: int) -> None:
    """One engine match: our seat 0 against house bots in seats 1-5."""
    rng = random.Random(seed)
    memory: dict[int, dict[str, Any]] = {s: {} for s in range(1, 6)}
    state = hw.init(seed, 6)
    for _ in range(400):
        if state["status"] == "done":
            return
        commands = {
            s: [hw.house_command(state, s, memory[s], rng, house_seats=list(memory))]
            for s in memory
            if state["alive"][s]
        }
        if state["alive"][0]:
            obs = seat_data(state, 0, can_act=True, pending=None)
            commands[0] = [bot.choose(obs, legal_actions(obs))]
        state = hw.resolve_beat(state, commands)


def measure(game: str, seeds: list[int], cap: dict[str, int]) -> dict[str, Any]:
    """Play one run of ``game`` per seed; return prompt sizes (the first decision's: of
    the first run) and times over all decisions."""
    app = create_llm_app()
    bot = Timed(LLMStrategy("legal", game=game, client=in_process_client(app)))
    sizes: list[list[int]] = []
    for seed in seeds:
        app.state.requests.clear()
        if game == "harvest-watch":
            _harvest_watch(bot, seed)
        else:
            sunbot.play(game, seed=seed, strategy=bot, **cap)
        sizes += [[len(m["content"]) for m in b["messages"]] for b in app.state.requests]
    users = [s[1] for s in sizes]
    overhead = [(took * 1000 - rec["latencyMs"]) for took, rec in bot.rows]
    sdk = [rec["latencyMs"] for _, rec in bot.rows]
    return {
        "game": game,
        "decisions": len(bot.rows),
        "system": sizes[0][0],
        "first_user": sizes[0][1],
        "user_mean": statistics.fmean(users),
        "user_max": max(users),
        "prompt_mean": statistics.fmean(sum(s) for s in sizes),
        "overhead_p50": statistics.median(overhead),
        "overhead_p95": _p95(overhead),
        "sdk_p50": statistics.median(sdk),
    }


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    """Print one row per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the first run's seed")
    parser.add_argument("--runs", type=int, default=5, help="runs per game (seeds from --seed)")
    parser.add_argument("--days", type=int, default=2, help="Sunloaf and Naptuft cap")
    parser.add_argument("--voyages", type=int, default=2, help="Keelhold cap")
    parser.add_argument("--write-docs", action="store_true", help="update docs/benchmarks/llm.md")
    args = parser.parse_args()
    caps = {
        "keelhold": {"max_voyages": args.voyages},
        "sunloaf": {"max_days": args.days},
        "naptuft": {"max_days": args.days},
        "harvest-watch": {},
    }
    head = (
        f"{'game':<14}{'n':>4} | {'first: system':>13} {'user':>6} {'~tokens':>8} |"
        f" {'per step: user':>14} {'max':>6} {'~tokens':>8} |"
        f" {'overhead ms p50':>15} {'p95':>6} | {'sdk ms p50':>10}"
    )
    print(head)
    print("-" * len(head))
    rows: list[list[str]] = []
    for game, cap in caps.items():
        r = measure(game, list(range(args.seed, args.seed + args.runs)), cap)
        first = (r["system"] + r["first_user"]) // 4
        rows.append(
            [
                r["game"],
                str(r["decisions"]),
                f"{r['system']:,} + {r['first_user']:,}",
                f"{first:,}",
                f"{r['user_mean']:,.0f} / {r['user_max']:,}",
                f"{r['prompt_mean'] / 4:,.0f}",
                f"{r['overhead_p50']:.2f} / {r['overhead_p95']:.2f} ms",
                f"{r['sdk_p50']:.2f} ms",
            ]
        )
        print(
            f"{r['game']:<14}{r['decisions']:>4} | {r['system']:>13} {r['first_user']:>6}"
            f" {first:>8} | {r['user_mean']:>14.0f} {r['user_max']:>6}"
            f" {r['prompt_mean'] / 4:>8.0f} | {r['overhead_p50']:>15.2f}"
            f" {r['overhead_p95']:>6.2f} | {r['sdk_p50']:>10.2f}"
        )
    print("characters; ~tokens = characters / 4 (system + user); overhead = choose - SDK call")
    if args.write_docs:
        from docs_block import markdown_table, write_block

        header = [
            "game",
            "decisions",
            "first prompt: system + user (chars)",
            "≈ tokens",
            "user message per step: mean / max (chars)",
            "≈ tokens per step",
            "overhead per decision p50 / p95",
            "SDK call p50 (instant endpoint)",
        ]
        note = "Characters; ≈ tokens = characters / 4; overhead = `choose` less the SDK call."
        print(write_block("llm", "llm-overhead", f"{note}\n\n{markdown_table(header, rows)}"))


if __name__ == "__main__":
    main()
