package termination

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/symbolic"
)

// The loop encoder: one iteration of a loop — every path of the flat code
// from the loop's head back to it — as bit-vector terms over the state at
// the head. A register is a 64-bit term holding the vm's slot (values
// zero-extended); every operation takes the low W bits of its operands, as
// the vm does. Stack variables whose address is only loaded from and stored
// to (clang -O0's locals: tracked) are variables of the state; other memory
// is not modelled: a load from it is a fresh value (it succeeded, so its
// pointer is not null), a store to it changes no tracked variable (their
// addresses never escape). Calls of the program's functions return fresh
// values (their own loops are analysed on their own, and the call graph must
// have no cycle); inner loops change the variables they write to fresh
// values. So the paths over-approximate an iteration (sound for ranking
// functions); a path that went through an inner loop or a call is marked,
// and recurrent sets are only looked for in loops without such paths.

// fnInfo is a function's control-flow graph and loops.
type fnInfo struct {
	f       *ir.Func
	succ    [][]edgeTo
	tracked map[int32]uint8 // alloca slot → access size in bytes
	loops   []*loop
	why     string // why its loops cannot be analysed ("" if they can)
}

type edgeTo struct {
	pc    int32
	moves []ir.Move
}

type loop struct {
	fn   *fnInfo
	head int32
	body map[int32]bool
	loc  string
}

// pathOut is one path from a loop's head.
type pathOut struct {
	back  bool // back to the head (else it leaves the loop or ends the run)
	cond  []symbolic.Term
	mem   map[int32]symbolic.Term
	rough bool // went through an inner loop or a call: over-approximated
	err   bool // ends in an error state of the vm
}

func successors(f *ir.Func, pc int32) ([]edgeTo, error) {
	in := &f.Code[pc]
	edge := func(e int32) edgeTo { return edgeTo{f.Edges[e].PC, f.Edges[e].Moves} }
	switch in.Op {
	case ir.OpJmp:
		return []edgeTo{{pc: int32(in.Imm)}}, nil
	case ir.OpJmpE:
		return []edgeTo{edge(int32(in.Imm))}, nil
	case ir.OpBr:
		return []edgeTo{{pc: in.B}, {pc: in.C}}, nil
	case ir.OpBrE:
		return []edgeTo{edge(in.B), edge(in.C)}, nil
	case ir.OpSwitch:
		sw := &f.Switches[in.Imm]
		out := []edgeTo{edge(sw.Default)}
		for _, t := range sw.Targets {
			out = append(out, edge(t))
		}
		return out, nil
	case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		return nil, nil
	}
	if int(pc)+1 >= len(f.Code) {
		return nil, fmt.Errorf("%s: code ends without a terminator", f.Name)
	}
	return []edgeTo{{pc: pc + 1}}, nil
}

// newFnInfo builds f's CFG, its tracked variables and its natural loops;
// irreducible control flow sets why.
func newFnInfo(f *ir.Func) *fnInfo {
	fi := &fnInfo{f: f, tracked: map[int32]uint8{}}
	n := len(f.Code)
	fi.succ = make([][]edgeTo, n)
	for pc := range f.Code {
		s, err := successors(f, int32(pc))
		if err != nil {
			fi.why = err.Error()
			return fi
		}
		fi.succ[pc] = s
	}
	// tracked allocas
	escaped := map[int32]bool{}
	for _, in := range f.Code {
		if in.Op == ir.OpAlloca && in.A < 0 {
			fi.tracked[in.Dst] = 0
		}
	}
	use := func(s int32) { escaped[s] = true }
	for i := range f.Code {
		in := &f.Code[i]
		switch in.Op {
		case ir.OpAlloca:
		case ir.OpLoad, ir.OpStore:
			if w, ok := fi.tracked[in.A]; ok && (w == 0 || w == in.W) && in.W <= 8 {
				fi.tracked[in.A] = in.W
			} else if ok {
				use(in.A)
			}
			if in.Op == ir.OpStore {
				use(in.B)
			}
		case ir.OpCall, ir.OpCallB, ir.OpCallInd:
			cs := &f.Calls[in.Imm]
			for _, a := range cs.Args {
				use(a)
			}
		case ir.OpGEPN:
			use(f.GEPs[in.Imm].Base)
			for _, s := range f.GEPs[in.Imm].Idx {
				use(s)
			}
		case ir.OpJmp, ir.OpJmpE, ir.OpNop, ir.OpUnreachable, ir.OpTrap, ir.OpFence:
		case ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpRet, ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpGEPC, ir.OpPtrToInt, ir.OpIntToPtr,
			ir.OpExtract, ir.OpMovN, ir.OpLoadAgg:
			use(in.A) // (B and C are pcs, edges or unused)
		default:
			if in.Op >= ir.OpAdd && in.Op <= ir.OpSge || in.Op == ir.OpGEP1 {
				use(in.A)
				use(in.B)
				break
			}
			for _, s := range []int32{in.A, in.B, in.C} {
				use(s)
			}
		}
	}
	for i := range f.Edges {
		for _, mv := range f.Edges[i].Moves {
			use(mv.Src)
		}
	}
	for s, w := range fi.tracked {
		if escaped[s] || w == 0 {
			delete(fi.tracked, s)
		}
	}
	// dominators (iterative, over pcs reachable from 0)
	order := []int32{}
	seen := make([]bool, n)
	var dfs func(int32)
	state := make([]uint8, n) // 1 on stack, 2 done
	var back [][2]int32
	dfs = func(pc int32) {
		seen[pc], state[pc] = true, 1
		for _, e := range fi.succ[pc] {
			switch state[e.pc] {
			case 0:
				dfs(e.pc)
			case 1:
				back = append(back, [2]int32{pc, e.pc})
			}
		}
		state[pc] = 2
		order = append(order, pc)
	}
	dfs(0)
	preds := make([][]int32, n)
	for pc := range f.Code {
		if !seen[pc] {
			continue
		}
		for _, e := range fi.succ[pc] {
			preds[e.pc] = append(preds[e.pc], int32(pc))
		}
	}
	// reverse postorder numbering
	rpo := make([]int, n)
	for i, pc := range order {
		rpo[pc] = len(order) - 1 - i
	}
	idom := make([]int32, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[0] = 0
	intersect := func(a, b int32) int32 {
		for a != b {
			for rpo[a] > rpo[b] {
				a = idom[a]
			}
			for rpo[b] > rpo[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			pc := order[i]
			if pc == 0 {
				continue
			}
			nd := int32(-1)
			for _, p := range preds[pc] {
				if idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[pc] != nd {
				idom[pc], changed = nd, true
			}
		}
	}
	dominates := func(a, b int32) bool {
		for {
			if a == b {
				return true
			}
			if b == 0 || idom[b] < 0 {
				return false
			}
			b = idom[b]
		}
	}
	heads := map[int32]*loop{}
	for _, be := range back {
		u, h := be[0], be[1]
		if !dominates(h, u) {
			fi.why = fmt.Sprintf("%s: irreducible control flow", f.Name)
			return fi
		}
		l := heads[h]
		if l == nil {
			l = &loop{fn: fi, head: h, body: map[int32]bool{h: true}}
			heads[h] = l
			fi.loops = append(fi.loops, l)
		}
		stack := []int32{u}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if l.body[x] {
				continue
			}
			l.body[x] = true
			stack = append(stack, preds[x]...)
		}
	}
	return fi
}
