package symbolic

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// The encoder of bounded model checking: a flat ir.Program, single-threaded,
// becomes one SMT-LIB2 formula over bitvectors and arrays (QF_ABV) whose
// models are the program's executions up to a bound.
//
// The encoding is a symbolic execution with merging (seed 000, Algorithm 4,
// as in CBMC's goto-symex): each function activation is scanned once, block
// by block, in a reverse postorder of its control-flow graph; a block is
// executed once per scan on the merge of every path state pending at it,
// with its own guard (the path condition, a named Bool), and registers,
// memory and allocation state merged by ite on the guards. A retreating
// edge of the order (a loop's back edge) makes the scan go back to the
// loop's header once the whole loop body has been scanned, at most Unwind
// times per entry of the loop; a path that would take the back edge once
// more is cut, its guard added to Unwound. Calls of defined functions are
// inlined, a function at most Unwind+1 times on the stack at once (deeper
// calls are cut the same way). The formula grows with the unrolled
// program, not with its paths.
//
// Paths end at an error (the vm stops there): every check of the vm is a
// condition c under the current guard g; g ∧ c joins Violation when the
// error's kind is one of EncodeOptions.Errors, and the path goes on under
// g ∧ ¬c either way. A failed __VERIFIER_assume, exit() and the return of
// main end a path without a violation.
//
// Values are bitvectors of their width (i1 is (_ BitVec 1)); constants are
// folded where every operand is known. Memory is per block, with each
// dereference resolved over the blocks its pointer may name (object
// memory, encode_obj.go); where that cannot encode a program, memory is
// one array
// (_ BitVec 64) → (_ BitVec 8) indexed by the vm's pointers (block id << 32
// | offset): a pointer is one bitvector, pointer arithmetic and comparisons
// are bitvector operations exactly as in the vm, and a load or store at a
// symbolic pointer needs no case split over the blocks it may designate.
// Block ids are assigned as the vm assigns them (globals and functions
// first, then allocas and malloc in order, a returned frame's alloca ids
// reused last-freed-first), as terms when paths disagree. What the vm's
// checks read of a block is kept in two more arrays indexed by block id:
// its kind (the vm's block kinds: live global/constant/stack/heap, function,
// freed, dead stack) and its size.
//
// Terms counts the named definitions (a declared constant and its defining
// equation count once) and the other assertions: the formula's size.

// EncodeOptions bound and aim the encoding.
type EncodeOptions struct {
	// Unwind bounds loops and recursion: a loop's body runs at most Unwind
	// times per entry of the loop (its header is evaluated Unwind+1 times:
	// leaving then goes on, entering the body again is cut, setting
	// Unwound — CBMC's --unwind Unwind+1), and a function is active at
	// most Unwind times at once.
	Unwind int
	Errors []vm.ErrKind // error kinds whose occurrence is the violation (nil: every kind)
	Calls  []string     // functions whose call by the program is the violation (e.g. "reach_error" when the program defines it)
	// CallProcs[i] is the process whose call of Calls[i] is the violation
	// (-1 or absent: any process).
	CallProcs []int32
	// MaxTerms bounds the formula's size (0: DefaultMaxTerms); a larger
	// encoding is an error.
	MaxTerms int
	// Contexts bounds the round-robin rounds of a threaded program
	// (encode_threads.go; 0: DefaultContexts).
	Contexts int
	// induct, when set, makes this one of k-induction's encodings
	// (kinduction.go).
	induct *induct
	// poBits: the partial-order encoding's clock width (0: poClockBits)
	poBits int
	// poInt: the partial-order encoding's clocks are integers (for the
	// solvers that take them, encode_po.go)
	poInt bool
	// poSignalled: a partial-order encoding in which a wait's reacquire
	// follows a signal or broadcast of its condition variable by another
	// thread after its release (no spurious wakeups): for violations that
	// replay under LODIN's platform only, never for a proof (poSignalOrder)
	poSignalled bool
	// Spurious lets every pthread_cond_wait return once its mutex is
	// free, signalled or not: POSIX's spurious wakeups, which include a
	// signal waking any waiter (encode_complete.go).
	Spurious bool
	// Complete: the encoding is for a proof, so an execution it does not
	// follow (an under-approximation) counts as cut by the bound
	// (Unwound) instead of vanishing (encode_complete.go).
	Complete bool
	// FlatMemory encodes a single-threaded program's memory as one array
	// indexed by vm pointers even where object memory (encode_obj.go)
	// would do (for comparisons).
	FlatMemory bool
	// PartialOrder encodes a threaded program as a partial order of its
	// events (encode_po.go): every interleaving, no round bound.
	PartialOrder bool
	// NoLockReduction keeps every switch point of the round-robin
	// encoding, the protected accesses' too (lockset.go; for comparisons).
	NoLockReduction bool
	// NoBlocks: the partial-order encoding keeps an access group per
	// instruction inside critical sections (encode_block.go; for
	// measurements and tests)
	NoBlocks bool
}

// DefaultMaxTerms is the largest formula Encode builds by default.
const DefaultMaxTerms = 2_000_000

// Input is one source of nondeterminism: a call site of a choosing platform function
// (__VERIFIER_nondet_*, wyvern_uniform, wyvern_coin). Its k-th execution along a run
// returns select(Name, k): Name is an SMT array (BitVec 32) -> (BitVec Width), declared
// and range-constrained by the encoding.
type Input struct {
	Name  string
	Func  string // the function holding the call
	PC    int32  // the call instruction's pc in that function (ir.Func code index)
	Kind  vm.ChoiceKind
	Width int
}

// Encoding is the bounded formula of a (single-threaded) program.
type Encoding struct {
	Query     *Query // declarations and assertions (the path semantics), no check-sat
	Violation Term   // holds in a model iff the bounded execution reaches a violation
	Unwound   Term   // holds iff the execution is cut by the bound (a loop or recursion needs more than Unwind)
	Inputs    []Input
	Terms     int // formula size: named definitions plus other assertions
	// Threads is set for a threaded program: its threads in round-robin
	// order, and Rounds the number of rounds.
	Threads []ThreadInfo
	Rounds  int
	// Threaded programs (encode_complete.go): the rounds that hold every
	// schedule of the bounded program, the switch points per thread, why
	// the encoding proves nothing even with enough rounds (empty: it
	// can), and whether waits may return spuriously (Spurious given and
	// the program uses condition variables).
	CompleteRounds int
	Switches       []int
	NoProof        string
	Spurious       bool
	Complete       bool // encoded with EncodeOptions.Complete
	// ReuseCut: a path was cut at a comparison that address reuse may
	// decide (encode_reuse.go).
	ReuseCut bool
	// ObjectMemory: memory is encoded per block with points-to resolution
	// (encode_obj.go), not as one array; FlatReason says why a
	// single-threaded program was not (empty: it was, or the flat array
	// was asked for).
	ObjectMemory bool
	FlatReason   string
	// PO: a partial-order encoding's events (encode_po.go), for witnesses.
	PO *POInfo
	// undef: where the model holds the initial bytes of heap blocks, for
	// the witness's draws of undefined bytes (encode_undef.go);
	// stackSites: the allocas whose undefined bytes the model holds;
	// undefMem: the vm may read undefined bytes without a draw where the
	// encoding leaves them free: a heap block of undefined bytes is
	// allocated, or a stack block and undefSilent.
	undef      int
	stackSites []stackSite
	undefMem   bool
}

// Encode builds the bounded formula of p. A construct the encoder does not
// handle (threads, floating point, calls through pointers, some platform
// functions) is an error naming it and its place.
func Encode(p *ir.Program, opts EncodeOptions) (*Encoding, error) {
	if !opts.FlatMemory && p != nil && !Threaded(p) {
		enc, err := encode(p, opts, true)
		if !errors.Is(err, errFlat) {
			return enc, err
		}
		enc, err2 := encode(p, opts, false)
		if enc != nil {
			enc.FlatReason = err.Error()
		}
		return enc, err2
	}
	return encode(p, opts, false)
}

// encode is Encode with object memory (obj, single-threaded programs) or
// the flat array.
func encode(p *ir.Program, opts EncodeOptions, obj bool) (*Encoding, error) {
	if p == nil || p.Entry < 0 || p.Entry >= len(p.Funcs) {
		return nil, fmt.Errorf("symbolic: encode: program has no entry function")
	}
	if opts.Unwind < 0 {
		return nil, fmt.Errorf("symbolic: encode: negative unwind bound %d", opts.Unwind)
	}
	e := &encoder{p: p, opts: opts, q: NewQuery(), sites: map[[2]int]int{},
		graphs: map[int]*graph{}, active: map[int]int{}, calls: map[string][]int32{}, obj: obj}
	e.maxTerms = opts.MaxTerms
	e.ind = opts.induct // k-induction (kinduction.go)
	if e.maxTerms <= 0 {
		e.maxTerms = DefaultMaxTerms
	}
	if opts.Errors == nil {
		for k := range e.errs {
			e.errs[k] = true
		}
	} else {
		for _, k := range opts.Errors {
			if int(k) < len(e.errs) {
				e.errs[k] = true
			}
		}
	}
	for i, c := range opts.Calls {
		proc := int32(-1)
		if i < len(opts.CallProcs) {
			proc = opts.CallProcs[i]
		}
		e.calls[c] = append(e.calls[c], proc)
	}
	e.sizeAt = map[uint64]uint64{}
	for _, g := range p.Globals {
		e.maxBlock = max(e.maxBlock, uint64(g.Size))
		e.sizeAt[uint64(g.Block)] = max(e.sizeAt[uint64(g.Block)], uint64(g.Size))
	}
	if err := e.platformImage(); err != nil {
		return nil, err
	}
	e.threaded = Threaded(p)
	e.reuse = p.ReusesAddresses()
	if e.threaded {
		for _, g := range p.Globals {
			if g.ThreadLocal {
				// the vm gives each thread its own copy (vm/libc_tls.go);
				// one shared block would be a wrong proof
				return nil, fmt.Errorf("symbolic: encode: thread-local variable %s in a threaded program: not supported by the BMC encoder yet", g.Name)
			}
		}
		e.rounds = opts.Contexts
		if e.rounds <= 0 {
			e.rounds = DefaultContexts
		}
		if e.rounds > maxRounds {
			return nil, fmt.Errorf("symbolic: encode: %d contexts: at most %d", e.rounds, maxRounds)
		}
		if err := e.scanThreads(); err != nil {
			return nil, fmt.Errorf("symbolic: encode: %w", err)
		}
		if opts.Complete && !opts.PartialOrder && opts.Errors != nil {
			// a thread whose context cannot end before a failing step would
			// end the run before another thread's violation (docs/bmc.md)
			e.refuseProof("the violation is not every error (E<> Error): the round-robin rounds cannot stop a thread just before a step that fails otherwise")
		}
		// allocations follow the platform's blocks, which are shared
		e.blk = e.firstDyn()
		for _, b := range e.img {
			e.tsize[b.ID] = uint64(len(b.Data))
		}
	}
	s, err := e.initial()
	if err != nil {
		return nil, err
	}
	if e.threaded {
		e.initThreads(s)
		if opts.PartialOrder {
			e.rounds = 1
			if err := e.encodePO(s); err != nil {
				return nil, err
			}
		} else if err := e.encodeThreads(s); err != nil {
			return nil, err
		}
	} else if _, err := e.run(p.Funcs[p.Entry], s); err != nil {
		return nil, err
	}
	viol := e.q.Bool("viol")
	e.q.Assert(Eq(viol, Or(e.viol...)))
	unw := e.q.Bool("unwound")
	e.q.Assert(Eq(unw, Or(e.unwound...)))
	e.terms += 2
	want := []string{"viol", "unwound"}
	for _, in := range e.inputs {
		want = append(want, in.Name)
	}
	undefNames, undef := e.undefWanted()
	want = append(want, undefNames...)
	e.q.Want(want...)
	var poi *POInfo
	if e.po != nil {
		poi = e.poSchedule()
	}
	if err := e.q.Err(); err != nil {
		return nil, fmt.Errorf("symbolic: encode: %w", err)
	}
	enc := &Encoding{Query: e.q, Violation: viol, Unwound: unw, Inputs: e.inputs, Terms: e.terms, ObjectMemory: obj, PO: poi, ReuseCut: e.reuseCuts, undef: undef, undefMem: e.undefHeap || e.undefStack && e.undefSilent}
	if !e.threaded {
		enc.stackSites = e.stackSites
	}
	if e.threaded {
		enc.Threads, enc.Rounds = e.threads, e.rounds
		enc.CompleteRounds, enc.Switches = e.completeRounds()
		enc.NoProof, enc.Spurious, enc.Complete = e.cinfo.noProof, e.opts.Spurious && e.usesCond, e.opts.Complete
	}
	return enc, nil
}

type encoder struct {
	p        *ir.Program
	opts     EncodeOptions
	q        *Query
	errs     [64]bool           // targeted error kinds
	calls    map[string][]int32 // violation calls: the processes whose call counts (-1: any)
	n        int                // fresh names
	terms    int
	maxTerms int
	viol     []Term
	unwound  []Term
	// maxBlock bounds the size of every block allocated so far (globals,
	// constant allocas and mallocs); anyBlock is set once a block of a
	// variable size was allocated (no bound). Variable-extent library
	// functions unroll to it (encode_lib.go).
	maxBlock uint64
	anyBlock bool
	// sizeAt bounds the size of the blocks allocated so far at each
	// constant block id (ids are reused: the largest); ^0 where one had a
	// variable size or a symbolic id met it.
	sizeAt map[uint64]uint64
	symID  bool   // a block was allocated at a symbolic id (sizeAt is then no bound)
	symMax uint64 // the largest size allocated at a symbolic id
	inputs []Input
	sites  map[[2]int]int // (function index, pc) → input index
	graphs map[int]*graph
	active map[int]int // inlined activations per function index
	steps  int         // blocks executed
	err    error       // first error of a helper without an error result
	depth  int         // inlined calls active in the current thread

	// undefined heap bytes (encode_undef.go): the free byte of each key
	// declared (object memory, threads), and whether a heap block of
	// undefined bytes was allocated
	undefK    map[uint64]val
	undefHeap bool
	// undefined stack bytes (encode_undef.go): the stack sites of a
	// single-threaded encoding, by (function index, pc) and in order, and
	// whether an alloca of undefined bytes was met
	ssites     map[[2]int]int
	stackSites []stackSite
	undefStack bool
	// undefSilent: the encoding reads or copies bytes in a way where the
	// vm may read undefined bytes without a draw (a block over a page, a
	// platform reader, a copy into a global, a bit-field store's load)
	undefSilent bool

	// the platform's part of the initial image (encode_image.go): main's
	// arguments, the blocks, the first id allocations get
	argc, argv uint64
	img        []vm.ImageBlock
	dyn0       uint32

	// obj: memory of a single-threaded program as values per block
	// (encode_obj.go), not one array
	obj bool

	// reuse: the program may compare a freed block's address with a
	// later block's (encode_reuse.go)
	reuse     bool
	reuseCuts bool // a path was cut there

	// threaded programs (encode_threads.go)
	threaded bool
	rounds   int
	th       *slot   // the thread being encoded
	slots    []*slot // every thread met so far, in round-robin order
	threads  []ThreadInfo
	extra    []*pstate // more states an instruction produced (one per round), for block
	blk      uint32    // the next block id (threaded programs: one per allocation in the unrolled program)
	priv     map[uint32]bool
	psize    map[uint32]uint64
	tsize    map[uint32]uint64      // threaded: the largest size of each shared allocation's block (^0: not constant)
	privOf   map[int]map[int32]bool // per function: its private allocas
	guesses  []guess
	usesCond bool                // condition variables (thread ids bounded by condThreads)
	atomics  bool                // threaded: the program has atomic sections (blockOn)
	visits   int                 // blocks executions so far (one per position visit, for all rounds)
	visit    int                 // the block execution under way
	instance int                 // the instruction execution block is at (per pc, for all its states)
	created  map[int]*slot       // threads by the instruction execution that creates them
	ids      map[int]uint32      // block ids by the instruction execution that allocates them
	deferred []func(threads int) // constraints that range over every thread id
	joins    []joinRec           // the pthread_join calls encoded so far, in encoding order

	ind *induct // k-induction's encodings (kinduction.go), nil otherwise
	// po: the partial-order encoding (encode_po.go), nil otherwise;
	// curCallB: the instruction under way is a platform call
	po *poInfo
	// stutter caches stutterLoop's answers: function index → header position → stutter loop
	stutter map[int]map[int]bool
	// waits caches waitSites: function index → w's block position → header position (encode_wait.go)
	waits    map[int]map[int]int
	curCallB bool
	cinfo    completeInfo    // switch points and proof refusals (encode_complete.go)
	drf      *drfInfo        // the lockset analysis (lockset.go), once threaded
	poBlkOK  map[uint64]bool // mutexes whose sections may be blocks (encode_block.go)
}

// val is a register's value: a term of width w, or a constant c (t == "")
// whose width is w, or unknown (0) for a frame's preloaded constants.
type val struct {
	t   Term
	c   uint64
	w   int
	bad string // non-empty: a value the encoder does not model (reading it is an error)
	blk uint32 // threaded encodings: the block a symbolic pointer points into (0: unknown)
	// value sets (object memory, encode_obj.go): cs lists every value a
	// symbolic v can take (exact: v is an ite over them; nil: not known),
	// pts the blocks a pointer may point into where cs is not known (a
	// guess: an access outside them is cut).
	cs    []uint64
	pts   []uint32
	guess bool // cs is a guess (some value merged into v had no set): an access outside it is cut
	// a byte of memory that is byte idx of the stored value *src (object
	// memory): a load of all of src's bytes gives src back
	src *val
	idx int
	// nz > 0: every value v takes is below 2^nz (a bound narrower than w
	// that the encoder proved, encode_narrow.go; bitsOf reads it)
	nz uint8
}

func cst(c uint64, w int) val {
	if w > 0 {
		c &= ir.Mask(uint8(w))
	}
	return val{c: c, w: w}
}

func (v val) isConst() bool { return v.t == "" && v.bad == "" }

func (v val) same(o val) bool {
	return v.t == o.t && v.c == o.c && v.bad == o.bad && (v.t != "" || v.w == o.w || v.w == 0 || o.w == 0)
}

// pstate is a path state (or the merge of several) inside one activation.
type pstate struct {
	g       Term // guard: the path condition (Bool)
	regs    []val
	allocas []val // block ids of the activation's allocas, in order
	mem     Term  // (Array (_ BitVec 64) (_ BitVec 8))
	kind    Term  // (Array (_ BitVec 32) (_ BitVec 8)): the vm's block kinds
	size    Term  // (Array (_ BitVec 32) (_ BitVec 32)): block sizes
	next    val   // next fresh block id (32 bits)
	free    []val // ids of dead stack blocks, reused last first; entries [0, flen) are meaningful
	flen    val
	cnt     map[int]val // per input: executions so far (32 bits)
	ret     []val       // returned values (return states)
	atomic  int         // depth of atomic sections (no context switch inside)

	// threaded programs only (encode_threads.go): the thread's round and
	// step count (steps + soff), and the shared state beyond memory
	rnd, steps         val
	soff               int
	halted, nthr, cseq val
	tm                 *tmaps // threaded programs: memory (encode_tmem.go)
	// poSec: partial-order encodings, the clock of the start of the
	// atomic section the path is in ("": none)
	poSec Term
	// poBlk: partial-order encodings, the access group + 1 of the critical
	// section the path is in as a block (0: none; encode_block.go), of
	// mutex poBlkM; poPre, poPreOff: the thread's steps before the
	// current instruction
	poBlk    int
	poBlkM   uint64
	poPre    val
	poPreOff int
}

func (s *pstate) clone() *pstate {
	c := *s
	c.regs = append([]val(nil), s.regs...)
	c.allocas = append([]val(nil), s.allocas...)
	c.free = append([]val(nil), s.free...)
	c.tm = s.tm.copyOf()
	c.cnt = make(map[int]val, len(s.cnt))
	for k, v := range s.cnt {
		c.cnt[k] = v
	}
	return &c
}

// Block kinds as the vm numbers them (vm/memory.go).
const (
	kNone   = 0
	kConst  = 1
	kGlobal = 2
	kStack  = 3
	kHeap   = 4
	kFunc   = 5
	kFreed  = 6
	kDead   = 7
)

// fresh returns a new constant name.
func (e *encoder) fresh(prefix string) string {
	e.n++
	return fmt.Sprintf("%s%d", prefix, e.n)
}

func atomic(t Term) bool { return !strings.ContainsRune(string(t), '(') }

// def names t: a fresh constant of sort so defined equal to t. Atoms
// (names, literals) are returned as they are.
func (e *encoder) def(t Term, so Sort, prefix string) Term {
	if atomic(t) {
		return t
	}
	name := e.q.Declare(e.fresh(prefix), so)
	e.q.Assert(Eq(name, t))
	e.terms++
	e.noteDef(name, t, so) // k-induction (kinduction.go)
	return name
}

func (e *encoder) defBool(t Term) Term      { return e.def(t, BoolSort(), "g") }
func (e *encoder) defBV(t Term, w int) Term { return e.def(t, BitVec(w), "v") }

// Boolean helpers with folding of the literals.
func and2(a, b Term) Term {
	switch {
	case a == "false" || b == "false":
		return "false"
	case a == "true":
		return b
	case b == "true" || a == b:
		return a
	}
	return And(a, b)
}

func not(a Term) Term {
	switch a {
	case "true":
		return "false"
	case "false":
		return "true"
	}
	return Not(a)
}

func or(ts ...Term) Term {
	var out []Term
	for _, t := range ts {
		switch t {
		case "true":
			return "true"
		case "false":
			continue
		}
		out = append(out, t)
	}
	return Or(out...)
}

func ite(c, a, b Term) Term {
	switch {
	case c == "true" || a == b:
		return a
	case c == "false":
		return b
	}
	return Ite(c, a, b)
}

// eqT is (= a b) with literals folded.
func eqT(a, b Term) Term {
	if a == b {
		return "true"
	}
	if strings.HasPrefix(string(a), "#") && strings.HasPrefix(string(b), "#") {
		return "false"
	}
	return Eq(a, b)
}

// bv is v as a term of width w (zero-extended or truncated: values are
// kept zero-extended, as in the vm's slots).
func (e *encoder) bv(v val, w int) Term {
	if v.bad != "" {
		e.fail(fmt.Errorf("%s", v.bad))
		return BV(0, w)
	}
	if v.t == "" {
		return BV(v.c, w)
	}
	switch {
	case v.w == w:
		return v.t
	case v.w > w:
		return Extract(w-1, 0, v.t)
	}
	return ZeroExt(w-v.w, v.t)
}

// width is the width of v, or def if it is a constant of unknown width.
func width(v val, def int) int {
	if v.w == 0 {
		return def
	}
	return v.w
}

// truth is the Bool "bit 0 of v is set" (the vm's r[x]&1 != 0).
func (e *encoder) truth(v val) Term {
	if v.isConst() {
		return Bool(v.c&1 != 0)
	}
	return eqT(e.bv(v, 1), BV(1, 1))
}

// nonzero is the Bool v != 0 (a platform function's test of an argument).
func (e *encoder) nonzero(v val) Term {
	if v.isConst() {
		return Bool(v.c != 0)
	}
	w := width(v, 64)
	return not(eqT(e.bv(v, w), BV(0, w)))
}

// term makes a val of width w from t, naming it unless it is an atom.
func (e *encoder) term(t Term, w int) val {
	return val{t: e.defBV(t, w), w: w}
}

func (e *encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// errCond is one of the vm's checks: the run fails with kind when c holds.
type errCond struct {
	kind vm.ErrKind
	c    Term
}

// check applies mutually exclusive checks to s: their targeted conditions
// join the violation and the path goes on where none holds.
func (e *encoder) check(s *pstate, conds ...errCond) {
	var all, hit []Term
	for _, c := range conds {
		if c.c == "false" {
			continue
		}
		all = append(all, c.c)
		if int(c.kind) < len(e.errs) && e.errs[c.kind] {
			hit = append(hit, c.c)
		}
	}
	if len(all) == 0 {
		return
	}
	if e.po != nil {
		allT := or(all...)
		nonhit := and2(s.g, allT)
		if len(hit) > 0 {
			hitT := or(hit...)
			if v := and2(s.g, hitT); v != "false" {
				e.poViolation(s, v)
			}
			nonhit = and2(nonhit, not(hitT))
		}
		if nonhit != "false" {
			e.poMarkAt(s, nonhit, poHalt)
		}
		s.g = e.defBool(and2(s.g, not(allT)))
		return
	}
	if len(hit) > 0 {
		if v := and2(and2(s.g, or(hit...)), e.live(s)); v != "false" {
			e.addViol(e.defBool(v))
		}
	}
	e.stop(s, and2(s.g, or(all...)), true, true)
	s.g = e.defBool(and2(s.g, not(or(all...))))
}

// violate ends the path at a violation regardless of the error kinds (a
// call named in EncodeOptions.Calls) where the calling process is one of
// procs (-1: any); other processes go on.
func (e *encoder) violate(s *pstate, procs []int32) {
	if s.g == "false" {
		return
	}
	var tid val
	if e.th != nil {
		tid = e.th.tid
	} else {
		tid = cst(0, 32)
	}
	var match []Term
	for _, p := range procs {
		if p < 0 {
			match = []Term{"true"}
			break
		}
		if tid.isConst() {
			match = append(match, Bool(tid.c == uint64(p)))
		} else {
			match = append(match, eqT(e.bv(tid, 32), BV(uint64(p), 32)))
		}
	}
	m := e.defBool(or(match...))
	if e.po != nil {
		if v := and2(s.g, m); v != "false" {
			e.poViolation(s, v)
		}
		s.g = e.defBool(and2(s.g, not(m)))
		return
	}
	if v := and2(and2(s.g, m), e.live(s)); v != "false" {
		e.addViol(e.defBool(v))
	}
	e.stop(s, and2(s.g, m), false, true)
	s.g = e.defBool(and2(s.g, not(m)))
}

// cut ends the path because of the bound.
func (e *encoder) cut(s *pstate) {
	if s.g != "false" {
		e.unwound = append(e.unwound, e.poCutTerm(s, s.g))
	}
	e.stop(s, s.g, false, false)
	s.g = "false"
}

// initial is the state before main's first instruction: the vm's memory
// image (globals' bytes, block kinds and sizes) and main's frame.
func (e *encoder) initial() (*pstate, error) {
	p := e.p
	if e.threaded || e.obj {
		mem, kind, size, wcv, wseq := e.rootMaps()
		s := &pstate{g: "true", cnt: map[int]val{}, next: cst(uint64(e.firstDyn()), 32), flen: cst(0, 32),
			tm: &tmaps{mem: newLayer(mem), kind: newLayer(kind), size: newLayer(size),
				wcv: newLayer(wcv), wseq: newLayer(wseq), pmem: newLayer(nil), pkind: newLayer(nil)}}
		s.regs = e.mainRegs()
		return s, nil
	}
	// No constant arrays: z3 refuses them under QF_ABV and boolector
	// altogether. The initial arrays are free; what the vm's image fixes
	// is stored: every global's bytes, every initial block's kind and
	// size. Ids at or above the allocation counter are read as kind none
	// (kindOf), fresh stack and calloc blocks are cleared when allocated,
	// malloc's keep mem0's bytes: undefined (encode_undef.go).
	mem := e.q.Memory("mem0")
	kind := e.q.Declare("kind0", ArraySort(32, 8))
	size := e.q.Declare("size0", ArraySort(32, 32))
	kinds := make([]uint64, e.firstDyn())
	for _, f := range p.Funcs {
		if f.Block < p.FirstDynBlock {
			kinds[f.Block] = kFunc
		}
	}
	for _, g := range p.Globals {
		k := uint64(kGlobal)
		if g.Const {
			k = kConst
		}
		if g.Block >= p.FirstDynBlock || g.Block == 0 {
			return nil, fmt.Errorf("symbolic: encode: global %s has block id %d outside 1..%d", g.Name, g.Block, p.FirstDynBlock-1)
		}
		kinds[g.Block] = k
		size = e.def(Store(size, BV(uint64(g.Block), 32), BV(uint64(g.Size), 32)), ArraySort(32, 32), "z")
		if len(g.Init) > maxBlockBytes*16 {
			return nil, fmt.Errorf("symbolic: encode: global %s of %d bytes: too large for the BMC encoder", g.Name, len(g.Init))
		}
		for i, b := range g.Init {
			mem = Store(mem, BV(ir.MakePtr(g.Block, uint32(i)), 64), BV(uint64(b), 8))
			if i%64 == 63 {
				mem = e.def(mem, Memory(), "m") // keep each term small
			}
		}
		mem = e.def(mem, Memory(), "m")
	}
	for _, b := range e.img { // the platform's blocks (encode_image.go)
		kinds[b.ID] = imageKind(b)
		size = e.def(Store(size, BV(uint64(b.ID), 32), BV(uint64(len(b.Data)), 32)), ArraySort(32, 32), "z")
		for i, c := range b.Data {
			mem = Store(mem, BV(ir.MakePtr(b.ID, uint32(i)), 64), BV(uint64(c), 8))
			if i%64 == 63 {
				mem = e.def(mem, Memory(), "m")
			}
		}
		mem = e.def(mem, Memory(), "m")
	}
	for id := 1; id < len(kinds); id++ {
		kind = Store(kind, BV(uint64(id), 32), BV(kinds[id], 8))
		if id%64 == 63 {
			kind = e.def(kind, ArraySort(32, 8), "k")
		}
	}
	s := &pstate{g: "true", cnt: map[int]val{}, next: cst(uint64(e.firstDyn()), 32), flen: cst(0, 32),
		mem:  e.def(mem, Memory(), "m"),
		kind: e.def(kind, ArraySort(32, 8), "k"),
		size: e.def(size, ArraySort(32, 32), "z")}
	s.regs = e.mainRegs()
	return s, nil
}

// mainRegs is main's first frame: argc and argv as the vm passes them to
// a run without arguments (platformImage).
func (e *encoder) mainRegs() []val {
	main := e.p.Funcs[e.p.Entry]
	regs := e.frameRegs(main)
	if len(main.Params) >= 1 && int(main.Params[0]) < len(regs) {
		regs[main.Params[0]] = cst(max(e.argc, 1), 32) // (1: argv[0] alone; argc is set by platformImage)
	}
	if len(main.Params) >= 2 && int(main.Params[1]) < len(regs) {
		regs[main.Params[1]] = cst(e.argv, 64)
	}
	return regs
}

// frameRegs are a fresh frame's registers: zero, constants preloaded.
func (e *encoder) frameRegs(fn *ir.Func) []val {
	regs := make([]val, fn.NRegs)
	for i := range regs {
		regs[i] = cst(0, 0)
	}
	for i, c := range fn.Consts {
		if k := int(fn.ConstBase) + i; k < len(regs) {
			regs[k] = cst(c, 0)
		}
	}
	return regs
}

// where names an instruction in errors, like the ir loader's messages.
func (e *encoder) where(fn *ir.Func, pc int32) string {
	blk := "?"
	if g := e.graphs[fn.Index]; g != nil && int(pc) < len(g.pcBlock) {
		if b := g.pcBlock[pc]; b < len(fn.Blocks) {
			blk = fn.Blocks[b]
		}
	}
	loc := ""
	if int(pc) < len(fn.Locs) && int(fn.Locs[pc]) > 0 && int(fn.Locs[pc]) < len(e.p.Locs) {
		loc = " (" + e.p.Locs[fn.Locs[pc]].String() + ")"
	}
	return fmt.Sprintf("%s: block %s%s", fn.Name, blk, loc)
}

func (e *encoder) unsupported(fn *ir.Func, pc int32, what string) error {
	return fmt.Errorf("%s: %s: not supported by the BMC encoder yet", e.where(fn, pc), what)
}
