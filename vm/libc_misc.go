package vm

import (
	"encoding/binary"

	"github.com/wyvernmc/wyvern/ir"
)

// rand, time, the yield points and qsort.

// Epoch is what time() returns: a fixed instant (2024-01-01T00:00:00Z), so
// that runs are reproducible.
const Epoch = 1704067200

// qsortCmpLimit bounds the instructions of one comparator call.
const qsortCmpLimit = 1 << 20

func init() {
	platform[ir.BRand] = platformFunc{run: func(c call, a args) int {
		v, e := c.m.random(c.st)
		if e != ErrNone {
			return c.fail(e, "rand state")
		}
		a.ret(uint64(v))
		return bNext
	}}
	platform[ir.BSrand] = platformFunc{run: func(c call, a args) int {
		p := c.m.libc.randState
		if p == 0 {
			return c.fail(ErrInvalidCall, "%s: the rand state is not in this program's image", c.b)
		}
		buf := make([]byte, randSize)
		srandom(buf, uint32(a.arg(0)))
		if e := c.st.Mem.Write(p, buf); e != ErrNone {
			return c.fail(e, "rand state")
		}
		return bNext
	}}
	platform[ir.BTime] = platformFunc{run: func(c call, a args) int {
		if p := a.arg(0); p != 0 {
			if e := c.st.Mem.Store(p, c.m.PtrBytes(), Epoch); e != ErrNone { // time_t: a long
				return c.fail(e, "time")
			}
		}
		a.ret(Epoch)
		return bNext
	}}
	// sleep, usleep, nanosleep, sched_yield: a scheduling point that
	// changes nothing else (no time passes).
	platform[ir.BYield] = platformFunc{yields: true, run: ret0}
	platform[ir.BQsort] = platformFunc{run: qsort}
	// No time passes: clock() is 0, the wall clock stays at Epoch, a
	// monotonic clock at 0.
	platform[ir.BClock] = platformFunc{run: ret0}
	platform[ir.BGettimeofday] = platformFunc{run: func(c call, a args) int {
		if p := a.arg(0); p != 0 { // struct timeval {tv_sec, tv_usec}
			if e := c.st.Mem.Write(p, c.m.timePair(Epoch, 0)); e != ErrNone {
				return c.fail(e, "gettimeofday")
			}
		}
		a.ret(0)
		return bNext
	}}
	platform[ir.BClockGettime] = platformFunc{run: func(c call, a args) int {
		sec := uint64(0)
		if clk := int32(a.arg(0)); clk == 0 || clk == 5 { // CLOCK_REALTIME, CLOCK_REALTIME_COARSE
			sec = Epoch
		}
		if e := c.st.Mem.Write(a.arg(1), c.m.timePair(sec, 0)); e != ErrNone { // struct timespec
			return c.fail(e, "clock_gettime")
		}
		a.ret(0)
		return bNext
	}}
}

// srandom initialises a rand state block as glibc's __srandom_r does for
// TYPE_3, including its 310 discarded outputs.
func srandom(st []byte, seed uint32) {
	if seed == 0 {
		seed = 1
	}
	word := int32(seed) // glibc's int32_t word
	binary.LittleEndian.PutUint32(st, seed)
	for i := 1; i < randDeg; i++ {
		hi, lo := int64(word)/127773, int64(word)%127773
		word = int32(16807*lo - 2836*hi)
		if word < 0 {
			word += 2147483647
		}
		binary.LittleEndian.PutUint32(st[4*i:], uint32(word))
	}
	binary.LittleEndian.PutUint32(st[randFront:], randSep)
	binary.LittleEndian.PutUint32(st[randRear:], 0)
	for i := 0; i < 10*randDeg; i++ {
		randomStep(st)
	}
}

// randomStep is glibc's random_r for TYPE_3 on a state block.
func randomStep(st []byte) int32 {
	f := binary.LittleEndian.Uint32(st[randFront:])
	r := binary.LittleEndian.Uint32(st[randRear:])
	if f >= randDeg || r >= randDeg {
		return -1
	}
	val := binary.LittleEndian.Uint32(st[4*f:]) + binary.LittleEndian.Uint32(st[4*r:])
	binary.LittleEndian.PutUint32(st[4*f:], val)
	f++
	if f >= randDeg {
		f = 0
		r++
	} else {
		r++
		if r >= randDeg {
			r = 0
		}
	}
	binary.LittleEndian.PutUint32(st[randFront:], f)
	binary.LittleEndian.PutUint32(st[randRear:], r)
	return int32(val >> 1)
}

// random draws the next value of the program's rand state.
func (m *Machine) random(st *State) (int32, ErrKind) {
	p := m.libc.randState
	if p == 0 {
		return 0, ErrInvalidCall
	}
	buf := st.scratchBuf(randSize)
	if e := st.Mem.Read(p, buf); e != ErrNone {
		return 0, e
	}
	v := randomStep(buf)
	if v < 0 {
		return 0, ErrBadArg
	}
	return v, st.Mem.Write(p, buf)
}

// noChoice is the Chooser of a comparator called by qsort: a comparator
// that draws a nondeterministic value is not supported (the draw would
// be hidden inside qsort's step).
type noChoice struct{ used bool }

func (n *noChoice) Choose(uint64) uint64 { n.used = true; return 0 }

// callNested runs function fn with the given arguments to completion
// inside the current step, on a temporary process with the caller's id,
// and returns its result. The second result is bNext, or bEnd when the
// run ended (an error in fn, exit).
func (m *Machine) callNested(c call, fn *ir.Func, argv ...uint64) (uint64, int) {
	st := c.st
	ct := &Thread{ID: c.t.ID}
	if !m.pushFrame(st, ct, fn, -1, 0) {
		return 0, c.fail(ErrStackOverflow, "")
	}
	for i, p := range fn.Params {
		if i < len(argv) {
			ct.Regs[p] = argv[i]
		}
	}
	exitCode := st.ExitCode
	var ch noChoice
	steps := uint64(0)
	for !ct.Done {
		if st.Status != Running {
			return 0, bEnd
		}
		if ch.used {
			return 0, c.fail(ErrInvalidCall, "%s: %s draws a nondeterministic value", c.b, fn.Name)
		}
		if steps >= qsortCmpLimit {
			return 0, c.fail(ErrInvalidCall, "%s: %s did not return within %d steps", c.b, fn.Name, qsortCmpLimit)
		}
		n := m.exec(st, ct, qsortCmpLimit-steps, &ch, nil)
		if n == 0 && st.Status == Running {
			return 0, c.fail(ErrInvalidCall, "%s: %s blocked", c.b, fn.Name)
		}
		steps += n
	}
	if len(ct.Frames) == 0 && st.Status == Exited && c.t.ID == 0 {
		// threadReturn took the comparator's return for main's
		st.Status, st.ExitCode = Running, exitCode
	}
	if st.Status != Running {
		return 0, bEnd
	}
	return ct.RetVal, bNext
}

// qsort sorts with glibc's algorithm (a top-down merge sort: msort.c), so
// the comparator sees the same pairs in the same order as natively. The
// comparator runs to completion inside qsort's step: qsort is atomic.
func qsort(c call, a args) int {
	base, n, size := a.arg(0), a.arg(1), a.arg(2)
	fn := c.m.funcOf(a.arg(3))
	if fn == nil || fn.External {
		return c.fail(ErrInvalidCall, "qsort: the comparator is not a function of the program")
	}
	if n <= 1 || size == 0 {
		return bNext
	}
	if n > 1<<31 || size > 1<<31 || n*size > 1<<31 {
		return c.fail(ErrOutOfBounds, "qsort of %d elements of %d bytes", n, size)
	}
	// check the whole array is accessible before sorting
	if !c.span(base, n*size, true, "qsort array") {
		return bEnd
	}
	all := make([]byte, n*size)
	if e := c.st.Mem.Read(base, all); e != ErrNone {
		return c.fail(e, "qsort array")
	}
	if e := c.st.Mem.Write(base, all); e != ErrNone {
		return c.fail(e, "qsort array")
	}
	tmp := make([]byte, n*size)
	var sort func(b, n uint64) int
	sort = func(b, n uint64) int {
		if n <= 1 {
			return bNext
		}
		n1 := n / 2
		n2 := n - n1
		b1, b2 := b, b+n1*size
		if r := sort(b1, n1); r != bNext {
			return r
		}
		if r := sort(b2, n2); r != bNext {
			return r
		}
		t := tmp[:0]
		elem := make([]byte, size)
		for n1 > 0 && n2 > 0 {
			v, r := c.m.callNested(c, fn, b1, b2)
			if r != bNext {
				return r
			}
			if int32(v) <= 0 {
				c.st.Mem.Read(b1, elem)
				b1 += size
				n1--
			} else {
				c.st.Mem.Read(b2, elem)
				b2 += size
				n2--
			}
			t = append(t, elem...)
		}
		if n1 > 0 {
			rest := make([]byte, n1*size)
			c.st.Mem.Read(b1, rest)
			t = append(t, rest...)
		}
		if e := c.st.Mem.Write(b, t); e != ErrNone {
			return c.fail(e, "qsort array")
		}
		return bNext
	}
	return sort(base, n)
}

// timePair is a struct timeval or timespec: two little-endian 64-bit words.
func (m *Machine) timePair(sec, frac uint64) []byte {
	if m.ilp32 { // two 32-bit longs
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(sec))
		binary.LittleEndian.PutUint32(b[4:], uint32(frac))
		return b
	}
	b := make([]byte, 16)
	binary.LittleEndian.PutUint64(b, sec)
	binary.LittleEndian.PutUint64(b[8:], frac)
	return b
}
