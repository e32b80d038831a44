package query

import (
	"github.com/wyvernmc/wyvern/vm"

	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestOptionErrors: unknown option names (with a suggestion when one is
// close), values of the wrong type or out of range, options of another
// kind of query and inconsistent hypothesis-test options are errors at
// parse time, at the option's column, naming the valid options.
func TestOptionErrors(t *testing.T) {
	const pr = "Pr[<=100](<> x > 1) " // options start at column 21
	cases := []struct {
		name, in string
		col      int
		want     []string
	}{
		// unknown names
		{"misspelt", pr + "{Alpha=0.01, Epsilom=0.001}", 34, []string{"unknown option Epsilom", "did you mean Epsilon?",
			"valid options for Pr[<=N](<> P) queries: Alpha, Epsilon, Rule, MinRuns, MaxRuns"}},
		{"unknown", pr + "{Foo=1}", 22, []string{"unknown option Foo; valid options for Pr[<=N](<> P) queries: Alpha,"}},
		{"prefix", pr + "{eps=0.1}", 22, []string{"unknown option eps; did you mean Epsilon?"}},
		{"case", pr + "{alfa=0.1}", 22, []string{"did you mean Alpha?"}},
		{"splitting misspelt", pr + "{Split=fixed, Score=x, Levels=[1], Lvels=[2]}", 56, []string{"unknown option Lvels", "did you mean Levels?",
			"valid options for splitting queries Pr[<=N](<> P) {Split=...}: Alpha, Split, Score, Levels, N, K, M, MaxM, MaxIter, Max, Platform, Spurious, Inputs, Interval"}},
		{"hypothesis unknown", "Pr[<=100](<> x > 1) >= 0.3 {Detla=0.1}", 29, []string{"did you mean Delta?",
			"valid options for hypothesis tests Pr[<=N](<> P) >= θ: Alpha, MaxRuns, Beta, Delta"}},
		{"no options", "E<> x > 1 {Foo=2}", 12, []string{"unknown option Foo; valid options for E<> P queries: Platform"}},
		// wrong type
		{"not a number", pr + "{Alpha=abc}", 28, []string{`option Alpha: "abc" is not a number`}},
		{"two numbers", pr + "{Alpha=0.0 1}", 28, []string{`option Alpha: "0.0 1" is not a number`}},
		{"NaN", pr + "{Epsilon=NaN}", 30, []string{"is not a number"}},
		{"not an integer", pr + "{MaxRuns=10.5}", 30, []string{"option MaxRuns: 10.5 must be an integer >= 1"}},
		{"split not an integer", pr + "{Split=adaptive, Score=x, N=1.5}", 49, []string{"option N: 1.5 must be an integer >= 2"}},
		{"bad rule", pr + "{Rule=sequential}", 27, []string{`option Rule: "sequential" is not one of checkpoint, lodin, fixed`}},
		{"bad split", pr + "{Split=sideways, Score=x}", 28, []string{`option Split: "sideways" is not one of fixed, adaptive, auto`}},
		{"bad interval", pr + "{Split=adaptive, Score=x, Interval=normal}", 56, []string{`option Interval: "normal" is neither log nor t`}},
		// out of range
		{"alpha 2", pr + "{Alpha=2}", 28, []string{"option Alpha: 2 must lie strictly between 0 and 1"}},
		{"alpha 0", pr + "{Alpha=0}", 28, []string{"strictly between 0 and 1"}},
		{"epsilon 1", pr + "{Epsilon=1}", 30, []string{"option Epsilon: 1 must lie strictly between 0 and 1"}},
		{"negative epsilon", pr + "{Epsilon=-0.1}", 30, []string{"option Epsilon: -0.1 must lie strictly between"}},
		{"maxruns 0", pr + "{MaxRuns=0}", 30, []string{"option MaxRuns: 0 must be an integer >= 1"}},
		{"minruns huge", pr + "{MinRuns=1e13}", 30, []string{"option MinRuns: 1e13 must be an integer between 1 and 1000000000000"}},
		{"splitting alpha", pr + "{Split=adaptive, Score=x, Alpha=2}", 53, []string{"option Alpha: 2 must lie strictly between 0 and 1"}},
		{"splitting N", pr + "{Split=fixed, Score=x, Levels=[1], N=1}", 58, []string{"option N: 1 must be an integer >= 2"}},
		{"splitting M", pr + "{Split=fixed, Score=x, Levels=[1], M=0}", 58, []string{"option M: 0 must be an integer >= 1"}},
		{"splitting Max", pr + "{Split=adaptive, Score=x, Max=1e30}", 51, []string{"option Max: 1e30 must lie strictly between"}},
		{"delta 1", "Pr[<=100](<> x > 1) >= 0.3 {Delta=1}", 35, []string{"option Delta: 1 must lie strictly between 0 and 1"}},
		{"beta", "Pr[<=100](<> x > 1) >= 0.3 {Beta=1.5}", 34, []string{"option Beta: 1.5 must lie strictly between 0 and 1"}},
		{"estimate alpha", "Estimate[<=10,5]{max x} {Alpha=1}", 32, []string{"option Alpha: 1 must lie strictly between 0 and 1"}},
		// options of another kind of query
		{"delta on Pr", pr + "{Delta=0.1}", 22, []string{"option Delta does not apply to Pr[<=N](<> P) queries (it is for hypothesis tests Pr[<=N](<> P) >= θ)",
			"valid options for Pr[<=N](<> P) queries: Alpha, Epsilon, Rule, MinRuns, MaxRuns"}},
		{"epsilon on hypothesis", "Pr[<=100](<> x > 1) >= 0.3 {Epsilon=0.1}", 29, []string{"option Epsilon does not apply to hypothesis tests Pr[<=N](<> P) >= θ (it is for Pr[<=N](<> P) queries)",
			"valid options for hypothesis tests Pr[<=N](<> P) >= θ: Alpha, MaxRuns, Beta, Delta"}},
		{"rule on hypothesis", "Pr[<=100](<> x > 1) <= 0.3 {Alpha=0.1, Rule=lodin}", 40, []string{"option Rule does not apply to hypothesis tests"}},
		{"minruns on hypothesis", "Pr[<=100](<> x > 1) >= 0.3 {MinRuns=10}", 29, []string{"option MinRuns does not apply to hypothesis tests"}},
		{"score without split", pr + "{Score=x}", 22, []string{"option Score needs Split=fixed or Split=adaptive (importance splitting)",
			"valid options for Pr[<=N](<> P) queries"}},
		{"N without split", pr + "{N=100, M=3}", 22, []string{"option N needs Split=fixed or Split=adaptive"}},
		{"split on hypothesis", "Pr[<=10](<> x > 1) >= 0.5 {Split=fixed, Score=x, Levels=[1]}", 28, []string{
			"option Split does not apply to hypothesis tests Pr[<=N](<> P) >= θ: importance splitting estimates Pr[<=N](<> P) queries"}},
		{"split on E<>", "E<> x > 1 {Split=fixed}", 12, []string{"option Split does not apply to E<> P queries", "valid options for E<> P queries: Platform"}},
		{"score on A[]", "A[] x > 1 {Score=x}", 12, []string{"option Score does not apply to A[] P queries (it is for splitting queries"}},
		{"epsilon on splitting", pr + "{Split=fixed, Score=x, Levels=[1], Epsilon=0.01}", 56, []string{"option Epsilon does not apply to splitting queries Pr[<=N](<> P) {Split=...} (it is for Pr[<=N](<> P) queries)"}},
		{"epsilon on Estimate", "Estimate[<=10,5]{max x} {Epsilon=0.1}", 26, []string{"option Epsilon does not apply to Estimate[<=N,R]{...} queries", "valid options for Estimate[<=N,R]{...} queries: Alpha"}},
		{"alpha on EnumStatesSMC", "EnumStatesSMC <=10 5 {Alpha=0.1}", 23, []string{"option Alpha does not apply to EnumStatesSMC <=N R queries", "valid options for EnumStatesSMC <=N R queries: Platform, Spurious, Inputs"}},
		{"alpha on EnumStates", "EnumStates {Alpha=0.1}", 13, []string{"valid options for EnumStates queries: Platform"}},
		{"inputs on E<>", "E<> x > 1 {Inputs=edges}", 12, []string{"option Inputs does not apply to E<> P queries", "valid options for E<> P queries: Platform"}},
		{"inputs value", pr + "{Inputs=corners}", 29, []string{"Inputs", "uniform", "edges"}},
		// constraints between options
		{"theta+delta", "Pr[<=100](<> x > 1) >= 0.95 {Delta=0.06}", 36, []string{"θ ± δ = 0.95 ± 0.06", "must lie strictly inside (0, 1)"}},
		{"theta+default delta", "Pr[<=100](<> x > 1) >= 0.995", 24, []string{"θ ± δ = 0.995 ± 0.01"}},
		{"alpha+beta", "Pr[<=100](<> x > 1) >= 0.3 {Alpha=0.6}", 35, []string{"Alpha + Beta = 0.6 + 0.6 must be below 1"}},
		{"alpha+beta given", "Pr[<=100](<> x > 1) >= 0.3 {Beta=0.5, Alpha=0.5}", 34, []string{"Alpha + Beta = 0.5 + 0.5 must be below 1"}},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Parse(%q): want a SyntaxError, got %v", c.name, c.in, err)
			continue
		}
		if se.Col != c.col {
			t.Errorf("%s: Parse(%q): column %d, want %d (%s)", c.name, c.in, se.Col, c.col, se.Msg)
		}
		for _, w := range c.want {
			if !strings.Contains(se.Msg, w) {
				t.Errorf("%s: Parse(%q): %q lacks %q", c.name, c.in, se.Msg, w)
			}
		}
	}
}

// TestOptionAccessors: the typed accessors return the value given (any
// case, aliases resolved) or the schema's default, derived defaults
// included; Float and String still work as before.
func TestOptionAccessors(t *testing.T) {
	q, err := Parse("Pr[<=100](<> x > 1) {epsilon=.005, RULE=Lodin, MaxRuns=1e4}")
	if err != nil {
		t.Fatal(err)
	}
	if q.OptionKind() != OptProbability || q.Num("Epsilon") != 0.005 || q.Enum("rule") != "lodin" || q.Int("MaxRuns") != 10000 ||
		q.Num("Alpha") != 0.05 || q.Int("MinRuns") != 100 || !q.Has("maxruns") || q.Has("Alpha") {
		t.Errorf("probability accessors: %v %v %v %v %v %v", q.Num("Epsilon"), q.Enum("rule"), q.Int("MaxRuns"), q.Num("Alpha"), q.Int("MinRuns"), q.Has("maxruns"))
	}
	if f, err := q.Float("epsilon", 0.01); err != nil || f != 0.005 {
		t.Errorf("Float(epsilon) = %v, %v", f, err)
	}
	if s := q.String("rule", "checkpoint"); s != "Lodin" {
		t.Errorf("String(rule) = %q", s)
	}
	q, _ = Parse("Pr[<=100](<> x > 1)")
	if q.Enum("Rule") != "checkpoint" || q.Int("MaxRuns") != 0 || q.Num("Epsilon") != 0.01 {
		t.Errorf("defaults: %q %d %v", q.Enum("Rule"), q.Int("MaxRuns"), q.Num("Epsilon"))
	}
	q, _ = Parse("Pr[<=100](<> x > 1) >= 0.3 {Alpha=0.01}")
	if q.OptionKind() != OptHypothesis || q.Num("Beta") != 0.01 || q.Num("Delta") != 0.01 {
		t.Errorf("hypothesis: Beta %v Delta %v", q.Num("Beta"), q.Num("Delta"))
	}
	q, _ = Parse("Pr[<=100](<> x > 1) {Split=GAMS, Score=x, N=250, Max=-3}")
	if q.OptionKind() != OptSplitting || q.Enum("Split") != "adaptive" || q.Int("N") != 250 || q.Int("K") != 25 ||
		q.Int("M") != 0 || q.Int("MaxM") != 480 || q.Int("MaxIter") != 100_000 || q.Num("Max") != -3 || q.Enum("Interval") != "log" {
		t.Errorf("splitting: %q N %d K %d M %d (0: auto) MaxM %d MaxIter %d Max %v Interval %q", q.Enum("Split"), q.Int("N"), q.Int("K"), q.Int("M"),
			q.Int("MaxM"), q.Int("MaxIter"), q.Num("Max"), q.Enum("Interval"))
	}
	q, err = Parse("Pr[<=100](<> x > 1) {Split=adaptive, Score=x, M=Auto, MaxM=64}")
	if err != nil || q.Int("M") != 0 || q.Int("MaxM") != 64 || !q.Has("M") {
		t.Errorf("M=Auto: M %d MaxM %d, %v", q.Int("M"), q.Int("MaxM"), err)
	}
	for _, bad := range []string{"N=auto", "MaxM=auto"} {
		if _, err := Parse("Pr[<=100](<> x > 1) {Split=adaptive, Score=x, " + bad + "}"); err == nil || !strings.Contains(err.Error(), "is not a number") {
			t.Errorf("%s: %v, want: is not a number", bad, err)
		}
	}
	q, _ = Parse("Pr[<=100](<> x > 1) {Split=adaptive, Score=x, N=5}")
	if q.Int("K") != 1 || !math.IsInf(q.Num("Max"), 1) || q.Has("Max") {
		t.Errorf("K %d Max %v", q.Int("K"), q.Num("Max"))
	}
	// An option the kind does not take reads as the table's default, so a
	// reader may ask for Alpha whatever the kind.
	q, _ = Parse("EnumStatesSMC <=10 5")
	if q.Num("Alpha") != 0.05 {
		t.Errorf("Alpha of EnumStatesSMC: %v", q.Num("Alpha"))
	}
	defer func() {
		if recover() == nil {
			t.Error("Num of an option no kind has: no panic")
		}
	}()
	q.Num("Epsilom")
}

// TestSchemaTable: every kind's schema is well formed, names are unique,
// defaults lie in range, and the option names the readers in coordinator
// and splitting use are in the table.
func TestSchemaTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range optionTable {
		low := strings.ToLower(s.Name)
		if seen[low] {
			t.Errorf("option %s twice", s.Name)
		}
		seen[low] = true
		if len(s.Kinds) == 0 || s.Doc == "" {
			t.Errorf("option %s: no kinds or no doc", s.Name)
		}
		switch s.Type {
		case Number, Integer:
			if s.Derived == nil && s.Default != 0 && !math.IsInf(s.Default, 0) && (s.Default < s.Min || s.Default > s.Max) {
				t.Errorf("option %s: default %v outside [%v, %v]", s.Name, s.Default, s.Min, s.Max)
			}
			if s.DefaultText == "" {
				t.Errorf("option %s: no documented default", s.Name)
			}
		case Enum:
			if s.DefaultValue != "" && !slices.Contains(s.Values, s.DefaultValue) {
				t.Errorf("option %s: default %q not a value", s.Name, s.DefaultValue)
			}
		}
	}
	for _, name := range []string{"alpha", "epsilon", "rule", "minruns", "maxruns", "beta", "delta",
		"split", "score", "levels", "n", "k", "m", "maxm", "maxiter", "max", "interval", "platform", "spurious", "inputs"} {
		if _, ok := LookupOption(name); !ok {
			t.Errorf("option %s read by coordinator or splitting is not in the table", name)
		}
	}
	for k := OptionKind(0); k < numOptionKinds; k++ {
		if strings.HasPrefix(k.String(), "OptionKind(") {
			t.Errorf("kind %d has no title", k)
		}
	}
	if got := len(Schema(OptSplitting)); got != 14 {
		t.Errorf("splitting takes %d options, want 14", got)
	}
}

// rejectedOnPurpose are queries in tests that are there to be rejected.
var rejectedOnPurpose = map[string]bool{
	// splitting/splitting_test.go TestFromQueryErrors: now rejected by Parse
	"Pr[<=10](<> x > 1) {Split=sideways, Score=x}":                   true,
	"Pr[<=10](<> x > 1) {Split=adaptive, Score=x, N=1.5}":            true,
	"Pr[<=10](<> x > 1) {Score=x}":                                   true,
	"Pr[<=10](<> x > 1) >= 0.5 {Split=fixed, Score=x, Levels=[1]}":   true,
	"Pr[<=10](<> x > 1) {Split=adaptive, Score=x, Alpha=2}":          true,
	"Pr[<=10](<> counter == 1) >= 0.3 {Epsilon=0.1}":                 true, // cmd/wyvern TestBadOptionsAndFlags
	"Pr[<=10](<> counter == 1) {Split=adaptive, Score=counter, N=1}": true,
}

// TestOptionsInUseParse: every query with options written in testdata/,
// README.md, docs/ and the tests of the other packages still parses (or is
// a test's example of a rejected query). Queries are found as "Pr[<=<digits>]"
// up to the end of their quotes or line, ending with "}".
func TestOptionsInUseParse(t *testing.T) {
	root := ".."
	start := regexp.MustCompile(`Pr\[(<=|\\u003c=)[0-9]+\]`)
	unescape := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	found := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == ".git" || rel == "bin" || rel == "query" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		ext := filepath.Ext(path)
		switch {
		case rel == "README.md" || top == "docs" || top == "testdata":
		case strings.HasSuffix(path, "_test.go"):
		default:
			return nil
		}
		if ext != ".md" && ext != ".go" && ext != ".txt" && ext != ".json" && ext != ".c" && ext != ".h" && ext != ".sh" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n") {
			for _, loc := range start.FindAllStringIndex(line, -1) {
				s := line[loc[0]:]
				if i := strings.IndexAny(s, "'\"`\t"); i >= 0 {
					s = s[:i]
				}
				s = strings.TrimSpace(unescape.Replace(s))
				if strings.Contains(s, "{") && strings.HasSuffix(s, "}") {
					found[s] = rel
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 30 {
		t.Fatalf("found only %d queries with options: the scan is broken", len(found))
	}
	for q, file := range found {
		if _, err := Parse(q); err != nil && !rejectedOnPurpose[q] {
			t.Errorf("%s: %v", file, err)
		}
	}
	t.Logf("%d queries with options found", len(found))
}

// TestBehaviours checks the platform behaviours each kind of query gives
// its runs: every POSIX behaviour for exhaustive queries, a uniformly
// drawn waiter, address reuse's coin and Spurious's coin for statistical
// ones, none of the draws with Platform=lodin; and that LODIN's platform refuses spurious wakeups.
func TestBehaviours(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want vm.Behaviours
	}{
		{"E<> x > 1", vm.PosixBehaviours},
		{"A[] x > 1", vm.PosixBehaviours},
		{"EnumStates", vm.PosixBehaviours},
		{"E<> x > 1 {Platform=lodin}", vm.Behaviours{}},
		{"Pr[<=10](<> x > 1)", vm.SimBehaviours},
		{"Pr[<=10](<> x > 1) {Platform=LODIN}", vm.Behaviours{}},
		{"Pr[<=10](<> x > 1) {Spurious=0.25}", vm.Behaviours{SignalAny: true, Spurious: vm.CoinChoice(1<<30, 1<<32), AddrReuse: true}},
		{"Pr[<=10](<> x > 1) {Spurious=1}", vm.Behaviours{SignalAny: true, Spurious: vm.CoinChoice(1<<32, 1<<32), AddrReuse: true}},
		{"Estimate[<=10,5]{max x} {Spurious=0}", vm.SimBehaviours},
		{"Pr[<=10](<> x > 1) {Inputs=edges}", vm.Behaviours{SignalAny: true, AddrReuse: true, Inputs: vm.InputsEdges}},
		{"Pr[<=10](<> x > 1) {Platform=lodin, Inputs=Edges}", vm.Behaviours{Inputs: vm.InputsEdges}},
		{"Pr[<=10](<> x > 1) >= 0.5 {Inputs=uniform}", vm.SimBehaviours},
		{"EnumStatesSMC <=10 5 {Inputs=edges}", vm.Behaviours{SignalAny: true, AddrReuse: true, Inputs: vm.InputsEdges}},
	} {
		q, err := Parse(tc.q)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.q, err)
		}
		if got := q.Behaviours(); got != tc.want {
			t.Errorf("%s: Behaviours() = %+v, want %+v", tc.q, got, tc.want)
		}
	}
	for _, bad := range []string{
		"Pr[<=10](<> x > 1) {Platform=lodin, Spurious=0.1}",
		"Pr[<=10](<> x > 1) {Spurious=1.5}",
		"E<> x > 1 {Spurious=0.1}",
		"E<> x > 1 {Platform=glibc}",
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
