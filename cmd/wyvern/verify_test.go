package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/svcomp"
)

// TestVerify runs verify on the committed tasks of svcomp/testdata (true
// and false, single-threaded and threaded, each engine deciding at least
// once), checks the verdict line, the exit status, the engine that
// decided, and that every FALSE witness replays with replay --witness.
func TestVerify(t *testing.T) {
	requireClang(t)
	const dir = "../../svcomp/testdata/"
	for _, tc := range []struct {
		task, prop, verdict string
		engine              string // the engines that may decide, separated by |
		long                bool   // skipped under -short
		limit               string // --time-limit (default 60s)
	}{
		{task: "lost_update.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation"},
		{task: "race.yml", verdict: "FALSE(no-data-race)", engine: "explicit|simulation"},
		// BMC's sequentialization (one critical section of one mutex a
		// thread) proves this one as fast as explicit search: either may
		// decide; explicit decides the no-data-race rows alone
		{task: "mutex_safe.yml", prop: "unreach-call", verdict: "TRUE", engine: "explicit|bmc"},
		{task: "mutex_safe.yml", prop: "no-data-race", verdict: "TRUE", engine: svcomp.EngineExplicit},
		{task: "assert_norace.yml", prop: "no-data-race", verdict: "TRUE", engine: svcomp.EngineExplicit},
		{task: "assert_norace.yml", prop: "unreach-call", verdict: "FALSE(unreach-call)", engine: "explicit|simulation"},
		{task: "null_deref.yml", verdict: "FALSE(valid-deref)", engine: "simulation|bmc"},
		{task: "rare_input.yml", verdict: "FALSE(unreach-call)", engine: svcomp.EngineBMC, long: true},
		{task: "assume_abort.yml", prop: "unreach-call", verdict: "TRUE", engine: svcomp.EngineBMC, long: true},
		// main(argc, argv), threads and a 32-bit input under ILP32: BMC
		// finds the bug, and its partial-order check proves the safe one
		{task: "argv_threads.yml", verdict: "FALSE(unreach-call)", engine: svcomp.EngineBMC, long: true},
		{task: "argv_threads_safe.yml", verdict: "TRUE", engine: svcomp.EngineBMC, long: true},
		{task: "assume_abort.yml", prop: "termination", verdict: "TRUE", engine: svcomp.EngineTermination},
		{task: "reset_loop.yml", verdict: "FALSE(termination)", engine: svcomp.EngineTermination},
		// a recurrent set's witness: replay runs on past its end and sees
		// the run return to a state it was in
		{task: "alternate.yml", verdict: "FALSE(termination)", engine: svcomp.EngineTermination},
		{task: "atomic_race.yml", verdict: "UNKNOWN", limit: "4s"},
		// 13 threads: decided by abstract interpretation in well under a
		// second
		{task: "hash_table.yml", verdict: "TRUE", engine: svcomp.EngineAbsint, limit: "20s"},
		// threads created forever: TRUE of the C program (the vm's process
		// limit is none of its errors), by abstract interpretation
		{task: "threads_forever.yml", verdict: "TRUE", engine: svcomp.EngineAbsint, limit: "20s"},
		// behaviours POSIX allows and LODIN's platform lacks (a wrong TRUE
		// before): a spurious wakeup, a signal waking the second waiter
		{task: "cond_spurious.yml", verdict: "FALSE(unreach-call)", engine: svcomp.EngineExplicit},
		{task: "cond_signal_any.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation"},
		// signed overflow wraps around for unreach-call (UNKNOWN both while
		// an overflow was an error state), not for no-overflow; the FALSE
		// witnesses replay under the same semantics
		{task: "overflow_then_error.yml", prop: "unreach-call", verdict: "FALSE(unreach-call)", engine: "explicit|simulation|bmc", limit: "20s"},
		{task: "overflow_then_error.yml", prop: "no-overflow", verdict: "FALSE(no-overflow)", engine: "explicit|simulation|bmc", limit: "20s"},
		{task: "overflow_then_safe.yml", prop: "unreach-call", verdict: "TRUE", engine: "explicit|bmc|absint", limit: "20s"},
		{task: "overflow_then_safe.yml", prop: "no-overflow", verdict: "FALSE(no-overflow)", engine: "explicit|simulation|bmc", limit: "20s"},
		// an uninitialised local read before it is written is an input
		// (TRUE by every engine while it read as 0)
		{task: "uninit_local.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation|bmc", limit: "20s"},
		// a race behind an input at a boundary (an index of 0 to 3): only
		// simulation's rounds with Inputs=edges find it (UNKNOWN before)
		{task: "edge_race.yml", verdict: "FALSE(no-data-race)", engine: svcomp.EngineSimulation, limit: "20s"},
		// exit handlers: registered by two threads at once (a wrong FALSE
		// while the table had no lock), run after main's pthread_exit once
		// the last thread ended (a wrong TRUE while they did not run)
		{task: "atexit_threads.yml", verdict: "TRUE", engine: svcomp.EngineExplicit, limit: "20s"},
		{task: "atexit_pthread_exit.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation", limit: "20s"},
		// a counterexample of 306 476 steps, 4 MB as JSON: over NATS's
		// default message size (UNKNOWN while the in-process server had it)
		{task: "long_trace.yml", verdict: "FALSE(unreach-call)", engine: "explicit|bmc", limit: "30s"},
		// a new block compared with a freed one: the allocator may have
		// reused the address (a wrong TRUE of BMC and explicit search
		// before)
		{task: "reuse_cmp.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation", limit: "20s"},
		// a malloc'd byte read before it is written: its value is an input,
		// which explicit search enumerates (a wrong TRUE of every engine
		// while fresh heap memory read as 0)
		{task: "uninit_heap.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation|bmc", limit: "20s"},
		// a local array read before it is written (the same, for stack
		// memory: an alloca marked ir.AuxUndef)
		{task: "uninit_stack.yml", verdict: "FALSE(unreach-call)", engine: "explicit|simulation|bmc", limit: "20s"},
	} {
		t.Run(tc.task+"/"+tc.prop, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("BMC task: skipped under -short")
			}
			w := filepath.Join(t.TempDir(), "witness.yml")
			limit := tc.limit
			if limit == "" {
				limit = "60s"
			}
			args := []string{"verify", dir + tc.task, "--time-limit", limit, "--workers", "3", "--witness", w}
			if tc.prop != "" {
				args = append(args, "--prop", tc.prop)
			}
			var out, errb bytes.Buffer
			rc := dispatch(args, &out, &errb)
			first, _, _ := strings.Cut(out.String(), "\n")
			if first != tc.verdict {
				t.Fatalf("verdict line %q, want %q (exit %d)\n%s%s", first, tc.verdict, rc, out.String(), errb.String())
			}
			want := coordinator.ExitUnknown
			switch {
			case tc.verdict == "TRUE":
				want = coordinator.ExitHolds
			case strings.HasPrefix(tc.verdict, "FALSE"):
				want = coordinator.ExitViolated
			}
			if rc != want {
				t.Errorf("exit %d, want %d", rc, want)
			}
			if tc.engine != "" {
				decided := false
				for _, e := range strings.Split(tc.engine, "|") {
					decided = decided || strings.Contains(out.String(), "Decided by "+e+":")
				}
				if !decided {
					t.Errorf("not decided by %s:\n%s", tc.engine, out.String())
				}
			}
			if !strings.HasPrefix(tc.verdict, "FALSE") {
				return
			}
			var rout, rerr bytes.Buffer
			prog := dir + strings.TrimSuffix(tc.task, ".yml") + ".c"
			if rc := dispatch([]string{"replay", prog, "--witness", w}, &rout, &rerr); rc != 0 {
				t.Fatalf("replay --witness: exit %d: %s", rc, rerr.String())
			}
			if !strings.Contains(rout.String(), "witness reproduces "+tc.verdict) {
				t.Errorf("replay --witness:\n%s", rout.String())
			}
		})
	}
}

// TestVerifyJSON: --json has the verdict, the deciding engine, every
// engine's outcome, the task's expected verdict and the overflow semantics.
func TestVerifyJSON(t *testing.T) {
	requireClang(t)
	var out, errb bytes.Buffer
	rc := dispatch([]string{"verify", "../../svcomp/testdata/lost_update.yml", "--json", "--workers", "3",
		"--witness", filepath.Join(t.TempDir(), "w.yml")}, &out, &errb)
	if rc != coordinator.ExitViolated {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	var r struct {
		Verdict  string `json:"verdict"`
		Engine   string `json:"decided_by"`
		Expected string `json:"expected"`
		Overflow string `json:"overflow"`
		Engines  []svcomp.EngineOutcome
		Trace    []json.RawMessage `json:"trace"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "FALSE(unreach-call)" || r.Engine == "" || r.Expected != "false" || r.Overflow != "wrap" || len(r.Engines) != len(svcomp.Engines) || len(r.Trace) == 0 {
		t.Errorf("JSON %s", out.String())
	}
}

// TestVerifyUsage: bad input is exit 2 with the cause; a program that
// does not load is UNKNOWN (exit 11) with the reason.
func TestVerifyUsage(t *testing.T) {
	requireClang(t)
	const dir = "../../svcomp/testdata/"
	for _, tc := range []struct {
		args []string
		rc   int
		msg  string
	}{
		{[]string{dir + "race.c"}, exitUsage, "give the property with --prop"},
		{[]string{dir + "mutex_safe.yml"}, exitUsage, "choose one with --prop"},
		{[]string{dir + "mutex_safe.yml", "--prop", "termination"}, exitUsage, `no property "termination"`},
		{[]string{dir + "race.yml", "--engines", "magic"}, exitUsage, "unknown engine"},
		{[]string{dir + "race.yml", "--data-model", "ILP32"}, exitUsage, "states its own"},
		{[]string{dir + "missing.yml"}, exitUsage, "no such file"},
		{[]string{dir + "properties/unreach-call.prp", "--prop", dir + "properties/unreach-call.prp"}, coordinator.ExitUnknown, "UNKNOWN"},
	} {
		var out, errb bytes.Buffer
		rc := dispatch(append([]string{"verify"}, tc.args...), &out, &errb)
		if rc != tc.rc || !strings.Contains(out.String()+errb.String(), tc.msg) {
			t.Errorf("verify %v: exit %d, %s%s; want exit %d and %q", tc.args, rc, out.String(), errb.String(), tc.rc, tc.msg)
		}
	}
}
