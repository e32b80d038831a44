package query

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/vm"
)

// OptionKind is what decides which `{Key=Value}` options a query takes:
// its Kind, with Pr[<=N](<> P) split into estimation and importance
// splitting (a Pr query with a Split option).
type OptionKind int

// Option kinds.
const (
	OptProbability   OptionKind = iota // Pr[<=N](<> P)
	OptHypothesis                      // Pr[<=N](<> P) >= θ
	OptSplitting                       // Pr[<=N](<> P) {Split=...}
	OptEstimate                        // Estimate[<=N,R]{...}
	OptEnumStatesSMC                   // EnumStatesSMC <=N R
	OptReach                           // E<> P
	OptInvariant                       // A[] P
	OptEnumStates                      // EnumStates
	numOptionKinds
)

var optionKindTitles = [...]string{
	OptProbability:   "Pr[<=N](<> P) queries",
	OptHypothesis:    "hypothesis tests Pr[<=N](<> P) >= θ",
	OptSplitting:     "splitting queries Pr[<=N](<> P) {Split=...}",
	OptEstimate:      "Estimate[<=N,R]{...} queries",
	OptEnumStatesSMC: "EnumStatesSMC <=N R queries",
	OptReach:         "E<> P queries",
	OptInvariant:     "A[] P queries",
	OptEnumStates:    "EnumStates queries",
}

// String names the kind as error messages do ("Pr[<=N](<> P) queries").
func (k OptionKind) String() string {
	if k < 0 || k >= numOptionKinds {
		return fmt.Sprintf("OptionKind(%d)", int(k))
	}
	return optionKindTitles[k]
}

// OptionKind returns the kind whose option schema applies to q.
func (q *Query) OptionKind() OptionKind {
	switch q.Kind {
	case Probability:
		if _, ok := q.Options["split"]; ok {
			return OptSplitting
		}
		return OptProbability
	case Hypothesis:
		return OptHypothesis
	case Estimate:
		return OptEstimate
	case EnumStatesSMC:
		return OptEnumStatesSMC
	case Reach:
		return OptReach
	case Invariant:
		return OptInvariant
	}
	return OptEnumStates
}

// OptionType is the type of an option's value.
type OptionType int

// Option types.
const (
	Number    OptionType = iota // a real number (0.05, 1e-3, -2)
	Integer                     // an integer (1000, 1e3)
	Enum                        // one of Values, case-insensitive
	ScoreExpr                   // an integer expression over states
	LevelList                   // [l1, l2, ...]: increasing numbers, or propositions
)

// OptionSpec declares one option: its name, type, the kinds of query that
// take it, its range or values, its default and a one-line description.
type OptionSpec struct {
	Name  string // canonical spelling; names match case-insensitively
	Type  OptionType
	Kinds []OptionKind
	// Number, Integer: the accepted range, bounds included unless
	// MinOpen/MaxOpen.
	Min, Max         float64
	MinOpen, MaxOpen bool
	// Auto: an Integer option that also takes the value auto, held as 0
	// (M: replications added until the interval's rule holds).
	Auto bool
	// Enum: the accepted values in lower case, and other spellings
	// accepted for them (alias → value).
	Values  []string
	Aliases map[string]string
	// Default is a Number or Integer option's value when it is not given
	// (unless Derived computes it from other options), DefaultValue an
	// Enum's ("" for none). DefaultText is the default as documented.
	Default      float64
	Derived      func(get func(name string) float64) float64
	DefaultValue string
	DefaultText  string
	Doc          string
}

// maxRunCount bounds run counts (MinRuns, MaxRuns); maxSplitCount the
// splitting parameters, as splitting has always done.
const (
	maxRunCount   = 1e12
	maxSplitCount = 1e9
	maxScore      = math.MaxInt64 / 2
)

func kinds(k ...OptionKind) []OptionKind { return k }

// optionTable is every query option. A kind's schema is the rows listing
// it, in this order.
var optionTable = []OptionSpec{
	{Name: "Alpha", Type: Number, Kinds: kinds(OptProbability, OptHypothesis, OptSplitting, OptEstimate),
		Min: 0, Max: 1, MinOpen: true, MaxOpen: true, Default: 0.05, DefaultText: "0.05",
		Doc: "1 − confidence of the interval (hypothesis tests: the probability of wrongly rejecting)"},
	{Name: "Epsilon", Type: Number, Kinds: kinds(OptProbability),
		Min: 0, Max: 1, MinOpen: true, MaxOpen: true, Default: 0.01, DefaultText: "0.01",
		Doc: "half-width of the interval at which the estimation stops"},
	{Name: "Rule", Type: Enum, Kinds: kinds(OptProbability),
		Values: []string{"checkpoint", "lodin", "fixed"}, DefaultValue: "checkpoint", DefaultText: "checkpoint",
		Doc: "stopping rule: checkpoint (nominal coverage), lodin (LODIN's sequential rule), fixed (the Okamoto number of runs)"},
	{Name: "MinRuns", Type: Integer, Kinds: kinds(OptProbability),
		Min: 1, Max: maxRunCount, Default: 100, DefaultText: "100",
		Doc: "n0: the first checkpoint (checkpoint) or the first run at which the width is checked (lodin)"},
	{Name: "MaxRuns", Type: Integer, Kinds: kinds(OptProbability, OptHypothesis),
		Min: 1, Max: maxRunCount, Default: 0, DefaultText: "none (0)",
		Doc: "cap on the number of runs"},
	{Name: "Beta", Type: Number, Kinds: kinds(OptHypothesis),
		Min: 0, Max: 1, MinOpen: true, MaxOpen: true, DefaultText: "Alpha",
		Derived: func(get func(string) float64) float64 { return get("Alpha") },
		Doc:     "probability of wrongly accepting"},
	{Name: "Delta", Type: Number, Kinds: kinds(OptHypothesis),
		Min: 0, Max: 1, MinOpen: true, MaxOpen: true, Default: 0.01, DefaultText: "0.01",
		Doc: "half-width of the indifference region θ ± δ"},
	{Name: "Split", Type: Enum, Kinds: kinds(OptSplitting),
		Values: []string{"fixed", "adaptive", "auto"}, Aliases: map[string]string{"ams": "adaptive", "gams": "adaptive"},
		Doc: "importance splitting: fixed (fixed effort over Levels), adaptive (generalised AMS) or auto (adaptive with a score derived from the property and the program)"},
	{Name: "Score", Type: ScoreExpr, Kinds: kinds(OptSplitting),
		Doc: "integer expression over states that decides where runs are split"},
	{Name: "Levels", Type: LevelList, Kinds: kinds(OptSplitting),
		Doc: "fixed: increasing levels of Score, or propositions that must hold one after the other"},
	{Name: "N", Type: Integer, Kinds: kinds(OptSplitting),
		Min: 2, Max: maxSplitCount, Default: 1000, DefaultText: "1000",
		Doc: "runs per level (fixed) or replicas (adaptive)"},
	{Name: "K", Type: Integer, Kinds: kinds(OptSplitting),
		Min: 1, Max: maxSplitCount, DefaultText: "N/10",
		Derived: func(get func(string) float64) float64 { return max(math.Floor(get("N")/10), 1) },
		Doc:     "adaptive: the level is the K-th smallest running maximum (K < N)"},
	{Name: "M", Type: Integer, Kinds: kinds(OptSplitting), Auto: true,
		Min: 1, Max: maxSplitCount, Default: 0, DefaultText: "auto",
		Doc: "independent replications, or auto: 30, doubled while the replication estimates are too skewed for the interval (M < 28 + 25·skewness²), up to MaxM"},
	{Name: "MaxM", Type: Integer, Kinds: kinds(OptSplitting),
		Min: 1, Max: maxSplitCount, Default: 480, DefaultText: "480",
		Doc: "M=auto: the most replications it may run"},
	{Name: "MaxIter", Type: Integer, Kinds: kinds(OptSplitting),
		Min: 1, Max: maxSplitCount, Default: 100_000, DefaultText: "100000",
		Doc: "adaptive: iterations per replication; exceeding it is an error"},
	{Name: "Max", Type: Number, Kinds: kinds(OptSplitting),
		Min: -maxScore, Max: maxScore, MinOpen: true, MaxOpen: true, Default: math.Inf(1), DefaultText: "the property (+Inf)",
		Doc: "adaptive: stop when the level reaches this score"},
	{Name: "Platform", Type: Enum, Kinds: kinds(OptProbability, OptHypothesis, OptSplitting, OptEstimate, OptEnumStatesSMC, OptReach, OptInvariant, OptEnumStates),
		Values: []string{"posix", "lodin"}, DefaultValue: "posix", DefaultText: "posix",
		Doc: "condition variables' behaviours: posix (pthread_cond_signal wakes any waiter, drawn uniformly in simulation and each one in exhaustive search, which also takes a spurious wakeup at every pthread_cond_wait) or lodin (the longest waiter, never a spurious wakeup: LODIN's platform)"},
	{Name: "Spurious", Type: Number, Kinds: kinds(OptProbability, OptHypothesis, OptSplitting, OptEstimate, OptEnumStatesSMC),
		Min: 0, Max: 1, Default: 0, DefaultText: "0",
		Doc: "Platform=posix: the probability that a pthread_cond_wait returns without a signal (a spurious wakeup), tossed as it releases its mutex"},
	{Name: "Inputs", Type: Enum, Kinds: kinds(OptProbability, OptHypothesis, OptSplitting, OptEstimate, OptEnumStatesSMC),
		Values: []string{"uniform", "edges"}, DefaultValue: "uniform", DefaultText: "uniform",
		Doc: "the distribution of __VERIFIER_nondet_* values in simulation: uniform (the program's semantics) or edges (half of the draws a boundary value: 0 to 3, -1, -2, the signed extremes of 8 to 64 bits; for finding violations, not for estimating uniform inputs' probabilities)"},
	{Name: "Interval", Type: Enum, Kinds: kinds(OptSplitting),
		Values: []string{"log", "t"}, DefaultValue: "log", DefaultText: "log",
		Doc: "confidence interval over the M replications: log (log-scale delta method, the default) or t (Student-t)"},
}

// optionIndex maps lower-case names to their row.
var optionIndex = func() map[string]*OptionSpec {
	m := make(map[string]*OptionSpec, len(optionTable))
	for i := range optionTable {
		m[strings.ToLower(optionTable[i].Name)] = &optionTable[i]
	}
	return m
}()

// Schema returns the options queries of kind k take, in table order.
func Schema(k OptionKind) []OptionSpec {
	var out []OptionSpec
	for _, s := range optionTable {
		if s.appliesTo(k) {
			out = append(out, s)
		}
	}
	return out
}

// LookupOption returns the row of the option called name (any case).
func LookupOption(name string) (OptionSpec, bool) {
	s, ok := optionIndex[strings.ToLower(name)]
	if !ok {
		return OptionSpec{}, false
	}
	return *s, true
}

func (s *OptionSpec) appliesTo(k OptionKind) bool { return slices.Contains(s.Kinds, k) }

func mustSpec(name string) *OptionSpec {
	s, ok := optionIndex[strings.ToLower(name)]
	if !ok {
		panic(fmt.Sprintf("query: no option is called %q (see optionTable)", name))
	}
	return s
}

// ---- typed accessors ----

// Has reports whether q gives option name (any case).
func (q *Query) Has(name string) bool {
	_, ok := q.Options[strings.ToLower(name)]
	return ok
}

// Num returns the value of the Number or Integer option name, or its
// default when q does not give it (Beta: Alpha's value; K: N/10, at least 1;
// Max: +Inf; MaxRuns: 0, no cap). Parse has checked the value's type and
// range. Num panics if no option is called name: the names are the table's,
// so that is a programming error, never a user's.
func (q *Query) Num(name string) float64 {
	s := mustSpec(name)
	if o, ok := q.Options[strings.ToLower(s.Name)]; ok {
		if o.hasNum {
			return o.num
		}
		if f, err := strconv.ParseFloat(o.Value, 64); err == nil { // a Query not made by Parse
			return f
		}
	}
	if s.Derived != nil {
		return s.Derived(q.Num)
	}
	return s.Default
}

// Int returns the Integer option name (see Num) as an int.
func (q *Query) Int(name string) int {
	return int(q.Num(name))
}

// Enum returns the Enum option name in lower case, aliases resolved
// (Split=gams is "adaptive"), or its default ("" when it has none: Split).
// It panics if no option is called name (see Num).
func (q *Query) Enum(name string) string {
	s := mustSpec(name)
	if o, ok := q.Options[strings.ToLower(s.Name)]; ok {
		v := o.raw
		if v == "" { // a Query not made by Parse
			v = o.Value
		}
		v = strings.ToLower(strings.TrimSpace(v))
		if a, ok := s.Aliases[v]; ok {
			return a
		}
		return v
	}
	return s.DefaultValue
}

// Behaviours returns the platform behaviours q's runs have (its Platform
// and Spurious options): LODIN's platform, none of the draws; POSIX's,
// for an exhaustive query (E<>, A[], EnumStates) every behaviour
// (vm.PosixBehaviours), for a statistical one a waiter drawn uniformly by
// each signal and spurious wakeups of probability Spurious.
//
// Its Inputs option sets the distribution of input values (statistical
// queries only: exhaustive engines enumerate or solve for inputs).
func (q *Query) Behaviours() vm.Behaviours {
	var b vm.Behaviours
	switch {
	case q.Enum("Platform") == "lodin":
	case q.OptionKind() == OptReach || q.OptionKind() == OptInvariant || q.OptionKind() == OptEnumStates:
		b = vm.PosixBehaviours
	default:
		b = vm.SimBehaviours
		b.Spurious = vm.SpuriousChoice(q.Num("Spurious"))
	}
	if q.Enum("Inputs") == "edges" {
		b.Inputs = vm.InputsEdges
	}
	return b
}

// ---- checking ----

// checkOptions checks q's options against the schema of its kind, in the
// order they are written: unknown names, options of another kind of query,
// values of the wrong type or out of range; then the constraints between
// options (hypothesis tests: θ ± δ inside (0, 1), Alpha + Beta < 1).
func (q *Query) checkOptions(thetaCol int) error {
	kind := q.OptionKind()
	opts := make([]Option, 0, len(q.Options))
	for _, o := range q.Options {
		opts = append(opts, o)
	}
	slices.SortFunc(opts, func(a, b Option) int { return a.KeyCol - b.KeyCol })
	for _, o := range opts {
		s, ok := optionIndex[strings.ToLower(o.Key)]
		if !ok {
			return q.errAt(o.KeyCol, "unknown option %s%s; %s", o.Key, suggest(o.Key, kind), validOptions(kind))
		}
		if !s.appliesTo(kind) {
			return q.errAt(o.KeyCol, "%s", notApplicable(o.Key, s, kind))
		}
		if err := q.checkValue(s, o); err != nil {
			return err
		}
	}
	if o, ok := q.Options["spurious"]; ok && q.Enum("Platform") == "lodin" && q.Num("Spurious") > 0 {
		return q.errAt(o.KeyCol, "Spurious=%v needs Platform=posix: LODIN's platform has no spurious wakeups", q.Num("Spurious"))
	}
	if kind == OptHypothesis {
		delta := q.Num("Delta")
		if lo, hi := q.Theta-delta, q.Theta+delta; !(lo > 0 && hi < 1) {
			col := thetaCol
			if o, ok := q.Options["delta"]; ok {
				col = o.Col
			}
			return q.errAt(col, "the indifference region θ ± δ = %v ± %v = [%v, %v] must lie strictly inside (0, 1): give a smaller Delta",
				q.Theta, delta, lo, hi)
		}
		alpha, beta := q.Num("Alpha"), q.Num("Beta")
		if !(alpha+beta < 1) {
			col := thetaCol
			if o, ok := q.Options["beta"]; ok {
				col = o.Col
			} else if o, ok := q.Options["alpha"]; ok {
				col = o.Col
			}
			return q.errAt(col, "Alpha + Beta = %v + %v must be below 1", alpha, beta)
		}
	}
	return nil
}

func (q *Query) errAt(col int, format string, args ...any) error {
	return &SyntaxError{Query: q.Text, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// checkValue checks one option's value against its row and records the
// number it holds.
func (q *Query) checkValue(s *OptionSpec, o Option) error {
	key := strings.ToLower(s.Name)
	switch s.Type {
	case Number, Integer:
		text := o.raw
		if s.Auto && strings.EqualFold(strings.TrimSpace(text), "auto") {
			o.num, o.hasNum = 0, true
			q.Options[key] = o
			return nil
		}
		if strings.HasPrefix(text, "-") || strings.HasPrefix(text, "+") {
			text = text[:1] + strings.TrimLeft(text[1:], " \t\r\n")
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) {
			return q.errAt(o.Col, "option %s: %q is not a number", o.Key, o.raw)
		}
		if s.Type == Integer && (f != math.Trunc(f) || f < s.Min) {
			return q.errAt(o.Col, "option %s: %s must be an integer >= %v", o.Key, o.raw, s.Min)
		}
		lowOK := f > s.Min || !s.MinOpen && f == s.Min
		highOK := f < s.Max || !s.MaxOpen && f == s.Max
		if !lowOK || !highOK {
			return q.errAt(o.Col, "option %s: %s %s", o.Key, o.raw, rangeText(s))
		}
		o.num, o.hasNum = f, true
		q.Options[key] = o
	case Enum:
		v := strings.ToLower(o.raw)
		if slices.Contains(s.Values, v) {
			return nil
		}
		if _, ok := s.Aliases[v]; ok {
			return nil
		}
		if len(s.Values) == 2 {
			return q.errAt(o.Col, "option %s: %q is neither %s nor %s", o.Key, o.raw, s.Values[0], s.Values[1])
		}
		return q.errAt(o.Col, "option %s: %q is not one of %s", o.Key, o.raw, strings.Join(s.Values, ", "))
	}
	return nil
}

func rangeText(s *OptionSpec) string {
	if s.Type == Integer {
		return fmt.Sprintf("must be an integer between %v and %.0f", s.Min, s.Max)
	}
	if s.MinOpen && s.MaxOpen {
		return fmt.Sprintf("must lie strictly between %v and %v", s.Min, s.Max)
	}
	return fmt.Sprintf("must lie between %v and %v", s.Min, s.Max)
}

// validOptions lists the options of kind k for an error message.
func validOptions(k OptionKind) string {
	var names []string
	for _, s := range Schema(k) {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return fmt.Sprintf("%s take no options", k)
	}
	return fmt.Sprintf("valid options for %s: %s", k, strings.Join(names, ", "))
}

// notApplicable explains why option key (row s) does not apply to kind k.
func notApplicable(key string, s *OptionSpec, k OptionKind) string {
	switch {
	case k == OptProbability && s.appliesTo(OptSplitting) && !s.appliesTo(OptProbability):
		return fmt.Sprintf("option %s needs Split=fixed or Split=adaptive (importance splitting); %s", key, validOptions(k))
	case strings.EqualFold(key, "split"):
		return fmt.Sprintf("option %s does not apply to %s: importance splitting estimates Pr[<=N](<> P) queries; %s", key, k, validOptions(k))
	}
	var owners []string
	for _, o := range s.Kinds {
		owners = append(owners, o.String())
	}
	return fmt.Sprintf("option %s does not apply to %s (it is for %s); %s", key, k, strings.Join(owners, ", "), validOptions(k))
}

// suggest returns "; did you mean X?" when an option of kind k is close to
// the unknown name.
func suggest(name string, k OptionKind) string {
	low := strings.ToLower(name)
	best, bestD := "", 3
	for _, s := range Schema(k) {
		c := strings.ToLower(s.Name)
		d := editDistance(low, c)
		if len(low) >= 3 && strings.HasPrefix(c, low) {
			d = min(d, 1)
		}
		if d < bestD && d <= len(low)/2 {
			best, bestD = s.Name, d
		}
	}
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}

// editDistance is the optimal string alignment distance between a and b
// (bytes): insertions, deletions, substitutions and transpositions of
// adjacent bytes ("Detla" is one from "Delta").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
