package symbolic

import (
	"context"
	"fmt"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
)

// Complete threaded encodings: enough round-robin rounds to cover every
// interleaving of the bounded program (issue 30, point 1).
//
// The round-robin encoding (encode_threads.go) is sound for violations:
// every encoded schedule is a vm schedule. It is also complete once the
// rounds are enough for every schedule of the bounded program, and the
// number needed can be bounded from the unrolled program:
//
//   - A context switch needs to happen only before a visible instruction
//     (a shared load or store, a platform call, a __VERIFIER_atomic_ call,
//     main's return) outside atomic sections: the other instructions touch
//     only the thread's registers and own stack, so they commute with the
//     other threads' steps and can be moved to the end of the context
//     before them. Those are exactly the encoder's switch points.
//   - Let V_t be the number of switch points of thread t's unrolled
//     program (distinct instruction executions of the encoder's scan: no
//     path passes one twice). A schedule of the bounded program has at most
//     V_t+1 contexts of thread t.
//   - Map a schedule to rounds greedily: a context goes in the round of the
//     context before it if its thread comes later in round-robin order,
//     else in the next round. Only a switch back to an earlier thread
//     starts a round, and it starts a context of that thread, which is
//     never the last one in order. So 1 + Σ_{t not last} (V_t + 1) rounds
//     hold every schedule (a creator precedes the threads it creates, so a
//     thread never runs in a round before its creation).
//
// With that many rounds, no violation and no execution cut by the
// unwinding bound is a proof for every schedule of the program. Two
// things the round-robin encoding does not encode as the vm may do them
// are then needed or refused:
//
//   - Condition variables: under POSIX (the vm's default platform for E<>
//     and A[]) a signal may wake any waiter and a wait may return without
//     one. EncodeOptions.Spurious lets every wait return once the mutex is
//     free, signalled or not, which includes both; a violation found only
//     that way is not replayed (the witness replays under LODIN's
//     platform), and Check says incomplete.
//   - Block ids are the encoder's, not the vm's (which depend on the
//     schedule): a program that converts pointers to integers gets no proof.
//     Ordering pointers into different objects (undefined in C) is assumed
//     not to happen.

// completeInfo is what a threaded encoding records for the proof: its
// switch points per thread, and why it cannot prove anything (empty: it
// can).
type completeInfo struct {
	sw      map[*slot]map[int]bool // per thread: its switch points (instruction executions)
	sub     int                    // a second switch point at the same instruction (pthread_cond_wait's)
	noProof string
	// the instruction block is at, and per function the registers of its
	// allocas no other thread can reach (localAllocas)
	fn    *ir.Func
	in    *ir.Inst
	local map[int]map[int32]bool
}

// countSwitch records a switch point of the current thread at the current
// instruction execution, unless the thread is main and no other thread
// exists yet (no schedule switches there: no other thread is enabled).
func (e *encoder) countSwitch(s *pstate) {
	if len(e.slots) > 0 && e.th == e.slots[0] && s.nthr.isConst() && s.nthr.c == 1 {
		return
	}
	if e.cinfo.sub == 0 && e.cinfo.in != nil && e.cinfo.fn != nil && (e.cinfo.in.Op == ir.OpLoad || e.cinfo.in.Op == ir.OpStore) {
		if e.cinfo.local == nil {
			e.cinfo.local = map[int]map[int32]bool{}
		}
		l, ok := e.cinfo.local[e.cinfo.fn.Index]
		if !ok {
			l = localAllocas(e.cinfo.fn)
			e.cinfo.local[e.cinfo.fn.Index] = l
		}
		if l[e.cinfo.in.A] {
			return // an access no other thread sees: it commutes with theirs
		}
	}
	if e.cinfo.sw == nil {
		e.cinfo.sw = map[*slot]map[int]bool{}
	}
	m := e.cinfo.sw[e.th]
	if m == nil {
		m = map[int]bool{}
		e.cinfo.sw[e.th] = m
	}
	m[e.instance<<1|e.cinfo.sub] = true
}

// notFollowed records executions the encoding does not follow where c
// holds (they stop): for a proof they count as cut by the bound.
func (e *encoder) notFollowed(c Term) {
	if e.opts.Complete && c != "false" {
		e.unwound = append(e.unwound, e.poCutTerm(nil, e.defBool(c)))
	}
}

// refuseProof records why the encoding cannot prove the program.
func (e *encoder) refuseProof(why string) {
	if e.cinfo.noProof == "" {
		e.cinfo.noProof = why
	}
}

// completeRounds is the number of rounds that holds every schedule of the
// bounded program (see above), and the switch points per thread.
func (e *encoder) completeRounds() (int, []int) {
	n, sws := 1, make([]int, len(e.slots))
	for i, sl := range e.slots {
		sws[i] = len(e.cinfo.sw[sl])
		if i < len(e.slots)-1 {
			n += sws[i] + 1
		}
	}
	return n, sws
}

// pointerBits refuses proofs of a threaded encoding that converts a
// pointer into a block to an integer or back (ptrtoint, inttoptr of in
// on v): its block ids are not the vm's. A constant of block 0 (an
// integer passed as a pointer: (void *)1L) converts the same in both.
func (e *encoder) pointerBits(in *ir.Inst, v val) {
	if !e.threaded || (v.isConst() && v.c>>32 == 0 && (in.Aux != ir.AuxPtr32 || v.c == 0)) {
		return
	}
	e.refuseProof("the program converts pointers to integers or back (ptrtoint, inttoptr), and the threaded encoding's block ids are not the vm's")
}

// proveThreads is the complete check of a threaded program at unwind k,
// after the round-robin encoding enc found no violation and no execution
// cut: it re-encodes with the rounds that hold every schedule (again if
// the re-encoding needs more) and asks for a violation and a cut. done is
// false when the answer is "the bound cuts an execution" (Check deepens).
func proveThreads(ctx context.Context, p *ir.Program, q *query.Query, target query.Target, s Solver, name string,
	opts EncodeOptions, enc *Encoding, res *Result) (verdict, reason string, done bool, err error) {
	if enc.NoProof != "" {
		return VerdictIncomplete, fmt.Sprintf("no violation within %d round-robin rounds and unwind %d; no proof: %s", enc.Rounds, opts.Unwind, enc.NoProof), true, nil
	}
	opts.Spurious = q.Enum("Platform") != "lodin"
	opts.Complete = true
	need := enc.CompleteRounds
	for try := 0; try < 4; try++ {
		if need > maxRounds {
			return VerdictIncomplete, fmt.Sprintf("no violation within %d round-robin rounds and unwind %d; every schedule needs %d rounds, more than the encoder's %d", enc.Rounds, opts.Unwind, need, maxRounds), true, nil
		}
		if need <= enc.Rounds && enc.Complete {
			res.CompleteRounds = enc.Rounds
			v := VerdictNotSatisfied
			if target.Negated {
				v = VerdictSatisfied
			}
			return v, fmt.Sprintf("no violation in any schedule: %d round-robin rounds hold every schedule of the program bounded by unwind %d, and every execution is complete within it", enc.Rounds, opts.Unwind), true, nil
		}
		if err := ctx.Err(); err != nil {
			return "", "", true, err
		}
		o := opts
		o.Contexts = max(need, enc.Rounds)
		t0 := time.Now()
		enc2, err := Encode(p, o)
		if err != nil {
			return VerdictIncomplete, fmt.Sprintf("no violation within %d round-robin rounds and unwind %d; the complete encoding (%d rounds) failed: %v", enc.Rounds, opts.Unwind, o.Contexts, err), true, nil
		}
		bc := BoundCheck{Unwind: opts.Unwind, Terms: enc2.Terms, EncodeSeconds: time.Since(t0).Seconds(), Rounds: o.Contexts}
		res.EncodeSeconds += bc.EncodeSeconds
		ans, err := s.Check(ctx, withGoal(enc2, enc2.Violation, true))
		if err != nil {
			return "", "", true, fmt.Errorf("solver %s at unwind %d, %d rounds: %w", name, opts.Unwind, o.Contexts, err)
		}
		bc.SolverSeconds += ans.Elapsed.Seconds()
		bc.Violation = ans.String()
		if name == Portfolio {
			bc.Answered = ans.Solver
		}
		switch ans.Status {
		case Unknown:
			res.Checks = append(res.Checks, bc)
			res.SolverSeconds += bc.SolverSeconds
			return VerdictIncomplete, fmt.Sprintf("no violation within %d round-robin rounds and unwind %d; the complete check (%d rounds, every schedule) got no answer from solver %s: %s", enc.Rounds, opts.Unwind, o.Contexts, name, ans), true, nil
		case Sat:
			res.Checks = append(res.Checks, bc)
			res.SolverSeconds += bc.SolverSeconds
			return violationFound(ctx, p, q, target, s, name, o, enc2, ans, res)
		}
		ans, err = s.Check(ctx, withGoal(enc2, enc2.Unwound, false))
		if err != nil {
			return "", "", true, fmt.Errorf("solver %s at unwind %d, %d rounds: %w", name, opts.Unwind, o.Contexts, err)
		}
		bc.SolverSeconds += ans.Elapsed.Seconds()
		bc.Unwound = ans.String()
		res.Checks = append(res.Checks, bc)
		res.SolverSeconds += bc.SolverSeconds
		switch ans.Status {
		case Unknown:
			return VerdictIncomplete, fmt.Sprintf("no violation in %d rounds (every schedule) and unwind %d; solver %s gave no answer on the unwinding assertion: %s", o.Contexts, opts.Unwind, name, ans), true, nil
		case Sat:
			return "", "", false, nil // some schedule needs a deeper bound
		}
		if enc2.NoProof != "" {
			return VerdictIncomplete, fmt.Sprintf("no violation in %d rounds and unwind %d; no proof: %s", o.Contexts, opts.Unwind, enc2.NoProof), true, nil
		}
		enc, need = enc2, enc2.CompleteRounds
	}
	return VerdictIncomplete, fmt.Sprintf("no violation within %d rounds and unwind %d; the rounds every schedule needs did not settle", enc.Rounds, opts.Unwind), true, nil
}

// violationFound replays a violation of the complete encoding enc. One
// found with spurious wakeups allowed is searched again without them,
// whose model replays under LODIN's platform.
func violationFound(ctx context.Context, p *ir.Program, q *query.Query, target query.Target, s Solver, name string,
	o EncodeOptions, enc *Encoding, ans Answer, res *Result) (verdict, reason string, done bool, err error) {
	if enc.Spurious { // the program waits on condition variables
		o.Spurious = false
		t0 := time.Now()
		enc2, err := Encode(p, o)
		if err != nil {
			return "", "", true, fmt.Errorf("the complete encoding without spurious wakeups: %w", err)
		}
		ans, err = s.Check(ctx, withGoal(enc2, enc2.Violation, true))
		if err != nil {
			return "", "", true, fmt.Errorf("solver %s at unwind %d, %d rounds: %w", name, o.Unwind, o.Contexts, err)
		}
		es := time.Since(t0).Seconds()
		res.EncodeSeconds += es
		res.Checks = append(res.Checks, BoundCheck{Unwind: o.Unwind, Terms: enc2.Terms, EncodeSeconds: es,
			SolverSeconds: ans.Elapsed.Seconds(), Violation: ans.String(), Rounds: o.Contexts, Answered: ans.Solver})
		res.SolverSeconds += ans.Elapsed.Seconds()
		switch ans.Status {
		case Unknown:
			return VerdictUnknown, fmt.Sprintf("a violation may need a spurious wakeup or a signal to another waiter (unwind %d, %d rounds); without them the solver gave no answer: %s", o.Unwind, o.Contexts, ans), true, nil
		case Unsat:
			return VerdictIncomplete, fmt.Sprintf("a violation is reachable only with a spurious wakeup or a signal to another waiter (unwind %d, %d rounds), which BMC's witnesses cannot replay yet", o.Unwind, o.Contexts), true, nil
		}
		enc = enc2
	}
	res.Contexts = enc.Rounds
	if err := witness(p, q, target, enc, ans.Model, res); err != nil {
		if why, ok := undefNoReplay(err); ok {
			res.Inputs, res.Schedule, res.Trace = nil, nil, nil
			return VerdictUnknown, fmt.Sprintf("at unwind %d, %d rounds, %s", o.Unwind, o.Contexts, why), true, nil
		}
		return "", "", true, fmt.Errorf("internal error: the solver's model of a violation at unwind %d, %d rounds does not replay: %w", o.Unwind, o.Contexts, err)
	}
	v := VerdictSatisfied
	if target.Negated {
		v = VerdictNotSatisfied
	}
	return v, fmt.Sprintf("a violation is reachable (unwind %d, %d rounds): %s", o.Unwind, o.Contexts, res.Description), true, nil
}

// woken is the Bool "a wait may return" given its waiter word w (0 once a
// signal woke it): with spurious wakeups, whenever (a fresh choice).
func (e *encoder) woken(w val) Term {
	c := eqT(e.bv(w, 64), BV(0, 64))
	if !e.opts.Spurious {
		return c
	}
	e.terms++
	return or(c, e.q.Bool(e.fresh("spur")))
}

// localAllocas are the registers of fn's allocas whose blocks no other
// thread can reach: their address is read only as the address of loads
// and stores and as the pthread_t* of pthread_create or the result
// pointer of pthread_join, where only the platform writes (privateAllocas
// on a copy of fn without those arguments).
func localAllocas(fn *ir.Func) map[int32]bool {
	cp := *fn
	cp.Calls = make([]ir.CallSite, len(fn.Calls))
	copy(cp.Calls, fn.Calls)
	for pc := range fn.Code {
		in := &fn.Code[pc]
		if in.Imm >= uint64(len(fn.Calls)) {
			continue
		}
		var b ir.Builtin
		switch in.Op {
		case ir.OpCallB:
			b = ir.Builtin(in.B)
		default:
			continue
		}
		cs := &cp.Calls[in.Imm]
		k := -1
		switch b {
		case ir.BPthreadCreate:
			k = 0
		case ir.BPthreadJoin:
			k = 1
		}
		if k >= 0 && k < len(cs.Args) {
			cs.Args = append([]int32(nil), cs.Args...)
			cs.Args[k] = -1
		}
	}
	out := map[int32]bool{}
	for pc := range privateAllocas(&cp) {
		out[fn.Code[pc].Dst] = true
	}
	return out
}
