package query

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

func TestBMCTarget(t *testing.T) {
	for _, c := range []struct {
		q    string
		want Target
		err  string
	}{
		{"E<> Error", Target{AnyError: true}, ""},
		{"E<> Error(DivZero) || Error(OutOfBounds)", Target{Errors: []vm.ErrKind{vm.ErrDivZero, vm.ErrOutOfBounds}}, ""},
		{"E<> [0.reach_error] || Error(AssertFail)", Target{Errors: []vm.ErrKind{vm.ErrAssertFail}, Calls: []string{"reach_error"}, CallProcs: []int32{0}}, ""},
		{"A[] !Error", Target{AnyError: true, Negated: true}, ""},
		{"A[] !([1.f] || Error(NullDeref))", Target{Errors: []vm.ErrKind{vm.ErrNullDeref}, Calls: []string{"f"}, CallProcs: []int32{1}, Negated: true}, ""},
		{"A[] Error", Target{}, "A[] !V"},
		{"E<> Error(Nonsense)", Target{}, "unknown error kind"},
		{"E<> DataRace", Target{}, "DataRace is not supported"},
		{"E<> x > 3", Target{}, "disjunctions"},
		{"E<> [0.f:12]", Target{}, "source-line"},
		{"Pr[<=10](<> Error)", Target{}, "E<> and A[]"},
	} {
		q, err := Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		got, err := BMCTarget(q)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.q, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v %v, want %+v", c.q, got, err, c.want)
		}
	}
}
