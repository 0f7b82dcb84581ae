#!/usr/bin/env bash
# Forward models, certify and search on the platform test servers
# (docs/benchmarks/forward-models.md).
#
# Run: nice -n 10 bash benchmarks/forward_models.sh [SEEDS] [STEPS] [OUT]
# Serves the platform test games (python -m sunbot.testing.platform) and the other test
# server (--throttle-every 7) on loopback, runs every command below with a time limit, and
# prints each command with its output; the page's tables are copied from that output.
# SEEDS (default 1-30) are the bench seeds and STEPS (default 400) the runs' step cap;
# certify plays 20 seeds where a trajectory is quick, fewer where the model draws.
set -u
SEEDS=${1:-1-30}
STEPS=${2:-400}
OUT=${3:-$(mktemp -d)}
PLAT=18741
OTHER=18742
LLM=18743
python -m sunbot.testing.platform --port "$PLAT" >"$OUT/platform.log" 2>&1 &
PLAT_PID=$!
python -m sunbot.testing.otherserver --port "$OTHER" --throttle-every 7 >"$OUT/other.log" 2>&1 &
OTHER_PID=$!
# the scripted test model endpoint: llm:legal answers a legal action picked by a hash of
# the prompt (no reasoning: a stand-in that shows what a model costs, not what it knows)
python -m sunbot.testing.llm_endpoint --port "$LLM" >"$OUT/llm.log" 2>&1 &
LLM_PID=$!
export OPENAI_BASE_URL="http://127.0.0.1:$LLM/v1" OPENAI_API_KEY=unused
trap 'kill "$PLAT_PID" "$OTHER_PID" "$LLM_PID" 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$PLAT/api/games" >/dev/null \
    && curl -sf "http://127.0.0.1:$OTHER/api/games" >/dev/null \
    && curl -sf "$OPENAI_BASE_URL/models" >/dev/null && break
  sleep 0.2
done
P="http://127.0.0.1:$PLAT"
M=examples/forward_models
export COLUMNS=200

run() {  # LIMIT_S COMMAND...: the command, its exit code and its output
  local limit=$1
  shift
  echo "\$ $*"
  local t0=$SECONDS
  timeout "$limit" "$@" 2>&1 | grep -v "jobs (.*elapsed\|jobs took"
  echo "(exit ${PIPESTATUS[0]}, ${SECONDS}s - ${t0}s wall)"
  echo
}

echo "# $(date -u +%FT%TZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# certify: the example models against the platform test server and the other test server
for g in maze-runner:maze_runner:MazeRunner sliding-puzzle:sliding_puzzle:SlidingPuzzle \
  dots-and-boxes:dots_and_boxes:DotsAndBoxes; do
  IFS=: read -r slug file cls <<<"$g"
  run 300 sunbot certify "$slug" --engine "$M/$file.py:$cls" --server "$P" \
    --seeds 1-20 --max-steps 40 --no-certificate
done
run 300 sunbot certify tile-merge --engine "$M/tile_merge.py:TileMerge" --server "$P" \
  --seeds 1-10 --max-steps 60 --no-certificate
# Sunloaf's new days (step 22 onward) are the other server's own draws
run 600 sunbot certify sunloaf --engine "$M/sunloaf.py:Sunloaf" \
  --server "http://127.0.0.1:$OTHER" --seeds 1-20 --max-steps 60 --no-certificate
# the sudoku and pixel-puzzle models: random and first, then search (which plays the solves,
# and on pixel-puzzle the five puzzles' hand-overs, that random and first never reach)
for g in sudoku:sudoku:Sudoku pixel-puzzle:pixel_puzzle:PixelPuzzle; do
  IFS=: read -r slug file cls <<<"$g"
  run 300 sunbot certify "$slug" --engine "$M/$file.py:$cls" --server "$P" \
    --seeds 1-20 --max-steps 100 --no-certificate
  run 300 sunbot certify "$slug" --engine "$M/$file.py:$cls" --server "$P" \
    --seeds 1-5 --policy search --max-steps 200 --no-certificate
done
# the crate-push and pipe-connect models: random and first, then search as the policy
# (crate-push's search run loads every level, so each level's opening is predicted too)
run 300 sunbot certify crate-push --engine "$M/crate_push.py:CratePush" --server "$P" \
  --seeds 1-20 --max-steps 200 --no-certificate
run 300 sunbot certify pipe-connect --engine "$M/pipe_connect.py:PipeConnect" --server "$P" \
  --seeds 1-20 --max-steps 100 --no-certificate
run 300 sunbot certify crate-push --engine "$M/crate_push.py:CratePush" --server "$P" \
  --seeds 1-3 --policy search --max-steps 200 --no-certificate
run 300 sunbot certify pipe-connect --engine "$M/pipe_connect.py:PipeConnect" --server "$P" \
  --seeds 1-3 --policy search --max-steps 100 --no-certificate
# search over a forward model against random and first
for g in maze-runner:maze_runner:MazeRunner sliding-puzzle:sliding_puzzle:SlidingPuzzle \
  dots-and-boxes:dots_and_boxes:DotsAndBoxes tile-merge:tile_merge:TileMerge; do
  IFS=: read -r slug file cls <<<"$g"
  # tile-merge's search plays every run to the cap: 30 x 400 decisions
  limit=600 && [ "$slug" = tile-merge ] && limit=1800
  run "$limit" sunbot bench "$slug" --server "$P" -s search -s random -s first \
    --seeds "$SEEDS" --engine "$M/$file.py:$cls" --cap "steps=$STEPS" --workers 2 \
    --out "$OUT" --format md
done
# search through the sudoku and pixel-puzzle models against random, first and the scripted
# model (llm:legal); the cap fits a solve (45 placements; 139 clicks for the five pictures)
for g in sudoku:sudoku:Sudoku:150 pixel-puzzle:pixel_puzzle:PixelPuzzle:"$STEPS"; do
  IFS=: read -r slug file cls cap <<<"$g"
  run 1500 sunbot bench "$slug" --server "$P" -s search -s random -s first -s llm:legal \
    --seeds "$SEEDS" --engine "$M/$file.py:$cls" --cap "steps=$cap" --workers 2 \
    --out "$OUT" --format md
done
# checkers through its model (docs/benchmarks/forward-models.md, "search through the
# checkers model"): certify, then search against random and first; G-Bot is deterministic,
# so every seed plays the same game; llm:legal on the scripted endpoint in a bench of its own
run 600 sunbot certify checkers --engine "$M/checkers.py:Checkers" --server "$P" \
  --seeds 1-20 --max-steps 60 --no-certificate
run 3600 sunbot bench checkers --server "$P" -s search -s random -s first --seeds "$SEEDS" \
  --engine "$M/checkers.py:Checkers" --cap steps=200 --workers 2 --job-timeout 900 \
  --out "$OUT" --format md
run 1200 sunbot bench checkers --server "$P" -s llm:legal --seeds "$SEEDS" --cap steps=200 \
  --workers 2 --job-timeout 900 --out "$OUT" --format md
# search through the crate-push and pipe-connect models against random, first and the
# scripted model (llm:legal); a solve takes 80 moves (crate-push) or 8-20 turns
for g in crate-push:crate_push:CratePush:200 pipe-connect:pipe_connect:PipeConnect:150; do
  IFS=: read -r slug file cls cap <<<"$g"
  run 900 sunbot bench "$slug" --server "$P" -s search -s random -s first -s llm:legal \
    --seeds "$SEEDS" --engine "$M/$file.py:$cls" --cap "steps=$cap" --workers 2 \
    --out "$OUT" --format md
done
# search through the server (--lookahead 10) on every game the peek guard lets through,
# against random, first and the scripted model (llm:legal); the step cap a game (the
# puzzles' 400 as above, fewer where a solve takes fewer moves)
for g in word-search:60 dots-and-boxes:100 checkers:200 pipe-connect:150 pixel-puzzle:150 \
  sudoku:150 crate-push:200 sliding-puzzle:"$STEPS" maze-runner:"$STEPS"; do
  IFS=: read -r slug cap <<<"$g"
  run 1500 sunbot bench "$slug" --server "$P" -s search -s random -s first -s llm:legal \
    --seeds "$SEEDS" --lookahead 10 --cap "steps=$cap" --workers 2 --job-timeout 600 \
    --out "$OUT" --format md
done
# the peek guard: hidden information and random spawns refused, --allow-peek labelled
for slug in memory-match word-guess solitaire tile-merge dice-dash; do
  run 120 sunbot play "$slug" --server "$P" --strategy search --lookahead 5 --seed 1
done
run 300 sunbot bench tile-merge --server "$P" -s search --seeds 1-2 --lookahead 10 \
  --allow-peek --cap steps=50 --workers 2 --out "$OUT" --format md
# wall time and requests per decision, and the runs ended by the rules (solved, or the game
# over), from every bench's results.csv
python - "$OUT" <<'PY'
import csv, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("*/results.csv")):
    rows = list(csv.DictReader(path.open()))
    for name in dict.fromkeys(r["strategy"] for r in rows):
        ok = [r for r in rows if r["strategy"] == name and r["ended_by"] not in ("error", "timeout")]
        decisions = sum(int(r["decisions"] or 0) for r in ok) or 1
        wall = sum(float(r["wall_s"] or 0) for r in ok)
        asked = sum(int(r["requests"] or 0) for r in ok)
        ended = sum(r["ended_by"] == "rules" for r in ok)
        print(f"{path.parent.name} {name}: {len(ok)} runs, {ended} ended by the rules,"
              f" {1000 * wall / decisions:.0f} ms and {asked / decisions:.1f} requests a decision")
PY
