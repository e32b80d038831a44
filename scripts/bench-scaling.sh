#!/usr/bin/env bash
# Worker-process scaling: runs a fixed-size experiment against a real
# nats-server with n worker processes for each n given, and prints runs/s and
# the scaling efficiency (runs/s with n workers) / (n x runs/s with 1 worker).
# Each experiment runs RUNS_PER_WORKER x n traces (MaxRuns under Rule=fixed),
# so every point takes about the same time whatever n.
#
# Usage: scripts/bench-scaling.sh [N ...]          (default: 1 2)
#        scripts/bench-scaling.sh MAX               (one number: 1..MAX)
# Environment: WYVERN_BIN (a built wyvern; default: go build into bin/),
#   FILE (default testdata/smc/gossip_2.c), QUERY (default gossip_2's
#   VERIFIER_finished query), RUNS_PER_WORKER (default 20000).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then set -- 1 2; fi
if [ $# -eq 1 ]; then set -- $(seq 1 "$1"); fi
file=${FILE:-testdata/smc/gossip_2.c}
query=${QUERY:-'Pr[<=5000](<> [0.VERIFIER_finished])'}
per=${RUNS_PER_WORKER:-20000}
bin=${WYVERN_BIN:-}
if [ -z "$bin" ]; then
  go build -o bin/wyvern ./cmd/wyvern
  bin=bin/wyvern
fi
tmp=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
url=nats://127.0.0.1:$port
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
nats-server -js -a 127.0.0.1 -p "$port" -sd "$tmp/js" >"$tmp/nats.log" 2>&1 & pids+=($!)
sleep 0.5
"$bin" coordinator --nats "$url" >"$tmp/coord.log" 2>&1 & pids+=($!)
base=""
for n in "$@"; do
  wp=()
  for i in $(seq 1 "$n"); do
    "$bin" worker --nats "$url" --id "bench-$n-$i" >>"$tmp/workers.log" 2>&1 & wp+=($!)
  done
  sleep 1.5
  runs=$((per * n))
  q="$query {Rule=fixed, Epsilon=0.0005, MaxRuns=$runs}"
  rps=$("$bin" submit --nats "$url" "$file" "$q" --json --quiet |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.1f" % r["stats"]["runs_per_s"])')
  kill "${wp[@]}"; wait "${wp[@]}" 2>/dev/null || true
  if [ -z "$base" ]; then base=$(python3 -c "print($rps/$n)"); fi
  eff=$(python3 -c "print('%.1f' % (100*$rps/($n*$base)))")
  echo "workers=$n runs=$runs runs/s=$rps efficiency=${eff}%"
done
