package vm

import (
	"github.com/wyvernmc/wyvern/ir"
)

// Thread-local variables (__thread, _Thread_local). The global's own block
// is main's copy; pthread_create gives the new process a fresh copy of
// every thread-local global, initialised from the global's initialiser, and
// records the copies' block ids in a platform block (4 bytes per process
// and variable, process-major), so that the mapping is part of the state
// like any memory. A program reaches a thread-local variable only through
// its address as a constant of the function that uses it (C allows no
// static initialiser to take it), so pushing a frame for a process other
// than main rewrites the frame's constant pointers into a thread-local
// global's block to that process's copy. A pointer to a copy passed to
// another process designates the copy, as natively.

// maxTLSThreads bounds the processes that can have copies.
const maxTLSThreads = 64

// tlsImage describes a program's thread-local globals.
type tlsImage struct {
	globals []*ir.Global
	index   map[uint32]int // block id of a thread-local global -> its index in globals
	table   uint64         // pointer to the copies' block ids
}

// setupTLS adds the table of copies to the image when the program has
// thread-local globals.
func (m *Machine) setupTLS(mem *Memory) {
	var tls tlsImage
	for _, g := range m.Prog.Globals {
		if g.ThreadLocal {
			if tls.index == nil {
				tls.index = map[uint32]int{}
			}
			tls.index[g.Block] = len(tls.globals)
			tls.globals = append(tls.globals, g)
		}
	}
	if tls.globals == nil {
		return
	}
	id := mem.n
	mem.initBlock(id, blkGlobal, make([]byte, 4*maxTLSThreads*len(tls.globals)))
	tls.table = ir.MakePtr(id, 0)
	m.tls = &tls
}

// newTLS gives process nt its copies of the thread-local globals.
func (m *Machine) newTLS(c call, nt *Thread) bool {
	tls := m.tls
	if nt.ID >= maxTLSThreads {
		c.fail(ErrBadArg, "pthread_create: thread-local variables of more than %d processes are not supported", maxTLSThreads)
		return false
	}
	mem := &c.st.Mem
	for i, g := range tls.globals {
		id := mem.newBlock(g.Size, blkGlobal, -1)
		if e := mem.Write(ir.MakePtr(id, 0), g.Init); e != ErrNone {
			c.fail(e, "pthread_create: thread-local %s", g.Name)
			return false
		}
		if g.Const {
			mem.wblk(id).kind = blkConst
		}
		mem.Store(tls.table+uint64(4*(int(nt.ID)*len(tls.globals)+i)), 4, uint64(id))
	}
	return true
}

// remapTLS rewrites the constant pointers of a frame of process t (not
// main) into thread-local globals to t's copies; consts are the frame's
// constant slots.
func (m *Machine) remapTLS(st *State, t *Thread, consts []uint64) {
	tls := m.tls
	if t.ID <= 0 || t.ID >= maxTLSThreads {
		return
	}
	for i, v := range consts {
		k, ok := tls.index[uint32(v>>ir.PtrBlockShift)]
		if !ok {
			continue
		}
		id, e := st.Mem.Load(tls.table+uint64(4*(int(t.ID)*len(tls.globals)+k)), 4)
		if e == ErrNone && id != 0 {
			consts[i] = ir.MakePtr(uint32(id), ir.PtrOff(v))
		}
	}
}
