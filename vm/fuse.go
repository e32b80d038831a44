package vm

import (
	"encoding/binary"

	"github.com/wyvernmc/wyvern/ir"
)

// Superinstructions. The interpreter runs a copy of each function's code in
// which the first instruction of some frequent pairs carries a fused opcode
// (below); the operands of both instructions, and the second instruction
// itself, are unchanged, so a jump to the second one still runs it alone.
// A fused instruction does the work of its first instruction and, when the
// step budget of the exec call has room for a second step (and, for a load
// as the second half, when its access hits the access cache), that of the
// second one too, counting two steps; otherwise it stops after the first,
// exactly as the unfused code would (a 1-step budget, the multi-threaded
// scheduler's, always runs the halves as two steps). Errors of a second half
// are never raised by the fused path: it falls back to the first half alone
// and the second instruction runs, and fails, on its own.
const (
	// opCmpBr+k: the integer comparison ir.OpEq+k (OpEq..OpSge, ten
	// opcodes) followed by a conditional branch (OpBr or OpBrE).
	opCmpBr ir.Op = 0x80 + iota
	_
	_
	_
	_
	_
	_
	_
	_
	_
	// opSExtGEP: OpSExt followed by OpGEP1.
	opSExtGEP
	// opGEPLoad: OpGEP1 followed by OpLoad.
	opGEPLoad
	// opStoreJmp: OpStore followed by OpJmp.
	opStoreJmp
	// opLoadOp: a non-atomic OpLoad followed by one of the integer
	// instructions of loadOpFusable, whose opcode is in Aux; Flags is
	// fuseStore when a store follows them (load-op-store, the -O0 pattern
	// of x += k on a local).
	opLoadOp
	// opJmpJmp: OpJmp to an OpJmp.
	opJmpJmp
)

// fuseStore marks an opLoadOp followed by an OpStore (in Flags, unused by
// loads).
const fuseStore = 1

// fuseCode returns the code the interpreter runs for fn.
func fuseCode(fn *ir.Func) []ir.Inst {
	code := append([]ir.Inst(nil), fn.Code...)
	for pc := range code {
		in := &code[pc]
		if in.Op == ir.OpJmp {
			if t := int(in.Imm); t < len(fn.Code) && fn.Code[t].Op == ir.OpJmp {
				in.Op = opJmpJmp
			}
			continue
		}
		if pc+1 >= len(code) {
			continue
		}
		next := &fn.Code[pc+1]
		switch {
		case in.Op >= ir.OpEq && in.Op <= ir.OpSge && (next.Op == ir.OpBr || next.Op == ir.OpBrE):
			in.Op = opCmpBr + (in.Op - ir.OpEq)
		case in.Op == ir.OpSExt && next.Op == ir.OpGEP1:
			in.Op = opSExtGEP
		case in.Op == ir.OpGEP1 && next.Op == ir.OpLoad:
			in.Op = opGEPLoad
		case in.Op == ir.OpStore && next.Op == ir.OpJmp:
			in.Op = opStoreJmp
		case in.Op == ir.OpLoad && in.Aux == 0 && loadOpFusable(next):
			in.Op, in.Aux, in.Flags = opLoadOp, uint8(next.Op), 0
			if pc+2 < len(code) && fn.Code[pc+2].Op == ir.OpStore {
				in.Flags = fuseStore
			}
		}
	}
	return code
}

// loadOpFusable reports whether in can be the second half of opLoadOp:
// simple integer arithmetic (an add, sub or mul that overflows under nsw or
// nuw is left to run, and fail, on its own).
func loadOpFusable(in *ir.Inst) bool {
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		return true
	case ir.OpLShr:
		return in.Flags&^ir.FlagLax == 0
	case ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpSExt, ir.OpTrunc:
		return true
	case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
		return true
	}
	return false
}

// codeOf returns the code the interpreter runs for fn: m's fused copy
// (m.code is indexed by ir.Func.Index), or fn's own code for a function m
// did not prepare.
func (m *Machine) codeOf(fn *ir.Func) []ir.Inst {
	if uint(fn.Index) < uint(len(m.code)) {
		return m.code[fn.Index]
	}
	return fn.Code
}

// fuseProgram returns the per-function code of p for m.code, or nil (the
// functions' own code) when some function's Index is not its position.
func fuseProgram(p *ir.Program) [][]ir.Inst {
	code := make([][]ir.Inst, len(p.Funcs))
	for i, f := range p.Funcs {
		if f.Index != i {
			return nil
		}
		code[i] = fuseCode(f)
	}
	return code
}

// loadLE reads a little-endian scalar of w bytes (1, 2, 4 or 8).
func loadLE(d []byte, w uint8) uint64 {
	switch w {
	case 1:
		return uint64(d[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(d))
	case 4:
		return uint64(binary.LittleEndian.Uint32(d))
	default:
		return binary.LittleEndian.Uint64(d)
	}
}

// storeLE writes v as a little-endian scalar of w bytes (1, 2, 4 or 8).
func storeLE(d []byte, w uint8, v uint64) {
	switch w {
	case 1:
		d[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(d, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(d, uint32(v))
	default:
		binary.LittleEndian.PutUint64(d, v)
	}
}
