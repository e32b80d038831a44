#!/usr/bin/env bash
# measure.sh -- Monte Carlo measurement of the SMC benchmark programs with plain `wyvern run`
# (no query engine needed). Used to produce EXPECTED.md / expected.txt.
#
# usage: measure.sh FILE.c RUNS [SEED] [MAXSTEPS]
#   env: WYV (wyvern binary, default /tmp/wyv), JOBS (parallel runs, default 2)
#
# FILE is compiled once with clang-14 using wyvern's own -O0 flags plus -DWYVERN_MEASURE, under
# which each program turns its property into a call of the undefined reach_error(). A run
# satisfies the property iff it ends in the error state ReachError. Runs are trace indices
# 0..RUNS-1 of the given seed (default 1) with --max-steps MAXSTEPS (default 5000).
# Prints: file, runs, satisfying, the estimate with its 95% Clopper-Pearson interval, and a
# histogram of the run statuses (status/error kind).
set -euo pipefail
file=$1
runs=$2
seed=${3:-1}
maxsteps=${4:-5000}
wyv=${WYV:-/tmp/wyv}
jobs=${JOBS:-2}
here=$(cd "$(dirname "$0")" && pwd)
inc=$(cd "$here/../../ir/include" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ll=$tmp/prog.ll
clang-14 -S -emit-llvm -g -O0 -fno-discard-value-names -fno-pic -I "$inc" -DWYVERN_MEASURE \
  "$file" -o "$ll"

export wyv ll seed maxsteps
seq 0 $((runs - 1)) | xargs -P "$jobs" -n 50 sh -c '
  for i in "$@"; do
    out=$("$wyv" run "$ll" --seed "$seed" --index "$i" --max-steps "$maxsteps" --json 2>&1 >/dev/null | tr -d "\n ")
    st=$(printf "%s" "$out" | sed -n "s/.*\"status\":\"\([^\"]*\)\".*/\1/p")
    kind=$(printf "%s" "$out" | sed -n "s/.*\"kind\":\"\([^\"]*\)\".*/\1/p")
    echo "$i $st${kind:+/$kind}"
  done' sh >"$tmp/results"

python3 - "$file" "$tmp/results" <<'EOF'
import sys, math, collections
name, path = sys.argv[1], sys.argv[2]
rows = [l.split() for l in open(path) if l.strip()]
n = len(rows)
k = sum(1 for r in rows if r[1] == "error/ReachError")
hist = collections.Counter(r[1] for r in rows)

def logpmf(n, i, p):
    return math.lgamma(n+1) - math.lgamma(i+1) - math.lgamma(n-i+1) + i*math.log(p) + (n-i)*math.log1p(-p)

def cdf(n, k, p):  # P[X <= k]
    if k < 0: return 0.0
    if k >= n: return 1.0
    return min(1.0, sum(math.exp(logpmf(n, i, p)) for i in range(k+1)))

def bisect(f, lo=0.0, hi=1.0):
    for _ in range(200):
        mid = (lo+hi)/2
        if f(mid): hi = mid
        else: lo = mid
    return (lo+hi)/2

a = 0.05
lo = 0.0 if k == 0 else bisect(lambda p: 1 - cdf(n, k-1, p) >= a/2)
hi = 1.0 if k == n else bisect(lambda p: cdf(n, k, p) <= a/2)
print(f"{name}\truns={n}\tsat={k}\tp={k/n:.6g}\tCP95=[{lo:.6g}, {hi:.6g}]")
print("  statuses:", dict(hist))
EOF
