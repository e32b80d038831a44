package termination

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	S "github.com/wyvernmc/wyvern/symbolic"
)

// Recursion as loops: a function that calls itself (directly; mutual
// recursion is left to the search) terminates when every run of its body
// does — its loops are ranked as any function's, its calls of others are
// over-approximated — and a ranking function over its parameters decreases
// from the function's entry to each of its recursive calls (the call's
// arguments are the next "iteration"'s state). The paths from the entry to
// a recursive call are encoded as a loop's iteration is (a call's result
// is a fresh value: g(g(x - 1)) passes a value nothing is known of).

// callOut is a path from a function's entry to a recursive call.
type callOut struct {
	cond []S.Term
	args []S.Term
}

// rankRecursion looks for a ranking function of f's recursive calls.
func (ra *rankAnalysis) rankRecursion(fi *fnInfo) (string, error) {
	f := fi.f
	for i := range f.Code {
		in := &f.Code[i]
		if in.Op != ir.OpCall || f.Calls[in.Imm].Callee != int32(f.Index) {
			continue
		}
		for _, l := range fi.loops {
			if l.body[int32(i)] {
				// (the paths skip loops: the calls in one would go unchecked)
				return "", errUnsupported{"a recursive call inside a loop"}
			}
		}
	}
	e := &pathEnc{l: &loop{fn: fi, head: -1, body: allPCs(f)}, start: 0, entry: true, f: f, q: S.NewQuery(),
		decl: map[string]bool{}, prog: ra.prog, lp64: ra.prog.DataModel != ir.ILP32, rec: int32(f.Index)}
	ra.enc = e
	if err := e.enumerate(); err != nil {
		return "", err
	}
	if len(e.calls) == 0 {
		return "no recursive call is reachable", nil
	}
	// the parameters' widths, from a recursive call site
	var widths []uint8
	for i := range f.Code {
		in := &f.Code[i]
		if in.Op == ir.OpCall && f.Calls[in.Imm].Callee == int32(f.Index) {
			for _, sz := range f.Calls[in.Imm].ArgSizes {
				widths = append(widths, sz*8)
			}
			break
		}
	}
	if len(widths) != len(f.Params) || len(widths) == 0 {
		return "", errUnsupported{"parameters that are not scalars"}
	}
	pre := func(k int) S.Term { return low(e.reg(&pstate{regs: map[int32]S.Term{}}, f.Params[k]), widths[k]) }
	post := func(c callOut, k int) S.Term { return low(c.args[k], widths[k]) }
	type ex struct {
		name string
		at   func(get func(int) S.Term) S.Term
	}
	var exs []ex
	for k := range widths {
		name := fmt.Sprintf("param %d", k+1)
		exs = append(exs, ex{name, func(g func(int) S.Term) S.Term { return g(k) }},
			ex{"-" + name, func(g func(int) S.Term) S.Term { return S.BVNeg(g(k)) }})
		for j := range widths {
			if j != k && widths[j] == widths[k] {
				exs = append(exs, ex{fmt.Sprintf("param %d - param %d", k+1, j+1), func(g func(int) S.Term) S.Term { return S.BVSub(g(k), g(j)) }})
			}
		}
	}
	type cand struct {
		name   string
		at     func(get func(int) S.Term) S.Term
		signed bool
	}
	var cands []cand
	for _, x := range exs {
		cands = append(cands, cand{x.name + " unsigned", x.at, false}, cand{x.name + " signed", x.at, true})
	}
	lt := func(c cand, a, b S.Term) S.Term {
		if c.signed {
			return S.BVSLT(a, b)
		}
		return S.BVULT(a, b)
	}
	le := func(c cand, a, b S.Term) S.Term {
		if c.signed {
			return S.BVSLE(a, b)
		}
		return S.BVULE(a, b)
	}
	left := e.calls
	var comps []string
	for len(left) > 0 && len(comps) < 3 {
		found := false
		for _, c := range cands {
			var inc []S.Term
			for _, p := range left {
				inc = append(inc, S.And(append(slices.Clone(p.cond), S.Not(le(c, c.at(func(k int) S.Term { return post(p, k) }), c.at(pre))))...))
			}
			ok, err := ra.unsat(S.Or(inc...))
			if err != nil {
				return "", err
			}
			if !ok {
				continue
			}
			var rest []callOut
			for _, p := range left {
				dec, err := ra.unsat(append(slices.Clone(p.cond), S.Not(lt(c, c.at(func(k int) S.Term { return post(p, k) }), c.at(pre))))...)
				if err != nil {
					return "", err
				}
				if !dec {
					rest = append(rest, p)
				}
			}
			if len(rest) < len(left) {
				comps = append(comps, c.name)
				left, found = rest, true
				break
			}
		}
		if !found {
			return "", nil
		}
	}
	if len(left) > 0 {
		return "", nil
	}
	if len(comps) == 1 {
		return comps[0] + " (over recursive calls)", nil
	}
	return "[" + strings.Join(comps, ", ") + "] (over recursive calls)", nil
}
