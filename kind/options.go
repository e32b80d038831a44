package kind

import (
	"sort"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// OptionsReporter is a Runner that reports its kind's part of the options
// in effect for an experiment (Result.Options): the engine that answers
// ("engine") and the engine's options by their flag names, defaults
// included. A kind without one is reported as engine = its name.
type OptionsReporter interface {
	ReportOptions(q *query.Query, exp *jobs.Experiment, o *Options)
}

// Options are the options in effect for an experiment, with the names of
// those that took their default.
type Options struct {
	values   map[string]any
	defaults map[string]bool
}

// NewOptions returns an empty set of options.
func NewOptions() *Options {
	return &Options{values: map[string]any{}, defaults: map[string]bool{}}
}

// Set records option name with value v (nil: none — no cap, no limit),
// isDefault when it took its default.
func (o *Options) Set(name string, v any, isDefault bool) {
	o.values[name] = v
	if isDefault {
		o.defaults[name] = true
	} else {
		delete(o.defaults, name)
	}
}

// Has reports whether option name is recorded.
func (o *Options) Has(name string) bool {
	_, ok := o.values[name]
	return ok
}

// Delete drops option name (one that does not apply to the engine).
func (o *Options) Delete(name string) {
	delete(o.values, name)
	delete(o.defaults, name)
}

// Map returns the options by name and the sorted names of the defaults.
func (o *Options) Map() (map[string]any, []string) {
	defaults := make([]string, 0, len(o.defaults))
	for k := range o.defaults {
		defaults = append(defaults, k)
	}
	sort.Strings(defaults)
	return o.values, defaults
}

// OrNone is v, or nil (none) when zero.
func OrNone(v any, zero bool) any {
	if zero {
		return nil
	}
	return v
}

// OrDefault is v, or def when v is empty.
func OrDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
