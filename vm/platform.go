package vm

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
)

// Platform functions.
//
// Every platform function (pthreads, __VERIFIER_*, the libc subset, LLVM
// memory intrinsics, wyvern.h) is one entry of the table platform, indexed
// by its ir.Builtin. ir holds only the identifier and the name(s), so the
// loader can reject unknown external functions; an entry holds the rest:
//
//   - run executes the call atomically, in one step, and returns one of the
//     results below;
//   - enabled, set for blocking functions only, tells the scheduler whether
//     the calling process may step now (its run returns bBlock exactly
//     when enabled is false);
//   - yields makes the call a scheduling point: the interpreter returns to
//     the scheduler after it (every blocking function yields);
//   - choice, set for probabilistic or nondeterministic functions only,
//     computes from the call's arguments the Choice it draws from (an error
//     for invalid arguments fails the call with ErrBadArg). Such a function
//     has no run: the interpreter samples the Choice (Choice.Sample, one
//     Chooser draw) and returns the result, and explicit-state search
//     enumerates it (Machine.NextChoice, Choice.Outcome), so each
//     distribution is defined once, in choice.go.
//
// A test checks that every ir.Builtin has an entry.

// Results of a platform call.
const (
	bNext  = iota // done: advance past the call
	bStay         // a step was taken but the call is not complete (cond_wait released its mutex)
	bBlock        // the call cannot proceed now: no step is taken
	bFrame        // a frame was pushed (pthread_once): continue in it
	bEnd          // the run ended (exit, error, failed assumption)
)

const (
	onceDone = 2
	eBusy    = 16 // EBUSY
	eInval   = 22 // EINVAL
	eDeadlk  = 35 // EDEADLK
)

// platformFunc is one platform function: see the comment above.
type platformFunc struct {
	run     func(c call, a args) int
	enabled func(c call, a args) bool
	// procGuard: enabled reads only the states of processes (which change
	// at platform calls and when a process finishes), never memory, so no
	// other process's plain store can change it (the scheduler then keeps
	// its enabled set across such steps).
	procGuard bool
	yields    bool
	choice    func(a args) (Choice, error)
	// pure: run computes the result from the arguments alone (or ends the
	// run): it reads and writes no memory and changes no process. Such a
	// call, like a choice's, is not a scheduling point (it leaves syncs as
	// it is) and keeps exec's access cache.
	pure bool
	// draws, set instead of run for a function that makes a choice of the
	// run's Behaviours (pthread_cond_wait, pthread_cond_signal): run with
	// the step's Chooser, which it draws from as Machine.NextDraw
	// announces.
	draws func(c call, a args, ch Chooser) int
}

// quiet reports whether a call of p changes neither memory nor any process
// (pure functions and choices: only the call's result).
func (p *platformFunc) quiet() bool { return p.pure || p.choice != nil }

// call is a platform call being executed (or, for enabled, inspected): the
// calling thread t, whose top frame's PC is the call instruction, and the
// function called. args are the call's arguments and result. Both are
// small enough (four words) for the compiler to keep them in registers:
// passing them costs no memory traffic and the hot path allocates nothing.
type call struct {
	m  *Machine
	st *State
	t  *Thread
	b  ir.Builtin
}

// args gives access to a call's arguments and result: the call site and
// the calling frame's registers.
type args struct {
	cs *ir.CallSite
	r  []uint64
}

// arg returns argument i (0 if absent).
func (a args) arg(i int) uint64 { return arg(a.cs, a.r, i) }

// argInt returns argument i sign-extended from its size.
func (a args) argInt(i int) int64 { return argInt(a.cs, a.r, i) }

// ret sets the call's result.
func (a args) ret(v uint64) { setRet(a.cs, a.r, v) }

// fail ends the run with an error state at the call and returns bEnd.
func (c call) fail(k ErrKind, format string, v ...any) int {
	c.m.fail(c.st, c.t, c.t.Frames[len(c.t.Frames)-1].PC, k, fmt.Sprintf(format, v...))
	return bEnd
}

// builtin executes platform function b for thread t. The calling frame's PC
// is the call instruction.
func (m *Machine) builtin(st *State, t *Thread, b ir.Builtin, cs *ir.CallSite, r []uint64, ch Chooser) int {
	p := &platform[b]
	if p.choice == nil {
		if !p.pure {
			st.syncs++
		}
		if p.draws != nil {
			return p.draws(call{m: m, st: st, t: t, b: b}, args{cs: cs, r: r}, ch)
		}
		return p.run(call{m: m, st: st, t: t, b: b}, args{cs: cs, r: r})
	}
	if !m.drawCall(st, t, b, cs, r, ch) {
		return bEnd
	}
	return bNext
}

// drawCall executes a call of platform function b, one with a choice (a
// draw: it only sets the call's result, is never a scheduling point and
// allocates nothing, so exec runs it without builtin's checks), and
// reports whether it succeeded (false: invalid arguments failed the run).
func (m *Machine) drawCall(st *State, t *Thread, b ir.Builtin, cs *ir.CallSite, r []uint64, ch Chooser) bool {
	if rr, ok := ch.(*Rand); ok && b == ir.BUniform {
		// wyvern_uniform with a *Rand, the simulator's draw: the same
		// draw and result as below, without the Choice (UniformChoice)
		if lo, hi := argInt(cs, r, 0), argInt(cs, r, 1); lo <= hi {
			var d uint64
			if n := uint64(hi-lo) + 1; rr.masks(n) {
				d = rr.Uint64() & (n - 1) // rr.Choose(n), inlined (n = 0: 64 bits)
			} else {
				d = rr.Choose(n)
			}
			setRet(cs, r, uint64(lo+int64(d)))
			return true
		}
	}
	k, err := platform[b].choice(args{cs: cs, r: r})
	if err != nil {
		call{m: m, st: st, t: t, b: b}.fail(ErrBadArg, "%s", err)
		return false
	}
	n := k.Range()
	var d uint64
	if rr, ok := ch.(*Rand); ok && rr.masks(n) {
		d = rr.Uint64() & (n - 1) // rr.Choose(n), inlined (n = 0: 64 bits)
	} else {
		d = ch.Choose(n)
	}
	setRet(cs, r, k.Result(d)) // k.Sample(ch)
	return true
}

// uniformCall executes the call of wyvern_uniform in (fused code's
// opUniform, fuse.go: fuseUniform) at call site cs as drawCall does: with
// a *Rand over a range of a power of two, the simulator's draw, it reads
// the arguments and writes the result through the registers in names
// (the same draw and result as drawCall's, without its general path).
func (m *Machine) uniformCall(st *State, t *Thread, in *ir.Inst, cs *ir.CallSite, r []uint64, ch Chooser) bool {
	if rr, ok := ch.(*Rand); ok {
		lo, hi := sx(r[in.A], in.W), sx(r[in.B], in.W)
		if n := uint64(hi-lo) + 1; lo <= hi && rr.masks(n) {
			r[in.Dst] = uint64(lo+int64(rr.Uint64()&(n-1))) & in.Imm // rr.Choose(n), inlined
			return true
		}
	}
	return m.drawCall(st, t, ir.BUniform, cs, r, ch)
}

// platform is the table of platform functions.
var platform = [ir.NumBuiltins]platformFunc{
	ir.BNone: {run: func(c call, a args) int {
		return c.fail(ErrInvalidCall, "platform function %s is not implemented", c.b)
	}},

	// pthreads
	ir.BPthreadCreate: {yields: true, run: func(c call, a args) int {
		fn := c.m.funcOf(a.arg(2))
		if fn == nil || fn.External {
			return c.fail(ErrInvalidCall, "pthread_create: start routine is not a function of the program")
		}
		nt := c.st.spawnThread()
		if c.m.tls != nil && !c.m.newTLS(c, nt) {
			return bEnd
		}
		if !c.m.pushFrame(c.st, nt, fn, -1, 0) {
			return c.fail(ErrStackOverflow, "")
		}
		if len(fn.Params) > 0 {
			nt.Regs[fn.Params[0]] = a.arg(3)
		}
		if attr := a.arg(1); attr != 0 {
			ds, e := c.st.Mem.Load(attr, 4)
			if e != ErrNone {
				return c.fail(e, "pthread_create: attributes")
			}
			nt.Detached = ds == detachedState
		}
		if p := a.arg(0); p != 0 {
			if e := c.m.storeULong(c.st, p, uint64(nt.ID)); e != ErrNone {
				return c.fail(e, "pthread_create: thread id")
			}
		}
		a.ret(0)
		return bNext
	}},
	ir.BPthreadJoin: {
		yields:    true,
		procGuard: true,
		enabled: func(c call, a args) bool {
			o := c.st.Thread(int32(a.arg(0)))
			return o == nil || o == c.t || o.Done
		},
		run: func(c call, a args) int {
			target := c.st.Thread(int32(a.arg(0)))
			if target == nil || target == c.t {
				return c.fail(ErrPthread, "pthread_join of an invalid thread %d", int64(a.arg(0)))
			}
			if target.Detached {
				return c.fail(ErrPthread, "pthread_join of the detached thread %d", target.ID)
			}
			if !target.Done {
				return bBlock
			}
			if target.Wait == waitJoined {
				return c.fail(ErrPthread, "pthread_join of the thread %d, joined already", target.ID)
			}
			if p := a.arg(1); p != 0 {
				if e := c.m.StorePtr(c.st, p, target.RetVal); e != ErrNone {
					return c.fail(e, "pthread_join: result")
				}
			}
			// the id's lifetime ends: the next pthread_create reuses it
			// (spawnThread); the value the thread returned is no root of
			// the leak checks any longer
			target.Wait, target.RetVal = waitJoined, 0
			a.ret(0)
			return bNext
		},
	},
	ir.BPthreadExit: {yields: true, run: func(c call, a args) int {
		t := c.t
		c.m.popAllocas(c.st, t, 0)
		t.Frames = t.Frames[:0]
		t.Regs = t.Regs[:0]
		t.Done, t.RetVal, t.Atomic = true, a.arg(0), 0
		return bEnd
	}},
	ir.BPthreadSelf: {run: func(c call, a args) int {
		a.ret(uint64(c.t.ID))
		return bNext
	}},
	ir.BPthreadEqual: {run: func(c call, a args) int {
		a.ret(b2u(a.arg(0) == a.arg(1)))
		return bNext
	}},
	ir.BMutexInit:    {yields: true, run: initWord},
	ir.BMutexDestroy: {yields: true, run: destroyWord},
	ir.BMutexLock: {
		yields:  true,
		enabled: func(c call, a args) bool { v, e := c.st.Mem.Load(a.arg(0), 4); return e != ErrNone || v == 0 },
		run:     mutexLock,
	},
	ir.BMutexTrylock: {yields: true, run: mutexLock},
	ir.BMutexUnlock: {yields: true, run: func(c call, a args) int {
		v, e := c.st.Mem.Load(a.arg(0), 4)
		if e != ErrNone {
			return c.fail(e, "pthread_mutex_unlock")
		}
		if v != uint64(c.t.ID)+1 {
			return c.fail(ErrPthread, "pthread_mutex_unlock of a mutex not held by process %d", c.t.ID)
		}
		c.st.Mem.Store(a.arg(0), 4, 0)
		a.ret(0)
		return bNext
	}},
	ir.BCondInit:    {run: ret0},
	ir.BCondDestroy: {run: ret0},
	ir.BCondWait: {
		yields: true,
		enabled: func(c call, a args) bool {
			// a process waiting to be signalled (waitCond) is disabled
			// whatever its next instruction: see Enabled
			if c.t.Wait != waitRelock {
				return true
			}
			v, e := c.st.Mem.Load(a.arg(1), 4)
			return e != ErrNone || v == 0
		},
		draws: condWait,
	},
	ir.BCondSignal:    {yields: true, draws: condWake},
	ir.BCondBroadcast: {yields: true, draws: condWake},
	ir.BRwlockInit:    {run: initWord},
	ir.BRwlockDestroy: {run: destroyWord},
	ir.BRwlockRdlock: {
		yields:  true,
		enabled: func(c call, a args) bool { v, e := c.st.Mem.Load(a.arg(0), 4); return e != ErrNone || int32(v) >= 0 },
		run:     rdlock,
	},
	ir.BRwlockTryrdlock: {yields: true, run: rdlock},
	ir.BRwlockWrlock: {
		yields:  true,
		enabled: func(c call, a args) bool { v, e := c.st.Mem.Load(a.arg(0), 4); return e != ErrNone || v == 0 },
		run:     wrlock,
	},
	ir.BRwlockTrywrlock: {yields: true, run: wrlock},
	ir.BRwlockUnlock: {yields: true, run: func(c call, a args) int {
		p := a.arg(0)
		v, e := c.st.Mem.Load(p, 4)
		if e != ErrNone {
			return c.fail(e, "pthread_rwlock_unlock")
		}
		switch {
		case v == 0:
			return c.fail(ErrPthread, "pthread_rwlock_unlock of an unlocked rwlock")
		case int32(v) < 0:
			c.st.Mem.Store(p, 4, 0)
		default:
			c.st.Mem.Store(p, 4, v-1)
		}
		a.ret(0)
		return bNext
	}},
	ir.BOnce: {
		yields: true,
		// 1: another process runs the init routine
		enabled: func(c call, a args) bool { v, e := c.st.Mem.Load(a.arg(0), 4); return e != ErrNone || v != 1 },
		run:     once,
	},
	ir.BAttrInit: {run: ret0},

	// SV-COMP
	ir.BNondet: {choice: func(a args) (Choice, error) {
		w := a.cs.RetBits
		if w == 0 {
			w = 64
		}
		return BitsChoice(w), nil
	}},
	ir.BAssume: {pure: true, run: func(c call, a args) int {
		if a.arg(0) == 0 {
			c.st.Status = AssumeFailed
			return bEnd
		}
		return bNext
	}},
	ir.BVerifierError: {run: func(c call, a args) int { return c.fail(ErrVerifierErr, "") }},
	ir.BAtomicBegin: {yields: true, run: func(c call, a args) int {
		c.t.Atomic++
		return bNext
	}},
	ir.BAtomicEnd: {yields: true, run: func(c call, a args) int {
		if c.t.Atomic > 0 {
			c.t.Atomic--
		}
		return bNext
	}},
	ir.BReachError: {run: func(c call, a args) int { return c.fail(ErrReachError, "") }},
	ir.BAssertFail: {run: func(c call, a args) int {
		expr, _ := c.m.cstring(c.st, a.arg(0), 200)
		return c.fail(ErrAssertFail, "assertion `%s` failed", expr)
	}},
	ir.BAbort: {run: func(c call, a args) int { return c.fail(ErrAbort, "") }},
	ir.BExit: {run: func(c call, a args) int {
		c.st.Status = Exited
		c.st.ExitCode = int32(a.arg(0))
		return bEnd
	}},

	// memory
	ir.BMalloc: {run: func(c call, a args) int {
		a.ret(c.m.malloc(c.st, a.arg(0)))
		return bNext
	}},
	ir.BCalloc: {run: func(c call, a args) int {
		k, n := a.arg(0), a.arg(1)
		if n != 0 && k > (1<<31)/n {
			a.ret(0)
		} else {
			a.ret(c.m.alloc(c.st, k*n, false)) // zeroed
		}
		return bNext
	}},
	ir.BRealloc: {run: realloc},
	ir.BFree: {run: func(c call, a args) int {
		p := a.arg(0)
		if e := c.st.Mem.free(p); e != ErrNone {
			return c.fail(e, "free")
		}
		if p != 0 {
			c.m.noteFree(&c.st.Mem, ir.PtrBlock(p), c.st.Mem.n)
		}
		return bNext
	}},
	ir.BMemcpy:  {run: memcpy},
	ir.BMemmove: {run: memcpy},
	ir.BMemset: {run: func(c call, a args) int {
		d, v, n := a.arg(0), byte(a.arg(1)), a.arg(2)
		if n > 1<<31 {
			return c.fail(ErrOutOfBounds, "memset of %d bytes", n)
		}
		if !c.span(d, n, true, "memset") {
			return bEnd
		}
		buf := c.st.scratchBuf(int(n))
		for i := range buf {
			buf[i] = v
		}
		if e := c.st.Mem.Write(d, buf); e != ErrNone {
			return c.fail(e, "memset")
		}
		a.ret(d)
		return bNext
	}},
	ir.BMemcmp: {run: func(c call, a args) int {
		mem := &c.st.Mem
		p, q, n := a.arg(0), a.arg(1), a.arg(2)
		res := int64(0)
		for i := uint64(0); i < n; i++ {
			x, e1 := mem.ByteAt(p + i)
			y, e2 := mem.ByteAt(q + i)
			if e1 != ErrNone {
				return c.fail(e1, "memcmp")
			}
			if e2 != ErrNone {
				return c.fail(e2, "memcmp")
			}
			if x != y {
				res = int64(x) - int64(y)
				break
			}
		}
		a.ret(uint64(res))
		return bNext
	}},

	// strings
	ir.BStrlen: {run: func(c call, a args) int {
		n, e := c.m.strlen(c.st, a.arg(0))
		if e != ErrNone {
			return c.fail(e, "strlen")
		}
		a.ret(n)
		return bNext
	}},
	ir.BStrcmp:  {run: strcmp},
	ir.BStrncmp: {run: strcmp},
	ir.BStrcpy: {run: func(c call, a args) int {
		d, s := a.arg(0), a.arg(1)
		n, e := c.m.strlen(c.st, s)
		if e != ErrNone {
			return c.fail(e, "strcpy source")
		}
		buf := c.st.scratchBuf(int(n + 1))
		c.st.Mem.Read(s, buf)
		if e := c.st.Mem.Write(d, buf); e != ErrNone {
			return c.fail(e, "strcpy destination")
		}
		a.ret(d)
		return bNext
	}},
	ir.BStrncpy: {run: strncpy},
	ir.BStrchr: {run: func(c call, a args) int {
		s, ch := a.arg(0), byte(a.arg(1))
		for i := uint64(0); ; i++ {
			x, e := c.st.Mem.ByteAt(s + i)
			if e != ErrNone {
				return c.fail(e, "strchr")
			}
			if x == ch {
				a.ret(s + i)
				return bNext
			}
			if x == 0 {
				a.ret(0)
				return bNext
			}
		}
	}},

	// output
	ir.BPrintf: {run: func(c call, a args) int {
		n, err := c.m.printf(c.st, a.cs, a.r)
		if err != nil {
			return c.fail(err.kind, "printf: %s", err.msg)
		}
		a.ret(uint64(n))
		return bNext
	}},
	ir.BPuts: {run: func(c call, a args) int {
		s, e := c.m.cstring(c.st, a.arg(0), 1<<30)
		if e != ErrNone {
			return c.fail(e, "puts")
		}
		if !c.output(append([]byte(s), '\n')...) {
			return bEnd
		}
		a.ret(uint64(len(s) + 1))
		return bNext
	}},
	ir.BPutchar: {run: func(c call, a args) int {
		ch := byte(a.arg(0))
		if !c.output(ch) {
			return bEnd
		}
		a.ret(uint64(ch))
		return bNext
	}},

	// wyvern.h
	ir.BCoin: {choice: func(a args) (Choice, error) {
		num, den := uint64(uint32(a.arg(0))), uint64(uint32(a.arg(1)))
		if CoinBad(Numbers{}, num, den) { // choice_rule.go
			return Choice{}, fmt.Errorf("wyvern_coin(%d, %d): need 0 <= num <= den and den > 0", num, den)
		}
		return CoinChoice(num, den), nil
	}},
	ir.BUniform: {choice: func(a args) (Choice, error) {
		lo, hi := a.argInt(0), a.argInt(1)
		if UniformBad(Numbers{}, uint64(lo), uint64(hi)) { // choice_rule.go
			return Choice{}, fmt.Errorf("wyvern_uniform(%d, %d): lo > hi", lo, hi)
		}
		return UniformChoice(lo, hi), nil
	}},
}

// Implementations shared by several entries.

func ret0(c call, a args) int {
	a.ret(0)
	return bNext
}

// initWord initializes a mutex or rwlock (unlocked).
func initWord(c call, a args) int {
	if e := c.st.Mem.Store(a.arg(0), 4, 0); e != ErrNone {
		return c.fail(e, "%s", c.b)
	}
	a.ret(0)
	return bNext
}

// destroyWord destroys a mutex or rwlock, which must be unlocked.
func destroyWord(c call, a args) int {
	v, e := c.st.Mem.Load(a.arg(0), 4)
	if e != ErrNone {
		return c.fail(e, "%s", c.b)
	}
	if v != 0 {
		return c.fail(ErrPthread, "%s of a locked object", c.b)
	}
	a.ret(0)
	return bNext
}

// mutexLock is pthread_mutex_lock and pthread_mutex_trylock. A mutex word
// holds 0 (unlocked) or the owner's id + 1.
func mutexLock(c call, a args) int {
	v, e := c.st.Mem.Load(a.arg(0), 4)
	if e != ErrNone {
		return c.fail(e, "%s", c.b)
	}
	if v != 0 {
		if c.b == ir.BMutexTrylock {
			a.ret(eBusy)
			return bNext
		}
		return bBlock
	}
	c.st.Mem.Store(a.arg(0), 4, uint64(c.t.ID)+1)
	a.ret(0)
	return bNext
}

// rdlock is pthread_rwlock_rdlock and pthread_rwlock_tryrdlock. An rwlock
// word holds the number of readers, or 0xffffffff when a writer holds it.
func rdlock(c call, a args) int {
	v, e := c.st.Mem.Load(a.arg(0), 4)
	if e != ErrNone {
		return c.fail(e, "%s", c.b)
	}
	if int32(v) < 0 {
		if c.b == ir.BRwlockTryrdlock {
			a.ret(eBusy)
			return bNext
		}
		return bBlock
	}
	c.st.Mem.Store(a.arg(0), 4, v+1)
	a.ret(0)
	return bNext
}

// wrlock is pthread_rwlock_wrlock and pthread_rwlock_trywrlock.
func wrlock(c call, a args) int {
	v, e := c.st.Mem.Load(a.arg(0), 4)
	if e != ErrNone {
		return c.fail(e, "%s", c.b)
	}
	if v != 0 {
		if c.b == ir.BRwlockTrywrlock {
			a.ret(eBusy)
			return bNext
		}
		return bBlock
	}
	c.st.Mem.Store(a.arg(0), 4, 0xffffffff)
	a.ret(0)
	return bNext
}

// condWait is pthread_cond_wait, in two steps: the first releases the mutex
// and waits (waitCond); once signalled (waitRelock) the second reacquires
// the mutex and returns. With the behaviours' spurious wakeups the first
// step tosses their coin after releasing the mutex: heads, the process is
// woken at once (Behaviours.Spurious says why that covers later ones).
func condWait(c call, a args, ch Chooser) int {
	t := c.t
	mp := a.arg(1)
	switch t.Wait {
	case waitNone:
		v, e := c.st.Mem.Load(mp, 4)
		if e != ErrNone {
			return c.fail(e, "pthread_cond_wait: mutex")
		}
		if v != uint64(t.ID)+1 {
			return c.fail(ErrPthread, "pthread_cond_wait with a mutex not held by process %d", t.ID)
		}
		c.st.Mem.Store(mp, 4, 0)
		c.st.condSeq++
		t.Wait, t.WaitOn, t.WaitSeq = waitCond, a.arg(0), c.st.condSeq
		if b := BehavioursOf(ch); b.spurious() && b.Spurious.Sample(ch) == 1 {
			t.Wait = waitRelock
		}
		return bStay
	case waitRelock:
		v, e := c.st.Mem.Load(mp, 4)
		if e != ErrNone {
			return c.fail(e, "pthread_cond_wait: mutex")
		}
		if v != 0 {
			return bBlock
		}
		c.st.Mem.Store(mp, 4, uint64(t.ID)+1)
		t.Wait, t.WaitOn = waitNone, 0
		a.ret(0)
		return bNext
	}
	return bBlock
}

// condWake is pthread_cond_signal and pthread_cond_broadcast (wakes all).
// A signal wakes one waiter: with Behaviours.SignalAny and k >= 2 waiters
// the one a draw in [0, k) picks, in order of arrival; otherwise the
// longest waiter (LODIN). (Waking one is enough: POSIX lets a signal
// wake several, which is the same as the others waking spuriously at
// once.)
func condWake(c call, a args, ch Chooser) int {
	cv := a.arg(0)
	if c.b == ir.BCondBroadcast {
		for _, o := range c.st.Threads {
			if o.Wait == waitCond && o.WaitOn == cv {
				o.Wait = waitRelock
			}
		}
		a.ret(0)
		return bNext
	}
	pick := 0
	if k := waiters(c.st, cv); k >= 2 && BehavioursOf(ch).SignalAny {
		pick = int(ch.Choose(uint64(k)))
	}
	// the waiter of rank pick: the one with exactly pick earlier arrivals
	for _, o := range c.st.Threads {
		if o.Wait != waitCond || o.WaitOn != cv {
			continue
		}
		rank := 0
		for _, p := range c.st.Threads {
			if p.Wait == waitCond && p.WaitOn == cv && p.WaitSeq < o.WaitSeq {
				rank++
			}
		}
		if rank == pick {
			o.Wait = waitRelock
			break
		}
	}
	a.ret(0)
	return bNext
}

// once is pthread_once: the control word is 0 (not run), 1 (the init
// routine runs: others block) or onceDone.
func once(c call, a args) int {
	p := a.arg(0)
	v, e := c.st.Mem.Load(p, 4)
	if e != ErrNone {
		return c.fail(e, "pthread_once")
	}
	switch v {
	case 0:
		fn := c.m.funcOf(a.arg(1))
		if fn == nil || fn.External {
			return c.fail(ErrInvalidCall, "pthread_once: init routine is not a function of the program")
		}
		c.st.Mem.Store(p, 4, 1)
		a.ret(0)
		t := c.t
		fr := &t.Frames[len(t.Frames)-1]
		fr.PC++ // return past the call
		if !c.m.pushFrame(c.st, t, fn, -1, 0) {
			fr.PC-- // nothing was pushed
			return c.fail(ErrStackOverflow, "")
		}
		t.Frames[len(t.Frames)-1].OnceAddr = p
		return bFrame
	case 1:
		return bBlock
	}
	a.ret(0)
	return bNext
}

func realloc(c call, a args) int {
	mem := &c.st.Mem
	p, n := a.arg(0), a.arg(1)
	if p == 0 {
		a.ret(c.m.malloc(c.st, n))
		return bNext
	}
	old, live := mem.BlockSize(p)
	id := uint32(p >> ir.PtrBlockShift)
	if !live || ir.PtrOff(p) != 0 || mem.blk(id).kind&^blkUndef != blkHeap {
		if id < mem.n && mem.blk(id).kind == blkFreed {
			return c.fail(ErrUseAfterFree, "realloc of a freed pointer")
		}
		return c.fail(ErrInvalidFree, "realloc of a pointer not returned by malloc")
	}
	if n == 0 {
		mem.free(p)
		c.m.noteFree(mem, id, mem.n)
		a.ret(0)
		return bNext
	}
	q := c.m.malloc(c.st, n)
	if q == 0 {
		a.ret(0)
		return bNext
	}
	k := min(uint64(old), n)
	buf := c.st.scratchBuf(int(k))
	mem.Read(p, buf)
	u := undefBits(mem, p, k)
	mem.Write(q, buf)
	copyUndef(mem, q, u) // undefined bytes stay so
	mem.free(p)
	// (realloc may grow or shrink p in place: q may have p's address)
	c.m.noteFree(mem, id, ir.PtrBlock(q))
	a.ret(q)
	return bNext
}

// memcpy is memcpy and memmove (the copy goes through a buffer).
func memcpy(c call, a args) int {
	d, s, n := a.arg(0), a.arg(1), a.arg(2)
	if n > 1<<31 {
		return c.fail(ErrOutOfBounds, "%s of %d bytes", c.b, n)
	}
	if !c.span(s, n, false, c.b.String()+" source") || !c.span(d, n, true, c.b.String()+" destination") {
		return bEnd
	}
	buf := c.st.scratchBuf(int(n))
	if e := c.st.Mem.Read(s, buf); e != ErrNone {
		return c.fail(e, "%s source", c.b)
	}
	u := undefBits(&c.st.Mem, s, n)
	if e := c.st.Mem.Write(d, buf); e != ErrNone {
		return c.fail(e, "%s destination", c.b)
	}
	copyUndef(&c.st.Mem, d, u)
	a.ret(d)
	return bNext
}

// strcmp is strcmp and strncmp.
func strcmp(c call, a args) int {
	mem := &c.st.Mem
	p, q := a.arg(0), a.arg(1)
	limit := ^uint64(0)
	if c.b == ir.BStrncmp {
		limit = a.arg(2)
	}
	res := int64(0)
	for i := uint64(0); i < limit; i++ {
		x, e1 := mem.ByteAt(p + i)
		if e1 != ErrNone {
			return c.fail(e1, "%s", c.b)
		}
		y, e2 := mem.ByteAt(q + i)
		if e2 != ErrNone {
			return c.fail(e2, "%s", c.b)
		}
		if x != y || x == 0 {
			res = int64(x) - int64(y)
			break
		}
	}
	a.ret(uint64(res))
	return bNext
}

func strncpy(c call, a args) int {
	d, s, n := a.arg(0), a.arg(1), a.arg(2)
	if n > 1<<31 {
		return c.fail(ErrOutOfBounds, "strncpy of %d bytes", n)
	}
	if !c.span(d, n, true, "strncpy destination") {
		return bEnd
	}
	buf := c.st.scratchBuf(int(n))
	done := false
	for i := range buf {
		if done {
			buf[i] = 0
			continue
		}
		ch, e := c.st.Mem.ByteAt(s + uint64(i))
		if e != ErrNone {
			return c.fail(e, "strncpy source")
		}
		buf[i] = ch
		done = ch == 0
	}
	if e := c.st.Mem.Write(d, buf); e != ErrNone {
		return c.fail(e, "strncpy destination")
	}
	a.ret(d)
	return bNext
}

func arg(cs *ir.CallSite, r []uint64, i int) uint64 {
	if i >= len(cs.Args) {
		return 0
	}
	return r[cs.Args[i]]
}

// argInt returns argument i sign-extended from its size.
func argInt(cs *ir.CallSite, r []uint64, i int) int64 {
	if i >= len(cs.Args) {
		return 0
	}
	sz := cs.ArgSizes[i]
	if sz == 0 || sz >= 8 {
		return int64(r[cs.Args[i]])
	}
	return sx(r[cs.Args[i]], sz*8)
}

func setRet(cs *ir.CallSite, r []uint64, v uint64) {
	if cs.Ret >= 0 {
		w := cs.RetBits
		if w == 0 {
			w = 64
		}
		r[cs.Ret] = v & ir.Mask(w)
	}
}

func (st *State) scratchBuf(n int) []byte {
	if cap(st.scratch) < n {
		st.scratch = make([]byte, n)
	}
	return st.scratch[:n]
}

// malloc allocates a heap block of n bytes, undefined until written.
func (m *Machine) malloc(st *State, n uint64) uint64 { return m.alloc(st, n, true) }

// alloc allocates a heap block of n bytes: undefined ones (malloc), or
// zeros (calloc).
func (m *Machine) alloc(st *State, n uint64, undef bool) uint64 {
	if n > 1<<31 {
		return 0
	}
	id := st.Mem.newBlock(uint32(n), blkHeap, -1)
	if undef && m.undef {
		st.Mem.markUndef(id)
	}
	return ir.MakePtr(id, 0)
}

func (m *Machine) strlen(st *State, p uint64) (uint64, ErrKind) {
	for i := uint64(0); ; i++ {
		c, e := st.Mem.ByteAt(p + i)
		if e != ErrNone {
			return 0, e
		}
		if c == 0 {
			return i, ErrNone
		}
	}
}

// cstring reads a NUL-terminated string of at most limit bytes.
// cbytes appends to dst the bytes of the C string at p (at most limit).
func (m *Machine) cbytes(st *State, dst []byte, p uint64, limit int) ([]byte, ErrKind) {
	for i := 0; i < limit; i++ {
		c, e := st.Mem.ByteAt(p + uint64(i))
		if e != ErrNone {
			return dst, e
		}
		if c == 0 {
			break
		}
		dst = append(dst, c)
	}
	return dst, ErrNone
}

func (m *Machine) cstring(st *State, p uint64, limit int) (string, ErrKind) {
	var buf []byte
	for i := 0; i < limit; i++ {
		c, e := st.Mem.ByteAt(p + uint64(i))
		if e != ErrNone {
			return string(buf), e
		}
		if c == 0 {
			break
		}
		buf = append(buf, c)
	}
	return string(buf), ErrNone
}
