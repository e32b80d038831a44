package worker

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/vm"
)

// SetStatusMaxAge sets how long a worker trusts an experiment's state
// without reading it again, for a test; restore sets it back.
func SetStatusMaxAge(d time.Duration) (restore func()) {
	old := statusMaxAge
	statusMaxAge = d
	return func() { statusMaxAge = old }
}

// KnowsStopped reports whether the running worker knows, without reading
// the bucket, that experiment exp has stopped.
func KnowsStopped(w *Worker, exp string) bool {
	w.mu.Lock()
	st := w.statuses
	w.mu.Unlock()
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.m[exp].stopped
}

// SetProtocol makes w speak protocol version v, as a worker of another
// build would.
func SetProtocol(w *Worker, v int) { w.protocol = v }

// LoadProgram loads program (a hash in the programs bucket) as a job of w
// would, through w's cache.
func LoadProgram(ctx context.Context, w *Worker, js jetstream.JetStream, program string) (*vm.Machine, error) {
	w.mu.Lock()
	if w.machines == nil {
		w.machines = map[string]*machineEntry{}
	}
	w.mu.Unlock()
	j := &Job{w: w, js: js}
	j.Program, j.ProgramName = program, program[:8]
	return j.Machine(ctx)
}

// CachedPrograms reports whether w's program cache holds each of programs,
// and the footprint of all it holds.
func CachedPrograms(w *Worker, programs []string) ([]bool, uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	in := make([]bool, len(programs))
	for i, p := range programs {
		_, in[i] = w.machines[p]
	}
	return in, w.machineBytes
}
