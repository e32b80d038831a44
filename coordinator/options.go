package coordinator

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// Version is the build of this process, written into every result it
// computes (Result.WyvernVersion); the binary sets it at start.
var Version = "devel"

// Engine names, as results report them (options "engine").
const (
	EngineSimulation = "simulation"
	EngineSplitting  = "splitting"
	EngineExplicit   = "explicit"
	EngineExact      = "exact"
	EngineBMC        = "bmc"
)

// Options returns every option in effect for query q run as experiment
// exp, defaults included, and the names of those that took their default:
// the query's options (Settings: Alpha, Epsilon, Rule, ..., by their names
// in the query language), the query's step bound ("bound") and run count
// ("runs", Estimate and EnumStatesSMC), the engine that answers it
// ("engine") and the engine's options by their flag names (explicit
// search: order, reduction, compact, max-states, max-memory in MiB,
// max-time in seconds, search-workers when given; bmc: unwind, max-unwind, solver, solver-timeout and
// any other option given). A value nil means "none" (no cap, no limit).
func Options(q *query.Query, exp *jobs.Experiment) (map[string]any, []string) {
	opts := map[string]any{}
	var defaults []string
	set := func(name string, v any, isDefault bool) {
		opts[name] = v
		if isDefault {
			defaults = append(defaults, name)
		}
	}
	exact := exp.Kind == jobs.KindExplicit && exp.Explicit != nil && exp.Explicit.Exact
	for _, s := range q.Settings() {
		// an exact computation has no statistical options, but its runs
		// have the query's platform behaviours
		if !exact || s.Name == "Platform" || s.Name == "Spurious" {
			set(s.Name, s.Value, s.Default)
		}
	}
	switch q.Kind {
	case query.Probability, query.Hypothesis, query.Estimate, query.EnumStatesSMC:
		opts["bound"] = q.Bound
	}
	if q.Kind == query.Estimate || q.Kind == query.EnumStatesSMC {
		opts["runs"] = q.Runs
	}
	orNone := func(v any, zero bool) any {
		if zero {
			return nil
		}
		return v
	}
	switch exp.Kind {
	case jobs.KindTrace:
		opts["engine"] = EngineSimulation
	case jobs.KindSplit:
		opts["engine"] = EngineSplitting
	case jobs.KindExplicit:
		x := exp.Explicit
		if x == nil {
			x = &jobs.ExplicitOptions{}
		}
		if x.Exact {
			opts["engine"] = EngineExact
		} else {
			opts["engine"] = EngineExplicit
			set("order", cmp(x.Order, "bfs"), x.Order == "")
			set("reduction", cmp(x.Reduction, "none"), x.Reduction == "")
		}
		set("compact", x.Compact, !x.Compact)
		set("max-states", orNone(x.MaxStates, x.MaxStates == 0), x.MaxStates == 0)
		mib := x.MaxBytes >> 20
		if x.MaxBytes == 0 {
			mib = jobs.DefaultExplicitMaxBytes >> 20
		}
		set("max-memory", mib, x.MaxBytes == 0)
		set("max-time", orNone(x.MaxTimeS, x.MaxTimeS == 0), x.MaxTimeS == 0)
		if x.Workers > 1 && !x.Exact {
			// given only: goroutines of a breadth-first search, which
			// do not change the answer
			set("search-workers", x.Workers, false)
		}
	case jobs.KindBMC:
		opts["engine"] = EngineBMC
		b := exp.BMC
		if b == nil {
			b = &jobs.BMCOptions{}
		}
		set("unwind", orNone(b.Unwind, b.Unwind == 0), b.Unwind == 0)
		set("max-unwind", orNone(b.MaxUnwind, b.MaxUnwind == 0 || b.Unwind > 0), b.MaxUnwind == 0 && b.Unwind == 0)
		set("solver", cmp(b.Solver, "z3"), b.Solver == "")
		set("solver-timeout", orNone(b.SolverTimeoutS, b.SolverTimeoutS == 0), b.SolverTimeoutS == 0)
		// Options added to jobs.BMCOptions later appear by their JSON
		// names when given.
		if raw, err := json.Marshal(b); err == nil {
			var m map[string]any
			if json.Unmarshal(raw, &m) == nil {
				for k, v := range m {
					name := strings.ReplaceAll(strings.TrimSuffix(k, "_s"), "_", "-")
					if _, ok := opts[name]; !ok {
						opts[name] = v
					}
				}
			}
		}
	default:
		opts["engine"] = exp.Kind
	}
	sort.Strings(defaults)
	return opts, defaults
}

// cmp returns v, or def when v is empty.
func cmp(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// describe fills what a runner's result takes from the experiment: the
// version, the program's hash and the options in effect (a runner's own
// entries in Options, e.g. an effective default it computed, win).
func describe(r *Result, q *query.Query, exp *jobs.Experiment) {
	r.WyvernVersion = Version
	r.ProgramSHA256 = exp.Program
	opts, defaults := Options(q, exp)
	for k, v := range r.Options {
		opts[k] = v
	}
	r.Options, r.Defaults = opts, defaults
}
