package vm

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
)

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

// yieldsAfter reports platform functions after which the scheduler must look
// at the processes again.
func yieldsAfter(b ir.Builtin) bool {
	switch b {
	case ir.BPthreadCreate, ir.BPthreadJoin, ir.BPthreadExit, ir.BMutexLock, ir.BMutexTrylock,
		ir.BMutexUnlock, ir.BCondWait, ir.BCondSignal, ir.BCondBroadcast, ir.BRwlockRdlock,
		ir.BRwlockWrlock, ir.BRwlockTryrdlock, ir.BRwlockTrywrlock, ir.BRwlockUnlock, ir.BOnce,
		ir.BAtomicBegin, ir.BAtomicEnd, ir.BMutexInit, ir.BMutexDestroy:
		return true
	}
	return false
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

// builtin executes a platform function for thread t. The calling frame's PC
// is the call instruction.
func (m *Machine) builtin(st *State, t *Thread, b ir.Builtin, cs *ir.CallSite, r []uint64, ch Chooser) int {
	fr := &t.Frames[len(t.Frames)-1]
	pc := fr.PC
	failf := func(k ErrKind, format string, args ...any) int {
		m.fail(st, t, pc, k, fmt.Sprintf(format, args...))
		return bEnd
	}
	mem := &st.Mem
	switch b {
	case ir.BPthreadCreate:
		fn := m.funcOf(arg(cs, r, 2))
		if fn == nil || fn.External {
			return failf(ErrInvalidCall, "pthread_create: start routine is not a function of the program")
		}
		nt := st.newThread()
		if !m.pushFrame(st, nt, fn, -1, 0) {
			return failf(ErrStackOverflow, "")
		}
		if len(fn.Params) > 0 {
			nt.Regs[fn.Params[0]] = arg(cs, r, 3)
		}
		if p := arg(cs, r, 0); p != 0 {
			if e := mem.Store(p, 8, uint64(nt.ID)); e != ErrNone {
				return failf(e, "pthread_create: thread id")
			}
		}
		setRet(cs, r, 0)
	case ir.BPthreadJoin:
		target := st.Thread(int32(arg(cs, r, 0)))
		if target == nil || target == t {
			return failf(ErrPthread, "pthread_join of an invalid thread %d", int64(arg(cs, r, 0)))
		}
		if !target.Done {
			return bBlock
		}
		if p := arg(cs, r, 1); p != 0 {
			if e := mem.Store(p, 8, target.RetVal); e != ErrNone {
				return failf(e, "pthread_join: result")
			}
		}
		setRet(cs, r, 0)
	case ir.BPthreadExit:
		m.popAllocas(st, t, 0)
		t.Frames = t.Frames[:0]
		t.Regs = t.Regs[:0]
		t.Done, t.RetVal, t.Atomic = true, arg(cs, r, 0), 0
		return bEnd
	case ir.BPthreadSelf:
		setRet(cs, r, uint64(t.ID))
	case ir.BPthreadEqual:
		setRet(cs, r, b2u(arg(cs, r, 0) == arg(cs, r, 1)))
	case ir.BMutexInit, ir.BMutexDestroy, ir.BRwlockInit, ir.BRwlockDestroy:
		p := arg(cs, r, 0)
		if b == ir.BMutexDestroy || b == ir.BRwlockDestroy {
			v, e := mem.Load(p, 4)
			if e != ErrNone {
				return failf(e, "%s", b)
			}
			if v != 0 {
				return failf(ErrPthread, "%s of a locked object", b)
			}
		} else if e := mem.Store(p, 4, 0); e != ErrNone {
			return failf(e, "%s", b)
		}
		setRet(cs, r, 0)
	case ir.BMutexLock, ir.BMutexTrylock:
		p := arg(cs, r, 0)
		v, e := mem.Load(p, 4)
		if e != ErrNone {
			return failf(e, "%s", b)
		}
		if v != 0 {
			if b == ir.BMutexTrylock {
				setRet(cs, r, eBusy)
				return bNext
			}
			return bBlock
		}
		mem.Store(p, 4, uint64(t.ID)+1)
		setRet(cs, r, 0)
	case ir.BMutexUnlock:
		p := arg(cs, r, 0)
		v, e := mem.Load(p, 4)
		if e != ErrNone {
			return failf(e, "pthread_mutex_unlock")
		}
		if v != uint64(t.ID)+1 {
			return failf(ErrPthread, "pthread_mutex_unlock of a mutex not held by process %d", t.ID)
		}
		mem.Store(p, 4, 0)
		setRet(cs, r, 0)
	case ir.BCondInit, ir.BCondDestroy, ir.BAttrInit:
		setRet(cs, r, 0)
	case ir.BCondWait:
		mp := arg(cs, r, 1)
		switch t.Wait {
		case waitNone:
			v, e := mem.Load(mp, 4)
			if e != ErrNone {
				return failf(e, "pthread_cond_wait: mutex")
			}
			if v != uint64(t.ID)+1 {
				return failf(ErrPthread, "pthread_cond_wait with a mutex not held by process %d", t.ID)
			}
			mem.Store(mp, 4, 0)
			st.condSeq++
			t.Wait, t.WaitOn, t.WaitSeq = waitCond, arg(cs, r, 0), st.condSeq
			return bStay
		case waitRelock:
			v, e := mem.Load(mp, 4)
			if e != ErrNone {
				return failf(e, "pthread_cond_wait: mutex")
			}
			if v != 0 {
				return bBlock
			}
			mem.Store(mp, 4, uint64(t.ID)+1)
			t.Wait, t.WaitOn = waitNone, 0
			setRet(cs, r, 0)
		default:
			return bBlock
		}
	case ir.BCondSignal, ir.BCondBroadcast:
		c := arg(cs, r, 0)
		var first *Thread
		for _, o := range st.Threads {
			if o.Wait != waitCond || o.WaitOn != c {
				continue
			}
			if b == ir.BCondBroadcast {
				o.Wait = waitRelock
			} else if first == nil || o.WaitSeq < first.WaitSeq {
				first = o
			}
		}
		if first != nil {
			first.Wait = waitRelock
		}
		setRet(cs, r, 0)
	case ir.BRwlockRdlock, ir.BRwlockTryrdlock:
		p := arg(cs, r, 0)
		v, e := mem.Load(p, 4)
		if e != ErrNone {
			return failf(e, "%s", b)
		}
		if int32(v) < 0 {
			if b == ir.BRwlockTryrdlock {
				setRet(cs, r, eBusy)
				return bNext
			}
			return bBlock
		}
		mem.Store(p, 4, v+1)
		setRet(cs, r, 0)
	case ir.BRwlockWrlock, ir.BRwlockTrywrlock:
		p := arg(cs, r, 0)
		v, e := mem.Load(p, 4)
		if e != ErrNone {
			return failf(e, "%s", b)
		}
		if v != 0 {
			if b == ir.BRwlockTrywrlock {
				setRet(cs, r, eBusy)
				return bNext
			}
			return bBlock
		}
		mem.Store(p, 4, 0xffffffff)
		setRet(cs, r, 0)
	case ir.BRwlockUnlock:
		p := arg(cs, r, 0)
		v, e := mem.Load(p, 4)
		if e != ErrNone {
			return failf(e, "pthread_rwlock_unlock")
		}
		switch {
		case v == 0:
			return failf(ErrPthread, "pthread_rwlock_unlock of an unlocked rwlock")
		case int32(v) < 0:
			mem.Store(p, 4, 0)
		default:
			mem.Store(p, 4, v-1)
		}
		setRet(cs, r, 0)
	case ir.BOnce:
		p := arg(cs, r, 0)
		v, e := mem.Load(p, 4)
		if e != ErrNone {
			return failf(e, "pthread_once")
		}
		switch v {
		case 0:
			fn := m.funcOf(arg(cs, r, 1))
			if fn == nil || fn.External {
				return failf(ErrInvalidCall, "pthread_once: init routine is not a function of the program")
			}
			mem.Store(p, 4, 1)
			setRet(cs, r, 0)
			fr.PC = pc + 1
			if !m.pushFrame(st, t, fn, -1, 0) {
				return failf(ErrStackOverflow, "")
			}
			t.Frames[len(t.Frames)-1].OnceAddr = p
			return bFrame
		case 1:
			return bBlock
		}
		setRet(cs, r, 0)
	case ir.BNondet:
		w := cs.RetBits
		if w == 0 {
			w = 64
		}
		setRet(cs, r, ch.Choose(0)&ir.Mask(w))
	case ir.BCoin:
		num, den := uint64(uint32(arg(cs, r, 0))), uint64(uint32(arg(cs, r, 1)))
		if den == 0 || num > den {
			return failf(ErrBadArg, "wyvern_coin(%d, %d): need 0 <= num <= den and den > 0", num, den)
		}
		setRet(cs, r, b2u(ch.Choose(den) < num))
	case ir.BUniform:
		lo, hi := argInt(cs, r, 0), argInt(cs, r, 1)
		if lo > hi {
			return failf(ErrBadArg, "wyvern_uniform(%d, %d): lo > hi", lo, hi)
		}
		setRet(cs, r, uint64(lo+int64(ch.Choose(uint64(hi-lo)+1))))
	case ir.BAssume:
		if arg(cs, r, 0) == 0 {
			st.Status = AssumeFailed
			return bEnd
		}
	case ir.BVerifierError:
		return failf(ErrVerifierErr, "")
	case ir.BReachError:
		return failf(ErrReachError, "")
	case ir.BAbort:
		return failf(ErrAbort, "")
	case ir.BAssertFail:
		expr, _ := m.cstring(st, arg(cs, r, 0), 200)
		return failf(ErrAssertFail, "assertion `%s` failed", expr)
	case ir.BAtomicBegin:
		t.Atomic++
	case ir.BAtomicEnd:
		if t.Atomic > 0 {
			t.Atomic--
		}
	case ir.BExit:
		st.Status = Exited
		st.ExitCode = int32(arg(cs, r, 0))
		return bEnd
	case ir.BMalloc:
		setRet(cs, r, m.malloc(st, arg(cs, r, 0)))
	case ir.BCalloc:
		a, c := arg(cs, r, 0), arg(cs, r, 1)
		if c != 0 && a > (1<<31)/c {
			setRet(cs, r, 0)
		} else {
			setRet(cs, r, m.malloc(st, a*c))
		}
	case ir.BRealloc:
		p, n := arg(cs, r, 0), arg(cs, r, 1)
		if p == 0 {
			setRet(cs, r, m.malloc(st, n))
			break
		}
		old, live := mem.BlockSize(p)
		id := uint32(p >> ir.PtrBlockShift)
		if !live || uint32(p) != 0 || mem.blk(id).kind != blkHeap {
			if id < mem.n && mem.blk(id).kind == blkFreed {
				return failf(ErrUseAfterFree, "realloc of a freed pointer")
			}
			return failf(ErrInvalidFree, "realloc of a pointer not returned by malloc")
		}
		if n == 0 {
			mem.free(p)
			setRet(cs, r, 0)
			break
		}
		q := m.malloc(st, n)
		if q == 0 {
			setRet(cs, r, 0)
			break
		}
		k := min(uint64(old), n)
		buf := st.scratchBuf(int(k))
		mem.Read(p, buf)
		mem.Write(q, buf)
		mem.free(p)
		setRet(cs, r, q)
	case ir.BFree:
		if e := mem.free(arg(cs, r, 0)); e != ErrNone {
			return failf(e, "free")
		}
	case ir.BMemcpy, ir.BMemmove:
		d, s, n := arg(cs, r, 0), arg(cs, r, 1), arg(cs, r, 2)
		if n > 1<<31 {
			return failf(ErrOutOfBounds, "%s of %d bytes", b, n)
		}
		buf := st.scratchBuf(int(n))
		if e := mem.Read(s, buf); e != ErrNone {
			return failf(e, "%s source", b)
		}
		if e := mem.Write(d, buf); e != ErrNone {
			return failf(e, "%s destination", b)
		}
		setRet(cs, r, d)
	case ir.BMemset:
		d, c, n := arg(cs, r, 0), byte(arg(cs, r, 1)), arg(cs, r, 2)
		if n > 1<<31 {
			return failf(ErrOutOfBounds, "memset of %d bytes", n)
		}
		buf := st.scratchBuf(int(n))
		for i := range buf {
			buf[i] = c
		}
		if e := mem.Write(d, buf); e != ErrNone {
			return failf(e, "memset")
		}
		setRet(cs, r, d)
	case ir.BMemcmp:
		a, c, n := arg(cs, r, 0), arg(cs, r, 1), arg(cs, r, 2)
		res := int64(0)
		for i := uint64(0); i < n; i++ {
			x, e1 := mem.ByteAt(a + i)
			y, e2 := mem.ByteAt(c + i)
			if e1 != ErrNone {
				return failf(e1, "memcmp")
			}
			if e2 != ErrNone {
				return failf(e2, "memcmp")
			}
			if x != y {
				res = int64(x) - int64(y)
				break
			}
		}
		setRet(cs, r, uint64(res))
	case ir.BStrlen:
		n, e := m.strlen(st, arg(cs, r, 0))
		if e != ErrNone {
			return failf(e, "strlen")
		}
		setRet(cs, r, n)
	case ir.BStrcmp, ir.BStrncmp:
		a, c := arg(cs, r, 0), arg(cs, r, 1)
		limit := ^uint64(0)
		if b == ir.BStrncmp {
			limit = arg(cs, r, 2)
		}
		res := int64(0)
		for i := uint64(0); i < limit; i++ {
			x, e1 := mem.ByteAt(a + i)
			if e1 != ErrNone {
				return failf(e1, "%s", b)
			}
			y, e2 := mem.ByteAt(c + i)
			if e2 != ErrNone {
				return failf(e2, "%s", b)
			}
			if x != y || x == 0 {
				res = int64(x) - int64(y)
				break
			}
		}
		setRet(cs, r, uint64(res))
	case ir.BStrcpy:
		d, s := arg(cs, r, 0), arg(cs, r, 1)
		n, e := m.strlen(st, s)
		if e != ErrNone {
			return failf(e, "strcpy source")
		}
		buf := st.scratchBuf(int(n + 1))
		mem.Read(s, buf)
		if e := mem.Write(d, buf); e != ErrNone {
			return failf(e, "strcpy destination")
		}
		setRet(cs, r, d)
	case ir.BStrncpy:
		d, s, n := arg(cs, r, 0), arg(cs, r, 1), arg(cs, r, 2)
		if n > 1<<31 {
			return failf(ErrOutOfBounds, "strncpy of %d bytes", n)
		}
		buf := st.scratchBuf(int(n))
		done := false
		for i := range buf {
			if done {
				buf[i] = 0
				continue
			}
			c, e := mem.ByteAt(s + uint64(i))
			if e != ErrNone {
				return failf(e, "strncpy source")
			}
			buf[i] = c
			done = c == 0
		}
		if e := mem.Write(d, buf); e != ErrNone {
			return failf(e, "strncpy destination")
		}
		setRet(cs, r, d)
	case ir.BStrchr:
		s, c := arg(cs, r, 0), byte(arg(cs, r, 1))
		for i := uint64(0); ; i++ {
			x, e := mem.ByteAt(s + i)
			if e != ErrNone {
				return failf(e, "strchr")
			}
			if x == c {
				setRet(cs, r, s+i)
				break
			}
			if x == 0 {
				setRet(cs, r, 0)
				break
			}
		}
	case ir.BPrintf:
		n, err := m.printf(st, cs, r)
		if err != nil {
			return failf(err.kind, "printf: %s", err.msg)
		}
		setRet(cs, r, uint64(n))
	case ir.BPuts:
		s, e := m.cstring(st, arg(cs, r, 0), 1<<30)
		if e != ErrNone {
			return failf(e, "puts")
		}
		st.Out = append(st.Out, s...)
		st.Out = append(st.Out, '\n')
		setRet(cs, r, uint64(len(s)+1))
	case ir.BPutchar:
		c := byte(arg(cs, r, 0))
		st.Out = append(st.Out, c)
		setRet(cs, r, uint64(c))
	default:
		return failf(ErrInvalidCall, "platform function %s is not implemented", b)
	}
	return bNext
}

func (st *State) scratchBuf(n int) []byte {
	if cap(st.scratch) < n {
		st.scratch = make([]byte, n)
	}
	return st.scratch[:n]
}

func (m *Machine) malloc(st *State, n uint64) uint64 {
	if n > 1<<31 {
		return 0
	}
	id := st.Mem.newBlock(uint32(n), blkHeap, -1)
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
