package main

import (
	"bytes"
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
// seven seconds in the middle of an experiment run by a coordinator and two
// worker processes: every process reconnects, JetStream operations are
// retried, and the experiment finishes with the answer `check` gives
// without the fault.
func TestNATSRestart(t *testing.T) {
	requireClang(t)
	natsBin := needNATSServer(t)
	bin := buildWyvern(t)
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
	const file = "../../testdata/mt/counter_race.c"
	const q = "Pr[<=5000](<> counter == 10) {Rule=fixed, Epsilon=0.002}"
	sub := exec.Command(bin, "submit", "--nats", url, file, q, "--seed", "9", "--json", "--job-size", "256")
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
		if err != nil {
			t.Fatalf("submit across a NATS restart: %v\n%s", err, errb.String())
		}
	case <-time.After(4 * time.Minute):
		sub.Process.Kill()
		t.Fatalf("submit did not finish after the restart:\n%s", errb.String())
	}
	var lout, lerr bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--json", "--seed", "9", "--job-size", "64", file, q}, &lout, &lerr); rc != 0 {
		t.Fatalf("check: %d %s", rc, lerr.String())
	}
	if a, b := stripRun(t, out.Bytes()), stripRun(t, lout.Bytes()); a != b {
		t.Errorf("the result across a NATS restart differs from check's:\nrestart: %s\ncheck:   %s", a, b)
	}
}
