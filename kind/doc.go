// Package kind is the job-kind seam: what a kind of distributed work
// (trace, split, explicit, bmc, ...) contributes on the coordinator side
// and what every client reads of its answers.
//
// A kind's package (an engine) provides a Runner, which plans and
// publishes the kind's jobs through a Session and folds their results
// into a Result, and a Detail, the kind's own part of that Result, which
// answers for it: its text, its verdict (Answer, hence the exit status),
// a one-line Summary, the Counterexamples it carries (trace.Trace) and,
// registered with RegisterDetail, its JSON fields; RegisterProgress gives
// its progress line. The coordinator hosts
// Sessions and imports no engine; clients (check, verify, replay) read
// results through Detail and never switch on an engine's types. The
// worker side of a kind is a worker.Handler; internal/kinds registers both
// sides, one line per kind.
package kind
