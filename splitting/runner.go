package splitting

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
)

// maxJobBytes bounds the start states a splitting job carries (NATS's
// default payload limit is 1 MiB).
const maxJobBytes = 256 << 10

// splitExec runs splitting batches as NATS jobs: a batch is cut into jobs
// of a few tasks each (with only the start states they use); results come
// back through the experiment's results subject, keyed by (replication,
// stage, task index), so chunking, worker count and arrival order do not
// matter and duplicates are dropped.
type splitExec struct {
	s *kind.Session

	mu      sync.Mutex
	waiting map[[2]int]*waiter
	dups    uint64
	workers map[string]bool
	runs    uint64 // segments received
	steps   uint64
}

type waiter struct {
	segs      []Segment
	got       []bool
	remaining int
	err       error
	done      chan struct{}
}

// Run implements Executor.
func (x *splitExec) Run(ctx context.Context, b *Batch) ([]Segment, error) {
	n := len(b.Tasks)
	w := &waiter{segs: make([]Segment, n), got: make([]bool, n), remaining: n, done: make(chan struct{})}
	key := [2]int{b.Rep, b.Stage}
	x.mu.Lock()
	x.waiting[key] = w
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		delete(x.waiting, key)
		x.mu.Unlock()
	}()
	if n == 0 {
		return nil, nil
	}
	per := min(max(n/(4*max(x.s.Workers(), 1)), 4), 64)
	// The stage's jobs go out in one batch (PublishJobs: one round trip
	// for all, not one a job).
	var planned []kind.PlannedJob
	for first := 0; first < n; {
		job := jobs.SplitJob{First: first, Rep: b.Rep, Stage: b.Stage}
		local := map[int]int{}
		size := 0
		end := first
		for end < n && end-first < per {
			t := b.Tasks[end]
			si, ok := local[t.Start]
			if !ok {
				st := b.Starts[t.Start]
				if size > 0 && size+len(st.Snap) > maxJobBytes {
					break
				}
				if len(st.Snap) > 3*maxJobBytes {
					return nil, fmt.Errorf("a state snapshot of %d bytes is too large to send through NATS", len(st.Snap))
				}
				size += len(st.Snap)
				si = len(job.Starts)
				local[t.Start] = si
				job.Starts = append(job.Starts, st)
			}
			t.Start = si
			job.Tasks = append(job.Tasks, t)
			end++
		}
		planned = append(planned, kind.PlannedJob{Part: fmt.Sprintf("r%d/s%d/%d", b.Rep, b.Stage, first), Payload: &job})
		first = end
	}
	if err := x.s.PublishJobs(ctx, planned); err != nil {
		return nil, err
	}
	select {
	case <-w.done:
		if w.err != nil {
			return nil, w.err
		}
		return w.segs, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver files a result message's segments with their batch.
func (x *splitExec) deliver(m *jobs.Result) error {
	var r jobs.SplitResult
	var rep, stage, first int
	if _, err := fmt.Sscanf(m.Part, "r%d/s%d/%d", &rep, &stage, &first); err != nil || first < 0 {
		x.s.Reject(m, metrics.RejectMismatch, fmt.Sprintf("part %q is not a splitting job", m.Part))
		return nil
	}
	if m.Error == "" {
		if err := kind.DecodePayload(m, &r); err != nil {
			x.s.Reject(m, metrics.RejectMismatch, err.Error())
			return nil
		}
		if r.Rep != rep || r.Stage != stage || r.First < first {
			x.s.Reject(m, metrics.RejectMismatch, fmt.Sprintf("segments of replication %d, stage %d from task %d for job %s",
				r.Rep, r.Stage, r.First, m.Part))
			return nil
		}
	} else {
		r.Rep, r.Stage = rep, stage
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.workers[m.Worker] = true
	w := x.waiting[[2]int{r.Rep, r.Stage}]
	if w == nil {
		x.dups += uint64(len(r.Segments)) // a finished batch (or one of an earlier coordinator)
		return nil
	}
	if m.Error != "" {
		if w.err == nil {
			w.err = fmt.Errorf("worker %s could not run %s: %s", m.Worker, x.s.Exp.ProgramName, m.Error)
			close(w.done)
		}
		return nil
	}
	for i := range r.Segments {
		k := int(r.First) + i
		if k < 0 || k >= len(w.got) || w.got[k] {
			x.dups++
			continue
		}
		w.got[k] = true
		w.segs[k] = r.Segments[i]
		w.remaining--
		x.runs++
		x.steps += r.Segments[i].Steps
	}
	if w.remaining == 0 && w.err == nil {
		w.remaining = -1
		close(w.done)
	}
	return nil
}

// SplitRunner runs KindSplit experiments: a Pr query estimated by
// importance splitting, M replications at once, each driving its levels or
// iterations through workers as batches of segment jobs. A resumed
// experiment starts over (its answer is the same: everything random derives
// from the seed).
type SplitRunner struct{}

// Check implements kind.Runner: the splitting options must make a spec.
func (SplitRunner) Check(q *query.Query, _ *jobs.Experiment) error {
	_, err := FromQuery(q)
	return err
}

// ReportOptions implements kind.OptionsReporter.
func (SplitRunner) ReportOptions(_ *query.Query, _ *jobs.Experiment, o *kind.Options) {
	o.Set("engine", "splitting", false)
}

// Run implements kind.Runner.
func (SplitRunner) Run(ctx context.Context, s *kind.Session) (*kind.Result, error) {
	exp, q := s.Exp, s.Query
	spec, err := FromQuery(q)
	if err != nil {
		return nil, err
	}
	if spec == nil {
		return nil, fmt.Errorf("query %q asks for no splitting", q.Text)
	}
	start := time.Now()
	s.PurgeJobs(ctx)
	s.PurgeResults(ctx)
	x := &splitExec{s: s, waiting: map[[2]int]*waiter{}, workers: map[string]bool{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bad := make(chan error, 1)
	stop, intake, err := s.Results(ctx, true, func(r *jobs.Result) bool {
		if err := x.deliver(r); err != nil {
			bad <- err
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	defer stop()
	type outcome struct {
		res *Result
		err error
	}
	doneCh := make(chan outcome, 1)
	var mu sync.Mutex
	var prog Progress
	em := s.Metrics()
	planned := spec.M
	if spec.Auto {
		planned = max(spec.M, spec.MaxM)
	}
	finished := make([]*Replication, planned) // for the live level report
	reported := 0                             // replications in the last report
	live := metrics.Progress{Hi: 1}           // what the metrics show
	go func() {
		parallel := min(spec.M, max(4, 2*s.Workers()))
		r, err := Estimate(ctx, q, spec, x, exp.Seed, parallel, func(p Progress) {
			mu.Lock()
			prog = p
			if p.Replication != nil && p.Rep >= 0 && p.Rep < len(finished) {
				finished[p.Rep] = p.Replication
			}
			mu.Unlock()
		})
		doneCh <- outcome{r, err}
	}()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case why := <-s.Failed():
			return nil, errors.New(why)
		case err := <-intake:
			return nil, err
		case err := <-bad:
			return nil, err
		case <-tick.C:
			mu.Lock()
			p := prog
			var reps []*Replication
			if em != nil && p.Done > reported {
				for _, r := range finished {
					if r != nil {
						reps = append(reps, r)
					}
				}
				reported = p.Done
			}
			mu.Unlock()
			x.mu.Lock()
			runs, steps := x.runs, x.steps
			x.mu.Unlock()
			if em != nil {
				if len(reps) > 0 {
					// The pooled level report of the replications finished so far.
					if sr, err := Summarize(q, spec, reps); err == nil {
						live = metrics.Progress{Estimate: sr.Estimate, Lo: sr.Lo, Hi: sr.Hi}
						splitLevel(em, sr.Levels)
					}
				}
				live.Runs, live.Steps = runs, steps
				live.RunsPerSec = float64(runs) / time.Since(start).Seconds()
				em.Progress(live)
			}
			s.Progress(jobs.Progress{Runs: runs, Workers: s.Workers(),
				RunsPerS: float64(runs) / time.Since(start).Seconds(), Replications: p.Done, PlannedReplications: max(p.Total, spec.M),
				Estimate: p.Estimate})
		case o := <-doneCh:
			if o.err != nil {
				return nil, o.err
			}
			sr := o.res
			res := &kind.Result{Experiment: exp.ID, Program: exp.ProgramName, Query: q.Text, Kind: "splitting", Seed: exp.Seed,
				Runs: uint64(sr.Segments), Steps: sr.Steps, Estimate: sr.Estimate, Lo: sr.Lo, Hi: sr.Hi,
				Confidence: sr.Confidence, Detail: &Detail{Split: sr}}
			el := time.Since(start).Seconds()
			x.mu.Lock()
			res.Stats = kind.Stats{Seconds: el, RunsPerSec: float64(sr.Segments) / el, StepsPerSec: float64(sr.Steps) / el, Duplicates: x.dups}
			for w := range x.workers {
				res.Stats.Workers = append(res.Stats.Workers, w)
			}
			x.mu.Unlock()
			s.Progress(jobs.Progress{Runs: res.Runs, Lo: res.Lo, Hi: res.Hi, Done: true,
				Replications: sr.M, PlannedReplications: sr.M, Estimate: res.Estimate})
			return res, nil
		}
	}
}

// splitLevel reports the deepest level of a pooled level report that runs
// reached: its index, score threshold (its index for the property or a
// proposition level), conditional probability and the running product.
func splitLevel(em *metrics.Experiment, levels []Level) {
	product := 1.0
	last := -1
	for i, l := range levels {
		if l.Runs == 0 {
			break
		}
		product *= l.CondProb
		last = i
	}
	if last < 0 {
		return
	}
	l := levels[last]
	th, err := strconv.ParseFloat(l.Threshold, 64)
	if err != nil {
		th = float64(l.Index)
	}
	em.SplittingLevel(l.Index, th, l.CondProb, product)
}

// Detail is an importance-splitting result's detail: the full report
// (the common Runs counts run segments).
type Detail struct {
	Split *Result `json:"split"`
}

func init() {
	kind.RegisterDetail("splitting", []string{"runs", "estimate", "lo", "hi", "confidence", "steps", "split"},
		func() kind.Detail { return &Detail{} })
	kind.RegisterProgress(jobs.KindSplit, func(pr jobs.Progress) string {
		return fmt.Sprintf("splitting: %d of %d replications, estimate %.4g, %d run segments, %.0f segments/s, %d workers",
			pr.Replications, pr.PlannedReplications, pr.Estimate, pr.Runs, pr.RunsPerS, pr.Workers)
	})
}

// ResultOf returns a splitting result's report (nil for other kinds).
func ResultOf(r *kind.Result) *Result {
	if d, ok := r.Detail.(*Detail); ok {
		return d.Split
	}
	return nil
}

// WriteText implements Detail.
func (d *Detail) WriteText(w io.Writer, r *kind.Result) {
	writeSplit(w, d.Split)
	fmt.Fprintf(w, "Time: %.2f s, %.0f run segments/s, %.3g steps/s, %d worker(s)\n",
		r.Stats.Seconds, r.Stats.RunsPerSec, r.Stats.StepsPerSec, len(r.Stats.Workers))
}

// writeSplit prints an importance-splitting result with its level report.
func writeSplit(w io.Writer, s *Result) {
	if s == nil {
		return
	}
	method := "fixed-effort splitting"
	if s.Method == "adaptive" {
		method = fmt.Sprintf("adaptive splitting (GAMS, K = %d)", s.K)
	}
	fmt.Fprintf(w, "Importance splitting: %s, N = %d, %d replications\n", method, s.N, s.M)
	if s.NoEstimate {
		fmt.Fprintf(w, "No estimate: every replication went extinct (highest score reached: %s)\n", scoreText(s.MaxSeen))
	} else {
		interval := "log-scale interval over replications"
		if s.Interval == IntervalT {
			interval = "t-interval over replications"
		}
		fmt.Fprintf(w, "Probability: %s in [%s, %s] with confidence %g (%s; std error %.3g)\n",
			kind.FormatP(s.Estimate), kind.FormatP(s.Lo), kind.FormatP(s.Hi), s.Confidence, interval, s.StdErr)
		if !s.CoverageAssured {
			fmt.Fprintf(w, "Coverage NOT assured: %d replications are too few for their skewness (%.2g; about %d needed), the interval may cover less than %g\n",
				s.M, s.Skewness, CoverageNeed(s.Skewness), s.Confidence)
		}
		fmt.Fprintf(w, "Student-t interval: [%s, %s]; plug-in interval (log scale, from level counts): [%s, %s]\n",
			kind.FormatP(s.TLo), kind.FormatP(s.THi), kind.FormatP(s.PlugLo), kind.FormatP(s.PlugHi))
	}
	if s.Extinct > 0 {
		fmt.Fprintf(w, "Extinct replications: %d of %d (estimate 0 each)\n", s.Extinct, s.M)
	}
	fmt.Fprintf(w, "Levels (pooled over replications):\n  %5s %12s %12s %12s %10s %8s %9s\n",
		"level", "score >=", "runs", "crossings", "cond. p", "var %", "time (s)")
	shown := s.Levels
	if len(shown) > 60 {
		shown = append(append([]Level(nil), shown[:30]...), shown[len(shown)-30:]...)
	}
	for i, l := range shown {
		if len(shown) < len(s.Levels) && i == 30 {
			fmt.Fprintf(w, "  ... %d more levels ...\n", len(s.Levels)-60)
		}
		th := l.Threshold
		if s.Method == "adaptive" && th != "property" {
			th = "> " + th
		}
		fmt.Fprintf(w, "  %5d %12s %12d %12d %10.4g %7.1f%% %9.2f\n", l.Index, th, l.Runs, l.Crossings, l.CondProb, 100*l.VarShare, l.Seconds)
	}
	for _, msg := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", msg)
	}
	if t := s.Tuning; t != nil {
		fmt.Fprintf(w, "Level tuning: %d levels of conditional probability about %.2g (balanced) would spread this estimate", t.BalancedLevels, t.BalancedProb)
		if t.WorkRatio > 0 {
			fmt.Fprintf(w, " with %.0f%% of this run's work for the same relative error", 100*t.WorkRatio)
		}
		fmt.Fprintln(w)
		for _, a := range t.Advice {
			fmt.Fprintf(w, "  %s\n", a)
		}
	}
	if s.EmitLevels != "" {
		fmt.Fprintf(w, "Fixed levels from this run: %s\n", s.EmitLevels)
	}
	fmt.Fprintf(w, "Run segments: %d, steps: %d\n", s.Segments, s.Steps)
}

func scoreText(v int64) string {
	switch v {
	case math.MinInt64:
		return "none"
	case Sat:
		return "property"
	}
	return fmt.Sprint(v)
}

// Answer implements kind.Detail: no estimate, or an estimate whose
// interval's coverage is not assured (the estimate is still given), is
// Unknown.
func (d *Detail) Answer(*kind.Result) kind.Verdict {
	if d.Split != nil && (d.Split.NoEstimate || !d.Split.CoverageAssured) {
		return kind.Unknown
	}
	return kind.Holds
}

// Summary implements kind.Detail.
func (d *Detail) Summary(r *kind.Result) string {
	if d.Split != nil && d.Split.NoEstimate {
		return "NO ESTIMATE: every replication went extinct"
	}
	return fmt.Sprintf("Pr in [%.4g, %.4g] (estimate %.4g, confidence %g, importance splitting)", r.Lo, r.Hi, r.Estimate, r.Confidence)
}

// Counterexamples implements kind.Detail: none.
func (d *Detail) Counterexamples() []*trace.Trace { return nil }

// Number implements kind.Numeric: the estimate and its interval.
func (d *Detail) Number(r *kind.Result) (est, lo, hi float64, ok bool) {
	if d.Split != nil && d.Split.NoEstimate {
		return 0, 0, 0, false
	}
	return r.Estimate, r.Lo, r.Hi, true
}

// Negative implements kind.Negative: no estimate, or 0.
func (d *Detail) Negative(*kind.Result) bool {
	return d.Split != nil && (d.Split.NoEstimate || d.Split.Estimate == 0)
}

// ReportMetrics implements kind.MetricsReporter: the deepest level reached.
func (d *Detail) ReportMetrics(em *metrics.Experiment, _ *metrics.Progress) {
	if d.Split != nil {
		splitLevel(em, d.Split.Levels)
	}
}
