package main

import (
	"flag"
	"fmt"

	"github.com/wyvernmc/wyvern/vm"
)

// limitFlags are the per-run limits of the interpreter (run, replay,
// check, worker): a run that passes one ends in the error ResourceLimit
// (memory, processes) or StackOverflow (call depth) instead of exhausting
// the host. On a cluster they are the workers' policy: every worker of a
// deployment should run with the same limits, since a run's outcome
// depends on them.
type limitFlags struct {
	memMiB  int64
	threads int
	depth   int
}

func (l *limitFlags) register(fs *flag.FlagSet) {
	fs.Int64Var(&l.memMiB, "max-run-memory", vm.DefaultMaxMemory>>20, "per-run limit on the live malloc and alloca memory of the program, in MiB")
	fs.IntVar(&l.threads, "max-threads", vm.DefaultMaxProcs, "per-run limit on the processes (threads, main included)")
	fs.IntVar(&l.depth, "max-depth", vm.DefaultMaxDepth, "per-run limit on the call depth of a process")
}

// check refuses limits that mean nothing.
func (l *limitFlags) check() error {
	switch {
	case l.memMiB <= 0 || l.memMiB > 1<<30:
		return fmt.Errorf("--max-run-memory %d: want MiB in [1, %d]", l.memMiB, int64(1)<<30)
	case l.threads <= 0:
		return fmt.Errorf("--max-threads %d: want at least 1", l.threads)
	case l.depth <= 0:
		return fmt.Errorf("--max-depth %d: want at least 1", l.depth)
	}
	return nil
}

// limits returns the flags as vm limits.
func (l *limitFlags) limits() vm.Limits {
	return vm.Limits{Memory: uint64(l.memMiB) << 20, Procs: l.threads, Depth: l.depth}
}
