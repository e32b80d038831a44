package symbolic

// Mutual exclusion as a lemma of the partial-order encoding.
//
// A mutex is a word that pthread_mutex_lock reads as 0 and sets to the
// owner, pthread_mutex_unlock sets back to 0, and pthread_cond_wait
// releases (its first step) and takes again (its second), all through
// reads-from like any memory (encode_po.go). That two critical sections
// never overlap follows, but only through chains of reads-from choices and
// clock comparisons that a solver finds late: proving the corpus's
// condition-variable handshake took boolector about 20 CPU seconds
// without the lemma below.
//
// Call a location a mutex when lock, unlock or wait groups access it and
// nothing else does (no plain load or store, no trylock, init or destroy),
// each such group accessing that one location. Then, in every vm
// execution, once a thread T1 has acquired it (a lock or a wait's second
// step that completes), no other thread acquires it until T1 released it
// (an unlock or a wait's first step): an acquire needs the word to be 0, T1
// set it to T1+1, and only T1's release sets it back (another thread's
// unlock or wait of it fails on a word that is not its own id + 1; a failing
// release ends the run with an error). So for acquires A1 of T1 and A2 of
// another thread T2, both executed,
//
//	clock(A1) < clock(A2)  ⇒  some release R of T1 after A1 (in program
//	                          order, so a later group) is executed and
//	                          clock(R) < clock(A2).
//
// Every execution satisfies it (give each event the time of its step, as
// for the encoding's other constraints), so asserting it removes no
// execution: it only tells the solver what it would have derived.

// sync kinds of a group
const (
	poAcquire = 1
	poRelease = 2
)

// poMutexOrder asserts the lemma above over accs (poWords' accesses).
func (e *encoder) poMutexOrder(accs []poAcc) {
	po := e.po
	mutexOf := map[int]poLoc{} // sync group → its location
	bad := map[poLoc]bool{}
	var locs []poLoc
	seen := map[poLoc]bool{}
	for _, a := range accs {
		if !seen[a.loc] {
			seen[a.loc] = true
			locs = append(locs, a.loc)
		}
		if po.grps[a.grp].sync == 0 {
			bad[a.loc] = true // a plain access, a trylock, an init...
			continue
		}
		if l, ok := mutexOf[a.grp]; ok && l != a.loc {
			bad[l], bad[a.loc] = true, true // a group of two locations
		}
		mutexOf[a.grp] = a.loc
	}
	for _, l := range locs {
		if bad[l] {
			continue
		}
		var acq, rel []int
		for gi := range po.grps {
			if m, ok := mutexOf[gi]; !ok || m != l {
				continue
			}
			if po.grps[gi].sync == poAcquire {
				acq = append(acq, gi)
			} else {
				rel = append(rel, gi)
			}
		}
		for _, a1 := range acq {
			g1 := po.grps[a1]
			for _, a2 := range acq {
				g2 := po.grps[a2]
				if g2.th == g1.th {
					continue
				}
				var ends []Term
				for _, r := range rel {
					gr := po.grps[r]
					if gr.th == g1.th && r > a1 {
						ends = append(ends, and2(e.poExec(gr.g, gr.clk), e.clkLT(gr.clk, g2.clk)))
					}
				}
				e.implies(And(e.poExec(g1.g, g1.clk), e.poExec(g2.g, g2.clk), e.clkLT(g1.clk, g2.clk)), or(ends...))
				e.terms++
			}
		}
	}
}

// poSignalOrder asserts, in a signalled encoding, that each executed
// reacquire of a wait on a constant condition variable has a signal or
// broadcast of it by another thread executed between the wait's release and
// the reacquire. This removes the spurious wakeups that LODIN's platform,
// on which witnesses replay, does not have (a signal waking several
// waiters is still allowed: such a violation does not replay). It removes
// executions POSIX allows, so provePO uses the encoding only to look for a
// violation that replays, never for a proof.
//
// The wait picks the signal that woke it, and, as under LODIN, a signal
// (not a broadcast) wakes one waiter, the one that arrived first: no two
// waits pick one signal, and a wait that picks a signal arrived (released)
// after every other waiter of the condition variable still waiting then
// (one that released before it and picked no earlier signal). Both only
// remove executions LODIN's platform does not have, which would not
// replay (a model waking two waiters with one signal did not replay on
// mt_condvar_if.c once z3 decided the clocks as integers).
func (e *encoder) poSignalOrder() {
	po := e.po
	type pick struct {
		w, s int // indexes into po.waits and po.signals
		v    Term
	}
	var picks []pick
	for wi, w := range po.waits {
		if !w.cv.isConst() || w.rel < 0 {
			continue
		}
		gw, gr := po.grps[w.grp], po.grps[w.rel]
		var by []Term
		for si, sg := range po.signals {
			gs := po.grps[sg.grp]
			if gs.th == gw.th || !sg.cv.isConst() || sg.cv.c != w.cv.c {
				continue
			}
			p := e.q.Bool(e.fresh("wk"))
			e.terms++
			e.implies(p, And(e.poExec(gs.g, gs.clk), e.clkLT(gr.clk, gs.clk), e.clkLT(gs.clk, gw.clk)))
			picks = append(picks, pick{wi, si, p})
			by = append(by, p)
		}
		e.implies(e.poExec(gw.g, gw.clk), or(by...))
		e.terms++
	}
	for i, p := range picks {
		sg := po.signals[p.s]
		if sg.bcast {
			continue
		}
		for _, p2 := range picks[i+1:] {
			if p2.s == p.s {
				e.q.Assert(not(and2(p.v, p2.v)))
				e.terms++
			}
		}
		// FIFO: another waiter of the variable released before this one
		// and still waiting at the signal would be woken instead
		w, gs := po.waits[p.w], po.grps[sg.grp]
		for wi2, w2 := range po.waits {
			if wi2 == p.w || w2.rel < 0 || !w2.cv.isConst() || w2.cv.c != w.cv.c || po.grps[w2.grp].th == po.grps[w.grp].th {
				continue
			}
			r2 := po.grps[w2.rel]
			var earlier []Term // w2 was woken before the signal
			for _, q := range picks {
				if q.w == wi2 {
					earlier = append(earlier, and2(q.v, e.clkLT(po.grps[po.signals[q.s].grp].clk, gs.clk)))
				}
			}
			before := And(e.poExec(r2.g, r2.clk), e.clkLT(r2.clk, po.grps[w.rel].clk))
			e.implies(and2(p.v, before), or(earlier...))
			e.terms++
		}
	}
}
