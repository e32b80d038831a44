package termination

// Unsupported lists what the analysis does not decide, by construct: the
// first column of docs/termination.md's table "What is not done", which
// says what happens instead (TestUnsupportedDocumented keeps the two the
// same).
var Unsupported = []string{
	"threads (`pthread_create`, `thrd_create`)",
	"recursion",
	"calls through function pointers",
	"irreducible control flow (`goto` into a loop)",
	"floating-point, aggregates, atomics, 32-bit pointer casts inside a loop",
	"invariants",
	"non-termination needing a recurrent set over written variables other than a parity",
	"a program that forges the address of a local from an integer it never got from that local",
}
