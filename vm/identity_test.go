package vm

import (
	"reflect"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// identityPrograms have condition-variable waiters, mutexes, stack blocks
// reused across threads, heap blocks and large arrays.
var identityPrograms = []string{
	"../testdata/mt/cond_order.c", "../testdata/mt/prodcons.c", "../testdata/mt/rwlock.c",
	"../testdata/mt/once.c", "../testdata/smc/stack.c", "../testdata/diff/29_binary_tree.c",
	"../testdata/diff/41_sieve.c", "../testdata/mt/undef_heap.c",
}

// TestHashFollowsKey: on every state of several runs of each program, the
// fingerprint agrees with the canonical key (one identity, not two walks
// that may disagree): equal keys have equal fingerprints and different
// keys different ones; the Fingerprinter, updating the previous state's
// parts along the run, gives State.Hash from scratch at every state (also
// when the state is reused across runs, and when a run shows it only some
// states); and copies made by Clone, CopyInto and Snapshot/Restore have the
// original's key and fingerprint.
func TestHashFollowsKey(t *testing.T) {
	progs := append([]string{"../testdata/mt/platform_calls.c", "../testdata/smc/fib_4.c",
		"../testdata/mt/counter_mutex.c", "../testdata/mt/join_values.c"}, identityPrograms...)
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		var key, k2, intoKey []uint64
		into := new(State)
		byKey, byHash := map[string]Hash128{}, map[Hash128]string{}
		var f Fingerprinter
		n, updated := 0, 0
		reused := m.NewState()
		for seed := uint64(1); seed <= 4; seed++ {
			st := m.NewState()
			w := Watch{All: true}
			switch seed {
			case 3:
				st = reused // the same state, reset between runs
				m.Reset(st)
			case 4:
				w = Watch{Procs: 1} // only main's steps and the scheduling points shown
			}
			m.ObserveWatch(st, 200_000, NewRand(seed, 0), w, func(st *State, _ *Thread) bool {
				n++
				key = m.AppendKey(key[:0], st)
				h := st.Hash()
				if st.Steps > 0 {
					updated++
				}
				if got := f.Hash(st); got != h {
					t.Fatalf("%s seed %d step %d: Fingerprinter %x, Hash from scratch %x", path, seed, st.Steps, got, h)
				}
				if n > 20_000 {
					return false // the long runs of binary_tree and sieve: enough seen
				}
				k := string(u64bytes(key))
				if old, ok := byKey[k]; ok && old != h {
					t.Fatalf("%s seed %d step %d: equal keys, different fingerprints", path, seed, st.Steps)
				}
				if old, ok := byHash[h]; ok && old != k {
					t.Fatalf("%s seed %d step %d: different keys, equal fingerprints", path, seed, st.Steps)
				}
				byKey[k], byHash[h] = h, k
				if intoKey != nil {
					// the copy made at the last seventh state has not moved
					// while the run went on in place
					if k2 = m.AppendKey(k2[:0], into); !slices.Equal(k2, intoKey) {
						t.Fatalf("%s seed %d step %d: a CopyInto copy changed when the original ran on", path, seed, st.Steps)
					}
				}
				if n%7 != 0 {
					return false
				}
				c := st.Clone()
				m.CopyInto(into, st)
				intoKey = append(intoKey[:0], key...)
				r, err := m.Restore(m.Snapshot(st))
				if err != nil {
					t.Fatal(err)
				}
				for what, o := range map[string]*State{"Clone": c, "CopyInto": into, "Restore": r} {
					if k2 = m.AppendKey(k2[:0], o); !slices.Equal(k2, key) || o.Hash() != h {
						t.Fatalf("%s seed %d step %d: %s changes the key or the hash", path, seed, st.Steps, what)
					}
				}
				return false
			})
		}
		if len(byKey) < 10 || updated == 0 {
			t.Errorf("%s: only %d distinct states, %d updated", path, len(byKey), updated)
		}
	}
}

// TestHashTellsApart: states that differ only in the order of arrival of
// condition-variable waiters (which decides whom pthread_cond_signal
// wakes), or only in the owner of a stack block, have different keys and
// hashes; states that differ only in what the identity leaves out (the
// absolute waiter sequence numbers, the step counter, the output, the free
// list of stack ids) have equal ones.
func TestHashTellsApart(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/mt/cond_order.c"))
	// A state where both waiters wait, and one of a thread with a stack block.
	var waiting, stacked *State
	for i := uint64(0); waiting == nil || stacked == nil; i++ {
		if i == 1000 {
			t.Fatal("no state with two condition-variable waiters and a stack block in 1000 runs")
		}
		st := m.NewState()
		m.Observe(st, 10_000, NewRand(1, i), func(st *State, _ *Thread) bool {
			w := 0
			for _, th := range st.Threads {
				if th.Wait == waitCond {
					w++
				}
				if stacked == nil && th.ID > 0 && len(th.Allocas) > 0 {
					stacked = st.Clone()
				}
			}
			if w == 2 && waiting == nil {
				waiting = st.Clone()
			}
			return waiting != nil && stacked != nil
		})
	}
	differ := func(what string, a, b *State) {
		t.Helper()
		if slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, b)) {
			t.Errorf("%s: equal keys", what)
		}
		if a.Hash() == b.Hash() {
			t.Errorf("%s: equal hashes", what)
		}
	}
	same := func(what string, a, b *State) {
		t.Helper()
		if !slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, b)) {
			t.Errorf("%s: different keys", what)
		}
		if a.Hash() != b.Hash() {
			t.Errorf("%s: different hashes", what)
		}
	}
	var ws []*Thread
	swapped := waiting.Clone()
	for _, th := range swapped.Threads {
		if th.Wait == waitCond {
			ws = append(ws, th)
		}
	}
	ws[0].WaitSeq, ws[1].WaitSeq = ws[1].WaitSeq, ws[0].WaitSeq
	differ("waiters arrived in the other order", waiting, swapped)
	shifted := waiting.Clone()
	for _, th := range shifted.Threads {
		if th.Wait == waitCond {
			th.WaitSeq += 1000
		}
	}
	shifted.condSeq += 1000
	same("waiters' sequence numbers shifted", waiting, shifted)

	th := stacked.Threads[len(stacked.Threads)-1]
	for _, o := range stacked.Threads {
		if o.ID > 0 && len(o.Allocas) > 0 {
			th = o
		}
	}
	id := th.Allocas[0]
	owned := stacked.Clone()
	owned.Mem.wblk(id).thread = (th.ID + 1) % int32(len(stacked.Threads))
	differ("stack block owned by another thread", stacked, owned)

	other := stacked.Clone()
	other.Steps += 5
	other.Out = append(other.Out, "x"...)
	other.LastThread = 7
	other.Mem.freeStack = append(other.Mem.freeStack, 12345)
	same("steps, output, last thread and free stack ids changed", stacked, other)
}

// TestHashFixed: the fingerprint has no per-process seed (EnumStatesSMC
// merges fingerprints computed by different workers): a fixed key hashes
// to a fixed value. A change of the hash function changes this value; it
// must stay seedless.
func TestHashFixed(t *testing.T) {
	key := []uint64{0, ^uint64(0), 1, 2, 3, 1 << 63, 0x0123456789abcdef}
	if got, want := HashKey(key), (Hash128{0x5152bf5608dc5ad4, 0x6d6509c1e0656e05}); got != want {
		t.Errorf("HashKey = %#x, want %#x", got, want)
	}
	if HashKey(key[:6]) == HashKey(key) || HashKey(nil) == HashKey([]uint64{0}) {
		t.Error("prefixes hash equal")
	}
}

// identityFields says, for every field of the structures a state is made
// of, whether appendKey (hash.go) encodes it, and if not why not. Adding a
// field to one of them fails TestIdentityFields until it is listed here:
// whoever adds state decides whether it is part of the state's identity
// (and then encodes it in appendKey, and in snapshots).
var identityFields = map[string]string{
	"State.Mem":        "key: memory.n and the blocks that differ from the image",
	"State.Threads":    "key",
	"State.Steps":      "not: a counter of the run, not a property of the state",
	"State.Status":     "key",
	"State.ExitCode":   "key",
	"State.Err":        "key: kind and thread; the rest describes where and why",
	"State.Out":        "not: captured output is not state",
	"State.condSeq":    "not: only the order of the waiters' WaitSeq matters",
	"State.LastThread": "not: the scheduler's history",
	"State.scratch":    "not: a buffer",
	"State.fmtBuf":     "not: a buffer",
	"State.spare":      "not: recycled thread records",
	"State.room":       "not: blocks that records' buffers are carved from",
	"State.leaks":      "not: scratch space of the leak checks",
	"State.syncs":      "not: a change counter the scheduler compares across a step",
	"State.copies":     "not: a counter of CopyInto calls, for sharing",
	"State.Interrupt":  "not: a request to stop the run, from outside",

	"Thread.ID":       "key",
	"Thread.Done":     "key",
	"Thread.Frames":   "key",
	"Thread.Regs":     "key: every frame's value slots; constant slots come from its function",
	"Thread.Allocas":  "key",
	"Thread.RetVal":   "key",
	"Thread.Atomic":   "key",
	"Thread.Wait":     "key",
	"Thread.WaitSeq":  "key: as the rank among condition-variable waiters",
	"Thread.WaitOn":   "key",
	"Thread.Detached": "key",
	"Thread.shared":   "not: copy-on-write sharing between states",
	"Thread.ph":       "not: a cached hash of the key's part",
	"Thread.phID":     "not: names the hasher of ph",

	"Frame.Fn":         "key: its index",
	"Frame.PC":         "key",
	"Frame.Base":       "not: determined by the frames below",
	"Frame.RetDst":     "key",
	"Frame.RetN":       "not: determined by the caller's call instruction",
	"Frame.AllocaMark": "key",
	"Frame.OnceAddr":   "key",
	"Frame.Atomic":     "not: determined by Fn",

	"ErrorState.Kind":   "key",
	"ErrorState.Thread": "key",
	"ErrorState.Func":   "not: describes the error",
	"ErrorState.PC":     "not: describes the error",
	"ErrorState.Loc":    "not: describes the error",
	"ErrorState.Detail": "not: describes the error",

	"Memory.chunks":      "key: through Memory.changed",
	"Memory.n":           "key",
	"Memory.epoch":       "not: copy-on-write ownership",
	"Memory.base":        "not: copy-on-write ownership",
	"Memory.freeStack":   "not: the order in which dead stack ids are reused",
	"Memory.image":       "not: what the key is relative to",
	"Memory.spareChunks": "not: recycled buffers",
	"Memory.spareData":   "not: recycled buffers",
	"Memory.bulk":        "not: how buffers are allocated",
	"Memory.dataRoom":    "not: a block buffers are carved from",
	"Memory.chunkRoom":   "not: a block chunk tables are carved from",
	"Memory.idRoom":      "not: a block lists of dead stack blocks are carved from",
	"Memory.live":        "not: derived from the blocks",
	"Memory.heap":        "not: derived from the blocks",
	"Memory.undef":       "not: derived from the blocks (their kinds)",
	"Memory.limit":       "not: the machine's setting",
	"Memory.refused":     "not: set only in the step that ends the run",
	"Memory.epochNext":   "not: epochs reserved for copy-on-write ownership",
	"Memory.epochEnd":    "not: epochs reserved for copy-on-write ownership",

	"block.data":   "key: the bytes",
	"block.pages":  "key: the bytes",
	"block.size":   "key",
	"block.kind":   "key",
	"block.thread": "key: the owner of a stack block",
	"block.owner":  "not: copy-on-write ownership",
}

// TestIdentityFields: every field of the state's structures is listed in
// identityFields, and every entry names a field.
func TestIdentityFields(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range []any{State{}, Thread{}, Frame{}, ErrorState{}, Memory{}, block{}} {
		typ := reflect.TypeOf(v)
		for f := range typ.Fields() {
			name := typ.Name() + "." + f.Name
			seen[name] = true
			if _, ok := identityFields[name]; !ok {
				t.Errorf("%s is not listed in identityFields: decide whether it is part of a state's identity", name)
			}
		}
	}
	for name := range identityFields {
		if !seen[name] {
			t.Errorf("identityFields lists %s, which is no field", name)
		}
	}
}

// TestPartsHash: along random runs of the identity programs (and Peterson
// and fib_4), for every successor of every state (each enabled process
// stepped once, with random choices), the parts hash updated from the
// parent's (PartsHasher.Successor, after any step: solo or not) equals the
// one made from scratch,
// and states with equal keys have equal parts hashes whatever their
// copy-on-write sharing.
func TestPartsHash(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c"}, identityPrograms...)
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		ph := NewPartsHasher()
		// scratch hashes without the part hashes cached in processes
		// (Thread.ph): a stale cache would make ph disagree with it.
		scratch := ph.Uncached()
		byKey := map[string]Hash128{}
		scr, next := new(State), new(State)
		var en []int32
		updated, cached := 0, 0
		for seed := uint64(1); seed <= 3; seed++ {
			st := m.NewState()
			rnd := NewRand(seed, 0)
			h := ph.Sum(st)
			for step := 0; step < 400 && st.Status == Running; step++ {
				if en = m.EnabledThreads(st, en); len(en) == 0 {
					break
				}
				for _, tid := range en {
					solo := m.SoloStep(st, tid)
					if th := st.Threads[tid]; th.phID == ph.id {
						cached++
					}
					m.CopyInto(scr, st)
					if m.StepEnabled(scr, tid, rnd) != solo {
						t.Fatalf("%s: StepEnabled's report differs from SoloStep's", path)
					}
					m.SettleEnd(scr, tid)
					want := scratch.Sum(scr)
					if solo {
						updated++
					}
					if got := ph.SuccessorStep(st, h, scr, tid, solo); got != want {
						t.Fatalf("%s: seed %d step %d process %d (solo %v): parts hash updated by SuccessorStep %x, from scratch %x", path, seed, step, tid, solo, got, want)
					}
					if got := ph.Successor(st, h, scr, tid); got != want {
						t.Fatalf("%s: seed %d step %d process %d (solo %v): updated parts hash %x, from scratch %x", path, seed, step, tid, solo, got, want)
					}
					if got := ph.Sum(scr); got != want {
						t.Fatalf("%s: seed %d step %d process %d: parts hash %x with cached parts, from scratch %x", path, seed, step, tid, got, want)
					}
					if got := scratch.Sum(st); got != h {
						t.Fatalf("%s: seed %d step %d process %d: the parent's parts hash changed", path, seed, step, tid)
					}
					k := string(u64bytes(m.AppendKey(nil, scr)))
					if old, ok := byKey[k]; ok && old != want {
						t.Fatalf("%s: equal keys, different parts hashes", path)
					}
					byKey[k] = want
				}
				tid := en[rnd.Uint64()%uint64(len(en))]
				if step%2 == 0 {
					m.CopyInto(next, st)
					m.StepOnly(next, tid, rnd)
					m.SettleEnd(next, tid)
					st, next = next, st
				} else {
					// In place: st's processes are cached and owned
					// by st alone, and the step must drop the
					// moving one's cache.
					m.StepOnly(st, tid, rnd)
					m.SettleEnd(st, tid)
				}
				h = ph.Sum(st)
				if want := scratch.Sum(st); h != want {
					t.Fatalf("%s: seed %d step %d: parts hash %x after a step in place, from scratch %x", path, seed, step, h, want)
				}
			}
		}
		if updated == 0 || cached == 0 {
			t.Errorf("%s: %d successors hashed by update, %d with the moving process's part cached: want some of each", path, updated, cached)
		}
	}
}

func u64bytes(w []uint64) []byte {
	b := make([]byte, 0, 8*len(w))
	for _, v := range w {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
	}
	return b
}

// TestKeyParts: along random runs of the identity programs (and Peterson
// and fib_4), AppendKeyParts appends exactly AppendKey's words, in parts
// that end where the header (the status and process count), each process,
// the block count and each block that differs from the image end: as many
// parts as processes + blocks + 2, the first three words long, each
// process's part its appendThread words.
func TestKeyParts(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c"}, identityPrograms...)
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		var key, words []uint64
		var ends []int32
		for seed := uint64(1); seed <= 3; seed++ {
			st := m.NewState()
			rnd := NewRand(seed, 0)
			var en []int32
			for step := 0; step < 400 && st.Status == Running; step++ {
				key = m.AppendKey(key[:0], st)
				words, ends = m.AppendKeyParts(words[:0], ends[:0], st)
				if !slices.Equal(words, key) {
					t.Fatalf("%s: seed %d step %d: AppendKeyParts's words differ from AppendKey's", path, seed, step)
				}
				blocks := 0
				for range st.Mem.changed(&m.init) {
					blocks++
				}
				if len(ends) != len(st.Threads)+blocks+2 || ends[0] != 3 || int(ends[len(ends)-1]) != len(key) {
					t.Fatalf("%s: seed %d step %d: %d parts ending at %v for %d processes and %d blocks (%d words)", path, seed, step, len(ends), ends, len(st.Threads), blocks, len(key))
				}
				for i, th := range st.Threads {
					if want := appendThread(nil, st, th); !slices.Equal(key[ends[i]:ends[i+1]], want) {
						t.Fatalf("%s: seed %d step %d: process %d's part differs from its appendThread words", path, seed, step, i)
					}
				}
				if en = m.EnabledThreads(st, en); len(en) == 0 {
					break
				}
				m.StepEnabled(st, en[rnd.Choose(uint64(len(en)))], rnd)
			}
		}
	}
}

// TestCacheThread: along random runs of the identity programs (and
// Peterson and fib_4), CacheThread given a process's part of the encoding
// caches the hash PartsHasher.thread makes from scratch, in a record the
// state alone holds; it caches nothing in a record the state shares
// (another state may hold it) or of a process waiting on a condition
// variable (its part depends on the other processes).
func TestCacheThread(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c"}, identityPrograms...)
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		ph := NewPartsHasher()
		scratch := ph.Uncached()
		var en []int32
		var key []uint64
		var ends []int32
		cachedSome := false
		for seed := uint64(1); seed <= 3; seed++ {
			st := m.NewState()
			rnd := NewRand(seed, 0)
			for step := 0; step < 300 && st.Status == Running; step++ {
				if en = m.EnabledThreads(st, en); len(en) == 0 {
					break
				}
				m.StepOnly(st, en[rnd.Uint64()%uint64(len(en))], rnd)
				if st.Status != Running {
					break
				}
				key, ends = m.AppendKeyParts(key[:0], ends[:0], st)
				// a decoded copy: its records are new, owned, uncached
				dec := m.NewState()
				parts := make([][]uint64, len(ends))
				for i := range ends {
					from := int32(0)
					if i > 0 {
						from = ends[i-1]
					}
					parts[i] = key[from:ends[i]]
				}
				if err := m.DecodeKeyInto(dec, parts, m.AppendKeyAux(nil, st)); err != nil {
					t.Fatalf("%s: seed %d step %d: %v", path, seed, step, err)
				}
				shared := new(State)
				for i, th := range dec.Threads {
					if i == 1 {
						m.CopyInto(shared, dec) // from here on dec shares its records
					}
					ph.CacheThread(dec, i, parts[1+i])
					want := scratch.thread(dec, th)
					switch {
					case i >= 1 || th.Wait == waitCond:
						if th.phID == ph.id {
							t.Fatalf("%s: seed %d step %d: process %d's hash cached in a shared record or of a waiter", path, seed, step, i)
						}
					case th.phID != ph.id || th.ph != want:
						t.Fatalf("%s: seed %d step %d: process %d's cached hash %x (cached %v), from scratch %x", path, seed, step, i, th.ph, th.phID == ph.id, want)
					default:
						cachedSome = true
					}
				}
			}
		}
		if !cachedSome {
			t.Errorf("%s: no hash cached", path)
		}
	}
}
