package main

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// TestConnectLogsLossesOnly: a connection's own Close is not reported as a
// lost server (it was, at the end of every submit, now and then: nats.go
// calls the disconnect handler at Close), while a server that goes away is.
func TestConnectLogsLossesOnly(t *testing.T) {
	start := func(t *testing.T, port int) *server.Server {
		ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true})
		if err != nil {
			t.Fatal(err)
		}
		ns.Start()
		if !ns.ReadyForConnections(5 * time.Second) {
			t.Fatal("embedded NATS server not ready")
		}
		t.Cleanup(ns.Shutdown)
		return ns
	}
	wait := func(cond func() bool) bool {
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			if cond() {
				return true
			}
		}
		return false
	}

	t.Run("own close", func(t *testing.T) {
		ns := start(t, -1)
		var log syncBuf
		n := &natsFlags{url: ns.ClientURL()}
		// Many connections, since the handler's call at Close races with the
		// end of the test: one of them would pass by luck.
		for i := 0; i < 20; i++ {
			nc, err := n.connect(fmt.Sprintf("c%d", i), &log)
			if err != nil {
				t.Fatal(err)
			}
			nc.Close()
		}
		// A connection to a server that then goes away: its report marks
		// the point by which the earlier Closes' handlers have run (the
		// handlers of one connection run in order; across connections wait
		// for the loss report, then a little more).
		probe, err := n.connect("probe", &log)
		if err != nil {
			t.Fatal(err)
		}
		defer probe.Close()
		ns.Shutdown()
		if !wait(func() bool { return strings.Contains(log.String(), "probe: lost NATS") }) {
			t.Fatalf("the server's shutdown was not reported; log:\n%s", log.String())
		}
		time.Sleep(200 * time.Millisecond)
		for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
			if strings.Contains(line, "lost NATS") && !strings.HasPrefix(line, "probe:") {
				t.Errorf("a client's own Close was logged as a loss: %q", line)
			}
		}
	})

	t.Run("server restart", func(t *testing.T) {
		ns := start(t, -1)
		var log syncBuf
		n := &natsFlags{url: ns.ClientURL()}
		nc, err := n.connect("w", &log)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		port := ns.Addr().(*net.TCPAddr).Port
		ns.Shutdown()
		if !wait(func() bool { return strings.Contains(log.String(), "w: lost NATS at") }) {
			t.Fatalf("loss not logged; log:\n%s", log.String())
		}
		start(t, port)
		if !wait(func() bool { return strings.Contains(log.String(), "w: reconnected to NATS at") }) {
			t.Fatalf("reconnection not logged; log:\n%s", log.String())
		}
	})
}
