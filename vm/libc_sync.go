package vm

import (
	"github.com/wyvernmc/wyvern/ir"
)

// POSIX semaphores, barriers and thread attributes.
//
// A sem_t holds its value in its first 4 bytes: sem_wait is enabled exactly
// when the value is positive (like pthread_mutex_lock, a blocked sem_wait
// disables its process). A pthread_barrier_t holds its count in its first
// 4 bytes and the number of processes waiting in the current round in the
// next 4: a process arriving before the last one waits (waitBarrier,
// disabled) on the barrier's address; the last one to arrive completes the
// round, returns PTHREAD_BARRIER_SERIAL_THREAD and releases the waiters
// (waitBarrierDone), which then return 0 at their next step. A
// pthread_attr_t holds the detach state in its first 4 bytes.

const (
	eAgain        = 11 // EAGAIN
	eSrch         = 3  // ESRCH
	barrierSerial = ^uint64(0)
	detachedState = 1 // PTHREAD_CREATE_DETACHED
)

func init() {
	platform[ir.BSemInit] = platformFunc{yields: true, run: func(c call, a args) int {
		v := a.arg(2)
		if v > 0x7fffffff { // SEM_VALUE_MAX
			a.ret(^uint64(0))
			return bNext
		}
		if e := c.st.Mem.Store(a.arg(0), 4, v); e != ErrNone {
			return c.fail(e, "sem_init")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BSemDestroy] = platformFunc{run: func(c call, a args) int {
		if _, e := c.st.Mem.Load(a.arg(0), 4); e != ErrNone {
			return c.fail(e, "sem_destroy")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BSemWait] = platformFunc{
		yields: true,
		enabled: func(c call, a args) bool {
			v, e := c.st.Mem.Load(a.arg(0), 4)
			return e != ErrNone || v != 0
		},
		run: semWait,
	}
	platform[ir.BSemTrywait] = platformFunc{yields: true, run: semWait}
	platform[ir.BSemPost] = platformFunc{yields: true, run: func(c call, a args) int {
		v, e := c.st.Mem.Load(a.arg(0), 4)
		if e != ErrNone {
			return c.fail(e, "sem_post")
		}
		if v >= 0x7fffffff {
			return c.fail(ErrPthread, "sem_post: the semaphore's value would exceed SEM_VALUE_MAX")
		}
		c.st.Mem.Store(a.arg(0), 4, v+1)
		a.ret(0)
		return bNext
	}}
	platform[ir.BSemGetvalue] = platformFunc{run: func(c call, a args) int {
		v, e := c.st.Mem.Load(a.arg(0), 4)
		if e != ErrNone {
			return c.fail(e, "sem_getvalue")
		}
		if e := c.st.Mem.Store(a.arg(1), 4, v); e != ErrNone {
			return c.fail(e, "sem_getvalue: result")
		}
		a.ret(0)
		return bNext
	}}

	platform[ir.BBarrierInit] = platformFunc{yields: true, run: func(c call, a args) int {
		n := uint32(a.arg(2))
		if n == 0 {
			a.ret(eInval)
			return bNext
		}
		if e := c.st.Mem.Store(a.arg(0), 8, uint64(n)); e != ErrNone {
			return c.fail(e, "pthread_barrier_init")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BBarrierDestroy] = platformFunc{run: func(c call, a args) int {
		v, e := c.st.Mem.Load(a.arg(0), 8)
		if e != ErrNone {
			return c.fail(e, "pthread_barrier_destroy")
		}
		if v>>32 != 0 {
			return c.fail(ErrPthread, "pthread_barrier_destroy of a barrier with waiting processes")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BBarrierWait] = platformFunc{
		yields:    true,
		enabled:   func(c call, a args) bool { return c.t.Wait != waitBarrier },
		procGuard: true,
		run:       barrierWait,
	}

	platform[ir.BAttrInitDetach] = platformFunc{run: func(c call, a args) int {
		if e := c.st.Mem.Store(a.arg(0), 4, 0); e != ErrNone {
			return c.fail(e, "pthread_attr_init")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BAttrSetDetach] = platformFunc{run: func(c call, a args) int {
		ds := uint32(a.arg(1))
		if ds > detachedState {
			a.ret(eInval)
			return bNext
		}
		if e := c.st.Mem.Store(a.arg(0), 4, uint64(ds)); e != ErrNone {
			return c.fail(e, "pthread_attr_setdetachstate")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BAttrGetDetach] = platformFunc{run: func(c call, a args) int {
		v, e := c.st.Mem.Load(a.arg(0), 4)
		if e != ErrNone {
			return c.fail(e, "pthread_attr_getdetachstate")
		}
		if e := c.st.Mem.Store(a.arg(1), 4, v); e != ErrNone {
			return c.fail(e, "pthread_attr_getdetachstate: result")
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BDetach] = platformFunc{yields: true, run: func(c call, a args) int {
		t := c.st.Thread(int32(a.arg(0)))
		switch {
		case t == nil || t.Done && t.Wait == waitJoined: // an id no longer alive
			a.ret(eSrch)
		case t.Detached:
			a.ret(eInval)
		default:
			t.Detached = true
			a.ret(0)
		}
		return bNext
	}}
}

// semWait is sem_wait and sem_trywait (which returns -1 instead of
// blocking, with errno EAGAIN).
func semWait(c call, a args) int {
	v, e := c.st.Mem.Load(a.arg(0), 4)
	if e != ErrNone {
		return c.fail(e, "%s", c.b)
	}
	if v == 0 {
		if c.b == ir.BSemTrywait {
			c.setErrno(eAgain)
			a.ret(^uint64(0))
			return bNext
		}
		return bBlock
	}
	c.st.Mem.Store(a.arg(0), 4, v-1)
	a.ret(0)
	return bNext
}

// barrierWait is pthread_barrier_wait, in two steps for every process but
// the last to arrive: see the comment at the top of this file.
func barrierWait(c call, a args) int {
	t, p := c.t, a.arg(0)
	switch t.Wait {
	case waitNone:
		v, e := c.st.Mem.Load(p, 8)
		if e != ErrNone {
			return c.fail(e, "pthread_barrier_wait")
		}
		count, waiting := uint32(v), uint32(v>>32)
		if count == 0 {
			return c.fail(ErrPthread, "pthread_barrier_wait on a barrier that is not initialised")
		}
		if waiting+1 < count {
			c.st.Mem.Store(p, 8, uint64(count)|uint64(waiting+1)<<32)
			t.Wait, t.WaitOn = waitBarrier, p
			return bStay
		}
		c.st.Mem.Store(p, 8, uint64(count))
		for _, o := range c.st.Threads {
			if o.Wait == waitBarrier && o.WaitOn == p {
				o.Wait = waitBarrierDone
			}
		}
		a.ret(barrierSerial)
		return bNext
	case waitBarrierDone:
		t.Wait, t.WaitOn = waitNone, 0
		a.ret(0)
		return bNext
	}
	return bBlock
}

// Thread-specific data. Keys are numbered from 0, the lowest free key
// first (as glibc allocates them); a process's value of a key lives in the
// platform's values block (see libc_image.go), so it is part of the state
// like any memory. A reused key starts NULL in every process. Destructors
// are not run at thread exit: pthread_key_create accepts NULL or free
// (whose effect is invisible but for leaks) and refuses a destructor
// defined by the program, whose effects a run would miss.
const (
	maxKeys       = 32 // keys in use at once
	maxKeyThreads = 64 // processes whose values are kept
)

func init() {
	platform[ir.BKeyCreate] = platformFunc{run: func(c call, a args) int {
		if d := a.arg(1); d != 0 {
			if fn := c.m.funcOf(d); fn == nil || !fn.External || fn.Builtin != ir.BFree {
				return c.fail(ErrBadArg, "pthread_key_create: destructors other than free are not supported (they would not run)")
			}
		}
		l := &c.m.libc
		for k := uint64(0); k < maxKeys; k++ {
			v, e := c.st.Mem.Load(l.keys+4*k, 4)
			if e != ErrNone {
				return c.fail(e, "pthread_key_create: keys")
			}
			if v != 0 {
				continue
			}
			if e := c.st.Mem.Store(a.arg(0), 4, k); e != ErrNone {
				return c.fail(e, "pthread_key_create: key")
			}
			c.st.Mem.Store(l.keys+4*k, 4, 1)
			for t := uint64(0); t < maxKeyThreads; t++ {
				c.st.Mem.Store(l.specific+8*(t*maxKeys+k), 8, 0)
			}
			a.ret(0)
			return bNext
		}
		a.ret(eAgain)
		return bNext
	}}
	platform[ir.BKeyDelete] = platformFunc{run: func(c call, a args) int {
		k, ok := c.key(a)
		if !ok {
			a.ret(eInval)
			return bNext
		}
		c.st.Mem.Store(c.m.libc.keys+4*k, 4, 0)
		a.ret(0)
		return bNext
	}}
	platform[ir.BGetspecific] = platformFunc{run: func(c call, a args) int {
		k, ok := c.key(a)
		if !ok {
			a.ret(0)
			return bNext
		}
		p, ok := c.specific(k)
		if !ok {
			return bEnd
		}
		v, _ := c.st.Mem.Load(p, 8)
		a.ret(v)
		return bNext
	}}
	platform[ir.BSetspecific] = platformFunc{run: func(c call, a args) int {
		k, ok := c.key(a)
		if !ok {
			a.ret(eInval)
			return bNext
		}
		p, ok := c.specific(k)
		if !ok {
			return bEnd
		}
		c.st.Mem.Store(p, 8, a.arg(1))
		a.ret(0)
		return bNext
	}}
}

// errno: __errno_location returns the calling process's errno (processes
// beyond maxKeyThreads are refused). The platform sets it where glibc does
// for ERANGE in the strto* functions and EAGAIN in sem_trywait; the math
// functions do not set it.
const eRange = 34 // ERANGE

func init() {
	platform[ir.BErrnoLocation] = platformFunc{run: func(c call, a args) int {
		if c.m.libc.errno == 0 {
			return c.fail(ErrInvalidCall, "__errno_location: errno is not in this program's image")
		}
		if c.t.ID < 0 || c.t.ID >= maxKeyThreads {
			return c.fail(ErrBadArg, "__errno_location: errno of more than %d processes is not supported", maxKeyThreads)
		}
		a.ret(c.m.libc.errno + 4*uint64(c.t.ID))
		return bNext
	}}
}

// setErrno sets the calling process's errno, if the program can read it.
func (c call) setErrno(v uint64) {
	if c.m.libc.errno != 0 && c.t.ID >= 0 && c.t.ID < maxKeyThreads {
		c.st.Mem.Store(c.m.libc.errno+4*uint64(c.t.ID), 4, v)
	}
}

// key returns the call's key (argument 0) if it is in use.
func (c call) key(a args) (uint64, bool) {
	k := uint64(uint32(a.arg(0)))
	if c.m.libc.keys == 0 || k >= maxKeys {
		return 0, false
	}
	v, e := c.st.Mem.Load(c.m.libc.keys+4*k, 4)
	return k, e == ErrNone && v != 0
}

// specific returns the address of the calling process's value of key k,
// or fails the run when the process is beyond the values block.
func (c call) specific(k uint64) (uint64, bool) {
	if c.t.ID < 0 || c.t.ID >= maxKeyThreads {
		c.fail(ErrBadArg, "%s: thread-specific data of more than %d processes is not supported", c.b, maxKeyThreads)
		return 0, false
	}
	return c.m.libc.specific + 8*(uint64(c.t.ID)*maxKeys+k), true
}
