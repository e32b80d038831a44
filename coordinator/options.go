package coordinator

import (
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
)

// Version is the build of this process, written into every result it
// computes (Result.WyvernVersion); the binary sets it at start.
var Version = "devel"

// Options returns every option in effect for query q run as experiment
// exp by runner r (nil: none known), defaults included, and the names of
// those that took their default: the query's options (Settings: Alpha,
// Epsilon, Rule, ..., by their names in the query language), the query's
// step bound ("bound") and run count ("runs", Estimate and EnumStatesSMC),
// then the kind's (kind.OptionsReporter): the engine that answers it
// ("engine") and the engine's options by their flag names. A value nil
// means "none" (no cap, no limit).
func Options(q *query.Query, exp *jobs.Experiment, r Runner) (map[string]any, []string) {
	o := kind.NewOptions()
	for _, s := range q.Settings() {
		o.Set(s.Name, s.Value, s.Default)
	}
	switch q.Kind {
	case query.Probability, query.Hypothesis, query.Estimate, query.EnumStatesSMC:
		o.Set("bound", q.Bound, false)
	}
	if q.Kind == query.Estimate || q.Kind == query.EnumStatesSMC {
		o.Set("runs", q.Runs, false)
	}
	if rep, ok := r.(kind.OptionsReporter); ok {
		rep.ReportOptions(q, exp, o)
	} else {
		o.Set("engine", exp.Kind, false)
	}
	return o.Map()
}

// describe fills what a runner's result takes from the experiment: the
// version, the program's hash and the options in effect (a runner's own
// entries in Options, e.g. an effective default it computed, win).
func describe(r *Result, q *query.Query, exp *jobs.Experiment, runner Runner) {
	r.WyvernVersion = Version
	r.ProgramSHA256 = exp.Program
	opts, defaults := Options(q, exp, runner)
	for k, v := range r.Options {
		opts[k] = v
	}
	r.Options, r.Defaults = opts, defaults
}
