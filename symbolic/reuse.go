package symbolic

import "github.com/wyvernmc/wyvern/ir"

// createAfterJoin returns why a pthread_create of p may run after a
// pthread_join, or "". The vm gives a thread created then the id of a
// joined one (docs/semantics.md), while the encodings number threads in
// creation order: a program that compares thread ids (pthread_self,
// pthread_equal, pthread_t values) may then reach an error the encoding
// cannot, so BMC claims no proof for it (its violations replay in the vm
// and stay). Conservative: a create or a join outside the entry function,
// or a create the entry function's control flow may reach from a join.
func createAfterJoin(p *ir.Program) string {
	var creates, joins int
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		for _, in := range f.Code {
			if in.Op != ir.OpCallB {
				continue
			}
			switch ir.Builtin(in.B) {
			case ir.BPthreadCreate:
				creates++
				if f.Index != p.Entry {
					return f.Name + " creates a thread (a thread may have been joined before)"
				}
			case ir.BPthreadJoin:
				joins++
				if f.Index != p.Entry {
					return f.Name + " joins a thread (a thread may be created after)"
				}
			}
		}
	}
	if creates == 0 || joins == 0 {
		return ""
	}
	f := p.Funcs[p.Entry]
	seen := make([]bool, len(f.Code))
	var work []int
	for pc, in := range f.Code {
		if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadJoin {
			for _, s := range succs(f, pc) {
				if s >= 0 && s < len(seen) && !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
	}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		if in := f.Code[pc]; in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate {
			return f.Name + " may create a thread after a join"
		}
		for _, s := range succs(f, pc) {
			if s >= 0 && s < len(seen) && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return ""
}
