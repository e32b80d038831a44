package vm

import (
	"testing"
)

// FuzzRestore feeds arbitrary bytes to the snapshot decoder of two
// machines (globals with a large array; the heap with large blocks):
// splitting jobs carry snapshots, so a worker restores what anyone who can
// publish jobs sent. A snapshot is refused with an error or restores a
// state whose own snapshot restores to the same bytes and which runs on
// without crashing the worker.
func FuzzRestore(f *testing.F) {
	machines := []*Machine{mustLL(f, counterLL), mallocLoop(f, "3", "0")}
	for _, m := range machines {
		for _, cut := range []uint64{0, 3, 7, 20, 1000} {
			st := m.NewState()
			m.Run(st, cut, NewRand(1, 0))
			f.Add(m.Snapshot(st))
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range machines {
			st, err := m.Restore(data)
			if err != nil {
				continue
			}
			again := m.Snapshot(st)
			rs, err := m.Restore(again)
			if err != nil {
				t.Fatalf("the snapshot of a restored state does not restore: %v", err)
			}
			if string(m.Snapshot(rs)) != string(again) {
				t.Fatal("snapshot, restore, snapshot changed the bytes")
			}
			m.Run(st, 2000, NewRand(1, 0))
		}
	})
}
