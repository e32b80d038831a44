// Command latencyproxy is a TCP proxy that delays every byte by a fixed
// time in each direction: put it between a NATS client and nats-server to
// see what round trips cost on a cluster (scripts/bench-latency.sh), where
// localhost has almost none.
//
// Usage: latencyproxy -listen 127.0.0.1:PORT -to 127.0.0.1:NATSPORT -delay 500us
//
//	latencyproxy -ping nats://127.0.0.1:PORT   (prints the NATS round trip)
//
// Each direction reads what arrives, stamps it, and writes it out its
// delay later (-up: client to server, -down: server to client, both -delay
// unless given), in order: a round trip through the proxy costs up + down
// more than without it, and throughput is not limited by the delay. Go's
// timers cannot sleep less than the kernel's timer resolution (about 1 ms
// on some VMs), so measure the round trip you got with -ping.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	to := flag.String("to", "", "address to forward to (nats-server)")
	delay := flag.Duration("delay", 500*time.Microsecond, "delay of each direction")
	up := flag.Duration("up", -1, "delay from client to server (default -delay)")
	down := flag.Duration("down", -1, "delay from server to client (default -delay)")
	ping := flag.String("ping", "", "print the mean NATS round trip to this URL and exit")
	flag.Parse()
	if *ping != "" {
		if err := pingNATS(*ping); err != nil {
			log.Fatalf("latencyproxy: %v", err)
		}
		return
	}
	if *up < 0 {
		*up = *delay
	}
	if *down < 0 {
		*down = *delay
	}
	if *to == "" {
		fmt.Fprintln(os.Stderr, "latencyproxy: -to is required")
		os.Exit(2)
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("latencyproxy: %v", err)
	}
	log.Printf("latencyproxy: %s -> %s, %v up, %v down", l.Addr(), *to, *up, *down)
	for {
		c, err := l.Accept()
		if err != nil {
			log.Fatalf("latencyproxy: accept: %v", err)
		}
		go serve(c, *to, *up, *down)
	}
}

func serve(c net.Conn, to string, up, down time.Duration) {
	s, err := net.Dial("tcp", to)
	if err != nil {
		log.Printf("latencyproxy: dial %s: %v", to, err)
		c.Close()
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); pipe(s, c, up) }()
	go func() { defer wg.Done(); pipe(c, s, down) }()
	wg.Wait()
	c.Close()
	s.Close()
}

type chunk struct {
	b   []byte
	due time.Time
}

// pipe copies src to dst, each chunk delay after it was read.
func pipe(dst, src net.Conn, delay time.Duration) {
	ch := make(chan chunk, 4096)
	go func() {
		defer close(ch)
		for {
			b := make([]byte, 64<<10)
			n, err := src.Read(b)
			if n > 0 {
				ch <- chunk{b[:n], time.Now().Add(delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range ch {
		if d := time.Until(c.due); delay > 0 && d > 0 {
			time.Sleep(d)
		}
		if _, err := dst.Write(c.b); err != nil {
			break
		}
	}
	// Unblock the other direction: closing one side ends the connection.
	dst.Close()
	src.Close()
	for range ch {
		// drain the reader until it sees the close
	}
}

// pingNATS prints the mean of 200 NATS round trips (PING/PONG) to url.
func pingNATS(url string) error {
	nc, err := nats.Connect(url)
	if err != nil {
		return fmt.Errorf("connect %s: %w", url, err)
	}
	defer nc.Close()
	const n = 200
	var total time.Duration
	for range n {
		d, err := nc.RTT()
		if err != nil {
			return fmt.Errorf("round trip to %s: %w", url, err)
		}
		total += d
	}
	fmt.Printf("mean NATS round trip to %s: %v\n", url, (total / n).Round(time.Microsecond))
	return nil
}
