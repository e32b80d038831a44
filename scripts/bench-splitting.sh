#!/usr/bin/env bash
# Importance splitting on the programs of seed 003 Table 2 (fib_16, fib_32,
# the lock-free stack): runs each query of testdata/smc/splitting.txt with
# `wyvern check` and prints the estimate, its interval and the wall time.
# Usage: scripts/bench-splitting.sh [WORKERS]   (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${1:-2}
go build -o /tmp/wyvern-bench ./cmd/wyvern
while IFS=$'\t' read -r file q lo hi; do
  start=$(date +%s.%N)
  # Exit 11: an estimate whose interval's coverage is not assured (M = 10
  # is few for skewed estimates); the estimate is still printed.
  rc=0
  out=$(/tmp/wyvern-bench check "testdata/smc/$file" "$q" --workers "$workers" --quiet) || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 11 ] || exit "$rc"
  end=$(date +%s.%N)
  printf '%-10s %s  wall %.2f s (Monte Carlo range [%s, %s])\n' "$file" \
    "$(grep '^Probability' <<<"$out" | sed 's/ with confidence.*//')" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" "$lo" "$hi"
done < testdata/smc/splitting.txt
