package vm

// Wait kinds of Thread.Wait, for views of a state (source-level traces):
// what a process blocked inside a platform call waits for.
const (
	WaitNone        = waitNone        // not waiting inside a call
	WaitCond        = waitCond        // in pthread_cond_wait, not yet signalled (WaitOn: the condition variable)
	WaitRelock      = waitRelock      // signalled, must reacquire the mutex
	WaitBarrier     = waitBarrier     // in pthread_barrier_wait, the round not complete (WaitOn: the barrier)
	WaitBarrierDone = waitBarrierDone // the round completed
	WaitJoined      = waitJoined      // finished and joined: pthread_create reuses its id
)
