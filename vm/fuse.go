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
	// instructions of loadOpFusable, whose opcode is in Aux.
	opLoadOp
	// opJmpJmp: OpJmp to an OpJmp.
	opJmpJmp
)

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
			in.Op, in.Aux = opLoadOp, uint8(next.Op)
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

// codeOf returns the code the interpreter runs for fn: m's fused copy, or
// fn's own code for a function m did not prepare.
func (m *Machine) codeOf(fn *ir.Func) []ir.Inst {
	if fn.Index < len(m.code) && m.Prog.Funcs[fn.Index] == fn {
		return m.code[fn.Index]
	}
	return fn.Code
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
