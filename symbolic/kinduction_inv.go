package symbolic

// Range invariants that strengthen k-induction's step case (kinduction.go),
// and the affine equalities among main's variables that Karr's analysis
// finds at the loop header (karr.go).
//
// The havocked state H stands for every state equal to the loop head's
// state S outside the footprint; many of them are unreachable, and a loop
// that never changes a havocked variable out of its range (a saturating
// counter: if (j < 10) j++) keeps such an unreachable value for any
// number of assumed iterations. Candidates, for every aligned 4- and
// 8-byte word of the footprint: w <=u C and w <=s C for the constants C
// of main (its comparisons' bounds among them), 0 <=s w, and w >=u S(w),
// w >=s S(w) (a counter that only grows from its value at the havoc
// point). Houdini (Flanagan and Leino 2001) keeps those that hold at S
// (initiation: the prefix is exact) and whose conjunction at H implies
// each at the next evaluation of the head, one iteration later
// (consecution, on paths without a violation: a run stops at its first);
// they then hold at every reachable evaluation from indM on, and the step
// case assumes their conjunction at H. A candidate never makes a proof
// unsound: one that is not invariant is dropped, one that is only weakens
// the havoc.

import (
	"context"
	"fmt"
	"math/big"
	"sort"
)

// maxInvConsts bounds the constants tried; maxInvRounds Houdini's rounds.
const (
	maxInvConsts = 12
	maxInvRounds = 8
)

type invCand struct {
	desc string
	at   func(s *pstate) Term // the candidate on a state at the loop head
}

// invConsts are main's constants that may bound a loop variable.
func invConsts(fn []uint64) []uint64 {
	seen := map[uint64]bool{}
	var out []uint64
	for _, c := range fn {
		if c == 0 || c > 1<<32 || seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	if len(out) > maxInvConsts {
		out = out[:maxInvConsts]
	}
	return out
}

func (in *inductor) candidates(ind *induct) []invCand {
	consts := invConsts(in.p.Funcs[in.p.Entry].Consts)
	pre := ind.pre
	out := in.affineCandidates(ind)
	for _, wd := range memWords(ind.fp.mem) {
		a, n := wd[0], wd[1]
		w := int(8 * n)
		name := fmt.Sprintf("%d bytes at %#x", n, a)
		word := func(s *pstate) Term { return memWord(s, a, n) }
		out = append(out,
			invCand{name + " >=s 0", func(s *pstate) Term { return BVSGE(word(s), BV(0, w)) }},
			invCand{name + " >=u its value at the havoc point", func(s *pstate) Term { return BVUGE(word(s), word(pre)) }},
			invCand{name + " >=s its value at the havoc point", func(s *pstate) Term { return BVSGE(word(s), word(pre)) }})
		for _, c := range consts {
			c := c
			out = append(out, invCand{fmt.Sprintf("%s <=u %d", name, c), func(s *pstate) Term { return BVULE(word(s), BV(c, w)) }})
			if c < 1<<(w-1) {
				out = append(out, invCand{fmt.Sprintf("%s <=s %d", name, c), func(s *pstate) Term { return BVSLE(word(s), BV(c, w)) }})
			}
		}
	}
	return out
}

// invariants runs Houdini on the step encoding enc: the conjunction at H
// of the candidates that are invariant ("true" if none), and their names.
func (in *inductor) invariants(ctx context.Context, K int, enc *Encoding, ind *induct, rec *KInduction) (Term, []string, error) {
	if ind.pre == nil || ind.snap == nil {
		return "true", nil, nil
	}
	cands := in.candidates(ind)
	if len(cands) == 0 {
		return "true", nil, nil
	}
	bs, err := openBound(in.s, enc)
	if err != nil {
		return "", nil, err
	}
	defer bs.close()
	alive := make([]bool, len(cands))
	for i := range alive {
		alive[i] = true
	}
	// query asks for a model of assume ∧ post reached ∧ some live
	// candidate false at post, and drops the candidates false in it.
	query := func(round int, assume Term, post *pstate) (Status, error) {
		var decls []Decl
		var asserts, fails []Term
		var want []string
		var idx []int
		for i, c := range cands {
			if !alive[i] {
				continue
			}
			f := fmt.Sprintf("inv%d_%d", round, i)
			decls = append(decls, Decl{Name: f, Sort: BitVec(1)})
			asserts = append(asserts, Eq(Term(f), Ite(c.at(post), BV(0, 1), BV(1, 1))))
			fails = append(fails, Eq(Term(f), BV(1, 1)))
			want = append(want, f)
			idx = append(idx, i)
		}
		if len(idx) == 0 {
			return Unsat, nil
		}
		asserts = append(asserts, assume, post.g, Or(fails...))
		stop := solving(in.progress, Progress{Unwind: K, Terms: enc.Terms, SolverSeconds: in.solverSeconds + rec.SolverSeconds, Phase: "k-induction invariants"})
		ans, err := bs.checkWith(ctx, decls, asserts, want)
		stop()
		rec.SolverSeconds += ans.Elapsed.Seconds()
		if err != nil || ans.Status != Sat {
			return ans.Status, err
		}
		dropped := false
		for k, i := range idx {
			if v, ok := ans.Model[want[k]]; ok && v.Uint64() == 1 {
				alive[i] = false
				dropped = true
			}
		}
		if !dropped {
			return Unknown, nil // a model that falsifies none: give up
		}
		return Sat, nil
	}
	// initiation at S (the prefix is exact), then consecution from H to
	// the next evaluation of the head; anything but a fixpoint within
	// maxInvRounds keeps no invariant
	done := false
	for round := 0; round < maxInvRounds && !done; round++ {
		st, err := query(round, "true", ind.pre)
		if err != nil || st == Unknown {
			return "true", nil, err
		}
		done = st == Unsat
	}
	if !done {
		return "true", nil, nil
	}
	if ind.next != nil {
		done = false
		for round := maxInvRounds; round < 2*maxInvRounds && !done; round++ {
			var at []Term
			for i, c := range cands {
				if alive[i] {
					at = append(at, c.at(ind.snap))
				}
			}
			if len(at) == 0 {
				return "true", nil, nil
			}
			st, err := query(round, And(at...), ind.next)
			if err != nil || st == Unknown {
				return "true", nil, err
			}
			done = st == Unsat
		}
		if !done {
			return "true", nil, nil
		}
	}
	var at []Term
	var names []string
	for i, c := range cands {
		if alive[i] {
			at = append(at, c.at(ind.snap))
			names = append(names, c.desc)
		}
	}
	if len(at) == 0 {
		return "true", nil, nil
	}
	return And(at...), names, nil
}

// affineCandidates are the equalities karrHeader finds at L's header over
// main's variables, each as sum(coef * word) = rhs in the words' width
// (64 bits, sign-extended, when their sizes differ): wrap-around
// arithmetic keeps an integer equality modulo 2^w, and Houdini drops any
// that does not hold in the encoding.
func (in *inductor) affineCandidates(ind *induct) []invCand {
	fn := in.p.Funcs[in.p.Entry]
	e := &encoder{p: in.p, graphs: map[int]*graph{}}
	g, err := e.graphOf(fn)
	if err != nil || ind.hp < 0 || ind.hp >= len(g.order) {
		return nil
	}
	vars := karrVars(fn)
	eqs := karrHeader(fn, g, vars, g.order[ind.hp])
	var out []invCand
	for _, eq := range eqs {
		var terms []int
		w, mixed := 0, false
		for i, c := range eq.coef {
			if c.Sign() == 0 {
				continue
			}
			v := vars[i]
			pv := ind.pre.regs[v.reg]
			if !pv.isConst() {
				terms = nil
				break
			}
			terms = append(terms, i)
			if bw := 8 * int(v.size); w != 0 && bw != w {
				mixed = true
			} else if bw > w {
				w = bw
			}
		}
		if len(terms) == 0 {
			continue
		}
		if mixed {
			w = 64
		}
		mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
		cst := func(x *big.Int) Term { return BV(new(big.Int).Mod(x, mod).Uint64(), w) }
		desc := "affine equality"
		for _, i := range terms {
			desc += fmt.Sprintf(" %+d*[%#x]", eq.coef[i], ind.pre.regs[vars[i].reg].c)
		}
		desc += fmt.Sprintf(" = %d", eq.rhs)
		out = append(out, invCand{desc, func(s *pstate) Term {
			var sum Term
			for _, i := range terms {
				v := vars[i]
				word := memWord(s, ind.pre.regs[v.reg].c, uint64(v.size))
				if bw := 8 * int(v.size); bw < w {
					word = SignExt(w-bw, word)
				}
				t := BVMul(BV(new(big.Int).Mod(eq.coef[i], mod).Uint64(), w), word)
				if sum == "" {
					sum = t
				} else {
					sum = BVAdd(sum, t)
				}
			}
			return Eq(sum, cst(eq.rhs))
		}})
	}
	return out
}
