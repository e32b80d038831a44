package simulator

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/wyvernmc/wyvern/estimator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
)

// The results of trace experiments, by query kind.
var resultKeys = map[string][]string{
	"probability": {"runs", "satisfied", "estimate", "lo", "hi", "confidence", "rule", "steps", "ends",
		"always", "first_satisfying", "first_violating", "histogram", "convergence"},
	"hypothesis": {"verdict", "decision", "cmp", "theta", "delta", "alpha", "beta", "max_runs", "llr",
		"runs", "satisfied", "estimate", "steps", "ends", "always", "first_satisfying", "first_violating", "histogram", "convergence"},
	"estimate":        {"runs", "estimate", "lo", "hi", "confidence", "stddev", "coverage_assured", "steps", "ends", "convergence", "values"},
	"enum-states-smc": {"runs", "states", "steps", "ends"},
}

func init() {
	for k, keys := range resultKeys {
		kind.RegisterDetail(k, keys, func() kind.Detail { return &Detail{} })
	}
	kind.RegisterProgress(jobs.KindTrace, progressText)
}

// progressText is a trace experiment's progress line: runs, satisfying
// runs, the interval, throughput and the time left.
func progressText(pr jobs.Progress) string {
	eta := ""
	if pr.Planned > 0 && pr.RunsPerS > 0 && pr.Runs < pr.Planned {
		bound := "≤" // the rule stops by Planned at the latest
		if pr.Expected {
			bound = "~" // a sequential test: Planned is its expected length
		}
		eta = fmt.Sprintf(" ETA %s%s", bound, (time.Duration(float64(pr.Planned-pr.Runs)/pr.RunsPerS) * time.Second).Round(time.Second))
	}
	return fmt.Sprintf("%d runs, %d satisfying, [%.4f, %.4f], %.0f runs/s, %d workers%s",
		pr.Runs, pr.Satisfied, pr.Lo, pr.Hi, pr.RunsPerS, pr.Workers, eta)
}

// DetailOf returns a trace experiment's detail (nil for other kinds).
func DetailOf(r *kind.Result) *Detail {
	d, _ := r.Detail.(*Detail)
	return d
}

// Detail is the detail of the results of trace experiments
// (probabilities, hypothesis tests, Estimate and EnumStatesSMC queries).
type Detail struct {
	Satisfied uint64 `json:"satisfied,omitempty"`
	Rule      string `json:"rule,omitempty"`
	// Hypothesis tests: Decision is the SPRT's on H0: p >= θ (accept or
	// reject); Verdict answers the query as asked (holds, fails, undecided),
	// so for `Pr(...) <= θ` a rejected H0 means the query holds.
	Decision string  `json:"decision,omitempty"`
	Verdict  string  `json:"verdict,omitempty"`
	Cmp      string  `json:"cmp,omitempty"`
	Theta    float64 `json:"theta,omitempty"`
	LLR      float64 `json:"llr,omitempty"`
	// The test's parameters: indifference half-width δ and the error
	// bounds α (H0 rejected when it holds) and β (H0 accepted when H1
	// holds). A hypothesis result has no confidence interval: the SPRT
	// stops on the data, so a Clopper–Pearson interval computed at its
	// stopping time does not have its nominal coverage (measured: 86.5 %
	// at nominal 95 %); Estimate is the observed frequency only.
	Delta   float64 `json:"delta,omitempty"`
	Alpha   float64 `json:"alpha,omitempty"`
	Beta    float64 `json:"beta,omitempty"`
	MaxRuns uint64  `json:"max_runs,omitempty"`
	// Estimate
	StdDev float64 `json:"stddev,omitempty"`
	// CoverageAssured (estimate): the values are numerous enough for their
	// skewness that the t-interval keeps its confidence
	// (estimator.MeanResult.CoverageAssured).
	CoverageAssured bool `json:"coverage_assured,omitempty"`
	// EnumStatesSMC
	States int `json:"states,omitempty"`
	// The first satisfying trace, replayable with `wyvern replay`.
	FirstSatisfying *TraceRef `json:"first_satisfying,omitempty"`
	// Always: the query is Pr[<=N]([] P). Runs check the eventuality of
	// !P; the estimate, interval, convergence and Satisfied are those of
	// [] P (the complements), FirstViolating is the first run that reaches
	// !P and Histogram the lengths of such runs.
	Always         bool      `json:"always,omitempty"`
	FirstViolating *TraceRef `json:"first_violating,omitempty"`
	// Lengths (steps) of satisfying runs.
	Histogram []Bin `json:"histogram,omitempty"`
	// Convergence is the estimate and its interval after 1, 2, 4, 8, ...
	// runs and at the end, as the runs were folded (probabilities, tests
	// and Estimate queries).
	Convergence []ConvPoint `json:"convergence,omitempty"`
	// Values are an Estimate query's per-run values, in trace-index order
	// (the first MaxValues of them).
	Values []float64 `json:"values,omitempty"`
}

// TraceRef names a trace.
type TraceRef struct {
	Seed  uint64 `json:"seed"`
	Index uint64 `json:"index"`
	Steps uint64 `json:"steps"`
}

// Bin is a histogram bin [Lo, Hi].
type Bin struct {
	Lo    uint64 `json:"lo"`
	Hi    uint64 `json:"hi"`
	Count uint64 `json:"count"`
}

// ConvPoint is the estimate and its confidence interval after Runs runs.
type ConvPoint struct {
	Runs     uint64  `json:"runs"`
	Estimate float64 `json:"estimate"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
}

// MaxValues bounds the per-run values an Estimate result keeps (for its
// histogram): results are stored in a JetStream key-value bucket, whose
// values are limited to the NATS payload size.
const MaxValues = 10000

// folder folds outcomes strictly in index order into the query's estimator.
type folder struct {
	q         *query.Query
	prop      *estimator.Proportion
	sprt      *estimator.SPRT
	mean      estimator.Mean
	alpha     float64
	beta      float64 // SPRT
	delta     float64 // SPRT
	theta     float64 // SPRT: the threshold of the eventuality the runs check (1-θ for Pr([] P))
	cmp       string  // SPRT: its comparison
	runs      uint64  // folded
	sat       uint64
	steps     uint64
	ends      map[string]uint64
	satLens   lengths // satisfying-run lengths, for the histogram
	first     *TraceRef
	seed      uint64
	fixedRuns uint64 // Estimate, EnumStatesSMC
	done      bool
	conv      []ConvPoint
	values    []float64
}

func newFolder(q *query.Query, seed uint64) (*folder, error) {
	f := &folder{q: q, seed: seed, ends: map[string]uint64{}}
	// Options were checked against the query kind's schema when the query
	// was parsed: names, types and ranges are valid here.
	f.alpha = q.Num("Alpha")
	var err error
	switch q.Kind {
	case query.Probability:
		rule, err := estimator.ParseRule(q.Enum("Rule"))
		if err != nil {
			return nil, err
		}
		f.prop, err = estimator.NewProportion(estimator.ProportionConfig{Alpha: f.alpha, Epsilon: q.Num("Epsilon"), Rule: rule,
			MinRuns: q.Int("MinRuns"), MaxRuns: q.Int("MaxRuns")})
		if err != nil {
			return nil, err
		}
	case query.Hypothesis:
		f.delta, f.beta = q.Num("Delta"), q.Num("Beta")
		// Pr([] P) >= θ is Pr(<> !P) <= 1-θ: the runs check <> !P.
		f.theta, f.cmp = q.Theta, q.Cmp
		if q.Always {
			f.theta, f.cmp = 1-q.Theta, map[string]string{">=": "<=", "<=": ">="}[q.Cmp]
		}
		f.sprt, err = estimator.NewSPRT(f.theta, f.delta, f.alpha, f.beta)
		if err != nil {
			return nil, err
		}
		maxRuns := q.Int("MaxRuns")
		if maxRuns <= 0 {
			maxRuns = f.sprt.DefaultSPRTMaxRuns()
		}
		f.sprt.SetMaxRuns(maxRuns)
	case query.Estimate, query.EnumStatesSMC:
		f.fixedRuns = uint64(q.Runs)
	default:
		return nil, fmt.Errorf("query kind %s is not a statistical query (use the explicit-state checker)", q.Kind)
	}
	return f, nil
}

// limit is the number of traces after which the experiment stops at the
// latest: the jobs published never go past it. Every rule has one.
func (f *folder) limit() uint64 {
	switch {
	case f.fixedRuns > 0:
		return f.fixedRuns
	case f.prop != nil:
		return uint64(f.prop.Planned())
	case f.sprt != nil:
		return uint64(f.sprt.MaxRuns())
	}
	return 0
}

// planned is the number of traces the experiment is expected to need, for
// progress displays (0: unknown): the limit, except for the SPRT, whose
// stopping time is random (Wald's expected sample size at the worst p).
// The coordinator publishes jobs up to limit, not up to planned.
func (f *folder) planned() uint64 {
	if f.sprt != nil {
		return uint64(f.sprt.Planned())
	}
	return f.limit()
}

func (f *folder) add(o jobs.Outcome) {
	if f.done {
		return
	}
	f.runs++
	f.steps += o.Steps
	f.ends[o.End.String()]++
	if o.Sat {
		f.sat++
		f.satLens.add(o.Steps)
		if f.first == nil {
			f.first = &TraceRef{Seed: f.seed, Index: o.Index, Steps: o.Steps}
		}
	}
	switch {
	case f.prop != nil:
		f.done = f.prop.Add(o.Sat)
	case f.sprt != nil:
		f.done = f.sprt.Add(o.Sat)
	default:
		f.mean.Add(o.Value)
		if f.q.Kind == query.Estimate && len(f.values) < MaxValues {
			f.values = append(f.values, o.Value)
		}
		f.done = f.runs >= f.fixedRuns
	}
	if f.runs&(f.runs-1) == 0 { // a power of two
		f.checkpoint()
	}
}

// checkpoint records the current estimate and interval for the
// convergence chart.
func (f *folder) checkpoint() {
	if n := len(f.conv); n > 0 && f.conv[n-1].Runs == f.runs {
		return
	}
	var p ConvPoint
	switch {
	case f.prop != nil || f.sprt != nil:
		lo, hi := f.interval()
		p = ConvPoint{Runs: f.runs, Estimate: f.estimate(), Lo: lo, Hi: hi}
	case f.q.Kind == query.Estimate:
		mr, err := f.mean.Result(f.alpha)
		if err != nil || f.runs < 2 {
			return
		}
		p = ConvPoint{Runs: f.runs, Estimate: mr.Mean, Lo: mr.Lo, Hi: mr.Hi}
	default:
		return
	}
	f.conv = append(f.conv, p)
}

// estimate is the current point estimate (probability or mean).
func (f *folder) estimate() float64 {
	switch {
	case f.prop != nil:
		return f.prop.Result().Estimate
	case f.q.Kind == query.Estimate:
		if mr, err := f.mean.Result(f.alpha); err == nil {
			return mr.Mean
		}
		return 0
	case f.runs > 0:
		return float64(f.sat) / float64(f.runs)
	}
	return 0
}

func (f *folder) interval() (lo, hi float64) {
	if f.prop != nil {
		r := f.prop.Result()
		return r.Lo, r.Hi
	}
	if f.runs > 0 {
		return estimator.ClopperPearson(int(f.sat), int(f.runs), f.alpha)
	}
	return 0, 1
}

func (f *folder) result() kind.Result {
	q := f.q
	d := &Detail{Satisfied: f.sat, FirstSatisfying: f.first, Histogram: f.satLens.histogram()}
	r := kind.Result{Query: q.Text, Kind: q.Kind.String(), Seed: f.seed, Runs: f.runs, Steps: f.steps, Ends: f.ends, Detail: d}
	if f.runs > 0 {
		f.checkpoint()
	}
	d.Convergence = append([]ConvPoint(nil), f.conv...)
	switch {
	case f.prop != nil:
		pr := f.prop.Result()
		r.Estimate, r.Lo, r.Hi, r.Confidence, d.Rule = pr.Estimate, pr.Lo, pr.Hi, pr.Confidence, pr.Rule
		if pr.Stopped && !pr.EpsilonReached {
			r.Warnings = append(r.Warnings, fmt.Sprintf("the interval's half-width %.3g is above Epsilon = %g: MaxRuns = %d stopped the rule first", pr.HalfWidth(), pr.Epsilon, pr.N))
		}
		if cut := f.ends[jobs.EndAssumeFailed.String()]; f.sat == 0 && f.runs > 0 && cut == f.runs {
			r.Warnings = append(r.Warnings, fmt.Sprintf("every one of the %d runs ended in a failed assumption (__VERIFIER_assume with a false condition) before the property held: "+
				"the estimate counts them as runs that do not satisfy it; the program's assumptions exclude every run drawn — check them "+
				"(a contradiction, or a condition random inputs seldom meet, such as assume(x == 42) with x over 2^32: explicit-state search or --engine bmc handle those)", f.runs))
		} else if f.sat == 0 && f.runs > 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("0 of %d runs satisfy the property: the event may be rare, and the absolute Epsilon = %g says only that p <= %.3g; "+
				"importance splitting estimates rare events (add {Split=adaptive, Score=EXPR} with a score that grows toward the property)", f.runs, pr.Epsilon, pr.Hi))
		}
	case f.sprt != nil:
		sr := f.sprt.Result()
		d.Decision, d.Theta, d.LLR, d.Cmp = sr.Decision, q.Theta, sr.LLR, q.Cmp
		switch {
		case sr.Decision == estimator.DecisionUndecided:
			d.Verdict = "undecided"
			r.Warnings = append(r.Warnings, fmt.Sprintf("MaxRuns = %d reached without a decision: P is probably inside the indifference region [%s, %s]; raise MaxRuns or Delta",
				f.sprt.MaxRuns(), kind.FormatBound(q.Theta-f.delta), kind.FormatBound(q.Theta+f.delta)))
		case (sr.Decision == estimator.DecisionAccept) == (f.cmp == ">="):
			d.Verdict = "holds"
		default:
			d.Verdict = "fails"
		}
		d.Delta, d.Alpha, d.Beta, d.MaxRuns = f.delta, f.alpha, f.beta, uint64(f.sprt.MaxRuns())
		if f.runs > 0 {
			r.Estimate = float64(f.sat) / float64(f.runs)
		}
	case q.Kind == query.Estimate:
		mr, err := f.mean.Result(f.alpha)
		if err == nil {
			r.Estimate, r.Lo, r.Hi, d.StdDev = mr.Mean, mr.Lo, mr.Hi, mr.StdDev
			d.CoverageAssured = mr.CoverageAssured()
			if mr.N < 2 {
				r.Lo, r.Hi = mr.Mean, mr.Mean // ±Inf does not encode; the warning says there is no interval
			}
			r.Warnings = append(r.Warnings, mr.Warnings("values")...)
		}
		r.Confidence = 1 - f.alpha
		d.Satisfied = 0
		d.Histogram = nil
		d.Values = append([]float64(nil), f.values...)
	}
	if q.Always && (f.prop != nil || f.sprt != nil) {
		complementAlways(&r, d, f.prop != nil)
	}
	return r
}

// complementAlways turns the result of <> !P into that of Pr[<=N]([] P):
// the estimate, interval and convergence are complemented, satisfying runs
// are those that never reach !P, and the first run that does is the first
// violating one.
func complementAlways(r *kind.Result, d *Detail, interval bool) {
	d.Always = true
	d.Satisfied = r.Runs - d.Satisfied
	d.FirstViolating, d.FirstSatisfying = d.FirstSatisfying, nil
	if r.Runs > 0 {
		r.Estimate = 1 - r.Estimate
	}
	if interval {
		r.Lo, r.Hi = 1-r.Hi, 1-r.Lo
	}
	for i := range d.Convergence {
		c := &d.Convergence[i]
		c.Estimate, c.Lo, c.Hi = 1-c.Estimate, 1-c.Hi, 1-c.Lo
	}
	for i, w := range r.Warnings {
		if strings.HasPrefix(w, "0 of ") {
			r.Warnings[i] = fmt.Sprintf("no run of %d violates the invariant: a violation may be rare, and the absolute Epsilon says only that Pr([] P) >= %.3g; "+
				"importance splitting estimates rare events (ask Pr[<=N](<> !P) {Split=adaptive, Score=EXPR})", r.Runs, r.Lo)
		}
	}
}

// WriteText implements Detail.
func (d *Detail) WriteText(w io.Writer, r *kind.Result) {
	switch r.Kind {
	case "probability":
		fmt.Fprintf(w, "Probability in [%s, %s] with confidence %g (estimate %s, rule %s)\n",
			kind.FormatP(r.Lo), kind.FormatP(r.Hi), r.Confidence, kind.FormatP(r.Estimate), d.Rule)
		fmt.Fprintf(w, "Runs: %d, satisfying: %d\n", r.Runs, d.Satisfied)
	case "hypothesis":
		h0 := fmt.Sprintf("P >= %g", d.Theta)
		if d.Always {
			h0 = fmt.Sprintf("Pr(<> !P) >= %g", 1-d.Theta)
		}
		sprt := fmt.Sprintf("SPRT %ss H0: %s", d.Decision, h0) // accepts, rejects
		if d.Decision == estimator.DecisionUndecided {
			sprt = fmt.Sprintf("SPRT undecided on H0: %s", h0)
		}
		fmt.Fprintf(w, "Hypothesis P %s %g: %s after %d runs (%d satisfying; %s, log-likelihood ratio %.4g)\n",
			d.Cmp, d.Theta, strings.ToUpper(d.Verdict), r.Runs, d.Satisfied, sprt, d.LLR)
		fmt.Fprintf(w, "Test: indifference region [%s, %s], error bounds alpha %g, beta %g; observed frequency %s (not a confidence interval: the test stops on the data)\n",
			kind.FormatBound(d.Theta-d.Delta), kind.FormatBound(d.Theta+d.Delta), d.Alpha, d.Beta, kind.FormatP(r.Estimate))
	case "estimate":
		fmt.Fprintf(w, "Estimate: %.6g in [%.6g, %.6g] with confidence %g (std dev %.6g, %d runs)\n",
			r.Estimate, r.Lo, r.Hi, r.Confidence, d.StdDev, r.Runs)
	case "enum-states-smc":
		fmt.Fprintf(w, "Distinct states: %d in %d runs\n", d.States, r.Runs)
	}
	switch {
	case d.FirstSatisfying != nil:
		f := d.FirstSatisfying
		fmt.Fprintf(w, "First satisfying trace: seed %d index %d (%d steps)\n  replay: wyvern replay %s --seed %d --index %d --query '%s'\n",
			f.Seed, f.Index, f.Steps, r.Program, f.Seed, f.Index, r.Query)
	case d.FirstViolating != nil:
		f := d.FirstViolating
		fmt.Fprintf(w, "First run that violates the invariant: seed %d index %d (after %d steps)\n  replay: wyvern replay %s --seed %d --index %d --query '%s'\n",
			f.Seed, f.Index, f.Steps, r.Program, f.Seed, f.Index, r.Query)
	case d.Always:
		fmt.Fprintln(w, "No run violates the invariant.")
	case r.Kind == "probability" || r.Kind == "hypothesis":
		fmt.Fprintln(w, "No satisfying run found.")
	}
	if len(d.Histogram) > 0 {
		if d.Always {
			fmt.Fprintln(w, "Lengths of the runs that violate the invariant (steps to the violation):")
		} else {
			fmt.Fprintln(w, "Satisfying-run lengths (steps):")
		}
		var top uint64
		for _, b := range d.Histogram {
			top = max(top, b.Count)
		}
		for _, b := range d.Histogram {
			bar := int(math.Round(40 * float64(b.Count) / float64(top)))
			fmt.Fprintf(w, "  %7d-%-7d %8d %s\n", b.Lo, b.Hi, b.Count, strings.Repeat("#", bar))
		}
	}
	for _, msg := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", msg)
	}
	ends := make([]string, 0, len(r.Ends))
	for _, e := range jobs.Ends {
		if c := r.Ends[e.String()]; c > 0 { // JSON has every end, 0 included
			ends = append(ends, fmt.Sprintf("%s %d", e, c))
		}
	}
	fmt.Fprintf(w, "Runs ended: %s\n", strings.Join(ends, ", "))
	fmt.Fprintf(w, "Time: %.2f s, %.0f runs/s, %.3g steps/s, %d worker(s)\n",
		r.Stats.Seconds, r.Stats.RunsPerSec, r.Stats.StepsPerSec, len(r.Stats.Workers))
}

// Fold runs an experiment sequentially in this goroutine, without NATS:
// trace(i) gives the outcome of trace i, and outcomes are folded exactly as
// the coordinator folds workers' results. It is the reference the
// distributed path must agree with, and what statistical tests use.
func Fold(q *query.Query, seed uint64, trace func(i uint64) jobs.Outcome) (*kind.Result, error) {
	f, err := newFolder(q, seed)
	if err != nil {
		return nil, err
	}
	for i := uint64(0); !f.done; i++ {
		f.add(trace(i))
	}
	r := f.result()
	return &r, nil
}

// Answer implements kind.Detail: a hypothesis test's verdict; an
// estimate whose interval's coverage is not assured is Unknown (the
// estimate is given; its interval may cover less than claimed); a
// probability or a count holds.
func (d *Detail) Answer(r *kind.Result) kind.Verdict {
	switch {
	case r.Kind == "hypothesis":
		return kind.VerdictOf(d.Verdict == "holds", d.Verdict == "fails")
	case r.Kind == "estimate" && !d.CoverageAssured:
		return kind.Unknown
	}
	return kind.Holds
}

// Number implements kind.Numeric: a probability's or a mean's estimate
// with its interval, a test's observed frequency; none for a count.
func (d *Detail) Number(r *kind.Result) (est, lo, hi float64, ok bool) {
	switch r.Kind {
	case "probability", "estimate":
		return r.Estimate, r.Lo, r.Hi, true
	case "hypothesis":
		return r.Estimate, r.Estimate, r.Estimate, true
	}
	return 0, 0, 0, false
}

// Summary implements kind.Detail.
func (d *Detail) Summary(r *kind.Result) string {
	switch r.Kind {
	case "probability":
		return fmt.Sprintf("Pr in [%.6g, %.6g] (estimate %.6g, confidence %g, %d runs)", r.Lo, r.Hi, r.Estimate, r.Confidence, r.Runs)
	case "hypothesis":
		return fmt.Sprintf("%s: Pr %s %g (%d runs, observed %.6g)", strings.ToUpper(d.Verdict), d.Cmp, d.Theta, r.Runs, r.Estimate)
	case "estimate":
		return fmt.Sprintf("%.6g in [%.6g, %.6g] (confidence %g, %d runs)", r.Estimate, r.Lo, r.Hi, r.Confidence, r.Runs)
	case "enum-states-smc":
		return fmt.Sprintf("%d distinct states in %d runs", d.States, r.Runs)
	}
	return fmt.Sprintf("%s result (exit status %d)", r.Kind, r.ExitStatus())
}

// Counterexamples implements kind.Detail: a trace result names its first
// satisfying run by (seed, index) instead (FirstSatisfying).
func (d *Detail) Counterexamples() []*trace.Trace { return nil }

// Negative implements kind.Negative: no run satisfies the property.
func (d *Detail) Negative(r *kind.Result) bool {
	return (r.Kind == "probability" || r.Kind == "hypothesis") && d.Satisfied == 0
}

// WritesWarnings implements kind.WarningsWriter: a trace result prints
// its warnings before its end counts.
func (d *Detail) WritesWarnings() bool { return true }

// ReportMetrics implements kind.MetricsReporter.
func (d *Detail) ReportMetrics(_ *metrics.Experiment, p *metrics.Progress) { p.Satisfied = d.Satisfied }
