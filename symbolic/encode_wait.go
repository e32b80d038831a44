package symbolic

import (
	"fmt"
	"slices"

	"github.com/wyvernmc/wyvern/ir"
)

// Wait-loop reduction for the partial-order encoding.
//
// The partial-order encoding gives pthread_cond_wait(c, m) POSIX's
// semantics with spurious wakeups (encode_po.go): a release step U (m must
// be held by the thread T; m := 0) and, at any later time when m is free,
// a reacquire step L (m := T+1); signals change nothing. Under them
// `while (count == 0) pthread_cond_wait(&c, &m);` can go round as often as
// the scheduler likes, so every unwinding bound cuts it and no bound would
// prove a program that waits in a loop. Call a loop a wait loop when
//
//   - its blocks hold exactly one call of pthread_cond_wait, w, and every
//     other instruction is one a stutter loop may hold (encode_spin.go:
//     registers, loads and branches, no store, call, allocation, fence or
//     return); its edges back to the header move nothing;
//   - w's arguments are constants or parameters of the function (the same
//     c and m in every iteration);
//   - w is the first instruction of the header, or the first of a block
//     that holds only w and a jump (no moves) to the header (clang's
//     `while (cond) pthread_cond_wait(...)` is the second shape; a rotated
//     `do ... while` the first).
//
// The registers live just before w are then loop invariant: the loop's
// own SSA values are dead at the header (encode_spin.go's argument), in
// the first shape w is where the header starts and in the second nothing
// but a jump to the header follows w, and w's own uses are its arguments.
//
// Claim: every violation reachable at all is reachable by an execution in
// which, in each entry of a wait loop, T executes w at most once. Take an
// execution and one loop entry of T:
//
//  1. An iteration (header back to header) that does not execute w only
//     reads and computes registers: delete it as encode_spin.go deletes a
//     stutter loop's iteration.
//  2. Now every completed iteration executes w exactly once (w's block is
//     the header, or jumps straight to it). Take two consecutive
//     executions U_i L_i and U_{i+1} L_{i+1} of w and delete T's steps from
//     L_i up to and including U_{i+1}: T releases m at U_i and takes it again
//     at L_{i+1} (a spurious wakeup right after U_i allows that). T's state
//     before L_{i+1} is the same in both executions but for dead registers
//     (above). Memory differs only in m, which holds 0 instead of T+1
//     between L_i and U_{i+1}, and only while T held m in the original
//     execution. No other thread's step there observes the difference as
//     long as the only accesses of m's bytes are pthread_mutex_lock,
//     pthread_mutex_unlock and pthread_cond_wait with m as the mutex: a lock
//     of m or a reacquire of m is disabled while T holds m (so none is in the
//     window), and an unlock or a release of m by another thread fails with
//     the same error (m is neither 0 nor T+1 the other thread's id + 1) in
//     both. At U_{i+1} the original execution stores 0 into m, so from there
//     on both executions are in the same state. When the execution ends
//     inside the window (a violation of another thread, or a failing load
//     of T's in the window's header pass), the reduced one ends in the same
//     state but for T's position and m, neither of which the violation
//     depends on; a failing load of T's lies in a pass that step 2 keeps
//     (below).
//
// Repeating both steps leaves, per loop entry, at most one w and then at
// most the part of one more iteration that leaves the loop or ends the
// execution. So the encoding drops every path that arrives at w's block a
// second time in one loop entry (in the header's second pass or later,
// counting by the unwinder's back edges) instead of unrolling or cutting
// it: a wait loop needs unwind 1 and is never cut. Dropping a path only
// removes executions, so every violation found is still a real one.
//
// The condition on m's accesses is checked once every thread is encoded
// (poWaitCheck): when any access of a location that a reduced wait's mutex
// occupies belongs to anything else (a plain load or store, a trylock, an
// init or destroy), the encoding refuses the proof (incomplete). Like the
// stutter loops, the argument is about which states a run reaches: it
// serves the reachability checks the encoder makes, not termination or
// deadlock. It assumes loops are natural (reducible control flow), as the
// unwinder does.

// waitSites caches, per function, its wait loops: w's block position →
// the loop header's position.
func (e *encoder) waitSites(fn *ir.Func, g *graph) map[int]int {
	if e.waits == nil {
		e.waits = map[int]map[int]int{}
	}
	if m, ok := e.waits[fn.Index]; ok {
		return m
	}
	m := map[int]int{}
	for hp := range g.endOf {
		if wp, ok := waitLoop(fn, g, hp); ok {
			m[wp] = hp
		}
	}
	e.waits[fn.Index] = m
	return m
}

// waitLoop reports whether the loop whose header is at position hp is a
// wait loop (above), and the position of w's block.
func waitLoop(fn *ir.Func, g *graph, hp int) (int, bool) {
	loop := naturalLoop(g, hp)
	if loop == nil {
		return 0, false
	}
	h := g.order[hp]
	hpc := g.start[h]
	w := int32(-1)
	for b := range loop {
		for pc := g.start[b]; pc < g.end[b]; pc++ {
			in := &fn.Code[pc]
			if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BCondWait {
				if w >= 0 {
					return 0, false // two waits
				}
				w = pc
				continue
			}
			if !stutterOp(in.Op) {
				return 0, false
			}
			if !isTerminator(in.Op) {
				continue
			}
			for _, ei := range edgesOf(fn, in) {
				if ei < 0 || int(ei) >= len(fn.Edges) {
					return 0, false
				}
				if ed := fn.Edges[ei]; ed.PC == hpc && len(ed.Moves) > 0 {
					return 0, false
				}
			}
		}
	}
	if w < 0 {
		return 0, false
	}
	wb := g.pcBlock[w]
	if g.start[wb] != w {
		return 0, false
	}
	if wb != h {
		j := &fn.Code[w+1]
		if g.end[wb] != w+2 || j.Op != ir.OpJmp || int32(j.Imm) != hpc {
			return 0, false
		}
	}
	in := &fn.Code[w]
	if in.Imm >= uint64(len(fn.Calls)) {
		return 0, false
	}
	for _, a := range fn.Calls[in.Imm].Args {
		if a < fn.ConstBase && !slices.Contains(fn.Params, a) {
			return 0, false
		}
	}
	return g.pos[wb], true
}

// waitDrop reports whether the path taking the edge from position pos to
// position tp arrives at a wait loop's w a second time in the loop's entry
// (count: the back edges taken per header position); it records the
// reduction's use.
func (e *encoder) waitDrop(fn *ir.Func, g *graph, pos, tp int, count map[int]int) bool {
	hp, ok := e.waitSites(fn, g)[tp]
	if !ok {
		return false
	}
	pass := count[hp]
	switch {
	case tp == hp && tp > pos:
		return false // entering the loop
	case tp == hp:
		pass++ // a back edge
	case pos < hp || pos > g.endOf[hp]:
		return false // not from inside the loop
	}
	if pass < 1 {
		return false
	}
	e.po.waitUsed = true
	return true
}

// waitSite reports whether pc of fn is a reduced wait loop's w.
func (e *encoder) waitSite(fn *ir.Func, pc int32) bool {
	g, err := e.graphOf(fn)
	if err != nil || int(pc) >= len(g.pcBlock) {
		return false
	}
	b := g.pcBlock[pc]
	if g.start[b] != pc {
		return false
	}
	_, ok := e.waitSites(fn, g)[g.pos[b]]
	return ok
}

// poWaitCheck refuses the proof when a wait loop was reduced and a
// location of its mutex has an access other than a lock, an unlock or a
// condition wait (above).
func (e *encoder) poWaitCheck() {
	po := e.po
	if !po.waitUsed {
		return
	}
	locs := map[poLoc]bool{}
	for _, a := range po.accs {
		if po.grps[a.grp].wait {
			locs[a.loc] = true
		}
	}
	for _, a := range po.accs {
		if !locs[a.loc] {
			continue
		}
		switch po.grps[a.grp].b {
		case ir.BMutexLock, ir.BMutexUnlock, ir.BCondWait:
			continue
		}
		what := "a plain load or store"
		if b := po.grps[a.grp].b; b != ir.BNone {
			what = b.String()
		}
		e.refuseProof(fmt.Sprintf("the wait-loop reduction needs a mutex used only by lock, unlock and wait; %s accesses one", what))
		return
	}
}
