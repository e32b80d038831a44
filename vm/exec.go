package vm

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
)

// Chooser resolves the probabilistic choices of a run: which enabled process
// steps, and the values of nondeterministic inputs. Choose returns a value
// uniformly distributed over [0, n); n == 0 stands for 2^64.
type Chooser interface {
	Choose(n uint64) uint64
}

// sx sign-extends the low w bits of v, for a width w of 1 to 64 (the
// compiler's integer widths; the mask lets Go shift without its checks for
// counts of 64 or more).
func sx(v uint64, w uint8) int64 {
	s := (64 - uint(w)) & 63
	return int64(v<<s) >> s
}

// fail puts the state into an error state at thread t's instruction pc.
func (m *Machine) fail(st *State, t *Thread, pc int32, k ErrKind, detail string) {
	fr := &t.Frames[len(t.Frames)-1]
	fr.PC = pc
	st.Status = Failed
	loc, fn := m.Place(t)
	st.Err = &ErrorState{Kind: k, Thread: t.ID, Func: fn, PC: pc, Loc: loc, Detail: detail}
}

// exec runs up to budget steps of thread t and returns the number of steps
// taken. It returns early at a scheduling point (a platform call that may
// change which processes are enabled), when the thread finishes, or when the
// run ends.
//
// With sl set (the scheduler loop), exec does not return when the budget
// of one step is spent and nothing the scheduler would look at changed: it
// draws the next process itself (when several are enabled) and shows the
// observer the state if it watches the process that stepped, as
// runObserved would (see slicer), and goes on with the process drawn, for
// one step or the sl.run steps next allows. sl.cur is then the process
// that ran last.
func (m *Machine) exec(st *State, t *Thread, budget uint64, ch Chooser, sl *slicer) uint64 {
	fr := &t.Frames[len(t.Frames)-1]
	fn := fr.Fn
	code := m.codeOf(fn)
	pc := fr.PC
	mem := &st.Mem
	// lc caches the bytes of the blocks and pages the loads and stores of
	// this call touched (see accessCache); every instruction that may change
	// a block descriptor clears it. (Kept in the state across calls, it
	// made multi-threaded simulation 3 % faster but every state 336 bytes
	// larger: explicit search's peak memory on fib_8 grew 12 %.)
	var lc accessCache
	// ps holds the values of the running frame's promoted allocas (fuse.go:
	// promotable); ps.valid = 0 drops them (and their bindings), at every
	// change of frame.
	var ps promoSlots
	left := budget // steps left: the call has taken budget - left
	var cmp bool   // the comparison of a fused compare-and-branch
	// Calls and returns change fr, fn, code and the registers and go on
	// with the outer loop, so that the inner loop keeps them invariant (its
	// turns then carry only pc and left: fewer spills per dispatch).
frames:
	for {
		ps.valid = 0 // a new frame (or the call's first)
		r := t.Regs[fr.Base:]
		if len(r) < fn.NRegs {
			panic("vm: a frame's registers are fewer than its function's")
		}
		rb := unsafe.Pointer(unsafe.SliceData(r))
		if uint(pc) >= uint(len(code)) {
			panic("vm: a frame's pc is outside its function's code")
		}
	steps:
		for left > 0 {
			in := instAt(code, pc) // (checkPCs: pc is in the code)
		dispatch:
			switch in.Op {
			case ir.OpAdd:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				v := (a + b) & in.Imm
				if in.Flags != 0 && (in.Flags == ir.FlagNSW && in.W == 32 && addNSW32(a, b, v) || (in.Flags != ir.FlagNSW || in.W != 32) && addOverflow(a, b, v, in)) {
					m.fail(st, t, pc, ErrOverflow, "add")
					return budget - left + 1
				}
				*reg(rb, in.Dst) = v
			case ir.OpSub:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				v := (a - b) & in.Imm
				if in.Flags != 0 && (in.Flags == ir.FlagNSW && in.W == 32 && subNSW32(a, b, v) || (in.Flags != ir.FlagNSW || in.W != 32) && subOverflow(a, b, v, in)) {
					m.fail(st, t, pc, ErrOverflow, "sub")
					return budget - left + 1
				}
				*reg(rb, in.Dst) = v
			case ir.OpMul:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				v := (a * b) & in.Imm
				if in.Flags != 0 && mulOverflow(a, b, in) {
					m.fail(st, t, pc, ErrOverflow, "mul")
					return budget - left + 1
				}
				*reg(rb, in.Dst) = v
			case ir.OpUDiv, ir.OpURem:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				if b == 0 {
					m.fail(st, t, pc, ErrDivZero, "")
					return budget - left + 1
				}
				q := a / b
				if in.Op == ir.OpURem {
					*reg(rb, in.Dst) = a % b
				} else {
					if in.Flags&ir.FlagExact != 0 && q*b != a {
						m.fail(st, t, pc, ErrOverflow, "udiv exact with a remainder")
						return budget - left + 1
					}
					*reg(rb, in.Dst) = q
				}
			case ir.OpSDiv, ir.OpSRem:
				a, b := sx(*reg(rb, in.A), in.W), sx(*reg(rb, in.B), in.W)
				if b == 0 {
					m.fail(st, t, pc, ErrDivZero, "")
					return budget - left + 1
				}
				if b == -1 && a == sx(1<<(in.W-1), in.W) {
					m.fail(st, t, pc, ErrOverflow, "division of the minimum value by -1")
					return budget - left + 1
				}
				if in.Op == ir.OpSRem {
					*reg(rb, in.Dst) = uint64(a%b) & in.Imm
				} else {
					q := a / b
					if in.Flags&ir.FlagExact != 0 && q*b != a {
						m.fail(st, t, pc, ErrOverflow, "sdiv exact with a remainder")
						return budget - left + 1
					}
					*reg(rb, in.Dst) = uint64(q) & in.Imm
				}
			case ir.OpShl:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				if b >= uint64(in.W) {
					if in.Flags&ir.FlagLax != 0 {
						*reg(rb, in.Dst) = 0 // poison in optimised code
						break
					}
					m.fail(st, t, pc, ErrShiftOverflow, "shl")
					return budget - left + 1
				}
				v := (a << b) & in.Imm
				if in.Flags != 0 {
					if in.Flags&ir.FlagNSW != 0 && sx(v, in.W)>>b != sx(a, in.W) ||
						in.Flags&ir.FlagNUW != 0 && v>>b != a {
						m.fail(st, t, pc, ErrOverflow, "shl")
						return budget - left + 1
					}
				}
				*reg(rb, in.Dst) = v
			case ir.OpLShr:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				if b >= uint64(in.W) {
					if in.Flags&ir.FlagLax != 0 {
						*reg(rb, in.Dst) = 0 // poison in optimised code
						break
					}
					m.fail(st, t, pc, ErrShiftOverflow, "lshr")
					return budget - left + 1
				}
				v := a >> b
				if in.Flags&ir.FlagExact != 0 && v<<b != a {
					m.fail(st, t, pc, ErrOverflow, "lshr exact shifted out set bits")
					return budget - left + 1
				}
				*reg(rb, in.Dst) = v
			case ir.OpAShr:
				a, b := *reg(rb, in.A), *reg(rb, in.B)
				if b >= uint64(in.W) {
					if in.Flags&ir.FlagLax != 0 {
						*reg(rb, in.Dst) = 0 // poison in optimised code
						break
					}
					m.fail(st, t, pc, ErrShiftOverflow, "ashr")
					return budget - left + 1
				}
				v := uint64(sx(a, in.W)>>b) & in.Imm
				if in.Flags&ir.FlagExact != 0 && (v<<b)&in.Imm != a {
					m.fail(st, t, pc, ErrOverflow, "ashr exact shifted out set bits")
					return budget - left + 1
				}
				*reg(rb, in.Dst) = v
			case ir.OpAnd:
				*reg(rb, in.Dst) = *reg(rb, in.A) & *reg(rb, in.B)
			case ir.OpOr:
				*reg(rb, in.Dst) = *reg(rb, in.A) | *reg(rb, in.B)
			case ir.OpXor:
				*reg(rb, in.Dst) = *reg(rb, in.A) ^ *reg(rb, in.B)
			case ir.OpEq:
				*reg(rb, in.Dst) = b2u(*reg(rb, in.A) == *reg(rb, in.B))
			case ir.OpNe:
				*reg(rb, in.Dst) = b2u(*reg(rb, in.A) != *reg(rb, in.B))
			case ir.OpUlt:
				*reg(rb, in.Dst) = b2u(*reg(rb, in.A) < *reg(rb, in.B))
			case ir.OpUle:
				*reg(rb, in.Dst) = b2u(*reg(rb, in.A) <= *reg(rb, in.B))
			case ir.OpUgt:
				*reg(rb, in.Dst) = b2u(*reg(rb, in.A) > *reg(rb, in.B))
			case ir.OpUge:
				*reg(rb, in.Dst) = b2u(*reg(rb, in.A) >= *reg(rb, in.B))
			case ir.OpSlt:
				*reg(rb, in.Dst) = b2u(sx(*reg(rb, in.A), in.W) < sx(*reg(rb, in.B), in.W))
			case ir.OpSle:
				*reg(rb, in.Dst) = b2u(sx(*reg(rb, in.A), in.W) <= sx(*reg(rb, in.B), in.W))
			case ir.OpSgt:
				*reg(rb, in.Dst) = b2u(sx(*reg(rb, in.A), in.W) > sx(*reg(rb, in.B), in.W))
			case ir.OpSge:
				*reg(rb, in.Dst) = b2u(sx(*reg(rb, in.A), in.W) >= sx(*reg(rb, in.B), in.W))
			case ir.OpMov:
				*reg(rb, in.Dst) = *reg(rb, in.A)
			case ir.OpMovN:
				copy(regsOf(rb, fn)[in.Dst:in.Dst+int32(in.Imm)], regsOf(rb, fn)[in.A:in.A+int32(in.Imm)])
			case ir.OpSelect:
				if regsOf(rb, fn)[in.A]&1 != 0 {
					regsOf(rb, fn)[in.Dst] = regsOf(rb, fn)[in.B]
				} else {
					regsOf(rb, fn)[in.Dst] = regsOf(rb, fn)[in.C]
				}
			case ir.OpSelectN:
				src := in.C
				if regsOf(rb, fn)[in.A]&1 != 0 {
					src = in.B
				}
				copy(regsOf(rb, fn)[in.Dst:in.Dst+int32(in.Imm)], regsOf(rb, fn)[src:src+int32(in.Imm)])
			case ir.OpTrunc:
				*reg(rb, in.Dst) = *reg(rb, in.A) & in.Imm
			case ir.OpSExt:
				*reg(rb, in.Dst) = uint64(sx(*reg(rb, in.A), in.W)) & in.Imm
			case ir.OpInsert:
				nc := in.C
				copy(regsOf(rb, fn)[in.Dst:in.Dst+nc], regsOf(rb, fn)[in.A:in.A+nc])
				off, k := int32(in.Imm&0xffffffff), int32(in.Imm>>32)
				copy(regsOf(rb, fn)[in.Dst+off:in.Dst+off+k], regsOf(rb, fn)[in.B:in.B+k])
			case opLoadSIdx:
				if k := uint32(in.C) & (maxPromoted - 1); ps.valid>>k&1 != 0 && left >= 5 {
					v := ps.v[k]
					if in.Imm != 0 {
						v &= in.Imm
					}
					*reg(rb, in.Dst) = v
					goto idx
				}
				fallthrough // an opLoadSOp
			case opLoadSF:
				if k := uint32(in.C) & (maxPromoted - 1); in.Op == opLoadSF && ps.valid>>k&1 != 0 && left >= 3 {
					// p->f (fuse.go: fieldLoad): the load of p, its GEPC
					// and the load through it, each counting its step
					v := ps.v[k]
					if in.Imm != 0 {
						v &= in.Imm
					}
					*reg(rb, in.Dst) = v
					g, y := nextInst(in, 1), nextInst(in, 2)
					p := v + g.Imm // (the GEPC of v)
					*reg(rb, g.Dst) = p
					pc += 2
					left -= 2
					in = y
					// The cached load below is OpLoad's, written out: going on
					// to OpLoad's case instead cost gossip_2 +2.4 % host
					// instructions a trace and loop.c +0.24 a step (Go's
					// register allocation in exec).
					if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits {
						if o := uint32(p) & (pageSize - 1); o+uint32(y.W) <= e.n {
							if y.W == 4 {
								q := e.at(o) // (loadLE is not inlined in exec; this is one move)
								v = uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
							} else if y.W == 8 { // a pointer: one move too
								q := (*[8]byte)(unsafe.Add(e.p, o))
								v = uint64(q[0]) | uint64(q[1])<<8 | uint64(q[2])<<16 | uint64(q[3])<<24 |
									uint64(q[4])<<32 | uint64(q[5])<<40 | uint64(q[6])<<48 | uint64(q[7])<<56
							} else {
								v = loadLE(e.bytes(o, y.W), y.W)
							}
							if y.Imm != 0 {
								v &= y.Imm
							}
							*reg(rb, y.Dst) = v
							if y.Flags&fuseOp != 0 && left >= 2 {
								goto loadOp
							}
							pc++
							left--
							if left > 0 { // (checkPCs: an instruction follows the load)
								in = nextInst(y, 1)
								goto dispatch
							}
							continue
						}
					}
					goto dispatch // the load alone (left >= 1), as after the GEPC
				}
				fallthrough // an opLoadS
			case opLoadS, opLoadSOp:
				if k := uint32(in.C) & (maxPromoted - 1); ps.valid>>k&1 != 0 {
					v := ps.v[k]
					if in.Imm != 0 {
						v &= in.Imm
					}
					*reg(rb, in.Dst) = v
					if in.Flags&fuseOp != 0 && left >= 2 {
						goto loadOp
					}
					break
				}
				fallthrough
			case ir.OpLoad, opLoadOp:
				p := *reg(rb, in.A)
				if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits {
					if o := uint32(p) & (pageSize - 1); o+uint32(in.W) <= e.n {
						var v uint64
						if in.W == 4 {
							q := e.at(o) // (loadLE is not inlined in exec; this is one move)
							v = uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
						} else if in.W == 8 { // a pointer: one move too
							q := (*[8]byte)(unsafe.Add(e.p, o))
							v = uint64(q[0]) | uint64(q[1])<<8 | uint64(q[2])<<16 | uint64(q[3])<<24 |
								uint64(q[4])<<32 | uint64(q[5])<<40 | uint64(q[6])<<48 | uint64(q[7])<<56
						} else {
							v = loadLE(e.bytes(o, in.W), in.W)
						}
						if in.Imm != 0 {
							v &= in.Imm
						}
						*reg(rb, in.Dst) = v
						if in.Flags&fuseOp != 0 && left >= 2 {
							goto loadOp
						}
						break
					}
				}
				id := uint32(p >> ir.PtrBlockShift)
				off := uint32(p) - ir.PtrBase(id)
				if id < mem.n {
					ch := mem.chunks[id>>chunkBits]
					b := &ch.b[id&(chunkSize-1)]
					if b.kind-blkConst <= blkHeap-blkConst && uint64(off)+uint64(in.W) <= uint64(b.size) &&
						(b.pages == nil || off&(pageSize-1) <= pageSize-uint32(in.W)) {
						d := lc.fill(mem, ch, b, p, off)
						if b.kind == blkStack {
							if ps.valid != 0 {
								ps.forget(b) // a load through another pointer: see promoSlots
							}
							if in.Op != ir.OpLoad && in.Op != opLoadOp && left > 1 {
								// opLoadS, opLoadSOp or opLoadSIdx of a slot not
								// valid: bind it to the value loaded
								ps.bindLoad(&lc, mem, uint32(in.C)&(maxPromoted-1), p, in.W, d)
							}
						}
						var v uint64
						if in.W == 4 {
							q := (*[4]byte)(d) // (loadLE is not inlined in exec; this is one move)
							v = uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
						} else {
							v = loadLE(d, in.W)
						}
						if in.Imm != 0 {
							v &= in.Imm
						}
						*reg(rb, in.Dst) = v
						if in.Flags&fuseOp != 0 && left >= 2 {
							goto loadOp
						}
						break
					}
				}
				if m.undef && fn.Code[pc].Flags&ir.FlagRMW == 0 && drawUndef(mem, p, in.W, ch) {
					lc.clear() // (the block's descriptor may have been copied)
				}
				v, e := mem.Load(p, uint32(in.W))
				if e != ErrNone {
					m.fail(st, t, pc, e, "load")
					return budget - left + 1
				}
				if in.Imm != 0 {
					v &= in.Imm
				}
				*reg(rb, in.Dst) = v
				if in.Flags&fuseOp != 0 && left >= 2 {
					goto loadOp
				}
			case ir.OpStore, opStoreJmp:
				p := *reg(rb, in.A)
				if in.Flags != 0 { // fuseSlot: a promoted alloca
					k := uint32(in.C) & (maxPromoted - 1)
					// (the last step of the call takes the ordinary path:
					// nothing would use the binding)
					if ps.valid>>(k+maxPromoted)&1 != 0 || left > 1 && ps.bind(&lc, mem, k, p, in.W) {
						v := *reg(rb, in.B)
						if in.W == 4 {
							q := (*[4]byte)(ps.d[k]) // (storeLE is not inlined in exec; this is one move)
							q[0], q[1], q[2], q[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
						} else {
							storeLE(unsafe.Slice((*byte)(ps.d[k]), in.W), in.W, v)
						}
						ps.v[k] = v & in.Imm // Imm: the mask of W bytes
						ps.valid |= 1 << k
						if in.Op == opStoreJmp && left >= 2 {
							pc = int32(nextInst(in, 1).Imm)
							left -= 2
							goto jumped
						}
						goto advance
					}
				}
				if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits && e.w {
					if o := uint32(p) & (pageSize - 1); o+uint32(in.W) <= e.n {
						if in.W == 4 {
							q, v := e.at(o), *reg(rb, in.B) // (storeLE is not inlined in exec; this is one move)
							q[0], q[1], q[2], q[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
						} else {
							storeLE(e.bytes(o, in.W), in.W, *reg(rb, in.B))
						}
						if in.Op == opStoreJmp && left >= 2 {
							pc = int32(nextInst(in, 1).Imm)
							left -= 2
							goto jumped
						}
						break
					}
				}
				id := uint32(p >> ir.PtrBlockShift)
				off := uint32(p) - ir.PtrBase(id)
				if id < mem.n {
					ch := mem.chunks[id>>chunkBits]
					b := &ch.b[id&(chunkSize-1)]
					if ch.owner == mem.epoch && b.owner == mem.epoch && b.kind-blkGlobal <= blkHeap-blkGlobal &&
						uint64(off)+uint64(in.W) <= uint64(b.size) {
						if b.pages != nil {
							if pg := b.pages[off>>pageBits]; pg.owner != mem.epoch || off&(pageSize-1) > pageSize-uint32(in.W) {
								goto storeSlow
							}
						}
						d := lc.fill(mem, ch, b, p, off)
						if ps.valid != 0 && b.kind == blkStack {
							ps.forget(b) // a store through another pointer: see promoSlots
						}
						storeLE(d, in.W, *reg(rb, in.B))
						if in.Op == opStoreJmp && left >= 2 {
							pc = int32(nextInst(in, 1).Imm)
							left -= 2
							goto jumped
						}
						break
					}
				}
			storeSlow:
				lc.clear() // a copy-on-write copy moves the block's or page's bytes
				ps.valid = 0
				if e := mem.Store(p, uint32(in.W), *reg(rb, in.B)); e != ErrNone {
					m.fail(st, t, pc, e, "store")
					return budget - left + 1
				}
				if in.Op == opStoreJmp && left >= 2 {
					pc = int32(nextInst(in, 1).Imm)
					left -= 2
					continue
				}
			case ir.OpGEPC:
				*reg(rb, in.Dst) = *reg(rb, in.A) + in.Imm
			case ir.OpGEP1:
				*reg(rb, in.Dst) = *reg(rb, in.A) + uint64(sx(*reg(rb, in.B), in.W)*int64(in.Imm))
			case ir.OpGEPN:
				g := &fn.GEPs[in.Imm]
				p := regsOf(rb, fn)[g.Base] + uint64(g.Off)
				for i, s := range g.Idx {
					p += uint64(sx(regsOf(rb, fn)[s], g.Width[i]) * g.Scale[i])
				}
				regsOf(rb, fn)[in.Dst] = p
			case ir.OpJmp:
				pc = int32(in.Imm)
				left--
				goto jumped
			case ir.OpBr:
				if *reg(rb, in.A)&1 != 0 {
					pc = in.B
				} else {
					pc = in.C
				}
				left--
				goto jumped
			case ir.OpJmpE:
				pc = takeEdge(&fn.Edges[in.Imm], regsOf(rb, fn))
				left--
				continue
			case ir.OpBrE:
				e := in.C
				if regsOf(rb, fn)[in.A]&1 != 0 {
					e = in.B
				}
				pc = takeEdge(&fn.Edges[e], regsOf(rb, fn))
				left--
				continue
			case ir.OpSwitch:
				sw := &fn.Switches[in.Imm]
				x := regsOf(rb, fn)[in.A]
				e := sw.Default
				for i, v := range sw.Vals {
					if v == x {
						e = sw.Targets[i]
						break
					}
				}
				pc = takeEdge(&fn.Edges[e], regsOf(rb, fn))
				left--
				continue
			case ir.OpCall, ir.OpCallInd:
				cs := &fn.Calls[in.Imm]
				var callee *ir.Func
				if in.Op == ir.OpCall {
					callee = m.Prog.Funcs[cs.Callee]
				} else {
					callee = m.funcOf(regsOf(rb, fn)[cs.FnSlot])
					if callee == nil {
						m.fail(st, t, pc, ErrInvalidCall, "call through a pointer that is not a function")
						return budget - left + 1
					}
					if len(callee.Params) > len(cs.Args) {
						m.fail(st, t, pc, ErrInvalidCall, "call of "+callee.Name+" with too few arguments")
						return budget - left + 1
					}
					if callee.External {
						if !platform[callee.Builtin].quiet() {
							lc.clear()
							ps.valid = 0
						}
						fr.PC = pc
						res := m.builtin(st, t, callee.Builtin, cs, regsOf(rb, fn), ch)
						if res == bBlock {
							return budget - left
						}
						if m.overLimit(st, t, pc) {
							return budget - left + 1
						}
						left--
						if res != bNext {
							return budget - left
						}
						pc++
						if platform[callee.Builtin].yields {
							fr.PC = pc
							return budget - left
						}
						continue
					}
				}
				fr.PC = pc + 1
				callerBase := fr.Base
				retDst := int32(-1)
				if cs.Ret >= 0 {
					retDst = callerBase + cs.Ret
				}
				if !m.pushFrame(st, t, callee, retDst, cs.RetSlots) {
					m.fail(st, t, pc, ErrStackOverflow, fmt.Sprintf("call depth %d is the per-run limit", m.MaxDepth))
					return budget - left + 1
				}
				fr = &t.Frames[len(t.Frames)-1]
				regs := t.Regs
				for i, a := range cs.Args {
					if i >= len(callee.Params) {
						break
					}
					k := cs.ArgSlots[i]
					dst := fr.Base + callee.Params[i]
					src := callerBase + a
					if k == 1 {
						regs[dst] = regs[src]
					} else {
						copy(regs[dst:dst+k], regs[src:src+k])
					}
				}
				if callee.HasByval {
					lc.clear()
					if e := m.copyByval(st, t, fr, callee); e != ErrNone {
						if !m.overLimit(st, t, 0) {
							m.fail(st, t, 0, e, "byval argument")
						}
						return budget - left + 1
					}
				}
				fn = callee
				code = m.codeOf(fn)
				pc = 0
				left--
				if callee.Atomic && t.Atomic == 1 {
					fr.PC = pc
					return budget - left // entering an atomic section is a scheduling point
				}
				continue frames
			case opUniform:
				goto uniform
			case ir.OpCallB:
				b := ir.Builtin(in.B)
				if platform[b].choice != nil {
					// a draw: only the call's result changes (drawCall)
					fr.PC = pc
					if !m.drawCall(st, t, b, &fn.Calls[in.Imm], regsOf(rb, fn), ch) {
						return budget - left + 1
					}
					pc++
					left--
					continue
				}
				if !platform[b].quiet() { // (a quiet call touches no memory)
					lc.clear()
					ps.valid = 0
				}
				cs := &fn.Calls[in.Imm]
				fr.PC = pc
				res := m.builtin(st, t, b, cs, regsOf(rb, fn), ch)
				if res == bBlock {
					return budget - left
				}
				if m.overLimit(st, t, pc) {
					return budget - left + 1
				}
				left--
				switch res {
				case bNext:
					pc++
					if platform[b].yields {
						fr.PC = pc
						return budget - left
					}
					continue
				case bFrame:
					fr = &t.Frames[len(t.Frames)-1]
					fn = fr.Fn
					code = m.codeOf(fn)
					pc = fr.PC
					continue frames
				default:
					return budget - left
				}
			case ir.OpRet:
				top := &t.Frames[len(t.Frames)-1]
				var rv [8]uint64
				k := int32(in.Imm)
				var big []uint64
				if in.A >= 0 {
					if k <= 8 {
						if k == 1 {
							rv[0] = regsOf(rb, fn)[in.A]
						} else {
							copy(rv[:k], regsOf(rb, fn)[in.A:in.A+k])
						}
					} else {
						big = append([]uint64(nil), regsOf(rb, fn)[in.A:in.A+k]...)
					}
				}
				if top.OnceAddr != 0 {
					lc.clear()
				}
				for _, id := range t.Allocas[top.AllocaMark:] {
					lc.drop(mem, id) // the frame's blocks die
				}
				m.popAllocas(st, t, top.AllocaMark)
				if top.Atomic {
					t.Atomic--
				}
				if top.OnceAddr != 0 {
					mem.Store(top.OnceAddr, 4, onceDone)
				}
				left--
				if len(t.Frames) == 1 {
					m.threadReturn(st, t, rv[0])
					return budget - left
				}
				retDst, retN := top.RetDst, top.RetN
				t.Frames = t.Frames[:len(t.Frames)-1]
				t.Regs = t.Regs[:top.Base]
				if retDst >= 0 && in.A >= 0 {
					if big != nil {
						copy(t.Regs[retDst:retDst+retN], big)
					} else {
						if retN == 1 {
							t.Regs[retDst] = rv[0]
						} else {
							copy(t.Regs[retDst:retDst+retN], rv[:retN])
						}
					}
				}
				fr = &t.Frames[len(t.Frames)-1]
				fn = fr.Fn
				code = m.codeOf(fn)
				pc = fr.PC
				if top.Atomic && t.Atomic == 0 {
					return budget - left // leaving an atomic section is a scheduling point
				}
				continue frames
			case ir.OpAlloca:
				size := in.Imm
				if in.A >= 0 {
					cnt := sx(regsOf(rb, fn)[in.A], in.W)
					if cnt < 0 {
						m.fail(st, t, pc, ErrBadArg, "negative alloca size")
						return budget - left + 1
					}
					size *= uint64(cnt)
				}
				if size > 1<<31 {
					m.fail(st, t, pc, ErrStackOverflow, "alloca too large")
					return budget - left + 1
				}
				id := mem.newBlock(uint32(size), blkStack, t.ID)
				ps.valid = 0 // a promoted alloca run again has a new block
				if in.Aux == ir.AuxUndef && m.undef {
					// (never promoted: its address is passed on, or it
					// is an aggregate; not cached: flagged, undef.go)
					if in.B > 0 { // its fields, not its padding
						mem.markUndefMask(id, fn.UndefMasks[in.B-1])
					} else {
						mem.markUndef(id)
					}
					lc.drop(mem, id)
				} else if in.Flags != 0 && left > 1 { // fuseSlot: promoted, bound at once
					ps.bind(&lc, mem, uint32(in.C)&(maxPromoted-1), ir.MakePtr(id, 0), uint8(in.Imm))
				} else {
					lc.alloc(mem, id)
				}
				t.Allocas = append(t.Allocas, id)
				regsOf(rb, fn)[in.Dst] = ir.MakePtr(id, 0)
				if mem.refused != 0 {
					m.overLimit(st, t, pc)
					return budget - left + 1
				}
			case opCmpBr:
				cmp = *reg(rb, in.A) == *reg(rb, in.B)
				goto cmpBr
			case opCmpBr + 1:
				cmp = *reg(rb, in.A) != *reg(rb, in.B)
				goto cmpBr
			case opCmpBr + 2:
				cmp = *reg(rb, in.A) < *reg(rb, in.B)
				goto cmpBr
			case opCmpBr + 3:
				cmp = *reg(rb, in.A) <= *reg(rb, in.B)
				goto cmpBr
			case opCmpBr + 4:
				cmp = *reg(rb, in.A) > *reg(rb, in.B)
				goto cmpBr
			case opCmpBr + 5:
				cmp = *reg(rb, in.A) >= *reg(rb, in.B)
				goto cmpBr
			case opCmpBr + 6:
				cmp = sx(*reg(rb, in.A), in.W) < sx(*reg(rb, in.B), in.W)
				goto cmpBr
			case opCmpBr + 7:
				cmp = sx(*reg(rb, in.A), in.W) <= sx(*reg(rb, in.B), in.W)
				goto cmpBr
			case opCmpBr + 8:
				cmp = sx(*reg(rb, in.A), in.W) > sx(*reg(rb, in.B), in.W)
				goto cmpBr
			case opCmpBr + 9:
				cmp = sx(*reg(rb, in.A), in.W) >= sx(*reg(rb, in.B), in.W)
				goto cmpBr
			case opSExtGEP:
				goto sextGEP
			case opGEPLoad:
				goto gepLoad
			case opGEPStore:
				goto gepStore
			case opJmpJmp:
				if left >= 2 {
					pc = int32(instAt(code, int32(in.Imm)).Imm)
					left -= 2
				} else {
					pc = int32(in.Imm)
					left--
				}
				goto jumped
			case ir.OpUnreachable:
				m.fail(st, t, pc, ErrUnreachable, "")
				return budget - left + 1
			case ir.OpTrap:
				m.fail(st, t, pc, ErrTrap, "")
				return budget - left + 1
			case ir.OpNop, ir.OpFence:
			case opPtrEq, opPtrNe:
				eq, wrote := m.ptrEqual(st, *reg(rb, in.A), *reg(rb, in.B), ch)
				if wrote {
					lc.clear() // (a block descriptor may have been copied)
				}
				*reg(rb, in.Dst) = b2u(eq == (in.Op == opPtrEq))
			default:
				lc.clear()
				ps.valid = 0 // e.g. stackrestore frees allocas
				if m.undef {
					switch in.Op {
					case ir.OpLoadAgg:
						drawUndefAgg(mem, &fn.Aggs[in.Imm], *reg(rb, in.A), ch)
					case ir.OpAtomicRMW, ir.OpCmpXchg: // (they read their bytes)
						drawUndef(mem, *reg(rb, in.A), in.W, ch)
					}
				}
				if e, detail := m.execSlow(st, t, in, regsOf(rb, fn)); e != ErrNone {
					m.fail(st, t, pc, e, detail)
					return budget - left + 1
				}
			}
		advance: // in goes on to the next instruction
			pc++
			left--
			if left > 0 { // (checkPCs: an instruction follows in)
				in = nextInst(in, 1)
				goto dispatch
			}
			continue

			// Second halves of superinstructions (fuse.go).
		cmpBr:
			*reg(rb, in.Dst) = b2u(cmp)
			if left >= 2 {
				x := nextInst(in, 1)
				if x.Op == ir.OpBr {
					if *reg(rb, x.A)&1 != 0 {
						pc = x.B
					} else {
						pc = x.C
					}
				} else {
					e := x.C
					if *reg(rb, x.A)&1 != 0 {
						e = x.B
					}
					pc = takeEdge(&fn.Edges[e], regsOf(rb, fn))
				}
				left -= 2
				goto jumped
			}
			pc++
			left--
			continue
		loadOp:
			{
				x := nextInst(in, 1)
				a, b := *reg(rb, x.A), *reg(rb, x.B)
				var v uint64
				switch ir.Op(in.Aux) {
				case auxAddNSW32:
					v = (a + b) & x.Imm
					if addNSW32(a, b, v) {
						goto loadOnly
					}
				case auxSubNSW32:
					v = (a - b) & x.Imm
					if subNSW32(a, b, v) {
						goto loadOnly
					}
				case auxAdd:
					v = (a + b) & x.Imm
				case auxSub:
					v = (a - b) & x.Imm
				case auxMul:
					v = (a * b) & x.Imm
				case ir.OpAdd:
					v = (a + b) & x.Imm
					if x.Flags != 0 && (x.Flags == ir.FlagNSW && x.W == 32 && addNSW32(a, b, v) || (x.Flags != ir.FlagNSW || x.W != 32) && addOverflow(a, b, v, x)) {
						goto loadOnly
					}
				case ir.OpSub:
					v = (a - b) & x.Imm
					if x.Flags != 0 && (x.Flags == ir.FlagNSW && x.W == 32 && subNSW32(a, b, v) || (x.Flags != ir.FlagNSW || x.W != 32) && subOverflow(a, b, v, x)) {
						goto loadOnly
					}
				case ir.OpMul:
					v = (a * b) & x.Imm
					if x.Flags != 0 && mulOverflow(a, b, x) {
						goto loadOnly
					}
				case ir.OpLShr:
					if b >= uint64(x.W) {
						goto loadOnly
					}
					v = a >> b
				case ir.OpAnd:
					v = a & b
				case ir.OpOr:
					v = a | b
				case ir.OpXor:
					v = a ^ b
				case ir.OpSExt:
					v = uint64(sx(a, x.W)) & x.Imm
				case ir.OpTrunc:
					v = a & x.Imm
				case ir.OpEq:
					v = b2u(a == b)
				case ir.OpNe:
					v = b2u(a != b)
				case ir.OpUlt:
					v = b2u(a < b)
				case ir.OpUle:
					v = b2u(a <= b)
				case ir.OpUgt:
					v = b2u(a > b)
				case ir.OpUge:
					v = b2u(a >= b)
				case ir.OpSlt:
					v = b2u(sx(a, x.W) < sx(b, x.W))
				case ir.OpSle:
					v = b2u(sx(a, x.W) <= sx(b, x.W))
				case ir.OpSgt:
					v = b2u(sx(a, x.W) > sx(b, x.W))
				default:
					v = b2u(sx(a, x.W) >= sx(b, x.W))
				}
				*reg(rb, x.Dst) = v
				if in.Flags&(fuseBr|fuseStore|fuseChain|fuseChainS) != 0 && left >= 3 {
					if in.Flags&fuseBr != 0 {
						// load-compare-branch
						y := nextInst(in, 2)
						if *reg(rb, y.A)&1 != 0 {
							pc = y.B
						} else {
							pc = y.C
						}
						left -= 3
						goto jumped
					}
					if in.Flags&fuseStore != 0 {
						// load-op-store: the store's fast path through the cache
						y := nextInst(in, 2)
						if y.Flags != 0 { // fuseSlot: a promoted alloca, bound
							if k := uint32(y.C) & (maxPromoted - 1); ps.valid>>(k+maxPromoted)&1 != 0 {
								v := *reg(rb, y.B)
								if y.W == 4 {
									q := (*[4]byte)(ps.d[k]) // (storeLE is not inlined in exec; this is one move)
									q[0], q[1], q[2], q[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
								} else {
									storeLE(unsafe.Slice((*byte)(ps.d[k]), y.W), y.W, v)
								}
								ps.v[k] = v & y.Imm
								ps.valid |= 1 << k
								goto opStored
							}
						} else {
							p := *reg(rb, y.A)
							if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits && e.w {
								if o := uint32(p) & (pageSize - 1); o+uint32(y.W) <= e.n {
									if y.W == 4 {
										q, v := e.at(o), *reg(rb, y.B) // (storeLE is not inlined in exec; this is one move)
										q[0], q[1], q[2], q[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
									} else {
										storeLE(e.bytes(o, y.W), y.W, *reg(rb, y.B))
									}
									goto opStored
								}
							}
						}
					}
					if in.Flags&fuseChain != 0 {
						// an opSExtGEP, opGEPLoad or opGEPStore after the
						// pair runs now
						pc += 2
						left -= 2
						y := nextInst(in, 2)
						in = y
						switch y.Op {
						case opSExtGEP:
							goto sextGEP
						case opGEPStore:
							goto gepStore
						}
						goto gepLoad
					}
					if in.Flags&(fuseStore|fuseChainS) == fuseChainS {
						// a promoted load after the pair runs now
						pc += 2
						left -= 2
						in = nextInst(in, 2)
						goto loadSNext
					}
				}
				pc += 2
				left -= 2
				if in.Flags&fuseNext != 0 && left > 0 {
					in = nextInst(in, 2)
					goto dispatch
				}
				continue
			}
		loadSNext:
			// in is an opLoadS or opLoadSOp at pc, and left > 0: it runs
			// now when its slot is valid (as after a jump)
			if k := uint32(in.C) & (maxPromoted - 1); ps.valid>>k&1 != 0 {
				v := ps.v[k]
				if in.Imm != 0 {
					v &= in.Imm
				}
				*reg(rb, in.Dst) = v
				if in.Flags&fuseOp != 0 && left >= 2 {
					goto loadOp
				}
				pc++
				left--
			}
			continue
		idx:
			// in is an opLoadSIdx (fuse.go: idxChain) at pc whose load has
			// run, and left >= 5: the rest of its chain (the sext, or add
			// nsw and sext, the GEP, and the load or store through it) runs
			// now when the add does not overflow and the access hits the
			// cache (a store: a writable window), each instruction
			// counting its step; otherwise the load-op pair runs as an
			// opLoadSOp. idxChain guarantees that the chain's results are
			// distinct registers that none of its instructions reads but
			// as its predecessor's result, so they are written only once
			// the chain is sure to run.
			{
				j := *reg(rb, in.Dst)
				b := in // the instruction before the sext: in, or the add
				if in.Aux == uint8(auxAddNSW32) {
					b = nextInst(in, 1)
					c := *reg(rb, b.B)
					s := (j + c) & b.Imm
					if addNSW32(j, c, s) {
						goto loadOp // fails there, alone
					}
					j = s // the add's result
				}
				se, g, y := nextInst(b, 1), nextInst(b, 2), nextInst(b, 3)
				ix := uint64(sx(j, se.W)) & se.Imm
				p := *reg(rb, g.A) + ix*g.Imm // (sx of 64 bits is the identity)
				e := &lc[(p>>pageBits)&(lcSize-1)]
				o := uint32(p) & (pageSize - 1)
				if e.key != p>>pageBits || o+uint32(y.W) > e.n {
					goto loadOp
				}
				// k: the steps of the chain before its access (3 or 4)
				k := (uintptr(unsafe.Pointer(y)) - uintptr(unsafe.Pointer(in))) / unsafe.Sizeof(ir.Inst{})
				if y.Op == ir.OpLoad || y.Op == opLoadOp {
					var v uint64
					if y.W == 4 {
						q := e.at(o) // (loadLE is not inlined in exec; this is one move)
						v = uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
					} else {
						v = loadLE(e.bytes(o, y.W), y.W)
					}
					if y.Imm != 0 {
						v &= y.Imm
					}
					if b != in {
						*reg(rb, b.Dst) = j
					}
					*reg(rb, se.Dst) = ix
					*reg(rb, g.Dst) = p
					*reg(rb, y.Dst) = v
					pc += int32(k)
					left -= uint64(k)
					in = y
					if y.Flags&fuseOp != 0 && left >= 2 {
						goto loadOp
					}
					// (advance's tail written out: through the label,
					// bubble -O0 took 1 % more host instructions a step)
					pc++
					left--
					if left > 0 { // (checkPCs: an instruction follows the load)
						in = nextInst(y, 1)
						goto dispatch
					}
					continue
				}
				if !e.w {
					goto loadOp
				}
				if b != in {
					*reg(rb, b.Dst) = j
				}
				*reg(rb, se.Dst) = ix
				*reg(rb, g.Dst) = p
				if y.W == 4 {
					q, v := e.at(o), *reg(rb, y.B) // (storeLE is not inlined in exec; this is one move)
					q[0], q[1], q[2], q[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
				} else {
					storeLE(e.bytes(o, y.W), y.W, *reg(rb, y.B))
				}
				pc += int32(k)
				left -= uint64(k)
				if y.Op == opStoreJmp && left >= 2 {
					pc = int32(nextInst(y, 1).Imm)
					left -= 2
					goto jumped
				}
				pc++ // (advance's tail, written out as above)
				left--
				if left > 0 { // (checkPCs: an instruction follows the store)
					in = nextInst(y, 1)
					goto dispatch
				}
				continue
			}
		sextGEP:
			*reg(rb, in.Dst) = uint64(sx(*reg(rb, in.A), in.W)) & in.Imm
			if left >= 2 {
				x := nextInst(in, 1)
				*reg(rb, x.Dst) = *reg(rb, x.A) + uint64(sx(*reg(rb, x.B), x.W)*int64(x.Imm))
				pc += 2
				left -= 2
				goto jumped // a load of the address (a[i]) runs now when it hits the cache
			}
			pc++
			left--
			continue
		gepLoad:
			*reg(rb, in.Dst) = *reg(rb, in.A) + uint64(sx(*reg(rb, in.B), in.W)*int64(in.Imm))
			if left >= 2 {
				x := nextInst(in, 1)
				p := *reg(rb, x.A)
				if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits {
					if o := uint32(p) & (pageSize - 1); o+uint32(x.W) <= e.n {
						var v uint64
						if x.W == 4 {
							q := e.at(o) // (loadLE is not inlined in exec; this is one move)
							v = uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
						} else {
							v = loadLE(e.bytes(o, x.W), x.W)
						}
						if x.Imm != 0 {
							v &= x.Imm
						}
						*reg(rb, x.Dst) = v
						pc += 2
						left -= 2
						continue
					}
				}
			}
			pc++
			left--
			continue
		gepStore:
			*reg(rb, in.Dst) = *reg(rb, in.A) + uint64(sx(*reg(rb, in.B), in.W)*int64(in.Imm))
			if left >= 2 {
				x := nextInst(in, 1)
				p := *reg(rb, x.A)
				if e := &lc[(p>>pageBits)&(lcSize-1)]; x.Flags == 0 && e.key == p>>pageBits && e.w {
					if o := uint32(p) & (pageSize - 1); o+uint32(x.W) <= e.n {
						if x.W == 4 {
							q, v := e.at(o), *reg(rb, x.B) // (storeLE is not inlined in exec; this is one move)
							q[0], q[1], q[2], q[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
						} else {
							storeLE(e.bytes(o, x.W), x.W, *reg(rb, x.B))
						}
						if x.Op == opStoreJmp && left >= 3 {
							pc = int32(nextInst(in, 2).Imm)
							left -= 3
							goto jumped
						}
						pc += 2
						left -= 2
						continue
					}
				}
			}
			pc++
			left--
			continue
		opStored:
			// load-op-store: a jump after it (fuseJmp) runs too
			if in.Flags&fuseJmp != 0 && left >= 4 {
				pc = int32(nextInst(in, 3).Imm)
				left -= 4
				goto jumped
			}
			pc += 3
			left -= 3
			if in.Flags&fuseChainS != 0 && left > 0 {
				in = nextInst(in, 3) // a promoted load after the store
				goto loadSNext
			}
			continue
		jumped:
			// A jump or branch went to pc and counted its step (or a fused
			// pair or chain ended before pc): a jump there runs now, and a
			// load there when its access hits the cache (the step it counts
			// is its own, so this is no more than the loop's next turn).
			if left > 0 {
				y := instAt(code, pc)
				if y.Op-opLoadS <= opLoadSOp-opLoadS { // opLoadS, opLoadSOp
					if k := uint32(y.C) & (maxPromoted - 1); ps.valid>>k&1 != 0 {
						v := ps.v[k]
						if y.Imm != 0 {
							v &= y.Imm
						}
						*reg(rb, y.Dst) = v
						in = y
						if y.Flags&fuseOp != 0 && left >= 2 {
							goto loadOp
						}
						pc++
						left--
					}
				} else if y.Op == ir.OpJmp || y.Op == opJmpJmp {
					pc = int32(y.Imm)
					left--
					goto jumped
				} else if y.Op == ir.OpLoad || y.Op == opLoadOp {
					p := *reg(rb, y.A)
					if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits {
						if o := uint32(p) & (pageSize - 1); o+uint32(y.W) <= e.n {
							var v uint64
							if y.W == 4 {
								q := e.at(o) // (loadLE is not inlined in exec; this is one move)
								v = uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
							} else {
								v = loadLE(e.bytes(o, y.W), y.W)
							}
							if y.Imm != 0 {
								v &= y.Imm
							}
							*reg(rb, y.Dst) = v
							in = y
							if y.Flags&fuseOp != 0 && left >= 2 {
								goto loadOp
							}
							pc++
							left--
						}
					}
				} else {
					in = y // (in the code: no second bounds check)
					goto dispatch
				}
			}
			continue
		loadOnly:
			pc++
			left--
			continue
		uniform:
			// wyvern_uniform (fuse.go: fuseUniform): drawCall, or its
			// draw with a *Rand without the general path
			fr.PC = pc
			if !m.uniformCall(st, t, in, &fn.Calls[in.C], regsOf(rb, fn), ch) {
				return budget - left + 1
			}
			pc++
			left--
		}
		fr.PC = pc
		n := budget - left
		if sl == nil {
			return n
		}
		u := sl.next(st, t, n, ch, &fn.Code[pc])
		if u == nil {
			return n
		}
		budget, left = n+sl.run, sl.run
		if sl.flush {
			// The observer copied the state: the cache's writable
			// windows and the slots' bindings are the copy's now.
			sl.flush = false
			lc.clear()
		} else if u == t {
			goto steps // the same frame goes on, its promoted slots kept
		}
		// Go on with u for sl.run steps: the frames loop takes its registers
		// and drops the promoted slots; the call has taken n steps.
		t = u
		fr = &t.Frames[len(t.Frames)-1]
		fn = fr.Fn
		code = m.codeOf(fn)
		pc = fr.PC
	}
}

// reg returns register i of the frame whose registers start at rb. The
// instructions of exec's hot paths (arithmetic, comparisons, moves, loads,
// stores, GEPs, branches and the superinstructions made of them) index
// their registers through it, without bounds checks: checkRegs verified,
// when the machine was made, that their register operands lie in [0,
// NRegs) of their function, and exec checks that every frame it runs has
// that many registers.
func reg(rb unsafe.Pointer, i int32) *uint64 {
	return (*uint64)(unsafe.Add(rb, uintptr(i)*8))
}

// regsOf returns the registers of a frame of fn starting at rb (for the
// instructions that take them as a slice).
func regsOf(rb unsafe.Pointer, fn *ir.Func) []uint64 {
	return unsafe.Slice((*uint64)(rb), fn.NRegs)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func takeEdge(e *ir.Edge, r []uint64) int32 {
	for _, mv := range e.Moves {
		r[mv.Dst] = r[mv.Src]
	}
	return e.PC
}

// funcOf returns the function a pointer designates, or nil.
func (m *Machine) funcOf(p uint64) *ir.Func {
	id := uint32(p >> ir.PtrBlockShift)
	if ir.PtrOff(p) != 0 || id < m.Prog.FirstFuncBlock || id >= m.Prog.FirstFuncBlock+uint32(len(m.Prog.Funcs)) {
		return nil
	}
	return m.Prog.Funcs[id-m.Prog.FirstFuncBlock]
}

func (m *Machine) popAllocas(st *State, t *Thread, mark int32) {
	for i := len(t.Allocas) - 1; i >= int(mark); i-- {
		st.Mem.freeStackBlock(t.Allocas[i])
	}
	t.Allocas = t.Allocas[:mark]
}

// threadReturn finishes a thread whose outermost function returned.
func (m *Machine) threadReturn(st *State, t *Thread, v uint64) {
	st.syncs++
	t.Frames = t.Frames[:0]
	t.Regs = t.Regs[:0]
	t.Done = true
	t.RetVal = v
	if t.ID == 0 {
		st.Status = Exited
		st.ExitCode = int32(v)
	}
}

// addNSW32 and subNSW32 report whether an add or sub nsw of 32 bits (C's
// int arithmetic at -O0) overflows; the interpreter checks them inline and
// the other flags and widths with addOverflow and subOverflow.
func addNSW32(a, b, v uint64) bool {
	return int64(int32(uint32(a)))+int64(int32(uint32(b))) != int64(int32(uint32(v)))
}

func subNSW32(a, b, v uint64) bool {
	return int64(int32(uint32(a)))-int64(int32(uint32(b))) != int64(int32(uint32(v)))
}

func addOverflow(a, b, v uint64, in *ir.Inst) bool {
	w := in.W
	if in.Flags&ir.FlagNSW != 0 {
		if w == 64 {
			if ((a^v)&(b^v))>>63 != 0 {
				return true
			}
		} else if s := sx(a, w) + sx(b, w); s != sx(v, w) {
			return true
		}
	}
	if in.Flags&ir.FlagNUW != 0 {
		if w == 64 {
			return v < a
		}
		return a+b > in.Imm
	}
	return false
}

func subOverflow(a, b, v uint64, in *ir.Inst) bool {
	w := in.W
	if in.Flags&ir.FlagNSW != 0 {
		if w == 64 {
			if ((a^b)&(a^v))>>63 != 0 {
				return true
			}
		} else if s := sx(a, w) - sx(b, w); s != sx(v, w) {
			return true
		}
	}
	if in.Flags&ir.FlagNUW != 0 && b > a {
		return true
	}
	return false
}

func mulOverflow(a, b uint64, in *ir.Inst) bool {
	w := in.W
	if in.Flags&ir.FlagNSW != 0 {
		sa, sb := sx(a, w), sx(b, w)
		if w <= 32 {
			p := sa * sb
			if p != sx(uint64(p)&in.Imm, w) {
				return true
			}
		} else {
			p := sa * sb
			if sa != 0 && (p/sa != sb || (sa == -1 && sb == math.MinInt64)) {
				return true
			}
			if p != sx(uint64(p)&in.Imm, w) {
				return true
			}
		}
	}
	if in.Flags&ir.FlagNUW != 0 {
		hi, lo := bits.Mul64(a, b)
		if hi != 0 || lo > in.Imm {
			return true
		}
	}
	return false
}

// copyByval gives each byval parameter of a new frame its own copy of the
// pointed-to argument, in a stack block of the callee.
func (m *Machine) copyByval(st *State, t *Thread, fr *Frame, callee *ir.Func) ErrKind {
	for i, size := range callee.Byval {
		if size == 0 {
			continue
		}
		slot := fr.Base + callee.Params[i]
		src := t.Regs[slot]
		buf := st.scratchBuf(int(size))
		if e := st.Mem.Read(src, buf); e != ErrNone {
			return e
		}
		id := st.Mem.newBlock(size, blkStack, t.ID)
		t.Allocas = append(t.Allocas, id)
		if st.Mem.refused != 0 {
			return ErrResourceLimit
		}
		p := ir.MakePtr(id, 0)
		u := undefBits(&st.Mem, src, uint64(size))
		st.Mem.Write(p, buf)
		copyUndef(&st.Mem, p, u) // (the copy does not read undefined bytes)
		t.Regs[slot] = p
	}
	return ErrNone
}

// lcSize is the number of entries of an accessCache (a power of two).
const lcSize = 8

// accessCache is a direct-mapped cache of the windows of memory that loads
// and stores reach: the bytes of a small block, or of one page of a large
// block (up to the block's end), keyed by the page number of the pointers
// into them, p >> pageBits. Blocks start on a page boundary of the address
// space (ir.PtrBase), so a key names one block (its id is in the key's high
// bits) and one page of it, and the offset in the window is p's low
// pageBits bits; an access hits when its key matches and it lies inside the
// window, so a hit is an in-bounds access of a live readable block, and of
// an owned writable one for w entries, exactly as the checks of the slow
// path would find. An entry is filled only from a descriptor that passed
// those checks, and the interpreter clears the cache before anything that
// may change a descriptor (allocation, frees, returns, copy-on-write
// copies, platform calls): the zero value is an empty cache (no key matches
// with an empty window).
type accessCache [lcSize]lcEntry

// lcEntry is an entry of an accessCache: its window is the n bytes at p
// (held as a pointer and a length rather than a slice, so that exec's hits
// address the bytes without the slicing and bounds checks of a []byte,
// after their own check of o+W <= n).
type lcEntry struct {
	key uint64
	p   unsafe.Pointer
	n   uint32
	w   bool
}

// set makes e the window d of key k.
func (e *lcEntry) set(k uint64, d []byte, w bool) {
	e.key, e.p, e.n, e.w = k, unsafe.Pointer(unsafe.SliceData(d)), uint32(len(d)), w
}

// at returns the bytes of e's window from offset o on (o+4 <= e.n, checked
// by the caller).
func (e *lcEntry) at(o uint32) *[4]byte {
	return (*[4]byte)(unsafe.Add(e.p, o))
}

// bytes returns the w bytes of e's window at offset o (o+w <= e.n, checked
// by the caller).
func (e *lcEntry) bytes(o uint32, w uint8) []byte {
	return unsafe.Slice((*byte)(unsafe.Add(e.p, o)), w)
}

func (c *accessCache) clear() { *c = accessCache{} }

// drop removes the entries of block id (before its descriptor changes).
// Allocating or killing a stack block changes only its own descriptor (a
// chunk copied on write keeps the other blocks' bytes, and the entries of a
// chunk not owned are read-only).
func (c *accessCache) drop(mem *Memory, id uint32) {
	if mem.blk(id).pages == nil { // one window: the block's first page
		k := ir.MakePtr(id, 0) >> pageBits
		if e := &c[k&(lcSize-1)]; e.key == k {
			e.key, e.p, e.n = 0, nil, 0
		}
		return
	}
	for i := range c {
		if uint32(c[i].key>>(ir.PtrBlockShift-pageBits)) == id {
			c[i].key, c[i].p, c[i].n = 0, nil, 0
		}
	}
}

// alloc caches a stack block just allocated (owned and writable), so that
// the first store to it hits; a large block's pages are dropped instead.
func (c *accessCache) alloc(mem *Memory, id uint32) {
	b := mem.blk(id)
	if b.pages != nil {
		c.drop(mem, id)
		return
	}
	k := ir.MakePtr(id, 0) >> pageBits
	e := &c[k&(lcSize-1)]
	e.set(k, b.data, mem.chunks[id>>chunkBits].owner == mem.epoch && b.owner == mem.epoch)
}

// fill caches the window of block b (in chunk ch) that p, at offset off,
// points into, and returns its bytes from p on. b passed the read checks
// (kind, bounds, and for a large block the access lies inside one page).
func (c *accessCache) fill(mem *Memory, ch *chunk, b *block, p uint64, off uint32) []byte {
	e := &c[(p>>pageBits)&(lcSize-1)]
	w := ch.owner == mem.epoch && b.owner == mem.epoch && b.kind-blkGlobal <= blkHeap-blkGlobal
	if b.pages == nil {
		e.set(p>>pageBits, b.data, w)
		return b.data[off:]
	}
	pg := b.pages[off>>pageBits]
	start := off &^ (pageSize - 1)
	e.set(p>>pageBits, pg.data[:min(pageSize, b.size-start)], w && pg.owner == mem.epoch)
	return pg.data[off&(pageSize-1):]
}
