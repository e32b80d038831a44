package splitting

import (
	"context"
	"sync"

	"github.com/wyvernmc/wyvern/query"
)

// Local runs segments in the calling goroutine, with one runner per
// concurrent caller (runners are not safe for concurrent use).
type Local struct {
	Seed    uint64
	Compile func() (*query.Compiled, error) // a fresh compiled query per runner
	mu      sync.Mutex
	free    []*Runner
}

// Run implements Executor.
func (l *Local) Run(ctx context.Context, b *Batch) ([]Segment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.mu.Lock()
	var r *Runner
	if k := len(l.free); k > 0 {
		r = l.free[k-1]
		l.free = l.free[:k-1]
	}
	l.mu.Unlock()
	if r == nil {
		c, err := l.Compile()
		if err != nil {
			return nil, err
		}
		if r, err = NewRunner(c); err != nil {
			return nil, err
		}
	}
	segs, err := r.RunBatch(l.Seed, b)
	l.mu.Lock()
	l.free = append(l.free, r)
	l.mu.Unlock()
	return segs, err
}
