package simulator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
)

// Runner runs KindTrace experiments: probabilities, hypothesis tests,
// Estimate and EnumStatesSMC queries answered by independent traces. It
// publishes trace-range jobs in a window ahead of the results, folds the
// outcomes strictly in trace-index order into the query's estimator
// (buffering early arrivals, dropping duplicates), and stops when the
// estimator's rule does.
type Runner struct{}

// Check implements kind.Runner.
func (Runner) Check(q *query.Query, _ *jobs.Experiment) error {
	_, err := newFolder(q, 0)
	return err
}

// RunLimit implements kind.RunLimiter: the traces after which the
// experiment stops at the latest.
func (Runner) RunLimit(q *query.Query) (uint64, error) {
	f, err := newFolder(q, 0)
	if err != nil {
		return 0, err
	}
	return f.limit(), nil
}

// ReportOptions implements kind.OptionsReporter.
func (Runner) ReportOptions(_ *query.Query, _ *jobs.Experiment, o *kind.Options) {
	o.Set("engine", "simulation", false)
}

// Run implements kind.Runner.
func (Runner) Run(ctx context.Context, s *kind.Session) (*kind.Result, error) {
	exp, q := s.Exp, s.Query
	f, err := newFolder(q, exp.Seed)
	if err != nil {
		return nil, err
	}
	em := s.Metrics()
	start := time.Now()
	// Results already in the stream (a resumed experiment) are folded first;
	// the jobs still queued are dropped and the missing ranges planned again.
	s.PurgeJobs(ctx)
	results := make(chan *jobs.Result, 64)
	stop, intake, err := s.Results(ctx, false, func(r *jobs.Result) bool {
		select {
		case results <- r:
			return true
		case <-ctx.Done():
			return false
		}
	})
	if err != nil {
		return nil, err
	}
	defer stop()

	planned, limit := f.planned(), f.limit()
	jobSize := uint64(exp.JobSize)
	var next uint64                       // first trace index not yet planned
	outstanding := map[uint64]time.Time{} // jobs published, no result yet
	buffer := map[uint64]jobs.Outcome{}   // early outcomes, by index
	states := map[[2]uint64]struct{}{}    // EnumStatesSMC
	workers := map[string]bool{}
	var dups uint64
	// Jobs are published in batches (PublishJobs: one round trip a batch):
	// plan adds a range to the batch, flush publishes it.
	var batch []kind.PlannedJob
	plan := func(first uint64) {
		n := jobSize
		if limit > 0 && first+n > limit {
			n = limit - first
		}
		batch = append(batch, kind.PlannedJob{Part: strconv.FormatUint(first, 10), Payload: jobs.TraceRange{First: first, Count: n}})
	}
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := s.PublishJobs(ctx, batch); err != nil {
			return err
		}
		now := time.Now()
		for _, p := range batch {
			outstanding[p.Payload.(jobs.TraceRange).First] = now
		}
		if em != nil {
			em.JobsPublished(len(batch))
		}
		batch = batch[:0]
		return nil
	}
	received := map[uint64]bool{} // ranges whose outcomes came, by first index
	// fold takes one result: its outcomes wait in the buffer until every
	// earlier index has been folded.
	fold := func(m *jobs.Result) error {
		if m.Error != "" {
			return fmt.Errorf("worker %s could not run %s: %s", m.Worker, exp.ProgramName, m.Error)
		}
		var r jobs.TraceOutcomes
		if err := kind.DecodePayload(m, &r); err != nil {
			s.Reject(m, metrics.RejectMismatch, err.Error())
			return nil
		}
		if why := checkTraceResult(m.Part, &r, jobSize, limit); why != "" {
			s.Reject(m, metrics.RejectMismatch, why)
			return nil
		}
		delete(outstanding, r.First)
		received[r.First] = true
		workers[m.Worker] = true
		if r.First+r.Count > next { // planned by an earlier coordinator
			next = r.First + r.Count
		}
		before := dups
		for _, o := range r.Outcomes {
			if _, seen := buffer[o.Index]; seen || o.Index < f.runs {
				dups++
				continue
			}
			buffer[o.Index] = o
		}
		if em != nil && dups > before {
			em.Duplicates(int(dups - before))
		}
		for i := range r.States.Len() {
			states[r.States.At(i)] = struct{}{}
		}
		for !f.done {
			o, ok := buffer[f.runs]
			if !ok {
				break
			}
			delete(buffer, f.runs)
			f.add(o)
		}
		return nil
	}
	// A resumed experiment folds the results already stored before it plans
	// anything, and then plans only the ranges they lack: a restarted
	// coordinator goes on from where the last one was instead of running
	// every trace again.
	var gaps []uint64
	if stored := s.StoredResults(ctx); stored > 0 {
		for n := 0; n < stored && !f.done; n++ {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case why := <-s.Failed():
				return nil, errors.New(why)
			case err := <-intake:
				return nil, err
			case m := <-results:
				if err := fold(m); err != nil {
					return nil, err
				}
			case <-time.After(10 * time.Second):
				n = stored // the rest are planned again
			}
		}
		for first := f.runs - f.runs%jobSize; first < next; first += jobSize {
			if !received[first] {
				gaps = append(gaps, first)
			}
		}
	}
	progress := time.NewTicker(500 * time.Millisecond)
	defer progress.Stop()
	for !f.done {
		window := 8 + 4*s.Workers()
		for len(outstanding)+len(batch) < window && len(gaps) > 0 {
			plan(gaps[0])
			gaps = gaps[1:]
		}
		// Jobs keep flowing until the rule stops, up to its limit: a
		// sequential test that needs more runs than expected gets them.
		for len(outstanding)+len(batch) < window && (limit == 0 || next < limit) {
			plan(next)
			next += jobSize
		}
		if err := flush(); err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case why := <-s.Failed():
			return nil, errors.New(why)
		case err := <-intake:
			return nil, err
		case <-progress.C:
			lo, hi := f.interval()
			sat := f.sat
			if q.Always { // the runs check <> !P: report [] P
				lo, hi, sat = 1-hi, 1-lo, f.runs-f.sat
			}
			p := jobs.Progress{Runs: f.runs, Satisfied: sat, Lo: lo, Hi: hi, Planned: planned, Expected: f.sprt != nil,
				Workers: s.Workers(), RunsPerS: float64(f.runs) / time.Since(start).Seconds()}
			s.Progress(p)
			if em != nil {
				em.Progress(metrics.Progress{Runs: f.runs, Satisfied: f.sat, Planned: planned, Steps: f.steps,
					Estimate: f.estimate(), Lo: lo, Hi: hi, RunsPerSec: p.RunsPerS})
				if f.sprt != nil {
					sr := f.sprt.Result()
					em.SPRT(sr.LLR, sr.LowerBound, sr.UpperBound)
				}
			}
		case m := <-results:
			if err := fold(m); err != nil {
				return nil, err
			}
			// Fold the results already here before planning again: their
			// jobs' successors go out in one batch.
			for more := !f.done; more; {
				select {
				case m := <-results:
					if err := fold(m); err != nil {
						return nil, err
					}
					more = !f.done
				default:
					more = false
				}
			}
		}
	}
	res := f.result()
	res.Experiment, res.Program = exp.ID, exp.ProgramName
	if q.Kind == query.EnumStatesSMC {
		DetailOf(&res).States = len(states)
	}
	if d := DetailOf(&res); d != nil && res.Kind == "hypothesis" && d.MaxRuns > 0 {
		res.Options = map[string]any{"MaxRuns": d.MaxRuns} // Wald's expected number at the worst p, times 10, when not given
	}
	el := time.Since(start).Seconds()
	res.Stats = kind.Stats{Seconds: el, RunsPerSec: float64(res.Runs) / el, StepsPerSec: float64(res.Steps) / el, Duplicates: dups}
	for w := range workers {
		res.Stats.Workers = append(res.Stats.Workers, w)
	}
	s.Progress(jobs.Progress{Runs: f.runs, Satisfied: f.sat, Lo: res.Lo, Hi: res.Hi, Done: true})
	if em != nil && f.sprt != nil {
		sr := f.sprt.Result()
		em.SPRT(sr.LLR, sr.LowerBound, sr.UpperBound)
	}
	return &res, nil
}

// checkTraceResult says why a trace result does not answer the job named
// part as the experiment plans them (ranges of jobSize traces from 0, the
// last one cut at limit; 0: none), or "" when it does: its range is the
// part's, it has one outcome per trace of the range, in order.
func checkTraceResult(part string, r *jobs.TraceOutcomes, jobSize, limit uint64) string {
	first, err := strconv.ParseUint(part, 10, 64)
	if err != nil || first%jobSize != 0 || (limit > 0 && first >= limit) {
		return fmt.Sprintf("part %q is not a planned trace range", part)
	}
	n := jobSize
	if limit > 0 && first+n > limit {
		n = limit - first
	}
	if r.First != first || r.Count != n {
		return fmt.Sprintf("range [%d, +%d) for the planned range [%d, +%d)", r.First, r.Count, first, n)
	}
	if why := r.States.Check(); why != "" {
		return why
	}
	if uint64(len(r.Outcomes)) != n {
		return fmt.Sprintf("%d outcomes for a range of %d traces", len(r.Outcomes), n)
	}
	for i, o := range r.Outcomes {
		if o.Index != first+uint64(i) {
			return fmt.Sprintf("outcome %d has index %d, want %d", i, o.Index, first+uint64(i))
		}
	}
	return ""
}
