package vm

import (
	"sync"
	"testing"
)

// TestSharedMachine: goroutines may start states from one machine at once
// (run with -race; workers with --slots share a machine).
func TestSharedMachine(t *testing.T) {
	m := mustLL(t, counterLL)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				st := m.NewState()
				m.Run(st, 1000, NewRand(1, uint64(i)))
			}
		}()
	}
	wg.Wait()
}
