// Package splitting estimates rare-event probabilities by importance
// splitting: fixed-effort splitting over user-given levels and adaptive
// splitting (generalised adaptive multilevel splitting, Bréhier et al.
// 2016), over a score function on program states. Runs are executed as
// segments that start from a state snapshot (or the initial state) and stop
// at a level crossing or at the end of the run; an Executor runs batches of
// segments locally or on NATS workers, and everything random derives from
// (seed, replication, level, replica), so results do not depend on where or
// in which order segments ran. SegmentHandler is the splitting job kind's
// worker-side handler.
package splitting

import (
	"fmt"
	"math"

	"github.com/wyvernmc/wyvern/query"
)

// Method is a splitting algorithm.
type Method int

// Splitting algorithms.
const (
	Fixed    Method = iota // fixed effort over given levels
	Adaptive               // generalised adaptive multilevel splitting
)

func (m Method) String() string {
	if m == Adaptive {
		return "adaptive"
	}
	return "fixed"
}

// Spec is a splitting experiment's parameters, from the query's options:
// {Split=fixed|adaptive, Score=expr, Levels=[...], N=.., K=.., M=..,
// Max=.., MaxIter=.., Alpha=.., Interval=log|t}.
type Spec struct {
	Method Method
	N      int // runs per level (fixed) or replicas (adaptive)
	K      int // adaptive: the level is the K-th smallest running maximum
	M      int // independent replications (with Auto: the first batch)
	// Auto (M=auto): after the first M replications, the count doubles
	// while the replication estimates are too skewed for the interval's
	// normal approximation (Coverage), up to MaxM.
	Auto bool
	MaxM int
	// Thresholds are the fixed method's score levels, as integers (a score
	// crosses level L when it is >= ceil(L)); with proposition levels they
	// are 1..len(levels) (the observer's stage).
	Thresholds []int64
	Max        int64 // adaptive: stop when the level reaches Max (Sat: the property)
	MaxIter    int   // adaptive: iteration cap per replication (exceeding it is an error)
	Alpha      float64
	PropLevels int // number of proposition levels (0 with a score expression)
	Score      string
	// Interval is the kind of confidence interval over the replications:
	// IntervalLog (default) or IntervalT.
	Interval string
}

// AutoFirstM is the first batch of replications of M=auto.
const AutoFirstM = 30

// Interval kinds (option Interval).
const (
	IntervalLog = "log" // log-scale delta-method interval (default)
	IntervalT   = "t"   // Student-t interval
)

// Sat is the score of a state satisfying the query's property: above every
// level, so a satisfying run crosses all of them.
const Sat = math.MaxInt64

// FromQuery reads the splitting parameters of a Pr query. It returns nil,
// nil when the query asks for no splitting.
func FromQuery(q *query.Query) (*Spec, error) {
	// Names, types and ranges were checked against the splitting schema
	// when the query was parsed (query/options.go).
	split := q.Enum("Split")
	if split == "" {
		return nil, nil
	}
	if q.Kind != query.Probability {
		return nil, fmt.Errorf("importance splitting estimates Pr[<=N](<> P) queries, not %s", q.Kind)
	}
	s := &Spec{Score: q.String("score", ""), N: q.Int("N"), M: q.Int("M"), MaxIter: q.Int("MaxIter"),
		K: q.Int("K"), Alpha: q.Num("Alpha"), Interval: q.Enum("Interval"), MaxM: q.Int("MaxM")}
	if s.M == 0 {
		s.Auto, s.M = true, min(AutoFirstM, s.MaxM)
	}
	switch split {
	case "fixed":
		s.Method = Fixed
	case "adaptive":
		s.Method = Adaptive
	case "auto":
		return nil, fmt.Errorf("option Split=auto: the score is derived from the program by the client (wyvern check and submit do it, then submit {Split=adaptive, Score=...}); this query was submitted without it")
	default:
		return nil, fmt.Errorf("option Split: %q is neither fixed nor adaptive", split)
	}
	if s.K >= s.N {
		return nil, fmt.Errorf("option K: %d must be below N = %d", s.K, s.N)
	}
	switch s.Interval {
	case IntervalLog, IntervalT:
	default:
		return nil, fmt.Errorf("option Interval: %q is neither log nor t", s.Interval)
	}
	switch {
	case q.Score != nil && len(q.LevelProps) > 0:
		return nil, fmt.Errorf("give either Score=expr with numeric levels or Levels=[propositions], not both")
	case q.Score == nil && len(q.Levels) > 0:
		return nil, fmt.Errorf("numeric levels need a score expression: add Score=expr")
	case q.Score == nil && len(q.LevelProps) == 0:
		return nil, fmt.Errorf("splitting needs a score: Score=expr (e.g. Score=x+y) or Levels=[proposition, ...]")
	}
	if len(q.LevelProps) > 0 {
		s.PropLevels = len(q.LevelProps)
		for i := range q.LevelProps {
			s.Thresholds = append(s.Thresholds, int64(i+1))
		}
	}
	for _, l := range q.Levels {
		c := math.Ceil(l)
		if c >= math.MaxInt64/2 || c <= math.MinInt64/2 {
			return nil, fmt.Errorf("level %v out of range", l)
		}
		t := int64(c)
		if n := len(s.Thresholds); n > 0 && t <= s.Thresholds[n-1] {
			return nil, fmt.Errorf("levels %v and %v are the same level for an integer score", q.Levels[n-1], l)
		}
		s.Thresholds = append(s.Thresholds, t)
	}
	s.Max = Sat
	if q.Has("Max") {
		f := q.Num("Max")
		if math.Abs(f) >= math.MaxInt64/2 {
			return nil, fmt.Errorf("option Max: %v out of range", f)
		}
		s.Max = int64(math.Ceil(f))
	}
	if s.Method == Fixed && len(s.Thresholds) == 0 {
		return nil, fmt.Errorf("fixed-effort splitting (Split=fixed) needs levels: Levels=[l1, l2, ...] (increasing)")
	}
	return s, nil
}

// Describe is a one-line summary of the parameters.
func (s *Spec) Describe() string {
	if s.Method == Fixed {
		return fmt.Sprintf("fixed-effort splitting, %d levels + the property, N = %d runs per level, %s", len(s.Thresholds), s.N, s.describeM())
	}
	max := "the property"
	if s.Max != Sat {
		max = fmt.Sprintf("score %d", s.Max)
	}
	return fmt.Sprintf("adaptive splitting (GAMS), N = %d replicas, K = %d, up to %s, %s", s.N, s.K, max, s.describeM())
}

func (s *Spec) describeM() string {
	if s.Auto {
		return fmt.Sprintf("M = auto (%d replications, more while they are skewed, up to %d)", s.M, s.MaxM)
	}
	return fmt.Sprintf("M = %d replications", s.M)
}
