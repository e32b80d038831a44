package worker

import "time"

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
