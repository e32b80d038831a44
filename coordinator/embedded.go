package coordinator

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Embedded is an in-process NATS server with JetStream, used by
// `wyvern check` so that one machine runs the same code path as a cluster.
type Embedded struct {
	Server *server.Server
}

// EmbeddedMaxPayload is the in-process server's maximum message size:
// 32 MiB, where a NATS server's default is 1 MiB, so that a result with a
// counterexample of hundreds of thousands of steps (a deterministic
// recursion's 350 000 steps are 4.5 MB of JSON) reaches the coordinator. A
// cluster's nats-server sets its own (deploy/nats.conf).
const EmbeddedMaxPayload = 32 << 20

// StartEmbedded starts an in-process NATS server storing JetStream data in
// dir. It listens on no port unless listen is set ("127.0.0.1:4222").
func StartEmbedded(dir, listen string) (*Embedded, error) {
	opts := &server.Options{JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true, DontListen: listen == "",
		MaxPayload: EmbeddedMaxPayload, MaxPending: 2 * EmbeddedMaxPayload}
	if listen != "" {
		host, port, err := splitHostPort(listen)
		if err != nil {
			return nil, err
		}
		opts.Host, opts.Port = host, port
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS did not start within 10 s")
	}
	return &Embedded{Server: ns}, nil
}

// Connect opens an in-process client connection.
func (e *Embedded) Connect(name string) (*nats.Conn, error) {
	nc, err := nats.Connect("", nats.InProcessServer(e.Server), nats.Name(name))
	if err != nil {
		return nil, fmt.Errorf("connect to embedded NATS: %w", err)
	}
	return nc, nil
}

// Shutdown stops the server.
func (e *Embedded) Shutdown() {
	e.Server.Shutdown()
	e.Server.WaitForShutdown()
}

func splitHostPort(s string) (string, int, error) {
	var host string
	var port int
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			host = s[:i]
			if _, err := fmt.Sscanf(s[i+1:], "%d", &port); err != nil {
				return "", 0, fmt.Errorf("bad listen address %q", s)
			}
			return host, port, nil
		}
	}
	return "", 0, fmt.Errorf("bad listen address %q (want host:port)", s)
}
