package worker

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/jobs"
)

// statusMaxAge bounds how long a worker trusts an experiment's state
// without reading it again, should the bucket's watch miss an update (a
// watch broken by NATS restarting): one get an experiment and slot every
// statusMaxAge instead of one a job. Tests change it.
var statusMaxAge = 2 * time.Second

// maxStatuses: past this many experiments known, those not read again
// within statusMaxAge are forgotten (read again when a job needs them).
const maxStatuses = 4096

// statuses knows which experiments have stopped, so that their jobs are
// skipped, without a round trip a job: a watch of the experiments bucket
// (updates only: a worker does not read every experiment ever run) tells
// every change of state as it happens, and an experiment not heard of yet
// (or not for statusMaxAge) is read with a get. Entries carry the bucket's
// revision, so that a get's answer and the watch's updates, which may
// arrive in either order, leave the newest state.
//
// Staleness: a stop is seen one server-to-worker delay after the
// coordinator stores it (the watch pushes it), and at the latest
// statusMaxAge after it should the watch miss it, where a get a job saw it
// one round trip after. Jobs of a just-stopped experiment that run
// meanwhile are harmless: the coordinator stopped reading the
// experiment's results before it stored the stop (its session had
// ended), and purges the remaining jobs after.
type statuses struct {
	kv  jetstream.KeyValue
	log func(format string, args ...any)

	mu sync.Mutex
	m  map[string]expState
	// running holds, by experiment, the cancel functions of its jobs
	// running here: a stop seen cancels them (the job is abandoned at its
	// handler's next slice).
	running map[string]map[*context.CancelFunc]struct{}
}

// track registers cancel as that of a job of exp running here, until
// untrack; a stop of exp seen meanwhile calls it.
func (s *statuses) track(exp string, cancel context.CancelFunc) (untrack func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		s.running = map[string]map[*context.CancelFunc]struct{}{}
	}
	if s.running[exp] == nil {
		s.running[exp] = map[*context.CancelFunc]struct{}{}
	}
	key := &cancel
	s.running[exp][key] = struct{}{}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.running[exp], key)
		if len(s.running[exp]) == 0 {
			delete(s.running, exp)
		}
	}
}

type expState struct {
	rev     uint64 // the bucket's revision of the state; 0: no entry
	stopped bool
	read    time.Time
}

// watch starts the watch of the bucket; without it (a refused consumer)
// every state is read again after statusMaxAge.
func (s *statuses) watch(ctx context.Context) {
	wt, err := s.kv.WatchAll(ctx, jetstream.UpdatesOnly())
	if err != nil {
		s.log("cannot watch the experiments bucket (%v): reading experiments' states every %v instead", err, statusMaxAge)
		return
	}
	go func() {
		defer wt.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-wt.Updates():
				if !ok {
					if ctx.Err() == nil {
						s.log("the watch of the experiments bucket ended: reading experiments' states every %v instead", statusMaxAge)
					}
					return
				}
				if e != nil {
					s.note(e.Key(), e.Revision(), e.Operation() != jetstream.KeyValuePut || stoppedState(e.Value()))
				}
			}
		}
	}()
}

// stoppedState reports whether a bucket value says the experiment is no
// longer running.
func stoppedState(v []byte) bool {
	var st jobs.Status
	return jobs.Decode(v, &st) == nil && st.State != jobs.StateRunning
}

// note records an experiment's state at revision rev, unless a newer one
// is known.
func (s *statuses) note(exp string, rev uint64, stopped bool) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]expState{}
	}
	if cur, ok := s.m[exp]; ok && cur.rev > rev {
		cur.read = now // still the newest: as fresh as this answer
		s.m[exp] = cur
		return
	}
	if len(s.m) >= maxStatuses {
		for k, e := range s.m {
			if now.Sub(e.read) >= statusMaxAge {
				delete(s.m, k)
			}
		}
	}
	s.m[exp] = expState{rev: rev, stopped: stopped, read: now}
	if stopped {
		for cancel := range s.running[exp] {
			(*cancel)()
		}
	}
}

// stopped reports whether experiment exp is known to have stopped or is
// unknown to the bucket (no coordinator started it); one whose state
// cannot be read runs.
func (s *statuses) stopped(ctx context.Context, exp string) bool {
	s.mu.Lock()
	e, ok := s.m[exp]
	s.mu.Unlock()
	if ok && time.Since(e.read) < statusMaxAge {
		return e.stopped
	}
	entry, err := s.kv.Get(ctx, exp)
	switch {
	case err == nil:
		s.note(exp, entry.Revision(), stoppedState(entry.Value()))
	case errors.Is(err, jetstream.ErrKeyNotFound):
		// No coordinator started it (a coordinator stores an experiment
		// before it publishes its first job): a forged or corrupted job,
		// whose result the stream must not store.
		s.note(exp, 0, true)
	default:
		return ok && e.stopped
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[exp].stopped
}
