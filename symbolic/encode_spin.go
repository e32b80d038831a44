package symbolic

import "github.com/wyvernmc/wyvern/ir"

// Spin-loop reduction (stutter loops) for the partial-order encoding.
//
// A busy wait such as Peterson's `while (flag[other] == 1 && turn == other);`
// runs as often as the scheduler lets the other thread hold the flag, so
// every unwinding bound cuts it and the partial-order check could never
// prove such a program. But an iteration of such a loop is invisible: call
// a loop a stutter loop when none of its blocks stores, calls, allocates,
// fences or returns (its instructions only compute registers and load), and
// no edge from inside the loop back to its header moves a value into the
// header's phis. Take an execution in which a thread completes an iteration
// (leaves the header and comes back to it):
//
//   - the thread's memory effects in that iteration are reads only, which
//     no other thread observes under sequential consistency, and which
//     write nothing another read could read from;
//   - its state at the header afterwards equals its state before: memory is
//     unchanged, the header's registers get no new value (no moves on the
//     back edge), and every register the iteration wrote is one of the
//     loop's SSA values (the ir gives each LLVM value its own slot, and phi
//     values are written by edge moves), which is dead at the header: a use
//     outside the loop is dominated by its definition, so every path from
//     the header to the use defines the value again before it.
//
// Deleting the iteration's events therefore leaves a valid execution in
// which every thread, this one included, goes through the same states, so
// it reaches the same violations (a violation inside the loop — a failing
// load — lies in an iteration that does not come back to the header, which
// is kept). Repeating this, every violation reachable at all is reachable
// by an execution in which no thread completes an iteration of a stutter
// loop; the encoding drops the back edges of such loops instead of
// unrolling them, so they are never cut by the bound. The argument is about
// which states a run can reach, so it serves the reachability checks the
// encoder makes (errors and violation calls): it says nothing about
// termination, deadlock or data races, which the encoder does not check.
//
// It is used only by the partial-order encoding (EncodeOptions.PartialOrder):
// the round-robin encodings count context switches, which the argument does
// not bound.

// stutterLoop reports whether the loop whose header is at position hp of
// fn's scan order is a stutter loop (above). The answer is cached per
// function and header.
func (e *encoder) stutterLoop(fn *ir.Func, g *graph, hp int) bool {
	if e.stutter == nil {
		e.stutter = map[int]map[int]bool{}
	}
	m := e.stutter[fn.Index]
	if m == nil {
		m = map[int]bool{}
		e.stutter[fn.Index] = m
	}
	if v, ok := m[hp]; ok {
		return v
	}
	v := isStutterLoop(fn, g, hp)
	m[hp] = v
	return v
}

// isStutterLoop computes stutterLoop's answer: the natural loop of the
// header (the blocks that reach one of its back edges without passing it)
// has no instruction with an effect, and its back edges move nothing.
func isStutterLoop(fn *ir.Func, g *graph, hp int) bool {
	loop := naturalLoop(g, hp)
	if loop == nil {
		return false
	}
	h := g.order[hp]
	hpc := g.start[h]
	for b := range loop {
		for pc := g.start[b]; pc < g.end[b]; pc++ {
			in := &fn.Code[pc]
			if !stutterOp(in.Op) {
				return false
			}
			if !isTerminator(in.Op) {
				continue
			}
			// edges back to the header must move nothing
			for _, ei := range edgesOf(fn, in) {
				if ei < 0 || int(ei) >= len(fn.Edges) {
					return false
				}
				if ed := fn.Edges[ei]; ed.PC == hpc && len(ed.Moves) > 0 {
					return false
				}
			}
		}
	}
	return true
}

// naturalLoop is the natural loop of the header at position hp of the
// scan order: the header and the blocks that reach one of its back edges
// without passing it (nil: no back edge reaches it).
func naturalLoop(g *graph, hp int) map[int]bool {
	if hp < 0 || hp >= len(g.order) {
		return nil
	}
	h := g.order[hp]
	preds := make([][]int, len(g.succ))
	for b, ss := range g.succ {
		if g.pos[b] < 0 {
			continue
		}
		for _, s := range ss {
			preds[s] = append(preds[s], b)
		}
	}
	loop := map[int]bool{h: true}
	var work []int
	for _, p := range preds[h] {
		if g.pos[p] >= hp && !loop[p] { // a back edge p → h
			loop[p] = true
			work = append(work, p)
		}
	}
	if len(work) == 0 {
		return nil
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range preds[b] {
			if g.pos[p] >= 0 && !loop[p] {
				loop[p] = true
				work = append(work, p)
			}
		}
	}
	return loop
}

// stutterOp reports whether an instruction may be part of a stutter loop:
// it computes registers, loads or branches, and has no other effect.
func stutterOp(op ir.Op) bool {
	switch op {
	case ir.OpAlloca, ir.OpStore, ir.OpStoreAgg, ir.OpAtomicRMW, ir.OpCmpXchg, ir.OpFence,
		ir.OpCall, ir.OpCallInd, ir.OpCallB, ir.OpStackSave, ir.OpStackRestore,
		ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		return false
	}
	return true
}

// edgesOf lists the edge indices a terminator takes (none for the plain
// jumps and branches, which move nothing).
func edgesOf(fn *ir.Func, in *ir.Inst) []int64 {
	switch in.Op {
	case ir.OpJmpE:
		return []int64{int64(in.Imm)}
	case ir.OpBrE:
		return []int64{int64(in.B), int64(in.C)}
	case ir.OpSwitch:
		if in.Imm >= uint64(len(fn.Switches)) {
			return []int64{-1}
		}
		sw := &fn.Switches[in.Imm]
		out := []int64{int64(sw.Default)}
		for _, t := range sw.Targets {
			out = append(out, int64(t))
		}
		return out
	}
	return nil
}
