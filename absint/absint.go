// Package absint proves that no error state of a program is reachable, by
// an abstract interpretation over intervals (docs/absint.md): registers
// and the memory cells of locals whose address never escapes are tracked
// per program point; every other memory object is one flow-insensitive
// cell that joins every value any thread ever stores to it, so that a
// load returns a value of some store under any interleaving (Miné's
// thread-modular interference, in its simplest, flow-insensitive form).
//
// It only ever proves: the answer is Proved (no call of an error function
// and no vm error but abort() is reachable) or a refusal naming the first
// construct it does not model or the first check it cannot discharge.
// Anything not listed in docs/absint.md is refused.
package absint

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
)

// Result is the prover's answer.
type Result struct {
	Proved bool
	// Reason says why the program was not proved (a refusal), or what
	// was proved.
	Reason string
	// Rounds is the number of global fixpoint rounds.
	Rounds int
}

// refusal ends the analysis without a proof.
type refusal struct{ msg string }

const (
	maxRounds   = 200
	widenAfter  = 3 // rounds (or visits of a loop head) before widening
	threadObj   = int32(-1)
	maxThreadID = 1000
)

type object struct {
	name  string
	size  int64
	fn    int // owning function of an alloca (-1: global or function)
	isFn  bool
	glob  *ir.Global
	elem  int64 // size of every access (0: none yet)
	mutex bool  // used by a mutex operation
	plain bool  // used by a plain load or store
}

type fninfo struct {
	idx       int
	f         *ir.Func
	leader    []bool
	loopHead  []bool
	inCycle   []bool
	cellOf    map[int32]int // promoted alloca slot -> cell index
	cellObj   []int32       // cell -> object
	allocaObj map[int]int32 // pc of an escaping alloca -> object
	args      []val         // joined over call sites (per parameter)
	ret       val
	// paramRet: each parameter's value where the function returns
	// (joined over its returns); cellParam: the promoted cells that hold
	// a parameter's value wherever they are loaded (paramCopies).
	paramRet  []val
	cellParam map[int]paramCopy
	reached   bool
	called    bool // some call instruction calls it
	fromMain  bool // main's thread may run it (main calls it, perhaps through others)
	callees   []int
}

type state struct {
	regs  []val
	cells []val
	syms  []string
	locks []string
	// may: the locks the thread may hold since its function's entry
	// (a lock through an unknown symbol is "?").
	may []string
}

func (s *state) clone() *state {
	return &state{regs: slices.Clone(s.regs), cells: slices.Clone(s.cells), syms: slices.Clone(s.syms), locks: slices.Clone(s.locks), may: slices.Clone(s.may)}
}

type analysis struct {
	opts     Options
	ctx      context.Context
	prog     *ir.Program
	errFuncs map[int]bool
	fns      []*fninfo
	objs     map[int32]*object
	mem      map[int32]val
	// stored joins only what stores write (not the initial value): what a
	// load sees that every path of main passes a store before (overwrite).
	stored  map[int32]val
	strong  map[int32][]int // object -> pcs of main that overwrite it whole
	covered map[[2]int]bool
	pc      int // the pc step runs
	// loadSize: the size of the load of each decision in covered.
	loadSize map[[2]int]int64
	// mainIn is main's state at each pc from its last analysis; loops the
	// counted loops of main found from it.
	mainIn  []*state
	loops   map[int]*countedLoop
	memSeen map[int32]int
	th      []uint64
	changed bool
	// leaksLock: some function may return or a thread end holding a
	// mutex; destroys: main's pthread_mutex_destroy calls; stores: the
	// store sites of each object (function, pc).
	leaksLock bool
	destroys  []int
	stores    map[int32]map[[2]int]bool
	// edgeSt: the state along each edge (from pc, edge index) with phi
	// copies of the function being analysed; dirty: the pcs whose
	// incoming edge state changed (requeued).
	edgeSt   map[[2]int]*state
	dirty    map[int]bool
	phiDepth int
	// checking: the last round, on the fixpoint, where checks refuse.
	checking bool
	round    int
	threads  int

	// hidden: the objects whose initial value only main can read
	// (initialHidden)
	hidden map[int32]bool
}

// Options select what a proof covers.
type Options struct {
	// UnboundedThreads: the proof is about the C program, whose threads
	// are not bounded in number (SV-COMP's semantics), not about the vm,
	// whose run ends with ResourceLimit past its process, memory and
	// ILP32 block limits: pthread_create may run any number of times (in
	// any loop) and the machine's limits are not checked (docs/absint.md).
	// A proof then rules out every error but abort() and ResourceLimit.
	UnboundedThreads bool
}

// Prove analyses prog: Proved when no call of a function in errFuncs (the
// property's error functions the program defines) and no vm error other
// than abort() can be reached. It stops, refusing, when ctx ends.
func Prove(ctx context.Context, prog *ir.Program, errFuncs []string) (res Result) {
	return ProveWith(ctx, prog, errFuncs, Options{})
}

// ProveWith is Prove with options.
func ProveWith(ctx context.Context, prog *ir.Program, errFuncs []string, opts Options) (res Result) {
	a := &analysis{opts: opts, ctx: ctx, prog: prog, errFuncs: map[int]bool{}, objs: map[int32]*object{}, mem: map[int32]val{}, stored: map[int32]val{}, hidden: map[int32]bool{}, strong: map[int32][]int{}, covered: map[[2]int]bool{}, loops: map[int]*countedLoop{}, loadSize: map[[2]int]int64{}, memSeen: map[int32]int{}}
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(refusal)
			if !ok {
				// a bug of the analysis is no proof either
				ref.msg = fmt.Sprintf("internal error: %v", r)
			}
			res = Result{Reason: "refused: " + ref.msg, Rounds: a.round}
		}
	}()
	for _, n := range errFuncs {
		if i, ok := prog.FuncIdx[n]; ok {
			a.errFuncs[i] = true
		}
	}
	a.setup()
	a.run()
	a.final()
	if a.threads < 0 {
		return Result{Proved: true, Rounds: a.round,
			Reason: fmt.Sprintf("interval analysis: no error reachable (any number of threads, %d rounds)", a.round)}
	}
	return Result{Proved: true, Rounds: a.round,
		Reason: fmt.Sprintf("interval analysis: no error reachable (%d threads at most, %d rounds)", a.threads, a.round)}
}

func refuse(format string, args ...any) {
	panic(refusal{fmt.Sprintf(format, args...)})
}

// fail is a check that does not hold of the current states: a refusal in
// the checking round, which runs on the fixpoint; before it, states may
// still shrink (main's loads that become overwritten) and the analysis
// goes on past the failed check.
func (a *analysis) fail(format string, args ...any) {
	if a.checking {
		refuse(format, args...)
	}
}

func (a *analysis) where(fi *fninfo, pc int) string {
	s := fi.f.Name
	if pc < len(fi.f.Locs) && fi.f.Locs[pc] > 0 && int(fi.f.Locs[pc]) < len(a.prog.Locs) {
		s += " at " + a.prog.Locs[fi.f.Locs[pc]].String()
	}
	if pc < len(fi.f.Text) {
		s += ": " + strings.TrimSpace(fi.f.Text[pc])
	}
	return s
}

func (a *analysis) setup() {
	p := a.prog
	for _, g := range p.Globals {
		if g.ThreadLocal {
			refuse("thread-local variable %s", g.Name)
		}
		a.objs[int32(g.Block)] = &object{name: "@" + g.Name, size: int64(g.Size), fn: -1, glob: g}
	}
	for i, f := range p.Funcs {
		a.objs[int32(p.FirstFuncBlock)+int32(i)] = &object{name: f.Name, fn: -1, isFn: true}
	}
	next := int32(p.FirstDynBlock)
	ths := map[uint64]bool{0: true, 1: true}
	for w := uint8(8); w <= 64; w *= 2 {
		ths[mask(w)] = true
		ths[mask(w-1)] = true
		ths[mask(w-1)+1] = true
	}
	for i, f := range p.Funcs {
		fi := &fninfo{idx: i, f: f, cellOf: map[int32]int{}, allocaObj: map[int]int32{}, args: make([]val, len(f.Params)), paramRet: make([]val, len(f.Params))}
		a.fns = append(a.fns, fi)
		if f.External {
			continue
		}
		for _, c := range f.Consts {
			for _, d := range []uint64{c - 1, c, c + 1} {
				ths[d] = true
				ths[d&mask(32)] = true
			}
		}
		a.cfg(fi)
		promotable := a.promotable(fi)
		for pc, in := range f.Code {
			if in.Op != ir.OpAlloca {
				continue
			}
			if in.A >= 0 {
				refuse("%s: alloca of a dynamic size", a.where(fi, pc))
			}
			if fi.inCycle[pc] {
				refuse("%s: alloca in a loop (its blocks are not bounded)", a.where(fi, pc))
			}
			o := &object{name: fmt.Sprintf("%s:%s", f.Name, strings.Fields(f.Text[pc] + " ?")[0]), size: int64(in.Imm), fn: i}
			a.objs[next] = o
			if promotable[in.Dst] {
				fi.cellOf[in.Dst] = len(fi.cellObj)
				fi.cellObj = append(fi.cellObj, next)
			} else {
				fi.allocaObj[pc] = next
			}
			next++
		}
		fi.cellParam = a.paramCopies(fi)
		for _, c := range f.Calls {
			if c.Callee >= 0 && !p.Funcs[c.Callee].External {
				fi.callees = append(fi.callees, int(c.Callee))
			}
		}
	}
	for t := range ths {
		a.th = append(a.th, t)
	}
	sort.Slice(a.th, func(i, j int) bool { return a.th[i] < a.th[j] })
	for _, fi := range a.fns {
		for _, c := range fi.callees {
			a.fns[c].called = true
		}
	}
	a.checkCallGraph()
	stack := []int{p.Entry}
	for len(stack) > 0 {
		fi := a.fns[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		for _, c := range fi.callees {
			if !a.fns[c].fromMain {
				a.fns[c].fromMain = true
				stack = append(stack, c)
			}
		}
	}
	if len(p.Funcs) >= 10000 {
		refuse("too many functions for the vm's stack depth bound")
	}
}

// paramCopy: a promoted cell that holds parameter param from the store
// at pc on.
type paramCopy struct{ param, pc int }

// paramCopies finds the promoted cells whose only store, in the
// function's first block (which every run passes first: no edge leads
// into it), writes a parameter that nothing else writes (-O0's copy of
// a parameter into its local): a load of the cell after that store reads
// the parameter's value.
func (a *analysis) paramCopies(fi *fninfo) map[int]paramCopy {
	f := fi.f
	out := map[int]paramCopy{}
	written := map[int32]bool{}
	for _, in := range f.Code {
		if writesDst(in.Op) {
			written[in.Dst] = true
		}
		if in.Op == ir.OpCall || in.Op == ir.OpCallB || in.Op == ir.OpCallInd {
			if c := f.Calls[in.Imm]; c.Ret >= 0 {
				for k := int32(0); k < max(c.RetSlots, 1); k++ {
					written[c.Ret+k] = true
				}
			}
		}
	}
	for _, e := range f.Edges {
		for _, m := range e.Moves {
			written[m.Dst] = true
		}
	}
	for pc := range f.Code {
		for _, s := range a.succs(f, pc) {
			if s == 0 {
				return out // an edge into the first block
			}
		}
	}
	stores := map[int][]int{}
	for pc, in := range f.Code {
		if in.Op == ir.OpStore || in.Op == ir.OpStoreAgg {
			if c, ok := fi.cellOf[in.A]; ok {
				stores[c] = append(stores[c], pc)
			}
		}
	}
	for c, pcs := range stores {
		if len(pcs) != 1 || f.Code[pcs[0]].Op != ir.OpStore {
			continue
		}
		pc := pcs[0]
		k := slices.Index(f.Params, f.Code[pc].B)
		if k < 0 || written[f.Code[pc].B] || int64(f.Code[pc].W) != a.objs[fi.cellObj[c]].size {
			continue
		}
		first := true
		for q := 1; q <= pc; q++ {
			if fi.leader[q] {
				first = false
			}
		}
		if first {
			out[c] = paramCopy{k, pc}
		}
	}
	return out
}

// cfg finds basic-block leaders, loop heads (targets of back edges) and
// the pcs that lie on a cycle.
func (a *analysis) cfg(fi *fninfo) {
	f := fi.f
	n := len(f.Code)
	fi.leader = make([]bool, n+1)
	fi.loopHead = make([]bool, n+1)
	fi.inCycle = make([]bool, n+1)
	succ := make([][]int, n)
	if n > 0 {
		fi.leader[0] = true
	}
	for pc := range f.Code {
		succ[pc] = a.succs(f, pc)
		for _, s := range succ[pc] {
			if s != pc+1 || isTerm(f.Code[pc].Op) {
				fi.leader[s] = true
				if pc+1 <= n {
					fi.leader[pc+1] = true
				}
			}
			if s <= pc {
				fi.loopHead[s] = true
			}
		}
	}
	// a pc is on a cycle when its strongly connected component has more
	// than one pc or an edge to itself (Tarjan)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for k := range index {
		index[k] = -1
	}
	var stack []int
	next := 0
	var connect func(v int)
	connect = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range succ[v] {
			if w >= n {
				continue
			}
			if index[w] < 0 {
				connect(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			for _, w := range comp {
				fi.inCycle[w] = len(comp) > 1 || slices.Contains(succ[w], w)
			}
		}
	}
	for v := range n {
		if index[v] < 0 {
			connect(v)
		}
	}
}

func isTerm(op ir.Op) bool {
	switch op {
	case ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpRet, ir.OpUnreachable:
		return true
	}
	return false
}

func (a *analysis) succs(f *ir.Func, pc int) []int {
	in := f.Code[pc]
	switch in.Op {
	case ir.OpJmp:
		return []int{int(in.Imm)}
	case ir.OpJmpE:
		return []int{int(f.Edges[in.Imm].PC)}
	case ir.OpBr:
		return []int{int(in.B), int(in.C)}
	case ir.OpBrE:
		return []int{int(f.Edges[in.B].PC), int(f.Edges[in.C].PC)}
	case ir.OpSwitch:
		sw := f.Switches[in.Imm]
		out := []int{int(f.Edges[sw.Default].PC)}
		for _, t := range sw.Targets {
			out = append(out, int(f.Edges[t].PC))
		}
		return out
	case ir.OpRet, ir.OpUnreachable:
		return nil
	}
	return []int{pc + 1}
}

// reads lists the slots an instruction reads; ok is false for an opcode
// the analysis does not model.
func reads(f *ir.Func, in ir.Inst) (slots []int32, ok bool) {
	switch {
	case in.Op >= ir.OpAdd && in.Op <= ir.OpSge, in.Op >= ir.OpSMin && in.Op <= ir.OpUMax:
		return []int32{in.A, in.B}, true
	}
	switch in.Op {
	case ir.OpNop, ir.OpJmp, ir.OpJmpE, ir.OpUnreachable, ir.OpFence:
		return nil, true
	case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpPtrToInt, ir.OpIntToPtr, ir.OpGEPC, ir.OpLoad, ir.OpLoadAgg, ir.OpBr, ir.OpBrE, ir.OpSwitch:
		return []int32{in.A}, true
	case ir.OpSelect:
		return []int32{in.A, in.B, in.C}, true
	case ir.OpStore, ir.OpStoreAgg, ir.OpGEP1:
		return []int32{in.A, in.B}, true
	case ir.OpAlloca:
		if in.A >= 0 {
			return []int32{in.A}, true
		}
		return nil, true
	case ir.OpRet:
		if in.A < 0 {
			return nil, true
		}
		for k := int32(0); k < int32(in.Imm); k++ {
			slots = append(slots, in.A+k)
		}
		return slots, true
	case ir.OpGEPN:
		g := f.GEPs[in.Imm]
		return append([]int32{g.Base}, g.Idx...), true
	case ir.OpCall, ir.OpCallB, ir.OpCallInd:
		c := f.Calls[in.Imm]
		if in.Op == ir.OpCallInd {
			slots = append(slots, c.FnSlot)
		}
		for k, s := range c.Args {
			for j := int32(0); j < c.ArgSlots[k]; j++ {
				slots = append(slots, s+j)
			}
		}
		return slots, true
	}
	return []int32{in.A, in.B, in.C}, false
}

// promotable finds the allocas whose address is only ever the address of
// a whole-cell load or store in their function: their cells are tracked
// per program point, with strong updates.
func (a *analysis) promotable(fi *fninfo) map[int32]bool {
	f := fi.f
	cand := map[int32]int64{}
	for _, in := range f.Code {
		if in.Op == ir.OpAlloca && in.A < 0 {
			cand[in.Dst] = int64(in.Imm)
		}
	}
	bad := map[int32]bool{}
	for _, in := range f.Code {
		if in.Op == ir.OpAlloca {
			if _, ok := cand[in.Dst]; ok && bad[in.Dst] {
				continue
			}
		}
		rs, _ := reads(f, in)
		for k, s := range rs {
			size, ok := cand[s]
			if !ok {
				continue
			}
			addr := k == 0 && (in.Op == ir.OpLoad || in.Op == ir.OpStore || in.Op == ir.OpLoadAgg || in.Op == ir.OpStoreAgg)
			if !addr {
				bad[s] = true
				continue
			}
			switch in.Op {
			case ir.OpLoad, ir.OpStore:
				if int64(in.W) != size {
					bad[s] = true
				}
			default:
				ag := f.Aggs[in.Imm]
				if len(ag.Offs) != 1 || ag.Offs[0] != 0 || int64(ag.Sizes[0]) != size {
					bad[s] = true
				}
			}
		}
	}
	for _, e := range f.Edges {
		for _, m := range e.Moves {
			bad[m.Src] = true
		}
	}
	// a slot written by anything but its alloca is no alloca's address
	for _, in := range f.Code {
		if _, ok := cand[in.Dst]; ok && in.Op != ir.OpAlloca && writesDst(in.Op) {
			bad[in.Dst] = true
		}
	}
	for _, e := range f.Edges {
		for _, m := range e.Moves {
			bad[m.Dst] = true
		}
	}
	out := map[int32]bool{}
	for s := range cand {
		if !bad[s] {
			out[s] = true
		}
	}
	return out
}

func writesDst(op ir.Op) bool {
	switch op {
	case ir.OpStore, ir.OpStoreAgg, ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpRet, ir.OpUnreachable, ir.OpNop, ir.OpFence, ir.OpCall, ir.OpCallB, ir.OpCallInd:
		return false
	}
	return true
}

// checkCallGraph refuses recursion and a main that others call.
func (a *analysis) checkCallGraph() {
	n := len(a.fns)
	color := make([]int, n)
	var visit func(i int)
	visit = func(i int) {
		color[i] = 1
		for _, c := range a.fns[i].callees {
			if c == a.prog.Entry {
				refuse("%s calls main", a.fns[i].f.Name)
			}
			switch color[c] {
			case 1:
				refuse("recursion through %s", a.fns[c].f.Name)
			case 0:
				visit(c)
			}
		}
		color[i] = 2
	}
	for i := range a.fns {
		if color[i] == 0 {
			visit(i)
		}
	}

}

// run iterates the functions' analyses until entries, returns and memory
// are stable.
func (a *analysis) run() {
	a.fns[a.prog.Entry].reached = true
	for k := range a.fns[a.prog.Entry].args {
		a.fns[a.prog.Entry].args[k] = topW(64) // argc, argv: anything (argv's pointers are not followed)
	}
	for {
		a.round++
		if err := a.ctx.Err(); err != nil {
			refuse("stopped: %v", err)
		}
		if a.round > maxRounds {
			refuse("no fixpoint after %d rounds", maxRounds)
		}
		a.changed = false
		a.covered, a.loops = map[[2]int]bool{}, map[int]*countedLoop{}
		a.leaksLock, a.destroys, a.stores = false, nil, map[int32]map[[2]int]bool{}
		for i, fi := range a.fns {
			if fi.reached && !fi.f.External {
				a.analyse(i)
			}
		}
		// the decisions main's loads took from its previous states must
		// hold of its new ones
		used := a.covered
		a.covered, a.loops = map[[2]int]bool{}, map[int]*countedLoop{}
		for k, v := range used {
			if a.decideOverwritten(int32(k[0]), k[1], a.loadSize[k]) != v {
				a.changed = true
			}
		}
		if !a.changed {
			if a.checking {
				return
			}
			a.checking = true
		}
	}
}

func (a *analysis) entryState(fi *fninfo) *state {
	f := fi.f
	st := &state{regs: make([]val, f.NRegs), cells: make([]val, len(fi.cellObj)), syms: make([]string, f.NRegs)}
	for k, c := range f.Consts {
		s := int(f.ConstBase) + k
		st.regs[s] = a.constant(c)
		st.syms[s] = "k" + strconv.FormatUint(c, 10)
	}
	for k, s := range f.Params {
		st.regs[s] = fi.args[k]
	}
	for c := range st.cells {
		st.cells[c] = undefVal(a.objs[fi.cellObj[c]].size)
	}
	return st
}

// constant decodes a constant slot: a pointer to a global or function
// when it has that form (the vm's integers are addresses and vice versa).
func (a *analysis) constant(c uint64) val {
	b := ir.PtrBlock(c)
	if b >= 1 && b < a.prog.FirstDynBlock && uint32(c) >= ir.PtrBase(b) {
		return val{p: map[int32]off{int32(b): {int64(ir.PtrOff(c)), int64(ir.PtrOff(c)), 0}}}
	}
	return constVal(c)
}

func joinState(dst *state, src *state, widenIt bool, th []uint64) (changed bool) {
	for k := range dst.regs {
		var nv val
		if widenIt {
			nv = widen(dst.regs[k], src.regs[k], th)
		} else {
			nv = dst.regs[k].join(src.regs[k])
		}
		if !nv.eq(dst.regs[k]) {
			dst.regs[k], changed = nv, true
		}
		if dst.syms[k] != src.syms[k] && dst.syms[k] != "" {
			dst.syms[k], changed = "", true
		}
	}
	for k := range dst.cells {
		var nv val
		if widenIt {
			nv = widen(dst.cells[k], src.cells[k], th)
		} else {
			nv = dst.cells[k].join(src.cells[k])
		}
		if !nv.eq(dst.cells[k]) {
			dst.cells[k], changed = nv, true
		}
	}
	var keep []string
	for _, l := range dst.locks {
		if slices.Contains(src.locks, l) {
			keep = append(keep, l)
		}
	}
	if len(keep) != len(dst.locks) {
		dst.locks, changed = keep, true
	}
	for _, l := range src.may {
		if !slices.Contains(dst.may, l) {
			dst.may, changed = append(dst.may, l), true
			slices.Sort(dst.may)
		}
	}
	return changed
}

// analyse runs one function to its intraprocedural fixpoint.
func (a *analysis) analyse(fidx int) {
	fi := a.fns[fidx]
	f := fi.f
	in := make([]*state, len(f.Code)+1)
	visits := make([]int, len(f.Code)+1)
	in[0] = a.entryState(fi)
	work := []int{0}
	queued := make([]bool, len(f.Code)+1)
	queued[0] = true
	steps := 0
	a.edgeSt, a.dirty = map[[2]int]*state{}, map[int]bool{}
	defer func() { a.edgeSt, a.dirty = nil, nil }()
	if fidx == a.prog.Entry {
		defer func() { a.mainIn = in }()
	}
	for len(work) > 0 {
		// lowest pc first: loops settle before their exits
		slices.Sort(work)
		if steps++; steps%4096 == 0 && a.ctx.Err() != nil {
			refuse("stopped: %v", a.ctx.Err())
		}
		pc := work[0]
		work = work[1:]
		queued[pc] = false
		for _, e := range a.step(fidx, pc, in[pc].clone()) {
			if e.pc >= len(f.Code) {
				refuse("%s: control leaves the function", a.where(fi, pc))
			}
			dirty := a.dirty[e.pc]
			delete(a.dirty, e.pc)
			if in[e.pc] == nil {
				in[e.pc] = e.st
			} else {
				visits[e.pc]++
				if !joinState(in[e.pc], e.st, fi.loopHead[e.pc] && visits[e.pc] > widenAfter, a.th) && !dirty {
					continue
				}
			}
			if !queued[e.pc] {
				queued[e.pc] = true
				work = append(work, e.pc)
			}
		}
	}
}

type edge struct {
	pc int
	st *state
}
