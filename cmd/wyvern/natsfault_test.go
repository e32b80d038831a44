package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// outage is how long TestNATSRestart keeps NATS down: longer than a
// JetStream request's default timeout (5 s).
const outage = 7 * time.Second

// TestNATSRestart restarts nats-server (the binary, JetStream on disk) for
// seven seconds in the middle of an experiment of each kind — traces,
// importance splitting, an explicit-state search — run by a coordinator
// and two worker processes: every process reconnects, JetStream operations
// are retried, and each experiment finishes with the answer `check` gives
// without the fault.
func TestNATSRestart(t *testing.T) {
	requireClang(t)
	natsBin := needNATSServer(t)
	bin := buildWyvern(t)
	cases := []struct {
		name, file, query string
		flags             []string
	}{
		{"trace", "../../testdata/mt/counter_race.c", "Pr[<=5000](<> counter == 10) {Rule=fixed, Epsilon=0.002}", []string{"--job-size", "256"}},
		// 360 000 run segments: about 4 s with two workers on an idle
		// machine (N=1000, M=10 ended within the 1.5 s before the fault)
		{"split", "../../testdata/smc/fib_16.c", "Pr[<=5000](<> [0.VERIFIER_error]) {Split=fixed, Levels=[i==8||j==8, i==21||j==21, i==55||j==55, i==144||j==144, i==377||j==377], N=3000, M=20}", nil},
		// fib_8 has 3.4 M states: 1.5 M take about 6 s at 0.25 M states/s,
		// several times the 1.5 s before the fault even on a faster search.
		{"explicit", "../../testdata/smc/fib_8.c", "EnumStates", []string{"--compact", "--max-states", "1500000"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			port := freePort(t)
			url := fmt.Sprintf("nats://127.0.0.1:%d", port)
			store := filepath.Join(t.TempDir(), "js")
			serverArgs := []string{"-js", "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-sd", store}
			srv := startProc(t, natsBin, serverArgs...)
			waitPort(t, port)
			startProc(t, bin, "coordinator", "--nats", url, "--ack-wait", "2s")
			for i := 0; i < 2; i++ {
				startProc(t, bin, "worker", "--nats", url, "--id", fmt.Sprintf("w%d", i))
			}
			args := append([]string{"submit", "--nats", url, c.file, c.query, "--seed", "9", "--json"}, c.flags...)
			sub := exec.Command(bin, args...)
			var out, errb bytes.Buffer
			sub.Stdout, sub.Stderr = &out, &errb
			if err := sub.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- sub.Wait() }()
			time.Sleep(1500 * time.Millisecond)
			select {
			case err := <-waited:
				t.Fatalf("the experiment ended before the fault (%v): make it longer\n%s", err, errb.String())
			default:
			}
			srv.Process.Signal(syscall.SIGKILL)
			srv.Wait()
			time.Sleep(outage)
			startProc(t, natsBin, serverArgs...)
			waitPort(t, port)
			select {
			case err := <-waited:
				var ee *exec.ExitError
				if err != nil && !(errors.As(err, &ee) && ee.ExitCode() >= 10) { // 10, 11: verdicts
					t.Fatalf("submit across a NATS restart: %v\n%s", err, errb.String())
				}
			case <-time.After(4 * time.Minute):
				sub.Process.Kill()
				t.Fatalf("submit did not finish after the restart:\n%s", errb.String())
			}
			var lout, lerr bytes.Buffer
			largs := append([]string{"check", "--workers", "1", "--json", "--seed", "9", c.file, c.query}, c.flags...)
			dispatch(largs, &lout, &lerr)
			strip := func(b []byte) string {
				var v any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatalf("bad result JSON %q: %v", b, err)
				}
				s, _ := json.Marshal(stripVolatile(v))
				return string(s)
			}
			if a, b := strip(out.Bytes()), strip(lout.Bytes()); a != b {
				t.Errorf("the result across a NATS restart differs from check's:\nrestart: %s\ncheck:   %s", a, b)
			}
		})
	}
}
