#!/usr/bin/env bash
# Worker-process scaling: runs the same fixed-size experiment against a real
# nats-server with 1..N worker processes and prints runs/s and the scaling
# efficiency (runs/s with n workers) / (n x runs/s with 1 worker).
# Usage: scripts/bench-scaling.sh [MAX_WORKERS] [FILE] [QUERY]
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-2}
file=${2:-testdata/smc/gossip_2.c}
query=${3:-'Pr[<=5000](<> [0.VERIFIER_finished]) {Rule=fixed, Epsilon=0.01}'}
go build -o bin/wyvern ./cmd/wyvern
tmp=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
url=nats://127.0.0.1:$port
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
nats-server -js -a 127.0.0.1 -p "$port" -sd "$tmp/js" >"$tmp/nats.log" 2>&1 & pids+=($!)
sleep 0.5
bin/wyvern coordinator --nats "$url" >"$tmp/coord.log" 2>&1 & pids+=($!)
base=""
for n in $(seq 1 "$max"); do
  wp=()
  for i in $(seq 1 "$n"); do
    bin/wyvern worker --nats "$url" --id "bench-$n-$i" >>"$tmp/workers.log" 2>&1 & wp+=($!)
  done
  sleep 1.5
  rps=$(bin/wyvern submit --nats "$url" "$file" "$query" --json --quiet | python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.1f" % r["stats"]["runs_per_s"])')
  kill "${wp[@]}"; wait "${wp[@]}" 2>/dev/null || true
  [ -z "$base" ] && base=$rps
  eff=$(python3 -c "print('%.1f' % (100*$rps/($n*$base)))")
  echo "workers=$n runs/s=$rps efficiency=${eff}%"
done
