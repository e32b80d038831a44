#!/usr/bin/env bash
# The docker-compose topology without Docker, as plain processes on loopback:
# a real `nats-server -js` (store in a temporary directory), `wyvern
# coordinator`, N `wyvern worker`s, each serving Prometheus metrics
# (`--metrics 127.0.0.1:PORT`), and Prometheus scraping them all. Runs one
# experiment through it with `wyvern submit`, prints the result and what
# Prometheus recorded, and tears everything down (also on Ctrl-C or error).
#
# Usage: scripts/cluster-local.sh [-n WORKERS] [--hold] [FILE [QUERY]]
#   -n WORKERS  worker processes (default 3)
#   --hold      keep the cluster up after the experiment until Ctrl-C
#               (Prometheus's UI stays at the printed address)
#   FILE QUERY  default: testdata/smc/petersonsBug.c and its query from
#               testdata/smc/expected.txt
#
# Needs nats-server, prometheus, curl, python3 and clang-14 on PATH
# (scripts/install-deps.sh installs them). WYVERN=/path/to/wyvern uses that
# binary instead of building bin/wyvern. A wyvern without --metrics runs the
# same topology without metrics, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

workers=3
hold=false
pos=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) workers=$2; shift 2 ;;
    -n*) workers=${1#-n}; shift ;;
    --hold) hold=true; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) pos+=("$1"); shift ;;
  esac
done
file=${pos[0]:-testdata/smc/petersonsBug.c}
query=${pos[1]:-'Pr[<=5000](<> ([1.crit] && [2.crit]))'}
case "$workers" in ''|*[!0-9]*|0) echo "cluster-local: -n wants a positive number, got '$workers'" >&2; exit 2 ;; esac

for tool in nats-server prometheus curl python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "cluster-local: $tool not found on PATH (run scripts/install-deps.sh)" >&2
    exit 1
  fi
done

log() { printf 'cluster-local: %s\n' "$*" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wyvern-cluster.XXXXXX")
pids=()
names=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  # Stop in reverse order: submit/workers/coordinator before NATS.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[$i]}" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ -d "$tmp" ]; then
    for f in "$tmp"/*.log; do
      [ -s "$f" ] || continue
      echo "---- last lines of $(basename "$f")" >&2
      tail -n 15 "$f" >&2
    done
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME CMD...: runs CMD in the background, logging to $tmp/NAME.log.
start() {
  local name=$1
  shift
  "$@" >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  names+=("$name")
}

# freeport prints a free TCP port on 127.0.0.1.
freeport() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_http URL WHAT: waits up to 30 s for URL to answer 200.
wait_http() {
  local url=$1 what=$2
  for _ in $(seq 1 150); do
    if curl -fsS -o /dev/null "$url" 2>/dev/null; then return 0; fi
    for i in "${!pids[@]}"; do
      if ! kill -0 "${pids[$i]}" 2>/dev/null; then
        log "${names[$i]} exited while waiting for $what"
        return 1
      fi
    done
    sleep 0.2
  done
  log "$what did not answer at $url within 30 s"
  return 1
}

# promq QUERY: prints the value of a Prometheus instant query ("-" if none).
promq() {
  curl -fsS --get "http://$prom_addr/api/v1/query" --data-urlencode "query=$1" |
    python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(", ".join("%s%s" % (x["value"][1], "" if len(r) == 1 else " (%s)" % ",".join("%s=%s" % kv for kv in sorted(x["metric"].items()) if kv[0] not in ("__name__", "job", "instance"))) for x in r) or "-")'
}

if [ -n "${WYVERN:-}" ]; then
  wyvern=$WYVERN # a prebuilt binary
else
  log "building bin/wyvern"
  go build -o bin/wyvern ./cmd/wyvern
  wyvern=bin/wyvern
fi

metrics=true
# (`-h` exits with status 2: capture its output first, pipefail would see it.)
coordinator_help=$("$wyvern" coordinator -h 2>&1 || true)
if ! grep -q -- '-metrics' <<<"$coordinator_help"; then
  metrics=false
  log "this wyvern has no --metrics flag yet: running without metrics (Prometheus will see the targets down)"
fi
# metrics_flag ADDR: the --metrics flag when supported.
metrics_flag() { if $metrics; then printf -- '--metrics\n%s\n' "$1"; fi; }

nats_port=$(freeport)
nats_mon=$(freeport)
url=nats://127.0.0.1:$nats_port
# deploy/nats/nats-server.conf: coordinator, workers and submitters log in
# as separate users with subject permissions; passwords are made up here and
# reach every process through the environment only (see SECURITY.md).
pw() { python3 -c 'import secrets; print(secrets.token_urlsafe(18))'; }
coord_pw=$(pw) worker_pw=$(pw) submit_pw=$(pw)
start nats env WYVERN_COORDINATOR_PASSWORD="$coord_pw" WYVERN_WORKER_PASSWORD="$worker_pw" WYVERN_SUBMIT_PASSWORD="$submit_pw" \
  nats-server -c deploy/nats/nats-server.conf -a 127.0.0.1 -p "$nats_port" -m "$nats_mon" -sd "$tmp/jetstream"
wait_http "http://127.0.0.1:$nats_mon/healthz" "nats-server"
log "nats-server -js on $url (deploy/nats/nats-server.conf, store $tmp/jetstream)"

coord_metrics=127.0.0.1:$(freeport)
mapfile -t mf < <(metrics_flag "$coord_metrics")
start coordinator env WYVERN_NATS_USER=coordinator WYVERN_NATS_PASSWORD="$coord_pw" "$wyvern" coordinator --nats "$url" "${mf[@]}"
targets_workers=()
for i in $(seq 1 "$workers"); do
  addr=127.0.0.1:$(freeport)
  targets_workers+=("$addr")
  mapfile -t mf < <(metrics_flag "$addr")
  start "worker-$i" env WYVERN_NATS_USER=worker WYVERN_NATS_PASSWORD="$worker_pw" "$wyvern" worker --nats "$url" --id "local-$i" "${mf[@]}"
done
log "coordinator (metrics $coord_metrics) and $workers workers (metrics ${targets_workers[*]})"

# Prometheus: the compose configuration's jobs, with loopback targets.
prom_addr=127.0.0.1:$(freeport)
{
  echo "global:"
  echo "  scrape_interval: 1s"
  echo "  scrape_timeout: 1s"
  echo "scrape_configs:"
  echo "  - job_name: wyvern-coordinator"
  echo "    static_configs:"
  echo "      - targets: [\"$coord_metrics\"]"
  echo "  - job_name: wyvern-worker"
  echo "    static_configs:"
  echo "      - targets: [$(printf '"%s",' "${targets_workers[@]}" | sed 's/,$//')]"
} >"$tmp/prometheus.yml"
start prometheus prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/prometheus-data" \
  --web.listen-address="$prom_addr"
wait_http "http://$prom_addr/-/ready" "prometheus"
log "prometheus on http://$prom_addr (config $tmp/prometheus.yml)"

if $metrics; then
  wait_http "http://$coord_metrics/metrics" "coordinator metrics"
  for addr in "${targets_workers[@]}"; do
    wait_http "http://$addr/metrics" "worker metrics at $addr"
  done
  # Prometheus starts scraping new targets a few seconds after it is ready.
  for _ in $(seq 1 150); do
    [ "$(promq 'count(up == 1)')" = "$((workers + 1))" ] && break
    sleep 0.2
  done
  log "prometheus scrapes $(promq 'count(up == 1)') of $((workers + 1)) targets"
fi

log "submitting: $file '$query'"
WYVERN_NATS_USER=submitter WYVERN_NATS_PASSWORD="$submit_pw" "$wyvern" submit --nats "$url" "$file" "$query" --json --quiet >"$tmp/result.json" 2>"$tmp/submit.log" || {
  log "wyvern submit failed"
  cat "$tmp/submit.log" >&2
  exit 1
}
python3 - "$tmp/result.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
print("Query: %s" % r["query"])
print("Program: %s (seed %d)" % (r["program"], r["seed"]))
if r["kind"] == "hypothesis":
    print("Verdict: %s after %d runs" % (r.get("verdict"), r["runs"]))
print("Estimate %.6g in [%.6g, %.6g], %d runs, %d satisfying" % (r["estimate"], r["lo"], r["hi"], r["runs"], r.get("satisfied", 0)))
s = r["stats"]
print("Time: %.2f s, %.0f runs/s, %d worker(s): %s" % (s["seconds"], s["runs_per_s"], len(s["workers"] or []), ", ".join(s["workers"] or [])))
EOF

if $metrics; then
  sleep 2 # the last scrape after the experiment finished
  echo "Prometheus (http://$prom_addr):"
  echo "  targets up:                $(promq 'sum(up)') of $((workers + 1))"
  echo "  estimate (last recorded):  $(promq 'last_over_time(wyvern_experiment_estimate[10m])')"
  echo "  runs (last recorded):      $(promq 'last_over_time(wyvern_experiment_runs[10m])')"
  echo "  traces per worker:         $(promq 'sum by (worker) (wyvern_worker_traces_total)')"
  echo "  experiments completed:     $(promq 'max(wyvern_experiments_completed_total)')"
fi

if $hold; then
  log "cluster up: NATS $url, Prometheus http://$prom_addr; Ctrl-C to stop"
  while :; do
    sleep 3600 &
    wait $! # a signal interrupts the wait at once
  done
fi
