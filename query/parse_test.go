package query

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestParseQueries(t *testing.T) {
	cases := []struct {
		in    string
		kind  Kind
		bound uint64
		runs  int
	}{
		{"Pr[<=5000](<> DataRace)", Probability, 5000, 0},
		{"Pr[<=500](<> Exists (p)([p.reach_error]))", Probability, 500, 0},
		{"Pr[<=5000](<> @0.main.%x;ui32 == 3;ui32)", Probability, 5000, 0},
		{"Pr[<=5000](<> ([1.crit] && [2.crit]))", Probability, 5000, 0},
		{"Pr[<=5000](<> (x + 1) * 2 > main::k || !DivZero)", Probability, 5000, 0},
		{"Pr[<=10](<> Error(NullDeref) || Error || Deadlock || OverFlows)", Probability, 10, 0},
		{"Pr[<=100](<> [0.f]) >= 0.3 {Alpha=0.01, Delta=0.05}", Hypothesis, 100, 0},
		{"Estimate[<=5000,5000]{max @0.main.%tmp11}", Estimate, 5000, 5000},
		{"Estimate[<=10,3]{avg -x % 7}", Estimate, 10, 3},
		{"EnumStatesSMC <=500 5000", EnumStatesSMC, 500, 5000},
		{"E<> DataRace", Reach, 0, 0},
		{"A[] !([1.crit] && [2.crit])", Invariant, 0, 0},
		{"Pr[<=50](<> [1.pop:100] && pop::i == 10)", Probability, 50, 0},
		{"EnumStates", EnumStates, 0, 0},
		{"Pr[<=5](<> true) {Split=fixed, Levels=[3,5,8], Score=i+j}", Probability, 5, 0},
	}
	for _, c := range cases {
		q, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if q.Kind != c.kind || q.Bound != c.bound || q.Runs != c.runs {
			t.Errorf("Parse(%q) = kind %s bound %d runs %d", c.in, q.Kind, q.Bound, q.Runs)
		}
	}
	q, _ := Parse("Pr[<=5](<> true) {Split=fixed, Levels=[3,5,8], alpha=0.01}")
	if v := q.String("levels", ""); v != "[3,5,8]" {
		t.Errorf("Levels option = %q", v)
	}
	if a, err := q.Float("Alpha", 0.05); err != nil || a != 0.01 {
		t.Errorf("Alpha = %v, %v", a, err)
	}
	q, err := Parse("Pr[<=5](<> true) {Split = fixed, Score = i + 2*[0.f], Levels=[-1, 2.5, 8], N=10}")
	if err != nil {
		t.Fatal(err)
	}
	if q.Score == nil || len(q.Levels) != 3 || q.Levels[0] != -1 || q.Levels[1] != 2.5 || q.String("score", "") != "i + 2*[0.f]" {
		t.Errorf("score %v levels %v option %q", q.Score, q.Levels, q.String("score", ""))
	}
	q, err = Parse("Pr[<=5](<> [0.err]) {Split=fixed, Levels=[[0.a], x > 3 && [1.b], main::k == 2]}")
	if err != nil || len(q.LevelProps) != 3 || len(q.Levels) != 0 {
		t.Errorf("proposition levels: %v, %d", err, len(q.LevelProps))
	}
	q, _ = Parse("Pr[<=5](<> x == 1;si8) >= 0.25")
	if q.Theta != 0.25 || q.Cmp != ">=" {
		t.Errorf("theta %v cmp %q", q.Theta, q.Cmp)
	}
}

func TestParseErrorsNameTheColumn(t *testing.T) {
	cases := []struct {
		in   string
		col  int
		want string
	}{
		{"Pr[<=5000](<> counter == )", 26, "expected an expression"},
		{"Pr[<=5000](DataRace)", 12, `expected "<>"`},
		{"Pr[<=0](<> true)", 6, "step bound must be positive"},
		{"Prob[<=5](<> true)", 1, "a query starts with"},
		{"Pr[<=5](<> [p.f])", 13, "unknown process variable"},
		{"Pr[<=5](<> x == 1;ui7)", 19, "expected a type"},
		{"Pr[<=5](<> true) >= 1.5", 21, "strictly between 0 and 1"},
		{"Pr[<=5](<> true) {Alpha=0.1, Alpha=0.2}", 30, "given twice"},
		{"Pr[<=5](<> true) extra", 18, "unexpected"},
		{"Pr[<=5](<> x == 1 $)", 19, "unexpected character"},
		{"Estimate[<=5,0]{max x}", 1, "runs must be positive"},
		{"Pr[<=5](<> x)", 13, "expected a comparison operator"},
		{"Pr[<=5](<> true) {Split=fixed, Levels=[3,5,5,8]}", 44, "levels must increase"},
		{"Pr[<=5](<> true) {Split=fixed, Levels=[3,x>1]}", 42, "all numbers or all propositions"},
		{"Pr[<=5](<> true) {Split=fixed, Levels=[3 5]}", 42, "expected a comparison"},
		{"Pr[<=5](<> true) {Split=fixed, Levels=[x>1 y>2]}", 44, "in the level list"},
		{"Pr[<=5](<> true) {Score=i+ , N=4}", 28, "expected an expression"},
		{"Pr[<=5](<> true) {Score=i j}", 27, "after option Score"},
		{"Pr[<=5](<> [1.f:0])", 17, "line 0 out of range"},
		{"Pr[<=5](<> [1.f:x])", 17, "expected a non-negative integer"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): want a SyntaxError, got %v", c.in, err)
			continue
		}
		if se.Col != c.col || !strings.Contains(se.Msg, c.want) {
			t.Errorf("Parse(%q): column %d %q; want column %d containing %q", c.in, se.Col, se.Msg, c.col, c.want)
		}
		if !strings.Contains(err.Error(), "^") {
			t.Errorf("error lacks a caret: %v", err)
		}
	}
}

// FuzzParse: arbitrary text never panics, errors carry a column inside
// the text (or just past its end), and a query that parses has only
// options its kind takes, with values the typed accessors can read.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Pr[<=5000](<> DataRace)", "Estimate[<=5,3]{max @0.main.%x;si32}",
		"Pr[<=5](<> Exists (p)([p.f] && !(x + 1 == main::y)))", "EnumStatesSMC <=5 5", "A[] !Error(Abort)",
		"Pr[<=5](<> true) {Split=adaptive, K=10}", "Pr[<=5](<> true) {Alpha=0.01, Epsilon=.005, Rule=lodin, MinRuns=10, MaxRuns=1e3}",
		"Pr[<=5](<> x > 1) >= 0.3 {Beta=0.1, Delta=0.05, MaxRuns=100}", "Pr[<=5](<> true) {Epsilom=0.1}",
		"Pr[<=5](<> true) {Split=fixed, Score=x, Levels=[1,2], N=10, M=3, Interval=log, Max=-2}", "Estimate[<=5,3]{avg x} {Alpha=0.2}",
		"E[<=5; 3](max: x + 1)", "E<> Exited == 3 && !Exited", "Pr[<=5]([] x < 3)", "Pr[<=5](x < 3 U x > 5)",
		"E<> q.buf[q.head + 1] > p->next->val && grid[1][2] == -6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		var se *SyntaxError
		if errors.As(err, &se) && (se.Col < 1 || se.Col > len(s)+1) {
			t.Fatalf("column %d outside [1, %d] for %q", se.Col, len(s)+1, s)
		}
		if err != nil {
			return
		}
		k := q.OptionKind()
		for _, o := range q.Options {
			spec, ok := LookupOption(o.Key)
			if !ok || !spec.appliesTo(k) {
				t.Fatalf("%q: option %s accepted for %s", s, o.Key, k)
			}
			switch spec.Type {
			case Number, Integer:
				if v := q.Num(o.Key); math.IsNaN(v) || v < spec.Min || v > spec.Max {
					t.Fatalf("%q: option %s = %v outside [%v, %v]", s, o.Key, v, spec.Min, spec.Max)
				}
			case Enum:
				if v := q.Enum(o.Key); !slices.Contains(spec.Values, v) {
					t.Fatalf("%q: option %s = %q not one of %v", s, o.Key, v, spec.Values)
				}
			}
		}
	})
}

// TestMisspeltProposition: a lone name close to a proposition is reported
// as a misspelling of it, not as a comparison without its operator; a
// name far from every proposition keeps the comparison's error.
func TestMisspeltProposition(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"E<> Deadlok", "unknown proposition Deadlok; did you mean Deadlock?"},
		{"E<> DataRcae", "did you mean DataRace?"},
		{"Pr[<=10](<> Eror)", "did you mean Error?"},
		{"E<> counter", "expected a comparison operator"},
		{"E<> x + Deadlok", "expected a comparison operator"},
	} {
		_, err := Parse(tc.q)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", tc.q, err, tc.want)
		}
	}
}
