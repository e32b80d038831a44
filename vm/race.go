package vm

import (
	"github.com/wyvernmc/wyvern/ir"
)

// The memory footprints of platform calls, for DataRace.
//
// A platform function runs atomically, in one step (platform.go), so the
// bytes it reads and writes are its next accesses as a load's or a store's
// are: a process about to call memset(p, 0, n) is about to write the n
// bytes at p. callAccesses lists them from the state the call will run in,
// following the function's implementation here (strlen reads up to and
// with the NUL, strncmp up to the first difference, printf's %s its
// argument's bytes up to the NUL or the precision), each range cut at the
// end of its block (a call running past it fails with an error, but for
// DataRace the in-block bytes are what a real call touches first). A
// pointer to no live block (null, freed, dead) gives no range: the call
// fails with an error. The ranges of one call are one process's: they never
// race with each other (Access.Cont).
//
// Platform functions with neither a footprint here nor a place in
// raceQuiet (qsort, which calls the program back, strtok, sscanf,
// sem_getvalue, pthread_attr_getdetachstate) are not seen by DataRace: RaceSees says so, and
// explicit search answers incomplete rather than proving such a threaded
// program free of races (explicit/por.go raceBlind).

// raceFP lists, per platform function, the memory accesses a call is about
// to make (nil: none, or not seen; RaceSees tells which).
var raceFP [ir.NumBuiltins]func(m *Machine, st *State, a args, acc []Access) []Access

// raceQuiet are the platform functions that touch no program memory but
// synchronisation objects (mutexes, condition variables, semaphores,
// barriers, thread handles and keys: not data), fresh blocks, the hidden
// state of rand, or nothing: DataRace misses no access of theirs.
var raceQuiet = [ir.NumBuiltins]bool{}

func init() {
	for _, b := range []ir.Builtin{
		ir.BNone, ir.BPthreadCreate, ir.BPthreadExit, ir.BPthreadSelf, ir.BPthreadEqual,
		ir.BMutexInit, ir.BMutexLock, ir.BMutexTrylock, ir.BMutexUnlock, ir.BMutexDestroy,
		ir.BCondInit, ir.BCondWait, ir.BCondSignal, ir.BCondBroadcast, ir.BCondDestroy,
		ir.BRwlockInit, ir.BRwlockRdlock, ir.BRwlockWrlock, ir.BRwlockTryrdlock, ir.BRwlockTrywrlock,
		ir.BRwlockUnlock, ir.BRwlockDestroy, ir.BOnce, ir.BAttrInit, ir.BAttrInitDetach, ir.BAttrSetDetach,
		ir.BDetach, ir.BKeyCreate, ir.BKeyDelete, ir.BGetspecific, ir.BSetspecific,
		ir.BSemInit, ir.BSemWait, ir.BSemTrywait, ir.BSemPost, ir.BSemDestroy,
		ir.BBarrierInit, ir.BBarrierWait, ir.BBarrierDestroy,
		ir.BNondet, ir.BAssume, ir.BVerifierError, ir.BAtomicBegin, ir.BAtomicEnd, ir.BReachError,
		ir.BAssertFail, ir.BAbort, ir.BExit, ir.BMalloc, ir.BCalloc, ir.BFree, ir.BCoin, ir.BUniform, ir.BPutchar,
		ir.BIsalnum, ir.BIsalpha, ir.BIsblank, ir.BIscntrl, ir.BIsdigit, ir.BIsgraph, ir.BIslower,
		ir.BIsprint, ir.BIspunct, ir.BIsspace, ir.BIsupper, ir.BIsxdigit, ir.BToupper, ir.BTolower,
		ir.BCtypeBLoc, ir.BCtypeToupperLoc, ir.BCtypeTolowerLoc, ir.BAbs, ir.BSqrt, ir.BPow, ir.BFloor,
		ir.BCeil, ir.BTrunc, ir.BRound, ir.BFabs, ir.BFmod, ir.BExp, ir.BExp2, ir.BLog, ir.BLog2, ir.BLog10,
		ir.BSin, ir.BCos, ir.BTan, ir.BAsin, ir.BAcos, ir.BAtan, ir.BAtan2, ir.BSinh, ir.BCosh, ir.BTanh,
		ir.BHypot, ir.BCbrt, ir.BFmin, ir.BFmax, ir.BRand, ir.BSrand, ir.BYield, ir.BErrnoLocation, ir.BClock,
		ir.BFflush, ir.BFputc,
	} {
		raceQuiet[b] = true
	}

	raceFP[ir.BPthreadJoin] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.span(acc, a.arg(1), uint64(m.PtrBytes()), true) // the result, stored (null: nothing)
	}
	raceFP[ir.BMemset] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.span(acc, a.arg(0), a.arg(2), true)
	}
	memcpyFP := func(m *Machine, st *State, a args, acc []Access) []Access {
		n := a.arg(2)
		return st.span(st.span(acc, a.arg(1), n, false), a.arg(0), n, true)
	}
	raceFP[ir.BMemcpy], raceFP[ir.BMemmove] = memcpyFP, memcpyFP
	raceFP[ir.BMemcmp] = func(m *Machine, st *State, a args, acc []Access) []Access {
		p, q, n := a.arg(0), a.arg(1), a.arg(2)
		k := st.cmpLen(p, q, n, false, false)
		return st.span(st.span(acc, p, k, false), q, k, false)
	}
	cmpFP := func(limit func(a args) uint64, fold bool) func(m *Machine, st *State, a args, acc []Access) []Access {
		return func(m *Machine, st *State, a args, acc []Access) []Access {
			p, q := a.arg(0), a.arg(1)
			k := st.cmpLen(p, q, limit(a), true, fold)
			return st.span(st.span(acc, p, k, false), q, k, false)
		}
	}
	noLimit := func(args) uint64 { return ^uint64(0) }
	third := func(a args) uint64 {
		if len(a.cs.Args) >= 3 {
			return a.arg(2)
		}
		return ^uint64(0)
	}
	raceFP[ir.BStrcmp] = cmpFP(noLimit, false)
	raceFP[ir.BStrncmp] = cmpFP(func(a args) uint64 { return a.arg(2) }, false)
	raceFP[ir.BStrcasecmp] = cmpFP(third, true)

	// functions reading the string at argument 0 up to and with its NUL
	readStr0 := func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.str(acc, a.arg(0), ^uint64(0))
	}
	raceFP[ir.BStrlen] = readStr0
	raceFP[ir.BStrrchr] = readStr0
	raceFP[ir.BPuts] = readStr0
	raceFP[ir.BFputs] = readStr0
	raceFP[ir.BPerror] = readStr0 // (null: nothing)
	raceFP[ir.BStrnlen] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.str(acc, a.arg(0), a.arg(1))
	}
	raceFP[ir.BStrdup] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.str(acc, a.arg(0), third2(a)) // strndup: at most its second argument
	}
	raceFP[ir.BStrchr] = func(m *Machine, st *State, a args, acc []Access) []Access {
		s, ch := a.arg(0), byte(a.arg(1))
		return st.span(acc, s, st.scan(s, ^uint64(0), func(x byte) bool { return x == ch || x == 0 }), false)
	}
	raceFP[ir.BMemchr] = func(m *Machine, st *State, a args, acc []Access) []Access {
		s, ch := a.arg(0), byte(a.arg(1))
		return st.span(acc, s, st.scan(s, a.arg(2), func(x byte) bool { return x == ch }), false)
	}
	twoStr := func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.str(st.str(acc, a.arg(0), ^uint64(0)), a.arg(1), ^uint64(0))
	}
	raceFP[ir.BStrstr] = twoStr
	raceFP[ir.BStrspn] = twoStr
	raceFP[ir.BStrcspn] = twoStr
	raceFP[ir.BStrpbrk] = twoStr
	cpyFP := func(m *Machine, st *State, a args, acc []Access) []Access {
		d, s := a.arg(0), a.arg(1)
		n := st.strRead(s, ^uint64(0))
		return st.span(st.span(acc, s, n, false), d, n, true)
	}
	raceFP[ir.BStrcpy] = cpyFP
	raceFP[ir.BStpcpy] = cpyFP
	raceFP[ir.BStrncpy] = func(m *Machine, st *State, a args, acc []Access) []Access {
		d, s, n := a.arg(0), a.arg(1), a.arg(2)
		return st.span(st.str(acc, s, n), d, n, true)
	}
	// strcat and strncat: they read the destination's string and its NUL,
	// then the source's (at most n bytes of it for strncat), and write its
	// bytes and a NUL over the destination's NUL on
	catFP := func(bounded bool) func(m *Machine, st *State, a args, acc []Access) []Access {
		return func(m *Machine, st *State, a args, acc []Access) []Access {
			d, s := a.arg(0), a.arg(1)
			dr, dlen := st.strLen(d, ^uint64(0))
			acc = st.span(acc, d, dr, false)
			if dr == dlen {
				return acc // (no NUL in the destination's block: the call fails)
			}
			limit := ^uint64(0)
			if bounded {
				limit = a.arg(2)
			}
			sr, slen := st.strLen(s, limit)
			acc = st.span(acc, s, sr, false)
			if !bounded && sr == slen {
				return acc // (no NUL in the source's block: the call fails)
			}
			return st.span(acc, d+dlen, slen+1, true)
		}
	}
	raceFP[ir.BStrcat] = catFP(false)
	raceFP[ir.BStrncat] = catFP(true)
	// strtol, strtoul (and atoi, atol: one argument) read the whole string
	// and store the end pointer through their second argument, if any;
	// strtod (atof) alike. (errno, which they may set, is the calling
	// process's own.)
	endFP := func(endArgs int) func(m *Machine, st *State, a args, acc []Access) []Access {
		return func(m *Machine, st *State, a args, acc []Access) []Access {
			acc = st.str(acc, a.arg(0), ^uint64(0))
			if len(a.cs.Args) >= endArgs {
				acc = st.span(acc, a.arg(1), uint64(m.PtrBytes()), true)
			}
			return acc
		}
	}
	raceFP[ir.BStrtol] = endFP(3)
	raceFP[ir.BStrtoul] = endFP(3)
	raceFP[ir.BStrtod] = endFP(2)
	// realloc reads what it copies of the old block into the new, fresh
	// one (freeing the old block, like free, is not an access: an access
	// after it is a use-after-free error)
	raceFP[ir.BRealloc] = func(m *Machine, st *State, a args, acc []Access) []Access {
		p, n := a.arg(0), a.arg(1)
		old, live := st.Mem.BlockSize(p)
		if p == 0 || n == 0 || !live || ir.PtrOff(p) != 0 || st.Mem.blk(ir.PtrBlock(p)).kind&^blkUndef != blkHeap {
			return acc // (nothing is copied, or the call fails)
		}
		return st.span(acc, p, min(uint64(old), n), false)
	}
	raceFP[ir.BFwrite] = func(m *Machine, st *State, a args, acc []Access) []Access {
		size, n := a.arg(1), a.arg(2)
		if size != 0 && n > (1<<31)/size {
			return acc // (the call fails)
		}
		return st.span(acc, a.arg(0), size*n, false)
	}
	raceFP[ir.BTime] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.span(acc, a.arg(0), uint64(m.PtrBytes()), true)
	}
	raceFP[ir.BGettimeofday] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.span(acc, a.arg(0), 2*uint64(m.PtrBytes()), true)
	}
	raceFP[ir.BClockGettime] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return st.span(acc, a.arg(1), 2*uint64(m.PtrBytes()), true)
	}
	raceFP[ir.BPrintf] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return m.formatReads(st, a, 0, acc)
	}
	raceFP[ir.BFprintf] = func(m *Machine, st *State, a args, acc []Access) []Access {
		return m.formatReads(st, a, 1, acc)
	}
	raceFP[ir.BSprintf] = func(m *Machine, st *State, a args, acc []Access) []Access {
		acc = m.formatReads(st, a, 1, acc)
		out, err := m.formatFresh(st, a, 1)
		if err != nil {
			return acc // (the call fails before writing)
		}
		return st.span(acc, a.arg(0), uint64(len(out))+1, true)
	}
	raceFP[ir.BSnprintf] = func(m *Machine, st *State, a args, acc []Access) []Access {
		acc = m.formatReads(st, a, 2, acc)
		out, err := m.formatFresh(st, a, 2)
		if n := a.arg(1); err == nil && n > 0 {
			acc = st.span(acc, a.arg(0), min(uint64(len(out)), n-1)+1, true)
		}
		return acc
	}
}

// formatFresh is format for a footprint (sprintf's output length): in
// buffers of its own, so that looking at a state writes none it may share
// with another (State.Clone copies fmtBuf's header).
func (m *Machine) formatFresh(st *State, a args, fi int) ([]byte, *fmtErr) {
	saved := st.fmtBuf
	st.fmtBuf = nil
	out, err := m.format(st, a.cs, a.r, fi, nil, st.memRoom())
	st.fmtBuf = saved
	return out, err
}

// third2 is strndup's bound: its second argument, if any.
func third2(a args) uint64 {
	if len(a.cs.Args) >= 2 {
		return a.arg(1)
	}
	return ^uint64(0)
}

// RaceSees reports whether DataRace sees every access to program data of
// a call of platform function b: b touches none (raceQuiet), or its
// footprint is listed (raceFP).
func RaceSees(b ir.Builtin) bool { return raceQuiet[b] || raceFP[b] != nil }

// callAccesses appends to acc the accesses of thread t's next instruction
// in, a call in function fn with registers r, when it calls a platform
// function with a footprint (raceFP): the second and later with Cont set.
func (m *Machine) callAccesses(st *State, t *Thread, fn *ir.Func, in *ir.Inst, r []uint64, acc []Access) []Access {
	var b ir.Builtin
	switch in.Op {
	case ir.OpCallB:
		b = ir.Builtin(in.B)
	case ir.OpCallInd:
		f := m.funcOf(r[fn.Calls[in.Imm].FnSlot])
		if f == nil || !f.External {
			return acc
		}
		b = f.Builtin
	default:
		return acc
	}
	fp := raceFP[b]
	if fp == nil {
		return acc
	}
	start := len(acc)
	acc = fp(m, st, args{cs: &fn.Calls[in.Imm], r: r}, acc)
	for k := start + 1; k < len(acc); k++ {
		acc[k].Cont = true
	}
	return acc
}

// span appends the access of the n bytes at p (a write when write), cut
// at the end of p's block; nothing when p points into no live block or n
// is 0.
func (st *State) span(acc []Access, p, n uint64, write bool) []Access {
	if n == 0 {
		return acc
	}
	size, live := st.Mem.BlockSize(p)
	off := uint64(ir.PtrOff(p))
	if !live || off >= uint64(size) {
		return acc
	}
	n = min(n, uint64(size)-off)
	return append(acc, Access{Addr: p, Size: uint32(n), Write: write})
}

// scan returns how many bytes from p on a byte-by-byte reader reads: up to
// and with the first that stop accepts, at most limit, and no further than
// the readable bytes.
func (st *State) scan(p, limit uint64, stop func(byte) bool) uint64 {
	for i := uint64(0); i < limit; i++ {
		x, e := st.Mem.ByteAt(p + i)
		if e != ErrNone {
			return i
		}
		if stop(x) {
			return i + 1
		}
	}
	return limit
}

// strRead returns how many bytes reading the C string at p reads: up to
// and with its NUL, at most limit.
func (st *State) strRead(p, limit uint64) uint64 {
	return st.scan(p, limit, func(x byte) bool { return x == 0 })
}

// strLen returns how many bytes reading the C string at p reads (at most
// limit) and how many of them are not its NUL.
func (st *State) strLen(p, limit uint64) (read, n uint64) {
	read = st.strRead(p, limit)
	if read > 0 && st.byteIs(p+read-1, 0) {
		return read, read - 1
	}
	return read, read
}

// str appends the read of the C string at p (at most limit bytes).
func (st *State) str(acc []Access, p, limit uint64) []Access {
	return st.span(acc, p, st.strRead(p, limit), false)
}

// byteIs reports whether the byte at p is readable and equal to v.
func (st *State) byteIs(p uint64, v byte) bool {
	x, e := st.Mem.ByteAt(p)
	return e == ErrNone && x == v
}

// cmpLen returns how many bytes of each of p and q a comparison reads
// (memcmp, strcmp, strncmp, strcasecmp, strncasecmp): pairs up to and with
// the first that differs (after folding case, when fold) or, for strings,
// holds a NUL, at most limit, and no further than both are readable.
func (st *State) cmpLen(p, q, limit uint64, str, fold bool) uint64 {
	for i := uint64(0); i < limit; i++ {
		x, e1 := st.Mem.ByteAt(p + i)
		if e1 != ErrNone {
			return i
		}
		y, e2 := st.Mem.ByteAt(q + i)
		if e2 != ErrNone {
			return i + 1 // (p+i was read)
		}
		if fold {
			if ctypeTolower(int64(x)) != ctypeTolower(int64(y)) || x == 0 {
				return i + 1
			}
		} else if x != y || str && x == 0 {
			return i + 1
		}
	}
	return limit
}

// formatReads appends the reads of a printf-family call whose format is
// argument fi: the format string, and each %s argument's bytes up to and
// with the NUL or the precision. It parses the format as format does; a
// conversion format rejects (%n, an unknown one, missing arguments) ends
// the call before anything after it is read.
func (m *Machine) formatReads(st *State, a args, fi int, acc []Access) []Access {
	fp := a.arg(fi)
	fn := st.strRead(fp, 1<<20)
	acc = st.span(acc, fp, fn, false)
	at := func(i uint64) byte { // the format's byte i (0 past its end)
		if i >= fn {
			return 0
		}
		x, _ := st.Mem.ByteAt(fp + i)
		return x
	}
	ai := fi + 1
	for i := uint64(0); i < fn && at(i) != 0; i++ {
		if at(i) != '%' {
			continue
		}
		i++
		for at(i) != 0 && (at(i) == '-' || at(i) == '+' || at(i) == ' ' || at(i) == '0' || at(i) == '#') {
			i++
		}
		if at(i) == '*' {
			if ai >= len(a.cs.Args) {
				return acc
			}
			ai++
			i++
		} else {
			for at(i) >= '0' && at(i) <= '9' {
				i++
			}
		}
		prec := int64(-1)
		if at(i) == '.' {
			i++
			prec = 0
			if at(i) == '*' {
				if ai >= len(a.cs.Args) {
					return acc
				}
				prec = int64(int32(a.r[a.cs.Args[ai]]))
				if prec < 0 {
					prec = -1
				}
				ai++
				i++
			} else {
				for ; at(i) >= '0' && at(i) <= '9'; i++ {
					prec = min(prec*10+int64(at(i)-'0'), maxField)
				}
			}
		}
		for c := at(i); c == 'h' || c == 'l' || c == 'z' || c == 't' || c == 'j' || c == 'q' || c == 'L'; c = at(i) {
			i++
		}
		conv := at(i)
		switch {
		case conv == 0:
			return acc
		case conv == '%':
			continue
		case ai >= len(a.cs.Args):
			return acc
		}
		v := a.r[a.cs.Args[ai]]
		ai++
		switch conv {
		case 's':
			limit := uint64(1 << 30)
			if prec >= 0 {
				limit = uint64(prec)
			}
			if v != 0 {
				acc = st.str(acc, v, limit)
			}
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c', 'p', 'f', 'F', 'e', 'E', 'g', 'G':
		default:
			return acc // %n, unknown: the call fails
		}
	}
	return acc
}
