package kind

import (
	"encoding/json"
	"math"
	"testing"
)

// TestEncodeAll: omitempty is ignored, nil slices and maps are empty, nil
// pointers null, non-finite floats null, HTML characters unescaped and
// other escapes kept.
func TestEncodeAll(t *testing.T) {
	type inner struct {
		N int `json:"n,omitempty"`
	}
	type embedded struct {
		E string `json:"e"`
	}
	type outer struct {
		embedded
		S     string         `json:"s,omitempty"`
		L     []int          `json:"l,omitempty"`
		M     map[string]int `json:"m,omitempty"`
		P     *inner         `json:"p,omitempty"`
		I     inner          `json:"i"`
		F     float64        `json:"f"`
		Skip  int            `json:"-"`
		Plain int
	}
	cases := []struct {
		in   any
		want string
	}{
		{outer{}, `{"e":"","s":"","l":[],"m":{},"p":null,"i":{"n":0},"f":0,"Plain":0}`},
		{outer{S: "a<b && c>d", F: math.Inf(1), L: []int{1}, M: map[string]int{"z": 1, "a": 2}, P: &inner{}},
			`{"e":"","s":"a<b && c>d","l":[1],"m":{"a":2,"z":1},"p":{"n":0},"i":{"n":0},"f":null,"Plain":0}`},
		{`back\slash "\u003c" <`, `"back\\slash \"\\u003c\" <"`},
		{json.RawMessage(`{"q":"\u003c\u0026\\u003e"}`), `{"q":"<&\\u003e"}`},
	}
	for _, c := range cases {
		got, err := encodeAll(c.in)
		if err != nil {
			t.Fatalf("%#v: %v", c.in, err)
		}
		if string(got) != c.want {
			t.Errorf("%#v:\n got %s\nwant %s", c.in, got, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s is not JSON", got)
		}
	}
}
