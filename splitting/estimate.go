package splitting

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/wyvernmc/wyvern/estimator"
	"github.com/wyvernmc/wyvern/query"
)

// Executor runs batches of segments, locally or on workers.
type Executor interface {
	// Run executes the batch's tasks and returns their segments in task
	// order.
	Run(ctx context.Context, b *Batch) ([]Segment, error)
}

// LevelCount is one level of one replication: fixed, a score level and
// the runs that crossed it; adaptive, an iteration's level Z and the
// replicas that survived it. The last entry is the property.
type LevelCount struct {
	Level   int64 `json:"level"`
	Runs    int   `json:"runs"`
	Crossed int   `json:"crossed"`
	Nanos   int64 `json:"nanos"`
}

// Replication is the outcome of one independent splitting run.
type Replication struct {
	Estimate float64      `json:"estimate"`
	Levels   []LevelCount `json:"levels"`
	Extinct  int          `json:"extinct"` // index in Levels of the level nobody crossed, -1 if none
	MaxSeen  int64        `json:"max_seen"`
	Segments int64        `json:"segments"`
	Steps    uint64       `json:"steps"`
	Nanos    int64        `json:"nanos"`
	// Decreased counts segments along which the score fell; SatBelow, runs
	// that reached the property from a score below a level (fixed: the
	// level they were running for; adaptive: the first iteration's level).
	Decreased int64 `json:"decreased"`
	SatBelow  int64 `json:"sat_below"`
}

func (r *Replication) add(s *Segment) {
	if s.Decreased {
		r.Decreased++
	}
	r.Segments++
	r.Steps += s.Steps
	r.Nanos += s.Nanos
	if s.Max > r.MaxSeen && s.Max != Sat {
		r.MaxSeen = s.Max
	}
}

// Level is a row of the level report, pooled over replications.
type Level struct {
	Index     int     `json:"index"`
	Threshold string  `json:"threshold"` // score level ("property" for the last)
	Runs      int64   `json:"runs"`
	Crossings int64   `json:"crossings"`
	CondProb  float64 `json:"cond_prob"`
	// VarShare is the level's share of the plug-in relative variance
	// (1-p)/(n p) summed over levels.
	VarShare float64 `json:"var_share"`
	Seconds  float64 `json:"seconds"` // simulation time spent on the level (all workers)
}

// Result is a splitting estimate. Everything except Seconds is a function
// of (program, query, seed) alone.
type Result struct {
	Method   string  `json:"method"`
	N        int     `json:"n"`
	K        int     `json:"k,omitempty"`
	M        int     `json:"m"`
	Estimate float64 `json:"estimate"` // mean of the replications' estimates
	StdErr   float64 `json:"stderr"`
	// Lo and Hi bound the confidence interval over the replications, of
	// the kind Interval names: "log" (the default: log-scale delta-method
	// interval, asymmetric like the skewed distribution of a mean of
	// splitting estimates) or "t" (Student-t); TLo and THi are always the
	// Student-t interval, for comparison.
	Interval string  `json:"interval"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	TLo      float64 `json:"t_lo"`
	THi      float64 `json:"t_hi"`
	// NoEstimate: every replication went extinct, so there is no estimate
	// (Estimate, Lo and Hi are 0 and mean nothing); MaxSeen is the highest
	// score reached.
	NoEstimate bool `json:"no_estimate,omitempty"`
	// CoverageAssured: the replication estimates are numerous enough for
	// their skewness g that the interval keeps its confidence, M >= 28 +
	// 25·g² (CoverageNeed). False when M (given, or MaxM for M=auto)
	// stopped the replications before the rule held, when every estimate
	// was equal, and when there is no estimate: the estimate stands, the
	// interval may cover less than Confidence.
	CoverageAssured bool `json:"coverage_assured"`
	// Skewness is the sample skewness of the replication estimates.
	Skewness     float64   `json:"skewness"`
	PlugLo       float64   `json:"plug_lo"` // log-scale plug-in interval from the pooled level counts
	PlugHi       float64   `json:"plug_hi"`
	Confidence   float64   `json:"confidence"`
	Replications []float64 `json:"replications"`
	Extinct      int       `json:"extinct"` // replications that ended with a level nobody crossed
	Levels       []Level   `json:"levels"`
	Warnings     []string  `json:"warnings,omitempty"`
	EmitLevels   string    `json:"emit_levels,omitempty"` // adaptive: an equivalent fixed-levels query
	// Tuning: fixed effort, how the levels compare with a balanced
	// placement and what to change (nil for adaptive levels)
	Tuning   *Tuning `json:"tuning"`
	MaxSeen  int64   `json:"max_seen"`
	Segments int64   `json:"segments"`
	Steps    uint64  `json:"steps"`
	Seconds  float64 `json:"seconds"` // simulation time, all workers
}

// Progress reports finished replications.
type Progress struct {
	Done, Total int
	Estimate    float64 // mean so far
	// Rep is the replication that just finished, Replication its outcome
	// (for live level reports: Summarize the finished ones).
	Rep         int
	Replication *Replication
}

// Estimate runs the spec's M replications, at most parallel at once,
// through ex, and summarises them. seed is the experiment seed. With
// M=auto (s.Auto) it runs s.M replications, then doubles their number
// while the interval's coverage is not assured (see Summarize), up to
// s.MaxM; which replications run depends only on the estimates of those
// before, so the answer is still a function of the seed.
func Estimate(ctx context.Context, q *query.Query, s *Spec, ex Executor, seed uint64, parallel int, progress func(Progress)) (*Result, error) {
	var reps []*Replication
	target := s.M
	sum := 0.0 // of the estimates so far, for progress
	for {
		more, err := runReplications(ctx, s, ex, seed, parallel, len(reps), target, sum, progress)
		if err != nil {
			return nil, err
		}
		for _, r := range more {
			sum += r.Estimate
		}
		reps = append(reps, more...)
		res, err := Summarize(q, s, reps)
		if err != nil {
			return nil, err
		}
		if !s.Auto || res.CoverageAssured || res.NoEstimate || len(reps) >= s.MaxM {
			return res, nil
		}
		target = min(2*len(reps), s.MaxM)
	}
}

// runReplications runs replications from to to-1, at most parallel at
// once, and returns them in order; prevSum is the sum of the estimates of
// the replications before from (for the running mean progress reports).
func runReplications(ctx context.Context, s *Spec, ex Executor, seed uint64, parallel, from, to int, prevSum float64, progress func(Progress)) ([]*Replication, error) {
	reps := make([]*Replication, to-from)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		first error
		done  int
		sum   float64
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, max(parallel, 1))
	for rep := from; rep < to; rep++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(rep int) {
			defer wg.Done()
			defer func() { <-sem }()
			var r *Replication
			var err error
			if s.Method == Fixed {
				r, err = runFixed(ctx, ex, s, seed, rep)
			} else {
				r, err = runAdaptive(ctx, ex, s, seed, rep)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if first == nil {
					first = fmt.Errorf("replication %d: %w", rep, err)
					cancel()
				}
				return
			}
			reps[rep-from] = r
			done++
			sum += r.Estimate
			if progress != nil {
				progress(Progress{Done: from + done, Total: to, Estimate: (prevSum + sum) / float64(from+done), Rep: rep, Replication: r})
			}
		}(rep)
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return reps, nil
}

// Summarize combines replications into a result: the mean estimate with
// its t-interval, the pooled level report with the plug-in interval,
// warnings about badly placed levels, and for adaptive runs a fixed-levels
// query built from the levels it found.
func Summarize(q *query.Query, s *Spec, reps []*Replication) (*Result, error) {
	res := &Result{Method: s.Method.String(), N: s.N, M: len(reps), Confidence: 1 - s.Alpha, MaxSeen: math.MinInt64}
	if s.Method == Adaptive {
		res.K = s.K
	}
	var mean estimator.Mean
	for _, r := range reps {
		if r == nil {
			return nil, fmt.Errorf("a replication is missing")
		}
		res.Replications = append(res.Replications, r.Estimate)
		if err := mean.Add(r.Estimate); err != nil {
			return nil, err
		}
		if r.Extinct >= 0 {
			res.Extinct++
		}
		res.Segments += r.Segments
		res.Steps += r.Steps
		res.Seconds += float64(r.Nanos) / 1e9
		res.MaxSeen = max(res.MaxSeen, r.MaxSeen)
	}
	mr, err := mean.Result(s.Alpha)
	if err != nil {
		return nil, err
	}
	res.Estimate = mr.Mean
	res.Interval = s.Interval
	if mr.N > 1 {
		res.StdErr = mr.StdDev / math.Sqrt(float64(mr.N))
		res.TLo, res.THi = max(mr.Lo, 0), min(mr.Hi, 1)
	} else {
		res.TLo, res.THi = 0, 1
	}
	res.Lo, res.Hi = res.TLo, res.THi
	if s.Interval == IntervalLog && mr.N > 1 {
		lo, hi := mr.LogInterval(s.Alpha)
		res.Lo, res.Hi = lo, min(hi, 1)
	}
	if res.Extinct == res.M {
		res.NoEstimate = true
		res.Estimate, res.Lo, res.Hi, res.TLo, res.THi, res.StdErr = 0, 0, 0, 0, 0, 0
	}
	res.Skewness = mr.Skewness
	res.CoverageAssured = !res.NoEstimate && mr.CoverageAssured()
	if s.Method == Fixed {
		res.Levels = fixedLevels(s, reps)
	} else {
		res.Levels = adaptiveLevels(reps)
	}
	res.PlugLo, res.PlugHi = plugIn(res.Estimate, reps, s.Alpha)
	varShares(res.Levels)
	if !res.NoEstimate {
		res.Tuning = tuning(s.Method, s.N, res.Estimate, res.Levels)
	}
	res.Warnings = warnings(s, res, reps)
	switch {
	case res.NoEstimate:
	case mr.N < 2 || mr.StdDev == 0:
		res.Warnings = append(res.Warnings, mr.Warnings("replication estimates")...)
		res.Warnings = append(res.Warnings, "the interval's coverage is not assured: "+budgetText(s, res.M))
	case !res.CoverageAssured:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the interval's coverage is not assured: the %d replication estimates are skewed (skewness %.2g) and about %d are needed for a %g %% interval to keep its confidence (M >= 28 + 25·skewness²); %s; the estimate stands",
			res.M, mr.Skewness, CoverageNeed(mr.Skewness), 100*res.Confidence, budgetText(s, res.M)))
	}
	if s.Method == Adaptive {
		res.EmitLevels = emitLevels(q, s, res.Levels)
	}
	return res, nil
}

// CoverageNeed is the number of replications whose mean has a normal
// enough distribution for the interval to keep its confidence when their
// sample skewness is g: estimator.CoverageNeed, 28 + 25·g². Measured on
// splitting estimators in docs/statistics.md.
func CoverageNeed(g float64) int { return estimator.CoverageNeed(g) }

// budgetText says what stopped the replications at m.
func budgetText(s *Spec, m int) string {
	if s.Auto {
		return fmt.Sprintf("M=auto stopped at its budget MaxM = %d (raise MaxM, or use a score that makes the estimates less skewed)", m)
	}
	return fmt.Sprintf("M = %d was given (use M=auto, the default, or a larger M)", m)
}

// fixedLevels pools the level counts of fixed-effort replications.
func fixedLevels(s *Spec, reps []*Replication) []Level {
	levels := append(append([]int64(nil), s.Thresholds...), Sat)
	out := make([]Level, len(levels))
	for k, t := range levels {
		out[k] = Level{Index: k + 1, Threshold: levelName(t)}
	}
	for _, r := range reps {
		for k, lc := range r.Levels {
			out[k].Runs += int64(lc.Runs)
			out[k].Crossings += int64(lc.Crossed)
			out[k].Seconds += float64(lc.Nanos) / 1e9
		}
	}
	for k := range out {
		if out[k].Runs > 0 {
			out[k].CondProb = float64(out[k].Crossings) / float64(out[k].Runs)
		}
	}
	// Levels after an extinction everywhere were never run.
	for len(out) > 0 && out[len(out)-1].Runs == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// adaptiveLevels pools adaptive iterations by their level Z: a level's
// conditional probability is the geometric mean over replications of the
// product of the survival fractions of its iterations (1 where a
// replication had no iteration at that level).
func adaptiveLevels(reps []*Replication) []Level {
	type acc struct {
		runs, crossed int64
		logp          float64
		nanos         int64
	}
	by := map[int64]*acc{}
	for _, r := range reps {
		for _, lc := range r.Levels {
			a := by[lc.Level]
			if a == nil {
				a = &acc{}
				by[lc.Level] = a
			}
			a.runs += int64(lc.Runs)
			a.crossed += int64(lc.Crossed)
			a.nanos += lc.Nanos
			if lc.Crossed == 0 {
				a.logp = math.Inf(-1)
			} else {
				a.logp += math.Log(float64(lc.Crossed) / float64(lc.Runs))
			}
		}
	}
	keys := make([]int64, 0, len(by))
	for z := range by {
		keys = append(keys, z)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := make([]Level, 0, len(keys))
	for i, z := range keys {
		a := by[z]
		out = append(out, Level{Index: i + 1, Threshold: levelName(z), Runs: a.runs, Crossings: a.crossed,
			CondProb: math.Exp(a.logp / float64(len(reps))), Seconds: float64(a.nanos) / 1e9})
	}
	return out
}

// plugIn returns the log-scale interval exp(log p ± z·sqrt(V/M)) around
// the estimate p, where V is the delta-method relative variance of one
// replication, sum (1-p_k)/(n_k p_k) over its levels (treating levels as
// independent), averaged over the replications that did not go extinct.
func plugIn(p float64, reps []*Replication, alpha float64) (lo, hi float64) {
	if p <= 0 {
		return 0, 0
	}
	v, n := 0.0, 0
	for _, r := range reps {
		if r.Extinct >= 0 {
			continue
		}
		vr := 0.0
		for _, l := range r.Levels {
			pk := float64(l.Crossed) / float64(l.Runs)
			vr += (1 - pk) / (float64(l.Runs) * pk)
		}
		v += vr
		n++
	}
	if n == 0 {
		return 0, 0
	}
	v /= float64(n) * float64(len(reps))
	h := distuv.UnitNormal.Quantile(1-alpha/2) * math.Sqrt(v)
	return p * math.Exp(-h), min(p*math.Exp(h), 1)
}

// varShares fills each pooled level's share of the summed relative
// variance (1-p_k)/(n_k p_k).
func varShares(levels []Level) {
	v := 0.0
	terms := make([]float64, len(levels))
	for k, l := range levels {
		if l.Runs == 0 || l.Crossings == 0 {
			return
		}
		p := float64(l.Crossings) / float64(l.Runs)
		terms[k] = (1 - p) / (float64(l.Runs) * p)
		v += terms[k]
	}
	if v == 0 {
		return
	}
	for k := range levels {
		levels[k].VarShare = terms[k] / v
	}
}

// warnings flags levels whose conditional probability is below 0.05 (too
// far apart: add a level) or above 0.9 (too close: the level costs runs
// and gains little), and replications that went extinct.
func warnings(s *Spec, res *Result, reps []*Replication) []string {
	var w []string
	if res.Extinct > 0 {
		w = append(w, fmt.Sprintf("%d of %d replications went extinct (a level no run crossed; highest score seen %s): their estimate is 0",
			res.Extinct, res.M, scoreName(res.MaxSeen)))
	}
	if res.Extinct == res.M {
		w = append(w, fmt.Sprintf("every replication went extinct: no estimate (highest score reached: %s); the event is rarer than splitting with these levels can see, or the score cannot reach the levels and the property", scoreName(res.MaxSeen)))
	}
	var below, decreased int64
	for _, r := range reps {
		below += r.SatBelow
		decreased += r.Decreased
	}
	if below > 0 {
		where := "below the level they were running for"
		if s.Method == Adaptive {
			where = "from a score at or below the first adaptive level"
		}
		w = append(w, fmt.Sprintf("%d runs reached the property %s: part of the probability does not pass through the levels, so few replications see it; the estimate stays unbiased but is skewed and its interval may under-cover: use a score that rises on every way to the property", below, where))
	}
	if decreased > 0 {
		w = append(w, fmt.Sprintf("the score decreased along %d of %d run segments: it forgets progress (splitting stays unbiased, since runs restart from full program states, but levels crossed and then lost waste effort); a score that never decreases along a run works best", decreased, res.Segments))
	}
	if s.Method == Adaptive && !res.NoEstimate {
		scoreLevels := 0
		for _, l := range res.Levels {
			if l.Threshold != "property" {
				scoreLevels++
			}
		}
		if scoreLevels <= 1 {
			w = append(w, fmt.Sprintf("the score is flat: the runs' scores took %d level(s) below the property, so splitting had no progress to select on and the estimate is plain Monte Carlo's with extra cost; write a score that rises step by step toward the property (Score=EXPR)", scoreLevels))
		}
	}
	if s.Method != Fixed {
		return w
	}
	for _, l := range res.Levels {
		if l.Threshold == "property" || l.Runs == 0 {
			continue
		}
		switch {
		case l.CondProb < 0.05:
			w = append(w, fmt.Sprintf("level %d (score >= %s): conditional probability %.3g is below 0.05: add a level below it", l.Index, l.Threshold, l.CondProb))
		case l.CondProb > 0.9:
			w = append(w, fmt.Sprintf("level %d (score >= %s): conditional probability %.3g is above 0.9: the level adds cost and little information", l.Index, l.Threshold, l.CondProb))
		}
	}
	return w
}

func scoreName(v int64) string {
	if v == math.MinInt64 {
		return "none"
	}
	return levelName(v)
}

// emitLevels turns the levels an adaptive run found into a fixed-levels
// query: a level at Z+1 (the adaptive level kills scores <= Z) each time
// the cumulative conditional probability since the previous level falls
// to 0.2 or below.
func emitLevels(q *query.Query, s *Spec, levels []Level) string {
	if s.PropLevels > 0 || q == nil {
		return ""
	}
	var picked []string
	acc := 1.0
	// The last score level's survivors are the runs that reach the
	// property: a level above it (Z+1) may lie past the highest score a
	// run takes short of the property, which a fixed run would then reach
	// "below the level". Its probability joins the property's level.
	last := len(levels) - 1
	for last >= 0 && levels[last].Threshold == "property" {
		last--
	}
	for _, l := range levels[:max(last, 0)] {
		acc *= l.CondProb
		if acc <= 0.2 {
			z, err := strconv.ParseInt(l.Threshold, 10, 64)
			if err != nil {
				return "" // not a score level (cannot happen with Score=expr)
			}
			picked = append(picked, strconv.FormatInt(z+1, 10))
			acc = 1
		}
	}
	if len(picked) == 0 {
		return ""
	}
	base := q.Text
	if i := strings.Index(base, "{"); i >= 0 {
		base = strings.TrimSpace(base[:i])
	}
	m := "" // M=auto, the default
	if !s.Auto {
		m = fmt.Sprintf(", M=%d", s.M)
	}
	return fmt.Sprintf("%s {Split=fixed, Score=%s, Levels=[%s], N=%d%s}", base, s.Score, strings.Join(picked, ","), s.N, m)
}
