package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestBadOptionsAndFlags: query options that the query's kind does not
// take, or with bad values, and flags that do not apply to the query, are
// usage errors (exit 2) before anything starts: no program is loaded (the
// file does not exist, and that is not what is reported), no NATS is
// reached. The message names the option or flag and the valid ones.
func TestBadOptionsAndFlags(t *testing.T) {
	const file = "no-such-program.c"
	const pr = "Pr[<=10](<> counter == 1)"
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"check", file, pr + " {Epsilom=0.001}"}, []string{"column 28", "unknown option Epsilom; did you mean Epsilon?",
			"valid options for Pr[<=N](<> P) queries: Alpha, Epsilon, Rule, MinRuns, MaxRuns"}},
		{[]string{"check", file, pr + " {Foo=1}"}, []string{"column 28", "unknown option Foo; valid options for Pr[<=N](<> P) queries: Alpha, Epsilon"}},
		{[]string{"check", file, pr + " {Alpha=2}"}, []string{"column 34", "option Alpha: 2 must lie strictly between 0 and 1"}},
		{[]string{"check", file, "Pr[<=10](<> counter == 1) >= 0.3 {Epsilon=0.1}"}, []string{"column 35",
			"option Epsilon does not apply to hypothesis tests", "valid options for hypothesis tests Pr[<=N](<> P) >= θ: Alpha, MaxRuns, Beta, Delta"}},
		{[]string{"check", file, "Pr[<=10](<> counter == 1) {Split=adaptive, Score=counter, N=1}"}, []string{"option N: 1 must be an integer >= 2"}},
		{[]string{"submit", "--nats", "nats://127.0.0.1:1", file, pr + " {Alpha=2}"}, []string{"option Alpha"}},
		// flags of explicit-state searches on a query answered by simulation
		{[]string{"check", "--reduction", "local", file, pr}, []string{"--reduction applies to explicit-state queries (E<> P, A[] P, EnumStates) and to Pr[<=N](<> P) with --exact"}},
		{[]string{"check", file, pr, "--order", "dfs"}, []string{"--order applies to explicit-state queries"}},
		{[]string{"check", "--compact", file, "Estimate[<=10,5]{max counter}"}, []string{"--compact applies to explicit-state queries", "estimate query"}},
		{[]string{"check", "--max-states", "100", file, pr}, []string{"--max-states applies to explicit-state queries"}},
		{[]string{"check", "--max-memory", "100", file, "EnumStatesSMC <=10 5"}, []string{"--max-memory applies"}},
		{[]string{"check", "--max-time", "1s", file, pr + " >= 0.3"}, []string{"--max-time applies", "hypothesis query"}},
		{[]string{"check", "--exact", "--order", "dfs", file, pr}, []string{"--order does not apply to --exact"}},
		{[]string{"check", "--exact", "--reduction", "none", file, pr}, []string{"--reduction does not apply to --exact"}},
		{[]string{"check", "--exact", "--search-workers", "2", file, pr}, []string{"--search-workers does not apply to --exact"}},
		{[]string{"check", "--search-workers", "2", file, pr}, []string{"--search-workers applies to explicit-state queries"}},
		{[]string{"submit", "--nats", "nats://127.0.0.1:1", "--reduction", "global", file, pr}, []string{"--reduction applies"}},
		// bad values
		{[]string{"check", "--order", "sideways", file, "E<> counter == 1"}, []string{`--order "sideways": want bfs or dfs`}},
		{[]string{"check", "--reduction", "partial", file, "A[] counter < 3"}, []string{`--reduction "partial": want none, local or global`}},
		{[]string{"check", "--max-memory", "-1", file, "EnumStates"}, []string{"--max-memory -1: want MiB >= 0"}},
		{[]string{"check", "--max-states", "-5", file, "E<> counter == 1"}, []string{"--max-states -5: want a number of states >= 0"}},
		{[]string{"check", "--max-time", "-1s", "--exact", file, pr}, []string{"--max-time -1s: want a duration >= 0"}},
		{[]string{"check", "--search-workers", "-2", file, "EnumStates"}, []string{"--search-workers -2: want a number of goroutines >= 0"}},
		// --emit-levels needs adaptive splitting
		{[]string{"check", "--emit-levels", file, pr}, []string{"--emit-levels needs an adaptive splitting query", "this is a probability query"}},
		{[]string{"check", "--emit-levels", file, pr + " {Split=fixed, Score=counter, Levels=[1]}"}, []string{"this is a fixed splitting query"}},
		{[]string{"check", "--emit-levels", "--exact", file, pr + " {Split=adaptive, Score=counter}"}, []string{"--emit-levels prints the levels", "--exact"}},
		{[]string{"check", "--emit-levels", file, "E<> counter == 1"}, []string{"--emit-levels needs an adaptive splitting query", "reach query"}},
	}
	for _, c := range cases {
		start := time.Now()
		var out, errb bytes.Buffer
		rc := dispatch(c.args, &out, &errb)
		if rc != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", c.args, rc, exitUsage, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%q: stderr %q lacks %q", c.args, errb.String(), w)
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q took %v: should fail at once", c.args, d)
		}
	}
}

// TestUnknownFlagShort: an unknown flag is reported in two lines (the
// flag and where help is), not with the whole usage; -h still prints it.
func TestUnknownFlagShort(t *testing.T) {
	for _, cmd := range []string{"check", "run", "verify", "worker", "replay"} {
		var out, errb bytes.Buffer
		if rc := dispatch([]string{cmd, "--bogus", "x"}, &out, &errb); rc != exitUsage {
			t.Errorf("%s --bogus: exit %d, want %d", cmd, rc, exitUsage)
		}
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], "-bogus") || lines[1] != "(wyvern "+cmd+" -h for help)" {
			t.Errorf("%s --bogus: stderr\n%s", cmd, errb.String())
		}
		out.Reset()
		errb.Reset()
		dispatch([]string{cmd, "-h"}, &out, &errb)
		if n := strings.Count(out.String()+errb.String(), "\n"); n < 10 {
			t.Errorf("%s -h: %d lines of usage:\n%s%s", cmd, n, out.String(), errb.String())
		}
	}
}
