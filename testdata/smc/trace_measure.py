#!/usr/bin/env python3
"""trace_measure.py -- exact Monte Carlo measurement of LODIN call propositions from traces.

usage: trace_measure.py FILE RUNS ATOM [ATOM...] [--seed S] [--max-steps N] [--jobs J]
  ATOM is P.f (LODIN's [P.f]: process P's next instruction is a call of f).
  env WYV: wyvern binary (default /tmp/wyv).

Runs `wyvern run FILE --trace` on the UNMODIFIED program (no -DWYVERN_MEASURE) for trace indices
0..RUNS-1 and decides from each trace whether some state satisfies the conjunction of the atoms,
i.e. estimates Pr[<=N](<> ([P1.f1] && ... )). In state s_t (after t steps) process P is about to
call f iff P's step executing `call ... @f(` has number c >= t and P's previous step has number
a < t, so the atom holds exactly in the states a+1..c; the conjunction holds somewhere iff these
intervals (one per atom, over all occurrences) have a common point. An atom still pending when the
run stops (the call never executed because of the step bound) is not detected; for a step bound
this can only miss runs whose process reached the call in the last few states.
"""
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

LINE = re.compile(r"^\s*(\d+)\s+p(\d+)\s+\S+\s+\S+\s+(.*)$")


def intervals(lines, atoms):
    last = {}
    found = {a: [] for a in atoms}
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        step, proc, instr = int(m.group(1)), int(m.group(2)), m.group(3)
        if "call " in instr:
            for (p, f) in atoms:
                if p == proc and ("@" + f + "(") in instr:
                    a = last.get(proc, -1)
                    found[(p, f)].append((a + 1, step))
        last[proc] = step
    return found


def satisfied(found, atoms):
    # Is there a point common to one interval per atom? Check the candidate left ends.
    lists = [found[a] for a in atoms]
    if any(not l for l in lists):
        return False
    for l in lists:
        for (lo, _) in l:
            if all(any(x <= lo <= y for (x, y) in other) for other in lists):
                return True
    return False


def run_one(args):
    wyv, path, seed, idx, maxsteps, atoms = args
    p = subprocess.Popen(
        [wyv, "run", path, "--seed", str(seed), "--index", str(idx), "--max-steps", str(maxsteps), "--trace"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    found = intervals(p.stdout, atoms)
    err = p.stderr.read()
    p.wait()
    return satisfied(found, atoms), err.strip().splitlines()[-1] if err.strip() else ""


def cp(n, k, a=0.05):
    def logpmf(i, p):
        return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log1p(-p)

    def cdf(kk, p):
        if kk < 0:
            return 0.0
        if kk >= n:
            return 1.0
        return min(1.0, sum(math.exp(logpmf(i, p)) for i in range(kk + 1)))

    def bis(f):
        lo, hi = 0.0, 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if f(mid):
                hi = mid
            else:
                lo = mid
        return (lo + hi) / 2

    lo = 0.0 if k == 0 else bis(lambda p: 1 - cdf(k - 1, p) >= a / 2)
    hi = 1.0 if k == n else bis(lambda p: cdf(k, p) <= a / 2)
    return lo, hi


def main():
    argv = sys.argv[1:]
    opts = {"--seed": "1", "--max-steps": "5000", "--jobs": "2"}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    path, runs, atoms = pos[0], int(pos[1]), [(int(a.split(".", 1)[0]), a.split(".", 1)[1]) for a in pos[2:]]
    wyv = os.environ.get("WYV", "/tmp/wyv")
    jobs = [(wyv, path, opts["--seed"], idx, opts["--max-steps"], atoms) for idx in range(runs)]
    k = 0
    ends = {}
    with ThreadPoolExecutor(int(opts["--jobs"])) as ex:
        for sat, end in ex.map(run_one, jobs):
            k += sat
            key = re.sub(r"^wyvern: ", "", end)
            key = re.sub(r"\s*\(.*$", "", key)
            key = re.sub(r"^error: \S+ ", "error: ", key)[:80]
            ends[key] = ends.get(key, 0) + 1
    lo, hi = cp(runs, k)
    print(f"{path}\t{' && '.join(f'[{p}.{f}]' for p, f in atoms)}\truns={runs}\tsat={k}\tp={k/runs:.6g}\tCP95=[{lo:.6g}, {hi:.6g}]")
    print("  run ends:", ends)


if __name__ == "__main__":
    main()
