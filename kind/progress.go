package kind

import (
	"fmt"
	"sync"

	"github.com/wyvernmc/wyvern/jobs"
)

var (
	progressMu  sync.RWMutex
	progressFmt = map[string]func(jobs.Progress) string{}
)

// RegisterProgress makes f the one-line text of the progress reports of
// job kind name (what `check` shows on a terminal while it runs). A job
// kind registers it from its package's init, beside its details.
func RegisterProgress(name string, f func(jobs.Progress) string) {
	progressMu.Lock()
	defer progressMu.Unlock()
	progressFmt[name] = f
}

// ProgressText is the one-line text of a progress report: its kind's
// (RegisterProgress), or the runs and workers for a kind without one.
func ProgressText(p jobs.Progress) string {
	progressMu.RLock()
	f := progressFmt[p.Kind]
	progressMu.RUnlock()
	if f == nil {
		return fmt.Sprintf("%d runs, %d workers", p.Runs, p.Workers)
	}
	return f(p)
}
