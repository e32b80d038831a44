package kind

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/trace"
)

// Result is an experiment's answer: the fields every kind of result has,
// and Detail, the result kind's own part (each job kind's own type,
// registered with RegisterDetail). In JSON the detail's fields stand
// beside the common ones.
// Everything in it except Stats is a function of (program, query, seed,
// options) alone: it does not depend on the number of workers, their
// speed, or redeliveries.
type Result struct {
	// WyvernVersion is the build of the coordinator that computed the
	// result (Version).
	WyvernVersion string `json:"wyvern_version"`
	Experiment    string `json:"experiment"`
	Program       string `json:"program"`
	// ProgramSHA256 is the SHA-256 of the LLVM assembly that was checked
	// (jobs.ProgramHash: the same source, compiler and flags give the same
	// hash).
	ProgramSHA256 string `json:"program_sha256"`
	Query         string `json:"query"`
	Kind          string `json:"kind"` // the result kind: probability, hypothesis, estimate, enum-states-smc, splitting, explicit, exact, ...
	Seed          uint64 `json:"seed"`
	// Options are every option in effect, defaults included: the query's
	// (by their names in the query language), its step bound, and the
	// engine's (see Options); Defaults names those that took their
	// default value.
	Options    map[string]any `json:"options"`
	Defaults   []string       `json:"defaults"`
	Runs       uint64         `json:"runs"`
	Estimate   float64        `json:"estimate"`
	Lo         float64        `json:"lo"`
	Hi         float64        `json:"hi"`
	Confidence float64        `json:"confidence,omitempty"`
	Steps      uint64         `json:"steps"`
	// Ends counts how runs ended.
	Ends map[string]uint64 `json:"ends"`
	// Warnings say what could make the answer misleading (an interval
	// that did not reach Epsilon, a skewed or constant sample, a test
	// that did not decide).
	Warnings []string `json:"warnings,omitempty"`
	Stats    Stats    `json:"stats"`
	Detail   Detail   `json:"-"`
}

// Detail is a result kind's own part of a Result: its fields (encoded
// beside the common ones), its text, its answer and the runs it carries.
// Every kind's result answers through it, so that clients (check, verify,
// replay) never look at an engine's own types.
type Detail interface {
	// WriteText writes the text that follows the common header.
	WriteText(w io.Writer, r *Result)
	// Answer is the result's answer as a verdict (Holds also for a number
	// that was computed with the confidence it claims): the exit status.
	Answer(r *Result) Verdict
	// Summary says in one line what the result answers.
	Summary(r *Result) string
	// Counterexamples are the runs the result carries (a counterexample,
	// a witness, a first deadlock or error), replayable with trace.Replay;
	// nil entries are runs the result could have carried and does not.
	Counterexamples() []*trace.Trace
}

// Numeric is a Detail whose answer is a number with an interval (a
// probability, a mean, an exact probability): what a parameter sweep
// tabulates and charts. ok is false when this result has none (no
// estimate); lo = hi = est for an exact answer or a test's frequency.
type Numeric interface {
	Number(r *Result) (est, lo, hi float64, ok bool)
}

// Negative is a Detail that can say whether its answer is "never": no
// satisfying run, an unreachable target, an invariant that holds, a
// probability 0 (a query naming a process the program never creates gets
// these answers for that reason alone).
type Negative interface {
	Negative(r *Result) bool
}

// WarningsWriter is a Detail whose WriteText prints the result's warnings
// itself (where its text wants them); the warnings of other details follow
// their text.
type WarningsWriter interface {
	WritesWarnings() bool
}

var (
	detailMu sync.RWMutex
	details  = map[string]detailKind{}
)

type detailKind struct {
	keys []string // the result's JSON fields between headKeys and tailKeys (nil: the detail's fields)
	make func() Detail
}

// RegisterDetail makes results of kind decode their detail into a value
// made by f, and write in JSON the fields keys (between the fields every
// result has; nil: the fields of the detail, in their order). A job kind
// registers each kind of result it makes, from its package's init.
func RegisterDetail(kind string, keys []string, f func() Detail) {
	detailMu.Lock()
	defer detailMu.Unlock()
	details[kind] = detailKind{keys: keys, make: f}
}

// resultFields is Result without its methods, for encoding its common part.
type resultFields Result

// MarshalJSON encodes the common fields and the detail's side by side,
// with the fields of the result's kind (resultKeys) and every one of them
// present: no field is left out for being zero, and none that means
// nothing for the kind (runs of an explicit search) is there.
func (r Result) MarshalJSON() ([]byte, error) {
	if slices.Contains(registeredKeys(r.Kind), "ends") || len(r.Ends) > 0 { // every way a run can end, 0 included
		ends := make(map[string]uint64, len(jobs.Ends))
		for _, e := range jobs.Ends {
			ends[e.String()] = 0
		}
		for k, v := range r.Ends {
			ends[k] = v
		}
		r.Ends = ends
	}
	fields, err := objectFields(resultFields(r))
	if err != nil {
		return nil, fmt.Errorf("encode %s result: %w", r.Kind, err)
	}
	var detailKeys []string
	if r.Detail != nil {
		d, err := objectFields(r.Detail)
		if err != nil {
			return nil, fmt.Errorf("encode %s result: %w", r.Kind, err)
		}
		for _, kv := range d {
			detailKeys = append(detailKeys, kv.key)
		}
		fields = append(fields, d...)
	}
	status, err := encodeAll(r.ExitStatus())
	if err != nil {
		return nil, err
	}
	fields = append(fields, keyValue{"exit_status", status})
	return writeObject(fields, ResultKeys(r.Kind, detailKeys)), nil
}

// UnmarshalJSON decodes the common fields, then the detail registered for
// the result's kind (none for an unknown kind).
func (r *Result) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*resultFields)(r)); err != nil {
		return err
	}
	detailMu.RLock()
	k, ok := details[r.Kind]
	detailMu.RUnlock()
	if !ok {
		r.Detail = nil
		return nil
	}
	d := k.make()
	if err := json.Unmarshal(b, d); err != nil {
		return fmt.Errorf("decode %s result: %w", r.Kind, err)
	}
	r.Detail = d
	return nil
}

// Stats are the run-dependent figures (time, throughput, workers).
type Stats struct {
	Seconds     float64  `json:"seconds"`
	RunsPerSec  float64  `json:"runs_per_s"`
	StepsPerSec float64  `json:"steps_per_s"`
	Workers     []string `json:"workers"`
	Duplicates  uint64   `json:"duplicate_results"`
	// Explicit-state search: states and queue size over time.
	Exploration []ExplorePoint `json:"exploration,omitempty"`
}

// ExplorePoint is a progress report of an explicit-state search.
type ExplorePoint struct {
	Seconds float64 `json:"s"`
	States  int64   `json:"states"`
	Queue   int     `json:"queue"`
}

// WriteText prints a result in LODIN's style: the query and program, then
// the detail's text.
func (r *Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Query: %s\n", r.Query)
	fmt.Fprintf(w, "Program: %s (seed %d)\n", r.Program, r.Seed)
	if len(r.Options) > 0 {
		fmt.Fprintf(w, "Options: %s (* default)\n", r.OptionsText())
	}
	if r.Detail != nil {
		r.Detail.WriteText(w, r)
	}
	if ww, ok := r.Detail.(WarningsWriter); !ok || !ww.WritesWarnings() {
		for _, msg := range r.Warnings {
			fmt.Fprintf(w, "warning: %s\n", msg)
		}
	}
}

// FormatBound writes a bound computed from the query's numbers (θ ± δ) with
// 12 significant digits: 0.2 + 0.01 is 0.21, not 0.21000000000000002.
func FormatBound(x float64) string { return strconv.FormatFloat(x, 'g', 12, 64) }

// FormatP writes a probability: 6 decimals, or 4 significant digits below
// 0.001.
func FormatP(p float64) string {
	if p != 0 && p < 1e-3 {
		return fmt.Sprintf("%.4g", p)
	}
	return fmt.Sprintf("%.6f", p)
}

// OptionsText writes the options in effect on one line, a star after each
// default: "Alpha=0.05*, Epsilon=0.02, ...".
func (r *Result) OptionsText() string {
	keys := make([]string, 0, len(r.Options))
	for k := range r.Options {
		keys = append(keys, k)
	}
	// Query options first (capitalised, as in the query language), then
	// the bound and the engine's.
	sort.Slice(keys, func(i, j int) bool {
		ui, uj := keys[i] != strings.ToLower(keys[i]), keys[j] != strings.ToLower(keys[j])
		if ui != uj {
			return ui
		}
		return keys[i] < keys[j]
	})
	def := map[string]bool{}
	for _, d := range r.Defaults {
		def[d] = true
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := r.Options[k]
		s := fmt.Sprint(v)
		if v == nil {
			s = "none"
		}
		if def[k] {
			s += "*"
		}
		parts = append(parts, k+"="+s)
	}
	return strings.Join(parts, ", ")
}

// MetricsReporter is a Detail that sets what its kind adds to an
// experiment's final metrics (p: the common figures, reported after it).
type MetricsReporter interface {
	ReportMetrics(em *metrics.Experiment, p *metrics.Progress)
}
