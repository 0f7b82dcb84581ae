"""This tree against a pinned earlier commit, side by side in one run: the figures of issue 39.

    python benchmarks/versus.py serve [--rounds 5] [--seconds 6] [--clients 4]
    python benchmarks/versus.py play  [--rounds 5] [--steps 400]
    python benchmarks/versus.py mirror [--rounds 5] [--steps 2000]
    python benchmarks/versus.py envs  [--rounds 5] [--steps 20000]
    python benchmarks/versus.py all --write-docs

Each command checks the pinned commit (:data:`pinned.PINNED`, ``--commit`` for another)
out into a temporary worktree and measures it and this tree in turn, ``--rounds`` times,
the first of each pair alternating; the figure is the median of the round-by-round ratios
(new / old; above 1 is faster). Every measurement runs in its own process, so neither
code's imports or caches help the other.

- ``serve``: ``sunbot serve`` (one worker, a separate process) answering ``--clients``
  keep-alive connections that play Keelhold (first-safe) on the action route for
  ``--seconds``: requests per second. The clients are a lean h11 loop (``raw_client.py``).
- ``play``: ``sunbot.play`` on the embedded server with the mirror on (no transcript), for
  Keelhold (``first-safe``) and Naptuft (``rotation``), strategies that take next to no
  time, so the figure is the loop's: steps per CPU second of the process (CPU per step is
  its inverse), runs started anew at each game's end (their set-up counted).
- ``mirror``: the mirror re-checking a recorded run's answers (engine answers, in-process):
  answers checked per CPU second.
- ``envs``: ``sunbot/Keelhold-v1`` (cap 4 voyages) and ``sunbot/Naptuft-v1`` on the engine,
  and their bare engine loop (the same episodes and actions, with ``init``, ``step``,
  ``legal_actions``, ``observation``, ``score``, ``is_over`` and the cap on the engine
  alone): steps per CPU second, and the env's share of its bare loop.

``--write-docs`` writes the table into ``docs/benchmarks/versus.md`` (block ``versus``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pinned import PINNED, REPO, code_env, pinned_tree, ratio, side_by_side

HERE = Path(__file__).resolve().parent

# Each probe runs in a child process with one code or the other on its path, and prints
# one JSON line. They use only what both codes have (sunbot.play, the engines, the mirror).
_PLAY = """
import json, sys, time
import sunbot
game, steps = sys.argv[1], int(sys.argv[2])
bot = {"keelhold": "first-safe", "naptuft": "rotation"}[game]  # cheap: the loop is measured
done, seed = 0, 11
sunbot.play(game, seed=seed, max_steps=5, strategy=bot)  # warm: imports, the app, the key
cpu = time.process_time()
while done < steps:
    summary = sunbot.play(game, seed=seed, strategy=bot, mirror=True, max_steps=steps - done)
    assert not summary.divergences, summary.divergences[:1]
    done += summary.steps
    seed += 1
print(json.dumps({"rate": done / (time.process_time() - cpu)}))
"""

_MIRROR = """
import json, random, sys, time
from sunbot import strategies
from sunbot.games import get_game
from sunbot.mirror import Mirror
game, steps = sys.argv[1], int(sys.argv[2])
info = get_game(game)
eng = info.engine
def answer(state):
    obs = eng.observation(state)
    return {"ok": True, "state": obs if info.hidden else state, "stateToken": "t",
            "observation": obs, "legalActions": eng.legal_actions(state),
            "score": eng.score(state), "gameOver": eng.is_over(state)}
runs, seed, n = [], 1, 0
while n < steps:  # record runs first: the timed part is the mirror alone
    bot = strategies.create(game, info.default_strategy, random.Random(seed))
    state = eng.init(seed)
    run = [answer(state)]
    while not eng.is_over(state) and n < steps:
        a = run[-1] if len(run) == 1 else run[-1][1]
        action = bot.choose(a["observation"], a["legalActions"])
        state = eng.step(state, action)
        run.append((action, answer(state)))
        n += 1
    runs.append(run)
    seed += 1
cpu = time.process_time()
checked = 0
for run in runs:
    m = Mirror(game)
    assert not m.check_init(run[0])
    prev = run[0]
    for i, (action, ans) in enumerate(run[1:], start=1):
        assert not m.check_action(i, prev, action, ans)
        prev = ans
        checked += 1
print(json.dumps({"rate": checked / (time.process_time() - cpu)}))
"""

_ENVS = """
import json, sys, time
import numpy as np
import gymnasium as gym
import sunbot.envs
from sunbot.games import get_game
game, steps = sys.argv[1], int(sys.argv[2])
env_id, cap = {"keelhold": ("sunbot/Keelhold-v1", 4), "naptuft": ("sunbot/Naptuft-v1", None)}[game]
kw = {"max_voyages": cap} if game == "keelhold" else {}
def env_loop():
    env = gym.make(env_id, **kw)
    seed = 1
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            seed += 1
            obs, info = env.reset(seed=seed)
def bare_loop():
    g = get_game(game)
    eng = g.engine
    seed = 1
    state = eng.init(seed)
    for _ in range(steps):
        legal = eng.legal_actions(state)
        state = eng.step(state, legal[0])
        obs = eng.observation(state)
        eng.score(state)
        if eng.is_over(state) or g.cap_action(obs, cap) is not None:
            seed += 1
            state = eng.init(seed)
            eng.observation(state)
out = {}
for name, loop in (("bare", bare_loop), ("env", env_loop)):
    cpu = time.process_time()
    loop()
    out[name] = steps / (time.process_time() - cpu)
out["rate"] = out["env"]
out["share"] = out["env"] / out["bare"]
print(json.dumps(out))
"""


def _probe(tree: Path | None, script: str, *args: str) -> dict[str, Any]:
    """Run ``script`` with ``tree``'s code (``None``: this tree); its JSON line."""
    cwd = tree if tree is not None else REPO
    proc = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=code_env(tree),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"probe failed ({'pinned' if tree else 'this tree'}): {proc.stderr}")
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve_rate(tree: Path | None, seconds: float, clients: int) -> float:
    """Action requests per second of one ``sunbot serve`` worker running ``tree``'s code."""
    import asyncio

    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sunbot", "serve", "--port", str(port), "--log-level", "error"],
        env=code_env(tree),
        cwd=tree if tree is not None else REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        return asyncio.run(_load(port, seconds, clients))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


async def _load(port: int, seconds: float, clients: int) -> float:
    import asyncio
    import random

    import orjson
    from raw_client import Connection

    from sunbot import strategies

    for _ in range(200):  # wait for the server (bounded: 10 s)
        try:
            probe = Connection("127.0.0.1", port)
            await probe.open()
            await probe.close()
            break
        except OSError:
            await asyncio.sleep(0.05)
    else:
        raise RuntimeError("sunbot serve did not start")
    counts = [0] * clients
    started = asyncio.Event()
    deadline = [0.0]

    async def one(k: int) -> None:
        conn = Connection("127.0.0.1", port)
        await conn.open()
        seed = 1000 * k
        try:
            await started.wait()
            while time.perf_counter() < deadline[0]:
                bot = strategies.create("keelhold", "first-safe", random.Random(seed))
                _, body = await conn.request("GET", f"/api/games/keelhold/init?seed={seed}")
                pos = orjson.loads(body)
                while not pos.get("gameOver") and time.perf_counter() < deadline[0]:
                    action = bot.choose(pos["observation"], pos["legalActions"])
                    sent = orjson.dumps({"stateToken": pos["stateToken"], "action": action})
                    status, body = await conn.request("POST", "/api/games/keelhold/action", sent)
                    if status != 200:
                        raise RuntimeError(f"HTTP {status}: {body[:200]!r}")
                    pos = orjson.loads(body)
                    if time.perf_counter() < deadline[0]:
                        counts[k] += 1
                seed += 1
        finally:
            await conn.close()

    tasks = [asyncio.create_task(one(k)) for k in range(clients)]
    await asyncio.sleep(0.5)  # connections open, the server warm
    t0 = time.perf_counter()
    deadline[0] = t0 + seconds
    started.set()
    await asyncio.gather(*tasks)
    return sum(counts) / seconds


def _table_rows(results: dict[str, tuple[list[float], list[float], str]]) -> list[list[str]]:
    rows = []
    for name, (olds, news, unit) in results.items():
        old_m = sorted(olds)[len(olds) // 2]
        new_m = sorted(news)[len(news) // 2]
        rows.append(
            [name, f"{old_m:,.0f} {unit}", f"{new_m:,.0f} {unit}", f"x{ratio(olds, news):.2f}"]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["serve", "play", "mirror", "envs", "all"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=6.0, help="serve: seconds per round")
    parser.add_argument("--clients", type=int, default=4, help="serve: connections")
    parser.add_argument("--steps", type=int, default=0, help="steps per round (0: default)")
    parser.add_argument("--commit", default=PINNED, help="the baseline commit")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    chosen = ["serve", "play", "mirror", "envs"] if args.what == "all" else [args.what]
    results: dict[str, tuple[list[float], list[float], str]] = {}
    shares: dict[str, float] = {}
    with pinned_tree(args.commit) as old:
        for what in chosen:
            if what == "serve":
                olds, news = side_by_side(
                    lambda t: _serve_rate(t, args.seconds, args.clients), old, args.rounds
                )
                results[f"`sunbot serve`, Keelhold action, {args.clients} clients"] = (
                    olds, news, "requests/s"
                )  # fmt: skip
            for game in ("keelhold", "naptuft"):
                if what == "play":
                    steps = str(args.steps or 300)
                    olds, news = side_by_side(
                        lambda t, g=game, n=steps: _probe(t, _PLAY, g, n)["rate"], old, args.rounds
                    )
                    results[f"`sunbot.play` {game}, embedded, mirror on"] = (
                        olds, news, "steps/CPU s"
                    )  # fmt: skip
                if what == "mirror":
                    steps = str(args.steps or 2000)
                    olds, news = side_by_side(
                        lambda t, g=game, n=steps: _probe(t, _MIRROR, g, n)["rate"],
                        old,
                        args.rounds,
                    )
                    results[f"mirror, {game}"] = (olds, news, "answers/CPU s")
                if what == "envs":
                    steps = str(args.steps or 20000)
                    got: list[dict[str, Any]] = []

                    def env_rate(
                        t: Path | None,
                        g: str = game,
                        n: str = steps,
                        got: list[dict[str, Any]] = got,
                    ) -> float:
                        out = _probe(t, _ENVS, g, n)
                        if t is None:
                            got.append(out)
                        return float(out["rate"])

                    olds, news = side_by_side(env_rate, old, args.rounds)
                    results[f"env {game} (engine)"] = (olds, news, "steps/CPU s")
                    shares[game] = sorted(o["share"] for o in got)[len(got) // 2]
            for name, (olds, news, _) in results.items():
                print(f"{name}: old {olds}, new {news}, ratio x{ratio(olds, news):.2f}", flush=True)
    rows = _table_rows(results)
    for game, share in shares.items():
        print(f"env {game}: {share:.2f}x of its bare engine loop (median)")
    if args.write_docs:
        from docs_block import markdown_table, write_block

        table = markdown_table(["measure", "pinned", "this tree", "ratio"], rows)
        extra = "".join(
            f"\n- `{g}` environment: {s:.2f}x of its bare engine loop's steps per CPU second"
            for g, s in shares.items()
        )
        note = (
            f"Pinned commit `{args.commit[:12]}`; medians of {args.rounds} rounds each, "
            "alternating; the ratio is the median of the rounds' ratios."
        )
        print(write_block("versus", "versus-" + args.what, f"{note}\n\n{table}\n{extra}"))


if __name__ == "__main__":
    main()
