#!/usr/bin/env bash
# Runs `wyvern verify` over SV-COMP tasks and prints SV-COMP's score table.
#
#   scripts/svcomp.sh [-t TIME_LIMIT] [-l TASK_LIST] [-o OUT_DIR] [-j JOBS] [-b WYVERN] [FILTER]
#   scripts/svcomp.sh -r RESULTS.tsv...    (only the table of earlier runs' results)
#
# The tasks (scripts/svcomp-tasks.txt: task file, its commit, the C source,
# its commit, the property) come from sosy-lab/sv-benchmarks, whose
# directories are GPL-3.0 (c/pthread-atomic/LICENSE.txt) or carry their
# authors' licences: they stay out of this repository. The script fetches
# each file once, at the pinned commit, from raw.githubusercontent.com into
# the cache ${WYVERN_SVCOMP_CACHE:-~/.cache/wyvern/sv-benchmarks}; without
# network it uses what the cache holds and says which tasks are missing.
#
# Each task is verified from its C source (the .i next to it is the same
# program preprocessed against 32-bit glibc headers): the script writes a
# task file NAME.wyvern.yml beside the task with input_files set to the .c
# and everything else (properties, expected verdicts, data model) kept.
#
# Scoring is SV-COMP's: +2 correct TRUE, +1 correct FALSE, -32 wrong TRUE,
# -16 wrong FALSE, 0 UNKNOWN. A FALSE counts as correct only when its
# witness replays (`wyvern replay FILE --witness W`); one that does not is
# reported as such and scored as unknown.
#
# After the per-task table and the totals it prints one line per directory
# (tasks, correct TRUE, correct FALSE, wrong, UNKNOWN, score, the maximum
# score, seconds), plain and as a Markdown table for docs/svcomp.md; with -r
# the directory of a row from an older run comes from the task list (-l).
set -euo pipefail

limit=30s
list=""
out=""
jobs=1
bin=""
report=""
while getopts "t:l:o:j:b:r:h" opt; do
	case $opt in
	t) limit=$OPTARG ;;
	l) list=$OPTARG ;;
	o) out=$OPTARG ;;
	j) jobs=$OPTARG ;;
	b) bin=$OPTARG ;;
	r) report=$OPTARG ;;
	*)
		sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
filter=${1:-}

summarize() {
	python3 - "$@" <<'EOF'
import sys, collections, os
path, missing, limit, listfile = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
# A row's directory is its 8th column; rows of older runs (7 columns) get it
# from the task list, by the row's name (task file's base name and property).
dirs = {}
listorder = []
if os.path.exists(listfile):
    for l in open(listfile):
        f = l.split()
        if len(f) >= 5 and not f[0].startswith("#"):
            dirs[os.path.basename(f[0])[:-len(".yml")] + "-" + f[4]] = os.path.dirname(f[0])
            if os.path.dirname(f[0]) not in listorder:
                listorder.append(os.path.dirname(f[0]))
rows = [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]
rows.sort()
c = collections.Counter()
engines = collections.Counter()
points = {"correct-true": 2, "correct-false": 1, "wrong-true": -32, "wrong-false": -16}
per = collections.defaultdict(collections.Counter)
order = []
score = 0
total_time = 0.0
print(f"{'task':48} {'verdict':22} {'expected':8} {'engine':10} {'witness':7} {'time':>6}")
for row in rows:
    name, verdict, expected, engine, replay, t = row[:6]
    d = row[7] if len(row) > 7 and row[7] else dirs.get(name, "?")
    if d not in per:
        order.append(d)
    total_time += float(t)
    status = "unknown"
    if verdict == "TRUE":
        status = "correct-true" if expected == "true" else "wrong-true"
    elif verdict.startswith("FALSE"):
        if expected == "false":
            status = "correct-false" if replay == "yes" else "unconfirmed-false"
        else:
            status = "wrong-false"
    c[status] += 1
    p = per[d]
    p["tasks"] += 1
    p[status] += 1
    p["score"] += points.get(status, 0)
    p["max"] += {"true": 2, "false": 1}.get(expected, 0)
    p["time"] += float(t)
    if status.startswith("correct"):
        engines[(engine, status)] += 1
    score += points.get(status, 0)
    mark = "" if status in ("correct-true", "correct-false", "unknown") else "  <-- " + status
    print(f"{name:48} {verdict:22} {expected:8} {engine:10} {replay:7} {float(t):6.1f}{mark}")
print()
print(f"tasks: {len(rows)} (time limit {limit} each; {missing} not in the cache)")
print(f"correct true:  {c['correct-true']}")
print(f"correct false: {c['correct-false']}")
print(f"wrong true:    {c['wrong-true']}")
print(f"wrong false:   {c['wrong-false']}")
print(f"unknown:       {c['unknown']}" + (f" (+{c['unconfirmed-false']} FALSE whose witness did not replay)" if c['unconfirmed-false'] else ""))
print(f"score:         {score} (of {2 * sum(1 for r in rows if r[2] == 'true') + sum(1 for r in rows if r[2] == 'false')} possible)")
print(f"time:          {total_time:.0f} s")
print("decided by:    " + ", ".join(f"{e} {s.split('-')[1]} {n}" for (e, s), n in sorted(engines.items())))
# Per directory, in the list's order; UNKNOWN counts a FALSE whose witness did not replay.
order = [d for d in listorder if d in per] + [d for d in order if d not in listorder]
cols = ["tasks", "correct TRUE", "correct FALSE", "wrong", "UNKNOWN", "score", "max", "time (s)"]
table = []
tot = collections.Counter()
for d in order:
    p = per[d]
    vals = [p["tasks"], p["correct-true"], p["correct-false"], p["wrong-true"] + p["wrong-false"],
            p["unknown"] + p["unconfirmed-false"], p["score"], p["max"], round(p["time"])]
    table.append([d] + vals)
    for k, v in zip(cols, vals):
        tot[k] += v
table.append(["all"] + [tot[k] for k in cols])
print()
w = [len(h) + 2 for h in cols]
print(f"{'directory':24}" + "".join(f"{h:>{n}}" for h, n in zip(cols, w)))
for r in table:
    print(f"{r[0]:24}" + "".join(f"{v:>{n}}" for v, n in zip(r[1:], w)))
print()
print("| directory | " + " | ".join(cols) + " |")
print("| --- |" + " ---: |" * len(cols))
for r in table:
    cells = [f"**{v}**" if r[0] == "all" else str(v) for v in r]
    print("| " + " | ".join(cells) + " |")
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
list=${list:-$root/scripts/svcomp-tasks.txt}

if [ -n "$report" ]; then
	cat "$report" "$@" >"${TMPDIR:-/tmp}/svcomp-report.$$"
	summarize "${TMPDIR:-/tmp}/svcomp-report.$$" 0 "?" "$list"
	rm -f "${TMPDIR:-/tmp}/svcomp-report.$$"
	exit 0
fi

cache=${WYVERN_SVCOMP_CACHE:-$HOME/.cache/wyvern/sv-benchmarks}
out=${out:-$(mktemp -d /tmp/wyvern-svcomp.XXXXXX)}
mkdir -p "$cache" "$out"
if [ -z "$bin" ]; then
	bin=$out/wyvern
	(cd "$root" && go build -o "$bin" ./cmd/wyvern)
fi

# fetch PATH COMMIT: the file at that commit into the cache (once).
fetch() {
	local path=$1 commit=$2 dest=$cache/$1
	[ -s "$dest" ] && return 0
	mkdir -p "$(dirname "$dest")"
	if curl -fsSL --max-time 30 -o "$dest.tmp" \
		"https://raw.githubusercontent.com/sosy-lab/sv-benchmarks/$commit/$path" 2>/dev/null; then
		mv "$dest.tmp" "$dest"
		return 0
	fi
	rm -f "$dest.tmp"
	return 1
}

results=$out/results.tsv
: >"$results"
missing=0
tasks=()
while read -r yml ycommit src scommit prop extra; do
	case $yml in '' | '#'*) continue ;; esac
	if [ -n "$filter" ] && [[ $yml != *"$filter"* ]]; then
		continue
	fi
	dir=$(dirname "$yml")
	ok=true
	fetch "$yml" "$ycommit" && fetch "$src" "$scommit" &&
		fetch "$(dirname "$dir")/properties/$prop.prp" "$ycommit" || ok=false
	for e in ${extra//,/ }; do # files the source includes, e.g. pthread-lit/assert.h
		fetch "${e%@*}" "${e#*@}" || ok=false
	done
	if ! $ok; then
		echo "svcomp.sh: $yml ($prop): not in the cache and cannot be fetched" >&2
		missing=$((missing + 1))
		continue
	fi
	derived=$cache/${yml%.yml}.wyvern.yml
	sed -E "s|^input_files:.*|input_files: '$(basename "$src")'|" "$cache/$yml" >"$derived"
	tasks+=("$derived|$prop|$cache/$src")
done <"$list"

run() {
	local task=${1%%|*} rest=${1#*|}
	local prop=${rest%%|*} src=${rest#*|}
	local name
	name=$(basename "${task%.wyvern.yml}")-$prop
	local dir=${task#"$cache"/}
	dir=$(dirname "$dir")
	local start end rc=0
	start=$(date +%s.%N)
	"$bin" verify "$task" --prop "$prop" --time-limit "$limit" --json --workers 3 \
		--witness "$out/$name.witness.yml" >"$out/$name.json" 2>"$out/$name.err" || rc=$?
	end=$(date +%s.%N)
	local replay=-
	if [ "$rc" = 10 ]; then
		if "$bin" replay "$src" --witness "$out/$name.witness.yml" >"$out/$name.replay" 2>&1; then
			replay=yes
		else
			replay=no
		fi
	fi
	python3 - "$out/$name.json" "$name" "$rc" "$replay" "$start" "$end" "$dir" >>"$results" <<'EOF'
import json, os, sys
path, name, rc, replay, start, end, d = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception:
    r = {}
eng = r.get("decided_by", "")
per = ",".join(f'{e["engine"]}={e["outcome"]}' for e in (r.get("engines") or []))
# one write(2) of the whole row: parallel jobs append to the same file
# (O_APPEND), and print's buffered writes were seen split, two rows run
# together
row = "\t".join([name, r.get("verdict", "ERROR(exit %s)" % rc), r.get("expected", ""), eng or "-",
                 replay, "%.1f" % (float(end) - float(start)), per, d])
os.write(1, (row + "\n").encode())
EOF
}
export -f run
export bin out limit results cache

printf '%s\n' "${tasks[@]}" | xargs -P "$jobs" -I{} bash -c 'run "$@"' _ {}

summarize "$results" "$missing" "$limit" "$list"
echo "results: $out"
