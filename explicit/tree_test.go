package explicit

import (
	"fmt"
	"slices"
	"testing"
)

// TestTreeLeafChunks: leaves kept as lists of shared chunks give one id
// to each distinct sequence of words (lengths and trailing zeros
// included) and give back exactly its words, across the chunk and leaf
// tables' growth.
func TestTreeLeafChunks(t *testing.T) {
	fixed := [][]uint64{
		{},
		{0},
		{0, 0},
		{1},
		{1, 0},
		{1, 0, 0, 0},
		{1, 0, 0, 0, 0},
		{1, 2, 3},
		{1, 2, 3, 4},
		{1, 2, 3, 4, 5},
		{1, 2, 3, 4, 5, 6, 7, 8},
		{1, 2, 3, 4, 5, 6, 7, 8, 9},
		{9, 2, 3, 4, 5, 6, 7, 8, 9},
		{1, 2, 3, 4, 5, 6, 7, 8, 1},
	}
	tests := []struct {
		name   string
		leaves [][]uint64
	}{
		{"fixed", fixed},
		{"many sharing chunks", func() [][]uint64 {
			var out [][]uint64
			for i := range 5000 {
				w := make([]uint64, 3+i%11)
				for j := range w {
					w[j] = uint64(j)
				}
				w[i%len(w)] = uint64(i) // one word differs: the other chunks are shared
				out = append(out, w)
			}
			return out
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := newTreeDB()
			ids := map[string]uint32{}
			for _, w := range tc.leaves {
				id := db.leaf(w, true)
				if id&leafBit == 0 {
					t.Fatalf("leaf %v: id %#x without the leaf bit", w, id)
				}
				key := fmt.Sprint(len(w), w)
				if prev, ok := ids[key]; ok && prev != id {
					t.Fatalf("leaf %v: ids %#x and %#x", w, prev, id)
				}
				ids[key] = id
			}
			seen := map[uint32]string{}
			for _, w := range tc.leaves {
				key := fmt.Sprint(len(w), w)
				id := db.leaf(w, false)
				if id != ids[key] {
					t.Fatalf("leaf %v: looked up as %#x, interned as %#x", w, id, ids[key])
				}
				if other, ok := seen[id]; ok && other != key {
					t.Fatalf("leaves %s and %s share id %#x", other, key, id)
				}
				seen[id] = key
				if got := db.appendLeaf(nil, id); !slices.Equal(got, w) || db.leafLen(id) != len(w) {
					t.Fatalf("leaf %#x: words %v (length %d), want %v", id, got, db.leafLen(id), w)
				}
				for i := range w {
					if got := db.leafWord(id, i); got != w[i] {
						t.Fatalf("leaf %#x: word %d is %d, want %d", id, i, got, w[i])
					}
				}
			}
			if len(db.leafRefs) != len(ids) {
				t.Fatalf("%d leaves stored, want %d", len(db.leafRefs), len(ids))
			}
			if db.leaf([]uint64{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, false) != 0 {
				t.Fatal("a leaf never interned was found")
			}
		})
	}
}
