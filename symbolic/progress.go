package symbolic

import (
	"sync"
	"time"
)

// heartbeatEvery is how often a BMC job reports while a solver works: the
// progress line shows the bound, the formula's size and the seconds in the
// solver so far, and a client waiting on the job hears from it (without
// reports for 15 s, `wyvern submit` warns that the coordinator may be
// down; before issue 29 a BMC job reported only after each bound).
var heartbeatEvery = 2 * time.Second

// solving reports p every heartbeatEvery, its SolverSeconds counting the
// time since the call, until the returned stop is called.
func solving(progress func(Progress), p Progress) (stop func()) {
	if progress == nil {
		return func() {}
	}
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				q := p
				q.SolverSeconds += time.Since(start).Seconds()
				progress(q)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
