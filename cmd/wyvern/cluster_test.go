package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/simulator"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func buildWyvern(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wyvern")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func startProc(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("%s %s output:\n%s", filepath.Base(name), strings.Join(args, " "), buf.String())
		}
	})
	return cmd
}

func waitPort(t *testing.T, port int) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("nothing listens on port %d", port)
}

func stripRun(t *testing.T, js []byte) string {
	t.Helper()
	var r coordinator.Result
	if err := json.Unmarshal(js, &r); err != nil {
		t.Fatalf("bad result JSON %q: %v", js, err)
	}
	r.Experiment, r.Stats = "", coordinator.Stats{}
	b, _ := json.Marshal(r)
	return string(b)
}

// TestClusterKilledWorker runs the cluster path with real processes: the
// nats-server binary with JetStream, a coordinator and three workers, one of
// which is killed with SIGKILL in the middle of the experiment. The result
// must equal the in-process result with one worker.
func TestClusterKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test")
	}
	requireClang(t)
	natsBin, err := exec.LookPath("nats-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nats-server not found: run scripts/install-deps.sh")
		}
		t.Skip("nats-server not installed")
	}
	bin := buildWyvern(t)
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	startProc(t, natsBin, "-js", "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-sd", t.TempDir())
	waitPort(t, port)
	startProc(t, bin, "coordinator", "--nats", url, "--ack-wait", "2s")
	var workers []*exec.Cmd
	for i := 0; i < 3; i++ {
		workers = append(workers, startProc(t, bin, "worker", "--nats", url, "--id", fmt.Sprintf("w%d", i)))
	}
	// The worker is killed at the experiment's first progress report that
	// counts all three workers (reports come every 500 ms), not after a
	// fixed time: an experiment of 51 k runs once ended in 0.6 s, before
	// a kill 1.5 s after the submission, and the test passed without
	// killing anything mid-run.
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	reports := make(chan jobs.Progress, 256)
	if _, err := nc.Subscribe(jobs.ProgressSubject("*"), func(m *nats.Msg) {
		var p jobs.Progress
		if jobs.Decode(m.Data, &p) == nil {
			select {
			case reports <- p:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	const file = "../../testdata/mt/counter_race.c"
	const q = "Pr[<=5000](<> counter == 10) {Rule=fixed, Epsilon=0.002}" // 461 165 runs
	sub := exec.Command(bin, "submit", "--nats", url, file, q, "--seed", "5", "--json", "--job-size", "256")
	var out, errb bytes.Buffer
	sub.Stdout, sub.Stderr = &out, &errb
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- sub.Wait() }()
	var atKill uint64
	for deadline := time.After(2 * time.Minute); atKill == 0; {
		select {
		case p := <-reports:
			if p.Done {
				t.Fatalf("the experiment ended (%d runs) before a report with three workers: make it longer", p.Runs)
			}
			if p.Runs > 0 && p.Workers >= 3 {
				atKill = p.Runs
			}
		case err := <-waited:
			t.Fatalf("submit ended before a worker was killed: %v\n%s", err, errb.String())
		case <-deadline:
			sub.Process.Kill()
			t.Fatalf("no progress report with three workers within 2 minutes; stderr:\n%s", errb.String())
		}
	}
	if err := workers[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("submit: %v\n%s", err, errb.String())
		}
	case <-time.After(3 * time.Minute):
		sub.Process.Kill()
		t.Fatalf("submit did not finish; stderr:\n%s", errb.String())
	}
	var lout, lerr bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--json", "--seed", "5", "--job-size", "64", file, q}, &lout, &lerr); rc != 0 {
		t.Fatalf("check: %d %s", rc, lerr.String())
	}
	cluster, local := stripRun(t, out.Bytes()), stripRun(t, lout.Bytes())
	if cluster != local {
		t.Errorf("cluster result differs from the in-process one:\ncluster: %s\nlocal:   %s", cluster, local)
	}
	var r coordinator.Result
	json.Unmarshal(out.Bytes(), &r)
	t.Logf("cluster: %d runs in %.1f s by %v (%d duplicate results dropped); w0 killed at %d runs", r.Runs, r.Stats.Seconds, r.Stats.Workers, r.Stats.Duplicates, atKill)
}

// TestCLIErrors checks fast, clear failures: an unreachable NATS server, a
// query syntax error (with its column), an unknown function in a query.
func TestCLIErrors(t *testing.T) {
	requireClang(t)
	const file = "../../testdata/mt/counter_race.c"
	cases := []struct {
		args []string
		rc   int
		want []string
	}{
		{[]string{"submit", "--nats", "nats://127.0.0.1:1", file, "Pr[<=10](<> counter == 1)"}, 1, []string{"cannot reach NATS", "127.0.0.1:1"}},
		{[]string{"check", file, "Pr[<=10](<> counter == )"}, exitUsage, []string{"column 24", "expected an expression"}},
		{[]string{"check", file, "Pr[<=10](<> [0.nosuch])"}, exitUsage, []string{"column 13", "no function \"nosuch\""}},
		{[]string{"check", file, "Pr[<=10](<> @0.main.%nope;ui32 == 1)"}, exitUsage, []string{"no register %nope"}},
		{[]string{"check", file, "Pr[<=10](<> Error(Bogus))"}, exitUsage, []string{"unknown error kind"}},
	}
	for _, c := range cases {
		start := time.Now()
		var out, errb bytes.Buffer
		rc := dispatch(c.args, &out, &errb)
		if rc != c.rc {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, rc, c.rc, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errb.String(), w)
			}
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v took %v: should fail fast", c.args, d)
		}
	}
}

// TestReplayFirstSatisfying: the first satisfying trace that check reports
// replays to the property at the same step.
func TestReplayFirstSatisfying(t *testing.T) {
	requireClang(t)
	const file = "../../testdata/mt/counter_race.c"
	const q = "Pr[<=5000](<> counter == 10) {Epsilon=0.05}"
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--json", "--seed", "4", file, q}, &out, &errb); rc != 0 {
		t.Fatalf("check: %d %s", rc, errb.String())
	}
	var r coordinator.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || simulator.DetailOf(&r).FirstSatisfying == nil {
		t.Fatalf("no first satisfying trace in %s (%v)", out.String(), err)
	}
	fs := simulator.DetailOf(&r).FirstSatisfying
	out.Reset()
	errb.Reset()
	rc := dispatch([]string{"replay", file, "--seed", fmt.Sprint(fs.Seed), "--index", fmt.Sprint(fs.Index), "--query", q}, &out, &errb)
	want := fmt.Sprintf("property satisfied after %d steps", fs.Steps)
	if rc != 0 || !strings.Contains(out.String(), want) {
		t.Fatalf("replay: exit %d, output does not say %q:\n%s", rc, want, out.String())
	}
	if !strings.Contains(out.String(), "counter_race.c:") {
		t.Errorf("replay lacks source locations")
	}
}
