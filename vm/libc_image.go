package vm

import (
	"encoding/binary"
	"fmt"
	"path/filepath"

	"github.com/wyvernmc/wyvern/ir"
)

// Blocks the platform adds to a machine's initial image, after the
// program's globals and functions (block ids from Program.FirstDynBlock),
// each only when the program needs it, so that programs that do not use
// them keep their block numbering:
//
//   - the state of rand/random (glibc's TYPE_3 additive generator: 31
//     words, then the front and rear indices), when rand, random, srand or
//     srandom is called; it starts as after srand(1);
//   - glibc's C-locale ctype tables and the pointers to them that
//     __ctype_b_loc, __ctype_toupper_loc and __ctype_tolower_loc return
//     (constant blocks), when one of those is called;
//   - the thread-specific data of pthread_key_*: a block of key states
//     (4 bytes per key: 0 free, 1 in use) and a block of values (8 bytes per
//     process and key, process-major), when pthread_key_create is called;
//   - errno, 4 bytes per process (at most maxKeyThreads), when the program
//     calls __errno_location (what <errno.h>'s errno expands to);
//   - strtok's saved position, when the program calls strtok;
//   - argv: one block per argument string and the array argv[0..argc]
//     (argv[argc] is NULL), when main takes two parameters; argv[0] is the
//     program's file name without its directory. Under ILP32 the array's
//     entries are 4-byte pointers (ir.Ptr32).
type libcImage struct {
	randState  uint64 // pointer to the rand state block
	ctypeB     uint64 // pointer to the block holding the __ctype_b table pointer
	ctypeUpper uint64
	ctypeLower uint64
	argc       uint64
	argv       uint64
	argvErr    string // why argv cannot be built (ILP32: a pointer with no 32-bit form); the first state fails with it
	errno      uint64 // pointer to the errno block (4 bytes per process)
	strtok     uint64 // pointer to strtok's saved position (8 bytes)
	keys       uint64 // pointer to the thread-specific keys block
	specific   uint64 // pointer to the thread-specific values block
}

// Layout of the rand state block: 31 little-endian int32 words, the front
// index, the rear index.
const (
	randDeg   = 31
	randSep   = 3
	randFront = 4 * randDeg
	randRear  = randFront + 4
	randSize  = randRear + 4
)

// ctype class bits of glibc's __ctype_b table (the _ISbit encoding of
// <ctype.h> on a little-endian machine).
const (
	ctUpper  = 0x100
	ctLower  = 0x200
	ctAlpha  = 0x400
	ctDigit  = 0x800
	ctXdigit = 0x1000
	ctSpace  = 0x2000
	ctPrint  = 0x4000
	ctGraph  = 0x8000
	ctBlank  = 0x1
	ctCntrl  = 0x2
	ctPunct  = 0x4
	ctAlnum  = 0x8
)

// ctypeClass returns the C locale's class bits of c (any int).
func ctypeClass(c int64) uint16 {
	if c < 0 || c > 127 {
		return 0
	}
	var f uint16
	switch {
	case c >= 'A' && c <= 'Z':
		f |= ctUpper | ctAlpha | ctAlnum
	case c >= 'a' && c <= 'z':
		f |= ctLower | ctAlpha | ctAlnum
	case c >= '0' && c <= '9':
		f |= ctDigit | ctAlnum
	}
	if c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
		f |= ctXdigit
	}
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		f |= ctSpace
	}
	if c == ' ' || c == '\t' {
		f |= ctBlank
	}
	if c >= 0x20 && c < 0x7f {
		f |= ctPrint
	}
	if c > 0x20 && c < 0x7f {
		f |= ctGraph
		if f&ctAlnum == 0 {
			f |= ctPunct
		}
	}
	if c < 0x20 || c == 0x7f {
		f |= ctCntrl
	}
	return f
}

// ctypeToupper and ctypeTolower map like glibc's C locale: ASCII letters
// change case, a negative (signed) char other than EOF maps to its
// unsigned value, everything else is returned unchanged.
func ctypeToupper(c int64) int64 {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return ctypeUnsigned(c)
}

func ctypeTolower(c int64) int64 {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return ctypeUnsigned(c)
}

func ctypeUnsigned(c int64) int64 {
	if c >= -128 && c < -1 {
		return c + 256
	}
	return c
}

// The tables cover c in [-128, 255]; the pointer the program sees points
// at the entry of c = 0.
const ctypeLow = 128

func ctypeTables() (b, upper, lower []byte) {
	b = make([]byte, 2*384)
	upper = make([]byte, 4*384)
	lower = make([]byte, 4*384)
	for i := 0; i < 384; i++ {
		c := int64(i - ctypeLow)
		binary.LittleEndian.PutUint16(b[2*i:], ctypeClass(c))
		binary.LittleEndian.PutUint32(upper[4*i:], uint32(int32(ctypeToupper(c))))
		binary.LittleEndian.PutUint32(lower[4*i:], uint32(int32(ctypeTolower(c))))
	}
	return b, upper, lower
}

// usesBuiltin reports whether the program declares a platform function
// with one of the identifiers.
func usesBuiltin(p *ir.Program, bs ...ir.Builtin) bool {
	for _, f := range p.Funcs {
		if !f.External {
			continue
		}
		for _, b := range bs {
			if f.Builtin == b {
				return true
			}
		}
	}
	return false
}

// extendImage adds the platform's blocks to the image being built.
func (m *Machine) extendImage(mem *Memory, args []string) {
	p := m.Prog
	add := func(kind uint8, data []byte) uint64 {
		id := mem.n
		mem.initBlock(id, kind, data)
		return ir.MakePtr(id, 0)
	}
	if usesBuiltin(p, ir.BRand, ir.BSrand) {
		st := make([]byte, randSize)
		srandom(st, 1)
		m.libc.randState = add(blkGlobal, st)
	}
	if usesBuiltin(p, ir.BCtypeBLoc, ir.BCtypeToupperLoc, ir.BCtypeTolowerLoc) {
		b, upper, lower := ctypeTables()
		ptr := func(table uint64, entry int) uint64 {
			var w [8]byte
			p := table + uint64(ctypeLow*entry)
			if m.ilp32 {
				// a 32-bit pointer (the loader refuses ILP32 programs
				// whose image's block ids have no 32-bit form)
				x, _ := ir.Ptr32(p)
				binary.LittleEndian.PutUint32(w[:], x)
				return add(blkConst, w[:4])
			}
			binary.LittleEndian.PutUint64(w[:], p)
			return add(blkConst, w[:])
		}
		m.libc.ctypeB = ptr(add(blkConst, b), 2)
		m.libc.ctypeUpper = ptr(add(blkConst, upper), 4)
		m.libc.ctypeLower = ptr(add(blkConst, lower), 4)
	}
	if usesBuiltin(p, ir.BErrnoLocation) {
		m.libc.errno = add(blkGlobal, make([]byte, 4*maxKeyThreads))
	}
	if usesBuiltin(p, ir.BStrtok) {
		m.libc.strtok = add(blkGlobal, make([]byte, 8))
	}
	if usesBuiltin(p, ir.BKeyCreate) {
		m.libc.keys = add(blkGlobal, make([]byte, 4*maxKeys))
		m.libc.specific = add(blkGlobal, make([]byte, 8*maxKeys*maxKeyThreads))
	}
	m.setupTLS(mem)
	main := p.Funcs[p.Entry]
	m.libc.argc = uint64(1 + len(args))
	if len(main.Params) >= 2 {
		argv := append([]string{filepath.Base(p.Name)}, args...)
		width := 8
		if m.ilp32 {
			width = 4
		}
		arr := make([]byte, width*(len(argv)+1))
		for i, a := range argv {
			ptr := add(blkGlobal, append([]byte(a), 0))
			if !m.ilp32 {
				binary.LittleEndian.PutUint64(arr[8*i:], ptr)
				continue
			}
			x, ok := ir.Ptr32(ptr)
			if !ok && m.libc.argvErr == "" {
				m.libc.argvErr = fmt.Sprintf("argv: argument %d of %d has no 32-bit address under the ILP32 data model (too many blocks before it)", i, len(argv))
			}
			binary.LittleEndian.PutUint32(arr[4*i:], x)
		}
		m.libc.argv = add(blkGlobal, arr)
	}
}

// setMainArgs passes argc and argv to main's frame (the only frame of t),
// as far as main declares them.
func (m *Machine) setMainArgs(t *Thread) {
	main := m.Prog.Funcs[m.Prog.Entry]
	if len(main.Params) == 0 || len(t.Frames) != 1 {
		return
	}
	r := t.Regs[t.Frames[0].Base:]
	r[main.Params[0]] = m.libc.argc & 0xffffffff
	if len(main.Params) >= 2 {
		r[main.Params[1]] = m.libc.argv
	}
}

// ImageBlock is a block of a machine's initial image that the platform
// added after the program's globals and functions (the blocks listed
// above, in id order).
type ImageBlock struct {
	ID    uint32
	Const bool // stores are errors
	Data  []byte
}

// PlatformImage lists the blocks the platform added to the initial image,
// with their bytes, so that an engine that models memory itself (BMC)
// starts from the same image as the vm.
func (m *Machine) PlatformImage() []ImageBlock {
	var out []ImageBlock
	for id := m.Prog.FirstDynBlock; id < m.init.n; id++ {
		b := m.init.blk(id)
		if b.kind != blkGlobal && b.kind != blkConst {
			continue
		}
		data := make([]byte, b.size)
		m.init.readBlock(b, 0, data)
		out = append(out, ImageBlock{ID: id, Const: b.kind == blkConst, Data: data})
	}
	return out
}

// MainArgs are the values main's parameters get at the start of a run
// (setMainArgs): argc (32 bits) and argv, a pointer into the platform's
// image (0 where main does not take it). Err is why the first state fails
// instead (an argv with no 32-bit address under ILP32), "" if it does not.
func (m *Machine) MainArgs() (argc, argv uint64, err string) {
	return m.libc.argc & 0xffffffff, m.libc.argv, m.libc.argvErr
}
