package symbolic

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Sequentialized proofs of one-section threads (issue 30). SV-COMP's
// queue_ok family: main creates a few threads and joins them, and each
// thread does all its work on shared memory inside one critical section of
// one mutex m. Such a program behaves as if the threads ran whole, one
// after the other, in some order: each order is a single-threaded program,
// and single-threaded BMC keeps every value it can as a constant (the
// partial-order encoding gives each section's first reads a reads-from
// choice instead, and queue_ok's queue indices become symbolic: SIZE 400
// and 800 are out of its reach).
//
// Premises (sequentialPlan checks each; any other program is refused):
//
//   - Only main calls pthread_create and pthread_join, in a straight run of
//     main's code (no branch into it or out of it, not inside a loop) made
//     of the creates, the joins and loads of the pthread_t variables, each
//     variable a stack slot of main used only by its create and by those
//     loads; each create has a constant start routine, argument and a null
//     attribute, and each thread is joined exactly once, with a null result
//     pointer, after its creation. At most three threads.
//   - Every thread's code (its start routine and every function it calls:
//     no indirect call, no recursion, no atomic section) touches memory
//     other than its own private stack slots (privateAllocas) only while it
//     holds m (the lockset analysis' must-held set), locks m exactly once
//     (one call site, in the start routine, on no cycle), unlocks m only
//     while it holds it, and calls no platform function but lock and unlock
//     of m, inputs, assumptions, abort and exit, the error functions and
//     output of constant strings and numbers.
//   - main calls no other pthread function than pthread_mutex_init(&m,
//     NULL) before the creates, and the program converts no integer to a
//     pointer (the lockset analysis applies).
//
// Why every violation of the program is a violation of some order (Lipton's
// reduction): a thread's steps before its lock and after its unlock touch
// only its registers, its private stack and the input counters (whose
// values BMC leaves free anyway); its steps from lock to unlock touch
// shared memory, which no other thread touches while it holds m, and main
// touches none between the first create and the last join. So in a vm
// execution reaching a violation every thread's steps can be moved next
// to its critical section (they commute with the other threads' steps),
// giving an execution in which each thread runs whole, in the order of
// the sections, between its create and its join, and main's steps between
// the first create and the last join, which only load the pthread_t
// variables and cannot fail, go around them: the program in which main's
// run of creates and joins is replaced by calls of the threads' start
// routines in that order (variant) reaches the same violation. A thread that never ran, or stopped, in the vm
// execution runs whole in the order: that only adds executions (a proof of
// every order still covers the program's), and so does dropping the
// lock and unlock calls (each unlock holds m, the lock never fails, and no
// thread waits for a held mutex any more). A violation found in an order
// is not reported (it may need one of those added executions): only
// proofs come from here.

// seqThread is a thread of a sequentialized program.
type seqThread struct {
	create, join int // pcs in main
	fn           *ir.Func
	cs           ir.CallSite // the create's call site
}

// seqPlan is a program that can be sequentialized.
type seqPlan struct {
	p       *ir.Program
	threads []seqThread
	trees   [][]*ir.Func                // each thread's start routine and callees
	lo, hi  int                         // main's straight run from the first create to the last join
	nops    map[*ir.Func]map[int32]bool // the pthread calls that become no-ops (lock, unlock of m; main's init)
}

// trySequential: Check tries the sequentialized proof first (the tests of
// the partial-order encoding turn it off for programs it would prove).
var trySequential = true

// maxSeqThreads bounds the orders tried (3! = 6).
const maxSeqThreads = 3

// maxSeqAlloca bounds a thread's stack blocks (bytes).
const maxSeqAlloca = 1 << 16

// sequentialPlan checks the premises above; why says which one fails.
func sequentialPlan(p *ir.Program) (*seqPlan, string) {
	if p.Entry < 0 || p.Entry >= len(p.Funcs) {
		return nil, "no entry function"
	}
	d := analyseDRF(p)
	if d.reason != "" {
		return nil, d.reason
	}
	e := &encoder{p: p, graphs: map[int]*graph{}}
	if f, why := e.recursive(); why != "" {
		return nil, f + ": " + why
	}
	for _, g := range p.Globals {
		if g.ThreadLocal {
			return nil, "thread-local variable " + g.Name + " (the orders run every thread as main)"
		}
	}
	main := p.Funcs[p.Entry]
	callSite := func(f *ir.Func, in *ir.Inst) *ir.CallSite {
		if in.Imm < uint64(len(f.Calls)) {
			return &f.Calls[in.Imm]
		}
		return nil
	}
	plan := &seqPlan{p: p, nops: map[*ir.Func]map[int32]bool{}}
	var joins []int
	nop := func(f *ir.Func, pc int) {
		if plan.nops[f] == nil {
			plan.nops[f] = map[int32]bool{}
		}
		plan.nops[f][int32(pc)] = true
	}
	var m uint64 // the mutex (0: none seen yet)
	sameMutex := func(f *ir.Func, cs *ir.CallSite) bool {
		if cs == nil || len(cs.Args) == 0 {
			return false
		}
		v, ok := constArg(f, cs, 0)
		if !ok || v == 0 || (m != 0 && v != m) {
			return false
		}
		if g := d.global(ir.PtrBlock(v)); g == nil || g.ThreadLocal || d.bad[ir.PtrBlock(v)] {
			return false
		}
		m = v
		return true
	}

	// main: the creates and joins
	for fi, f := range p.Funcs {
		for pc := range f.Code {
			in := &f.Code[pc]
			if in.Op == ir.OpCall && int(in.Imm) < len(f.Calls) && int(f.Calls[in.Imm].Callee) == p.Entry {
				return nil, "main is called"
			}
			if in.Op != ir.OpCallB || fi != p.Entry {
				continue
			}
			cs := callSite(f, in)
			switch b := ir.Builtin(in.B); b {
			case ir.BPthreadCreate:
				if cs == nil || len(cs.Args) < 4 {
					return nil, "pthread_create's arguments"
				}
				attr, ok1 := constArg(f, cs, 1)
				fp, ok2 := constArg(f, cs, 2)
				_, ok3 := constArg(f, cs, 3)
				if !ok1 || attr != 0 || !ok2 || !ok3 {
					return nil, fmt.Sprintf("main at %d: pthread_create with attributes, or a start routine or argument that is not a constant", pc)
				}
				fn := e.funcOf(fp)
				if fn == nil || fn.External || len(fn.Params) != 1 || fn.Atomic {
					return nil, fmt.Sprintf("main at %d: the start routine is not a defined function of one parameter", pc)
				}
				plan.threads = append(plan.threads, seqThread{create: pc, join: -1, fn: fn, cs: *cs})
			case ir.BPthreadJoin:
				joins = append(joins, pc) // matched below
			case ir.BMutexInit:
				if !sameMutex(f, cs) || len(cs.Args) < 2 {
					return nil, fmt.Sprintf("main at %d: pthread_mutex_init of a mutex that is not one constant global", pc)
				}
				if a, ok := constArg(f, cs, 1); !ok || a != 0 {
					return nil, fmt.Sprintf("main at %d: mutex attributes", pc)
				}
				nop(f, pc)
			default:
				if pthreadBuiltin(b) || b == ir.BAtomicBegin || b == ir.BAtomicEnd {
					return nil, fmt.Sprintf("main at %d: %s", pc, f.Text[pc])
				}
			}
		}
	}
	n := len(plan.threads)
	if n == 0 || n > maxSeqThreads {
		return nil, fmt.Sprintf("%d threads", n)
	}
	if len(joins) != n {
		return nil, "not every thread is joined exactly once"
	}
	// the straight run of main from the first create to the last join
	lo, hi := plan.threads[0].create, joins[len(joins)-1]
	for _, t := range plan.threads {
		lo = min(lo, t.create)
	}
	for _, j := range joins {
		hi = max(hi, j)
	}
	idOf := map[int32]int{} // a pthread_t stack slot → its thread
	for k, t := range plan.threads {
		a := t.cs.Args[0]
		if _, dup := idOf[a]; dup {
			return nil, "two creates store into one pthread_t"
		}
		idOf[a] = k
	}
	loaded := map[int32]int{} // a register loaded from a pthread_t slot → its thread
	for pc := lo; pc <= hi; pc++ {
		in := &main.Code[pc]
		switch {
		case in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate:
		case in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadJoin:
			cs := callSite(main, in)
			if cs == nil || len(cs.Args) < 2 {
				return nil, "pthread_join's arguments"
			}
			if r, ok := constArg(main, cs, 1); !ok || r != 0 {
				return nil, fmt.Sprintf("main at %d: pthread_join with a result pointer", pc)
			}
			k, ok := loaded[cs.Args[0]]
			if !ok || plan.threads[k].join >= 0 || plan.threads[k].create > pc {
				return nil, fmt.Sprintf("main at %d: a join that is not of one thread created before it, loaded from its pthread_t", pc)
			}
			plan.threads[k].join = pc
		case in.Op == ir.OpLoad:
			k, ok := idOf[in.A]
			if !ok {
				return nil, fmt.Sprintf("main at %d: a load between the creates and the joins that is not of a pthread_t", pc)
			}
			loaded[in.Dst] = k
		default:
			return nil, fmt.Sprintf("main at %d: %s between the creates and the joins", pc, main.Text[pc])
		}
	}
	for pc := range main.Code {
		for _, s := range succs(main, pc) {
			if s > lo && s <= hi && (s != pc+1 || pc < lo) {
				return nil, "a branch into main's creates and joins"
			}
		}
	}
	if reaches(main, hi+1, lo) {
		return nil, "main's creates and joins lie on a cycle"
	}
	// the pthread_t slots: used by their create and the loads alone
	// (privateAllocas of main without the creates)
	mc := *main
	mc.Code = slices.Clone(main.Code)
	for _, t := range plan.threads {
		mc.Code[t.create] = ir.Inst{Op: ir.OpNop}
	}
	priv := privateRegs(&mc)
	for a := range idOf {
		if !priv[a] {
			return nil, "a pthread_t variable whose address is used otherwise"
		}
	}
	for pc := hi + 1; pc < len(main.Code); pc++ {
		if in := &main.Code[pc]; in.Op == ir.OpLoad {
			if _, ok := idOf[in.A]; ok {
				// (the orders leave the variables as they were: no create
				// stores a thread id there)
				return nil, fmt.Sprintf("main at %d: a pthread_t variable read after the joins", pc)
			}
		}
	}
	plan.lo, plan.hi = lo, hi

	// the threads' code: the mutex first (their lock calls)
	trees := make([][]*ir.Func, n)
	for k, t := range plan.threads {
		tree, why := callTree(p, t.fn)
		if why != "" {
			return nil, t.fn.Name + ": " + why
		}
		trees[k] = tree
		for pc := range t.fn.Code {
			in := &t.fn.Code[pc]
			if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BMutexLock && !sameMutex(t.fn, callSite(t.fn, in)) {
				return nil, fmt.Sprintf("%s at %d: a lock of another mutex, or of one that is not a constant global", t.fn.Name, pc)
			}
		}
	}
	if m == 0 {
		return nil, "no mutex"
	}
	plan.trees = trees
	// every other function (main's helpers): no pthread call, no atomic
	// section
	inTree := map[*ir.Func]bool{main: true}
	for _, tree := range trees {
		for _, f := range tree {
			inTree[f] = true
			if f.OrdersPointers {
				return nil, f.Name + " orders pointers (block ids depend on the order)"
			}
		}
	}
	for _, f := range p.Funcs {
		if inTree[f] || f.External {
			continue
		}
		for pc := range f.Code {
			in := &f.Code[pc]
			if in.Op == ir.OpCallB && (pthreadBuiltin(ir.Builtin(in.B)) || ir.Builtin(in.B) == ir.BAtomicBegin || ir.Builtin(in.B) == ir.BAtomicEnd) {
				return nil, fmt.Sprintf("%s at %d: %s outside main and the threads' start routines", f.Name, pc, ir.Builtin(in.B))
			}
		}
	}
	for k, t := range plan.threads {
		tree := trees[k]
		locks := 0
		for _, f := range tree {
			priv := privateRegs(f)
			for pc := range f.Code {
				in := &f.Code[pc]
				st := d.states[f.Index][pc]
				if !st.reached {
					continue
				}
				held := m != 0 && st.held[m]
				switch in.Op {
				case ir.OpCallInd, ir.OpAtomicRMW, ir.OpCmpXchg, ir.OpIntToPtr, ir.OpPtrToInt:
					// (a pointer's bits: block ids depend on the order)
					return nil, fmt.Sprintf("%s at %d: %s", f.Name, pc, f.Text[pc])
				case ir.OpAlloca:
					// (threads' stacks live at once in the vm, one at a
					// time in an order: the per-run memory limit)
					if in.A >= 0 || in.Imm > maxSeqAlloca {
						return nil, fmt.Sprintf("%s at %d: a stack block of a variable or large size", f.Name, pc)
					}
				case ir.OpLoad, ir.OpStore, ir.OpLoadAgg, ir.OpStoreAgg:
					if !priv[in.A] && !held {
						return nil, fmt.Sprintf("%s at %d: a memory access outside the critical section: %s", f.Name, pc, f.Text[pc])
					}
				case ir.OpCallB:
					cs := callSite(f, in)
					switch b := ir.Builtin(in.B); b {
					case ir.BMutexLock:
						if f != t.fn || !sameMutex(f, cs) || reaches(f, pc+1, pc) {
							return nil, fmt.Sprintf("%s at %d: a lock that is not of the one mutex, once, in the start routine", f.Name, pc)
						}
						locks++
						nop(f, pc)
					case ir.BMutexUnlock:
						if f != t.fn || !sameMutex(f, cs) || !d.states[f.Index][pc].held[m] {
							return nil, fmt.Sprintf("%s at %d: an unlock of a mutex the thread may not hold", f.Name, pc)
						}
						nop(f, pc)
					case ir.BNondet, ir.BAssume, ir.BAbort, ir.BExit, ir.BReachError, ir.BVerifierError, ir.BAssertFail:
					case ir.BPrintf, ir.BPuts, ir.BPutchar:
						if !constOutput(p, f, cs) {
							return nil, fmt.Sprintf("%s at %d: output that reads memory: %s", f.Name, pc, f.Text[pc])
						}
					default:
						return nil, fmt.Sprintf("%s at %d: platform function %s", f.Name, pc, b)
					}
				}
			}
		}
		if locks != 1 {
			return nil, fmt.Sprintf("%s: %d lock calls (one is needed)", t.fn.Name, locks)
		}
	}
	return plan, ""
}

// callTree is fn and the functions it calls, directly or not; why says
// what is refused (an indirect call, an atomic function).
func callTree(p *ir.Program, fn *ir.Func) ([]*ir.Func, string) {
	seen := map[int]bool{fn.Index: true}
	out := []*ir.Func{fn}
	for i := 0; i < len(out); i++ {
		f := out[i]
		if f.Atomic {
			return nil, f.Name + " is an atomic section"
		}
		for pc := range f.Code {
			in := &f.Code[pc]
			switch in.Op {
			case ir.OpCallInd:
				return nil, fmt.Sprintf("%s at %d: an indirect call", f.Name, pc)
			case ir.OpCall:
				if in.Imm >= uint64(len(f.Calls)) {
					return nil, "a call site out of range"
				}
				c := int(f.Calls[in.Imm].Callee)
				if c < 0 || c >= len(p.Funcs) {
					return nil, "a call of an unknown function"
				}
				if !seen[c] {
					seen[c] = true
					out = append(out, p.Funcs[c])
				}
			}
		}
	}
	return out, ""
}

// constOutput reports whether an output call prints only a constant
// string and numbers: its pointer arguments are constant addresses of
// constant globals, its other arguments are not pointers.
func constOutput(p *ir.Program, f *ir.Func, cs *ir.CallSite) bool {
	if cs == nil {
		return false
	}
	for i := range cs.Args {
		ptr := i < len(cs.ArgKinds) && cs.ArgKinds[i] == ir.KindPtr
		if !ptr {
			continue
		}
		v, ok := constArg(f, cs, i)
		if !ok {
			return false
		}
		b := ir.PtrBlock(v)
		if b < 1 || int(b) > len(p.Globals) || !p.Globals[b-1].Const {
			return false
		}
	}
	return true
}

// privateRegs are the registers that hold the address of a private stack
// slot of f (privateAllocas, which gives the allocas' pcs).
func privateRegs(f *ir.Func) map[int32]bool {
	priv := privateAllocas(f)
	out := map[int32]bool{}
	n := map[int32]int{}
	for pc := range f.Code {
		if in := &f.Code[pc]; in.Op == ir.OpAlloca {
			n[in.Dst]++
			out[in.Dst] = priv[int32(pc)]
		}
	}
	for r, k := range n {
		if k > 1 {
			out[r] = false // (privateAllocas leaves such a register out too)
		}
	}
	return out
}

// reaches reports whether pc to can be reached from pc from in f.
func reaches(f *ir.Func, from, to int) bool {
	if from < 0 || from >= len(f.Code) {
		return false
	}
	seen := map[int]bool{from: true}
	work := []int{from}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		if pc == to {
			return true
		}
		for _, s := range succs(f, pc) {
			if s >= 0 && s < len(f.Code) && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// permutations yields every order of 0..n-1.
func permutations(n int) func(func([]int) bool) {
	return func(yield func([]int) bool) {
		perm := make([]int, n)
		used := make([]bool, n)
		var rec func(k int) bool
		rec = func(k int) bool {
			if k == n {
				return yield(slices.Clone(perm))
			}
			for i := 0; i < n; i++ {
				if !used[i] {
					used[i] = true
					perm[k] = i
					if !rec(k + 1) {
						return false
					}
					used[i] = false
				}
			}
			return true
		}
		rec(0)
	}
}

// variant is the single-threaded program of order perm: main's straight
// run from the first create to the last join becomes the calls of the
// threads' start routines, in the order, each with its create's argument
// (then no-ops), and the lock and unlock calls of m (and main's init of it)
// do nothing. Running a thread at the run's start rather than at its create
// changes nothing: main's steps in the run (creates, joins, loads of the
// pthread_t variables) touch nothing a thread touches and cannot fail.
func (plan *seqPlan) variant(perm []int) *ir.Program {
	p := plan.p
	q := *p
	q.Funcs = slices.Clone(p.Funcs)
	clone := func(f *ir.Func) *ir.Func {
		c := *f
		c.Code = slices.Clone(f.Code)
		c.Calls = slices.Clone(f.Calls)
		q.Funcs[f.Index] = &c
		return &c
	}
	cloned := map[*ir.Func]*ir.Func{}
	for f, pcs := range plan.nops {
		c := clone(f)
		cloned[f] = c
		for pc := range pcs {
			c.Code[pc] = ir.Inst{Op: ir.OpNop}
		}
	}
	main := p.Funcs[p.Entry]
	mc := cloned[main]
	if mc == nil {
		mc = clone(main)
	}
	for pc := plan.lo; pc <= plan.hi; pc++ {
		mc.Code[pc] = ir.Inst{Op: ir.OpNop}
	}
	for i, t := range perm {
		th := plan.threads[t]
		cs := ir.CallSite{Callee: int32(th.fn.Index), FnSlot: -1, Args: []int32{th.cs.Args[3]}, Ret: -1, NFixed: 1}
		if len(th.cs.ArgSlots) > 3 {
			cs.ArgSlots = []int32{th.cs.ArgSlots[3]}
		}
		if len(th.cs.ArgKinds) > 3 {
			cs.ArgKinds = []ir.ValueKind{th.cs.ArgKinds[3]}
		}
		if len(th.cs.ArgSizes) > 3 {
			cs.ArgSizes = []uint8{th.cs.ArgSizes[3]}
		}
		mc.Calls = append(mc.Calls, cs)
		mc.Code[plan.lo+i] = ir.Inst{Op: ir.OpCall, Dst: -1, A: -1, Imm: uint64(len(mc.Calls) - 1)}
	}
	return &q
}

// proveSequential is the proof of a threaded program by its orders
// (sequentialPlan): every order's single-threaded program checked by
// Check at the static trip count of its loops (deepening where there is
// none), within three quarters of ctx's time (where a program qualifies
// the orders are much cheaper than every interleaving: queue_ok_longest
// 21 s, where the partial-order check gets no answer). ok is true only for a proof: every
// order not-satisfied (for E<>; satisfied for A[]), every execution
// complete. Anything else (a premise fails, a violation in some order,
// no answer) leaves the program to the partial-order check, with the time
// spent.
func proveSequential(ctx context.Context, p *ir.Program, q *query.Query, target query.Target, o jobs.BMCOptions, res *Result) (verdict, reason string, ok bool) {
	for _, proc := range target.CallProcs {
		if proc >= 0 {
			return "", "", false // [i.f] names a process: the orders run every thread as process 0
		}
	}
	plan, why := sequentialPlan(p)
	if why == "" {
		why = plan.runEnds(target)
	}
	if why != "" {
		return "", "", false
	}
	if dl, has := ctx.Deadline(); has {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(dl)*3/4))
		defer cancel()
	}
	want := VerdictNotSatisfied
	if target.Negated {
		want = VerdictSatisfied
	}
	k, orders := 0, 0
	for perm := range permutations(len(plan.threads)) {
		orders++
		vp := plan.variant(perm)
		ov := o
		ov.Unwind, ov.Complete, ov.RoundsOnly = 0, false, false
		if b, _, ok := staticUnwind(vp, false); ok {
			ov.Unwind = b
		}
		r, err := Check(ctx, vp, q, ov, nil)
		if r != nil {
			for _, c := range r.Checks {
				c.Order = orders
				res.Checks = append(res.Checks, c)
				res.SolverSeconds += c.SolverSeconds
				res.EncodeSeconds += c.EncodeSeconds
			}
		}
		if err != nil || r.Verdict != want {
			return "", "", false
		}
		k = max(k, r.Bound)
	}
	res.Bound = k
	return want, fmt.Sprintf("no violation in any of the %d orders of the threads run whole (each thread touches shared memory only inside its one critical section of one mutex: the program sequentialized), and every execution is complete within unwind %d", orders, k), true
}

// runEnds says why a thread's code may end the run without a violation of
// target ("" when it cannot): a failing assumption, exit, abort (but
// right after a violation call, SV-COMP's `reach_error(); abort();`), or an
// error of a kind target leaves out. In an order every thread runs whole,
// so a thread whose section came before the violation in the vm's
// execution also runs the rest of its code before the later threads: had
// that rest ended the run, the order would lose the violation (a wrong
// proof: mt_seq_assume_bug.c).
func (plan *seqPlan) runEnds(target query.Target) string {
	if !target.AnyError {
		for _, name := range vm.ErrKindNames() {
			k, _ := vm.ErrKindByName(name)
			if k == vm.ErrAbort || vm.LeakChecksFor(k) != 0 || slices.Contains(target.Errors, k) {
				continue
			}
			return "the violation leaves out error " + name + ", which ends a run"
		}
	}
	violationCall := func(f *ir.Func, pc int) bool {
		if pc < 0 {
			return false
		}
		in := &f.Code[pc]
		switch {
		case in.Op == ir.OpCallB:
			b := ir.Builtin(in.B)
			return b == ir.BReachError || b == ir.BVerifierError || b == ir.BAssertFail && (target.AnyError || slices.Contains(target.Errors, vm.ErrAssertFail))
		case in.Op == ir.OpCall && in.Imm < uint64(len(f.Calls)):
			c := int(f.Calls[in.Imm].Callee)
			return c >= 0 && c < len(plan.p.Funcs) && slices.Contains(target.Calls, plan.p.Funcs[c].Name)
		}
		return false
	}
	for _, tree := range plan.trees {
		for _, f := range tree {
			for pc := range f.Code {
				in := &f.Code[pc]
				if in.Op != ir.OpCallB {
					continue
				}
				switch ir.Builtin(in.B) {
				case ir.BAssume, ir.BExit:
					return fmt.Sprintf("%s at %d: %s may end the run", f.Name, pc, ir.Builtin(in.B))
				case ir.BAbort:
					if !target.AnyError && !violationCall(f, pc-1) {
						return fmt.Sprintf("%s at %d: abort may end the run without a violation", f.Name, pc)
					}
				}
			}
		}
	}
	return ""
}
