#!/usr/bin/env bash
# What NATS round trips cost a worker: runs a fixed-size experiment with one
# worker connected to nats-server directly and through scripts/latencyproxy
# (UP from client to server, DOWN back: a round trip as on a cluster; the
# round trip got is measured and printed), for each
# wyvern binary given, alternating binaries round after round so that they
# are compared in the same conditions. Prints runs/s (the coordinator's) and
# the messages the worker's connection exchanged a job (nats-server's
# /connz: in + out, heartbeats and keep-alives included).
#
# Usage: scripts/bench-latency.sh LABEL=BIN [LABEL=BIN ...]
#   (default: cur=<go build of this tree>)
# Environment: UP (default 0), DOWN (default 500us: about 1.5 ms a round trip
#   on a VM whose timers fire every ~1 ms), ROUNDS (default 3), RUNS (traces an
#   experiment, default 100000: ~4 s), JOB_SIZE (default 256), FILE, QUERY (default
#   gossip_2's VERIFIER_finished query), MODES (default "direct proxy"),
#   COORD_VIA_PROXY (1: the coordinator connects through the proxy too).
set -euo pipefail
cd "$(dirname "$0")/.."
file=${FILE:-testdata/smc/gossip_2.c}
query=${QUERY:-'Pr[<=5000](<> [0.VERIFIER_finished])'}
runs=${RUNS:-100000}
jobsize=${JOB_SIZE:-256}
up=${UP:-0}
down=${DOWN:-500us}
rounds=${ROUNDS:-3}
modes=${MODES:-direct proxy}
tmp=$(mktemp -d)
if [ $# -eq 0 ]; then
  go build -o "$tmp/wyvern" ./cmd/wyvern
  set -- "cur=$tmp/wyvern"
fi
go build -o "$tmp/latencyproxy" ./scripts/latencyproxy
port=$((20000 + RANDOM % 20000))
mport=$((port + 1))
pport=$((port + 2))
url=nats://127.0.0.1:$port
purl=nats://127.0.0.1:$pport
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
nats-server -js -a 127.0.0.1 -p "$port" -m "$mport" -sd "$tmp/js" >"$tmp/nats.log" 2>&1 & pids+=($!)
"$tmp/latencyproxy" -listen "127.0.0.1:$pport" -to "127.0.0.1:$port" -up "$up" -down "$down" >"$tmp/proxy.log" 2>&1 & pids+=($!)
sleep 0.5
curl -s "http://127.0.0.1:$mport/healthz" >/dev/null
"$tmp/latencyproxy" -ping "$url"
"$tmp/latencyproxy" -ping "$purl"
q="$query {Rule=fixed, Epsilon=0.0005, MaxRuns=$runs}"
n=0
echo "proxy delays: $up up, $down down; runs=$runs, job size=$jobsize"
for r in $(seq 1 "$rounds"); do
  for spec in "$@"; do
    label=${spec%%=*}
    bin=${spec#*=}
    for mode in $modes; do
      n=$((n + 1))
      wurl=$url
      curl_=$url
      if [ "$mode" = proxy ]; then wurl=$purl; fi
      if [ "$mode" = proxy ] && [ "${COORD_VIA_PROXY:-0}" = 1 ]; then curl_=$purl; fi
      "$bin" coordinator --nats "$curl_" >>"$tmp/coord.log" 2>&1 & cp=$!
      "$bin" worker --nats "$wurl" --id "lat$n" >>"$tmp/workers.log" 2>&1 & wp=$!
      sleep 1.5
      rps=$("$bin" submit --nats "$url" "$file" "$q" --json --quiet --job-size "$jobsize" |
        python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.1f" % r["stats"]["runs_per_s"])')
      msgs=$(curl -s "http://127.0.0.1:$mport/connz?limit=1000" | python3 -c "
import json,sys
c=[c for c in json.load(sys.stdin)['connections'] if c.get('name')=='wyvern-worker-lat$n']
print(sum(x['in_msgs']+x['out_msgs'] for x in c))")
      kill "$wp" "$cp"; wait "$wp" "$cp" 2>/dev/null || true
      perjob=$(python3 -c "print('%.1f' % ($msgs/(($runs+$jobsize-1)//$jobsize)))")
      echo "round=$r bin=$label mode=$mode runs/s=$rps msgs/job=$perjob" | tee -a "$tmp/results"
    done
  done
done
# Medians over the rounds (this VM's speed drifts: compare within a round,
# or medians), and what the proxy's round trips cost each binary.
python3 - "$tmp/results" <<'PY'
import collections, statistics, sys
rps, msgs = collections.defaultdict(list), {}
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split())
    rps[f["bin"], f["mode"]].append(float(f["runs/s"]))
    msgs[f["bin"]] = f["msgs/job"]
bins = list(dict.fromkeys(b for b, _ in rps))
for b in bins:
    d, p = rps.get((b, "direct")), rps.get((b, "proxy"))
    line = "median bin=%s msgs/job=%s" % (b, msgs[b])
    if d: line += " direct=%.0f" % statistics.median(d)
    if p: line += " proxy=%.0f" % statistics.median(p)
    if d and p:
        ratios = [x / y for x, y in zip(p, d)]
        line += " proxy/direct=%.2f (per round: %s)" % (statistics.median(ratios), " ".join("%.2f" % r for r in ratios))
    print(line)
PY
