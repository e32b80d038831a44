package splitting

import (
	"fmt"
	"sort"
	"strings"

	"github.com/llir/llvm/asm"
	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/value"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
)

// Derived is what Split=auto derived for a query: the score, and the
// adaptive query that runs it.
type Derived struct {
	Score string // the importance function, as Score= text
	Query string // the query with {Split=adaptive, Score=...}
}

// Auto derives Split=auto's score for query q on the program whose LLVM
// assembly is ll (query.AutoScore: distances for comparisons; for
// locations, the guards that hold on every way to them, found here in the
// program's control flow) and returns the adaptive query that uses it.
// Levels come from the adaptive algorithm; the score only steers where
// runs are split, so the estimate is unbiased whatever it is.
func Auto(q *query.Query, name string, ll []byte) (*Derived, error) {
	if q.Enum("Split") != "auto" {
		return nil, fmt.Errorf("not a Split=auto query")
	}
	if q.Has("Score") || q.Has("Levels") {
		return nil, fmt.Errorf("option Split=auto derives the score and the levels: leave out Score and Levels (or write Split=adaptive with your Score)")
	}
	var g *guardFinder
	score, err := query.AutoScore(q, func(t query.SiteTarget) ([]query.Site, error) {
		if g == nil {
			var err error
			if g, err = newGuardFinder(name, ll); err != nil {
				return nil, err
			}
		}
		return g.sites(t)
	})
	if err != nil {
		return nil, err
	}
	text, err := rewriteSplit(q, score)
	if err != nil {
		return nil, err
	}
	return &Derived{Score: score, Query: text}, nil
}

// rewriteSplit writes q with Split=auto replaced by Split=adaptive and the
// score, the other options as given.
func rewriteSplit(q *query.Query, score string) (string, error) {
	i := strings.LastIndex(q.Text, "{")
	if i < 0 {
		return "", fmt.Errorf("option Split=auto: the query has no options")
	}
	opts := make([]query.Option, 0, len(q.Options))
	for _, o := range q.Options {
		opts = append(opts, o)
	}
	sort.Slice(opts, func(a, b int) bool { return opts[a].Col < opts[b].Col })
	var parts []string
	for _, o := range opts {
		if strings.EqualFold(o.Key, "Split") {
			parts = append(parts, "Split=adaptive", "Score="+score)
			continue
		}
		parts = append(parts, o.Key+"="+o.Value)
	}
	return strings.TrimSpace(q.Text[:i]) + " {" + strings.Join(parts, ", ") + "}", nil
}

// guardFinder finds the guards of program sites in the LLVM module: the
// comparisons of variables that decide the conditional branches every way
// to a site takes, in its function (branches that dominate it) and, up
// the call graph, at the calls of its function.
type guardFinder struct {
	mod     *lir.Module
	funcs   map[string]*lir.Func
	callers map[string][]callSite // callee name → its call sites
	locals  map[*lir.InstAlloca]string
	doms    map[*lir.Func]map[*lir.Block]map[*lir.Block]bool // dominators, per function once
}

type callSite struct {
	fn    *lir.Func
	block *lir.Block
}

// maxCallDepth bounds the walk up the call graph.
const maxCallDepth = 4

func newGuardFinder(name string, ll []byte) (g *guardFinder, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("%s: parser failed: %v", name, r)
		}
	}()
	mod, err := asm.ParseBytes(name, ir.Prepass(ll))
	if err != nil {
		return nil, fmt.Errorf("option Split=auto: %s: %w", name, err)
	}
	g = &guardFinder{mod: mod, funcs: map[string]*lir.Func{}, callers: map[string][]callSite{}, locals: map[*lir.InstAlloca]string{},
		doms: map[*lir.Func]map[*lir.Block]map[*lir.Block]bool{}}
	for _, f := range mod.Funcs {
		g.funcs[f.Name()] = f
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				call, ok := inst.(*lir.InstCall)
				if !ok {
					continue
				}
				callee, ok := call.Callee.(*lir.Func)
				if !ok {
					continue
				}
				if callee.Name() == "llvm.dbg.declare" && len(call.Args) >= 2 {
					g.declare(call)
					continue
				}
				g.callers[callee.Name()] = append(g.callers[callee.Name()], callSite{f, b})
			}
		}
	}
	return g, nil
}

// declare records the C name of an alloca from its llvm.dbg.declare.
func (g *guardFinder) declare(call *lir.InstCall) {
	unwrap := func(v value.Value) value.Value {
		if a, ok := v.(*lir.Arg); ok {
			return a.Value
		}
		return v
	}
	mv, ok := unwrap(call.Args[0]).(*metadata.Value)
	if !ok {
		return
	}
	a, ok := mv.Value.(*lir.InstAlloca)
	if !ok {
		return
	}
	lv, ok := unwrap(call.Args[1]).(*metadata.Value)
	if !ok {
		return
	}
	if v, ok := lv.Value.(*metadata.DILocalVariable); ok && v.Name != "" {
		g.locals[a] = v.Name
	}
}

// sites finds the sites of target t with their guards.
func (g *guardFinder) sites(t query.SiteTarget) ([]query.Site, error) {
	var out []query.Site
	add := func(fn *lir.Func, b *lir.Block) {
		if edges := g.edgeSites(fn, b); len(edges) > 0 {
			out = append(out, edges...)
			return
		}
		out = append(out, query.Site{Guards: g.guardsUp(fn, b, 0, map[string]bool{})})
	}
	switch {
	case len(t.Calls) > 0:
		for _, c := range t.Calls {
			for _, cs := range g.callers[c] {
				add(cs.fn, cs.block)
			}
		}
	case t.Line > 0:
		f := g.funcs[t.Fn]
		if f == nil || len(f.Blocks) == 0 {
			return nil, fmt.Errorf("%s: the program defines no function %s", t.What, t.Fn)
		}
		for _, b := range f.Blocks {
			if blockHasLine(b, t.Line) {
				add(f, b)
			}
		}
	default:
		if len(g.callers[t.Fn]) == 0 && g.funcs[t.Fn] == nil {
			return nil, fmt.Errorf("%s: the program has no function %s", t.What, t.Fn)
		}
		for _, cs := range g.callers[t.Fn] {
			add(cs.fn, cs.block)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no place in the program reaches it", t.What)
	}
	return out, nil
}

// edgeSites splits a block reached from several conditional branches
// (`if (i == E || j == E) f();` at -O0: the call's block has one
// predecessor per disjunct, none of whose comparisons dominates it) into
// one site per incoming edge: the edge's own comparison with the guards of
// its branching block. nil when b has fewer than two predecessors or one
// of them is not a conditional branch on a comparison of a variable.
func (g *guardFinder) edgeSites(fn *lir.Func, b *lir.Block) []query.Site {
	predsOf := func(b *lir.Block) []*lir.Block {
		var preds []*lir.Block
		for _, p := range fn.Blocks {
			for _, s := range p.Term.Succs() {
				if s == b {
					preds = append(preds, p)
					break
				}
			}
		}
		return preds
	}
	preds := predsOf(b)
	// up through blocks entered only by an unconditional branch (a label:
	// `if (c) { ERROR: f(); }` puts the call one block below the join)
	for i := 0; i < 8 && len(preds) == 1; i++ {
		if _, ok := preds[0].Term.(*lir.TermBr); !ok {
			break
		}
		b = preds[0]
		preds = predsOf(b)
	}
	if len(preds) < 2 {
		return nil
	}
	var out []query.Site
	for _, p := range preds {
		br, ok := p.Term.(*lir.TermCondBr)
		if !ok {
			return nil
		}
		cmp, ok := br.Cond.(*lir.InstICmp)
		if !ok {
			return nil
		}
		gd, ok := g.guardOf(fn, cmp)
		if !ok {
			return nil
		}
		tt, _ := br.TargetTrue.(*lir.Block)
		tf, _ := br.TargetFalse.(*lir.Block)
		switch {
		case tt == b && tf != b:
		case tf == b && tt != b:
			gd.Op = negate[gd.Op]
		default:
			return nil
		}
		guards := append(g.guardsUp(fn, p, 0, map[string]bool{}), gd)
		out = append(out, query.Site{Guards: guards})
	}
	return out
}

// guardsUp is the guards of block b of fn, and those of the calls of fn
// (the first call site's, when every caller agrees on nothing better: the
// walk follows the callers while fn has exactly one).
func (g *guardFinder) guardsUp(fn *lir.Func, b *lir.Block, depth int, seen map[string]bool) []query.Guard {
	gs := g.guards(fn, b)
	if depth >= maxCallDepth || seen[fn.Name()] {
		return gs
	}
	seen[fn.Name()] = true
	if cs := g.callers[fn.Name()]; len(cs) == 1 {
		gs = append(g.guardsUp(cs[0].fn, cs[0].block, depth+1, seen), gs...)
	}
	return gs
}

// guards is the comparisons that hold whenever block b of fn runs: for
// each block d that dominates b and ends in a conditional branch on a
// comparison of a variable, the comparison (negated on the false edge)
// when only one of the two edges leads to b.
func (g *guardFinder) guards(fn *lir.Func, b *lir.Block) []query.Guard {
	dom, ok := g.doms[fn]
	if !ok {
		dom = dominators(fn)
		g.doms[fn] = dom
	}
	var out []query.Guard
	for _, d := range fn.Blocks {
		if d == b || !dom[b][d] {
			continue
		}
		br, ok := d.Term.(*lir.TermCondBr)
		if !ok {
			continue
		}
		tt, _ := br.TargetTrue.(*lir.Block)
		tf, _ := br.TargetFalse.(*lir.Block)
		if tt == nil || tf == nil {
			continue
		}
		toT, toF := reaches(tt, b, d), reaches(tf, b, d)
		if toT == toF {
			continue // both edges lead to b (or neither): no guard
		}
		cmp, ok := br.Cond.(*lir.InstICmp)
		if !ok {
			continue
		}
		gd, ok := g.guardOf(fn, cmp)
		if !ok {
			continue
		}
		if toF {
			gd.Op = negate[gd.Op]
		}
		out = append(out, gd)
	}
	return out
}

var negate = map[string]string{">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}

var predOps = map[enum.IPred]string{
	enum.IPredEQ: "==", enum.IPredNE: "!=",
	enum.IPredSGE: ">=", enum.IPredUGE: ">=", enum.IPredSGT: ">", enum.IPredUGT: ">",
	enum.IPredSLE: "<=", enum.IPredULE: "<=", enum.IPredSLT: "<", enum.IPredULT: "<",
}

var swapped = map[string]string{">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "==", "!=": "!="}

// guardOf reads a comparison of a variable with a constant or another
// variable (through the loads and integer casts -O0 writes).
func (g *guardFinder) guardOf(fn *lir.Func, cmp *lir.InstICmp) (query.Guard, bool) {
	op, ok := predOps[cmp.Pred]
	if !ok {
		return query.Guard{}, false
	}
	xv, xok := g.variable(fn, cmp.X)
	yv, yok := g.variable(fn, cmp.Y)
	xc, xconst := intConst(cmp.X)
	yc, yconst := intConst(cmp.Y)
	switch {
	case xok && yconst:
		return query.Guard{Var: xv, Op: op, Value: yc}, true
	case yok && xconst:
		return query.Guard{Var: yv, Op: swapped[op], Value: xc}, true
	case xok && yok:
		return query.Guard{Var: xv, Op: op, Other: yv}, true
	}
	return query.Guard{}, false
}

// variable names the C variable a value was loaded from: a global, or a
// local of fn (fn::name).
func (g *guardFinder) variable(fn *lir.Func, v value.Value) (string, bool) {
	for i := 0; i < 4; i++ {
		switch x := v.(type) {
		case *lir.InstSExt:
			v = x.From
			continue
		case *lir.InstZExt:
			v = x.From
			continue
		case *lir.InstTrunc:
			v = x.From
			continue
		case *lir.InstLoad:
			switch src := x.Src.(type) {
			case *lir.Global:
				return src.Name(), true
			case *lir.InstAlloca:
				if n, ok := g.locals[src]; ok {
					return fn.Name() + "::" + n, true
				}
			}
		}
		return "", false
	}
	return "", false
}

func intConst(v value.Value) (int64, bool) {
	c, ok := v.(*constant.Int)
	if !ok || !c.X.IsInt64() {
		return 0, false
	}
	return c.X.Int64(), true
}

// dominators computes, for each block of fn, the set of blocks that
// dominate it (iteratively, over the blocks in order).
func dominators(fn *lir.Func) map[*lir.Block]map[*lir.Block]bool {
	preds := map[*lir.Block][]*lir.Block{}
	for _, b := range fn.Blocks {
		for _, s := range b.Term.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	dom := map[*lir.Block]map[*lir.Block]bool{}
	entry := fn.Blocks[0]
	for _, b := range fn.Blocks {
		set := map[*lir.Block]bool{}
		if b == entry {
			set[b] = true
		} else {
			for _, c := range fn.Blocks {
				set[c] = true
			}
		}
		dom[b] = set
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks[1:] {
			var next map[*lir.Block]bool
			for _, p := range preds[b] {
				if next == nil {
					next = map[*lir.Block]bool{}
					for k := range dom[p] {
						next[k] = true
					}
					continue
				}
				for k := range next {
					if !dom[p][k] {
						delete(next, k)
					}
				}
			}
			if next == nil {
				next = map[*lir.Block]bool{}
			}
			next[b] = true
			if len(next) != len(dom[b]) {
				dom[b], changed = next, true
			}
		}
	}
	return dom
}

// reaches reports whether block to is reachable from block from without
// passing through block avoid (the branching block: a path back through
// it is a new decision).
func reaches(from, to, avoid *lir.Block) bool {
	seen := map[*lir.Block]bool{avoid: true}
	stack := []*lir.Block{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == to {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		stack = append(stack, b.Term.Succs()...)
	}
	return false
}

// blockHasLine reports whether an instruction of b has a debug location
// at source line line.
func blockHasLine(b *lir.Block, line int) bool {
	for _, inst := range b.Insts {
		m, ok := inst.(interface{ MDAttachments() []*metadata.Attachment })
		if !ok {
			continue
		}
		for _, md := range m.MDAttachments() {
			if loc, ok := md.Node.(*metadata.DILocation); ok && md.Name == "dbg" && int(loc.Line) == line {
				return true
			}
		}
	}
	return false
}
