#!/usr/bin/env bash
# Regenerate the golden transcripts replayed by tests/test_goldens.py. Run this ON PURPOSE
# after a deliberate rules or strategy change, review the diff of the results, and commit.
#   scripts/regenerate_goldens.sh
set -euo pipefail
cd "$(dirname "$0")/.."
play() {  # play <file> <sunbot play arguments...>
  local out="transcripts/$1"; shift
  rm -f "$out"
  sunbot play "$@" --quiet --transcript "$out" >/dev/null
  echo "$out: $(tail -n 1 "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("score", r["score"], "steps", r["steps"], "endedBy", r["endedBy"], "divergences", r["divergences"])')"
}
play golden-keelhold-seed7.jsonl keelhold --seed 7 --max-voyages 6
play golden-sunloaf-seed7.jsonl sunloaf --seed 7 --max-days 5
play golden-naptuft-seed7.jsonl naptuft --seed 7 --max-days 3
play golden-harvest-watch-seed7.jsonl harvest-watch --seed 7
