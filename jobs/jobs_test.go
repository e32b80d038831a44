package jobs

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestEndsMatchVMStatus: End's values are vm.Status's, so a run's status
// converts to its End by value (jobs.End(st.Status)).
func TestEndsMatchVMStatus(t *testing.T) {
	pairs := []struct {
		e End
		s vm.Status
	}{{EndProperty, vm.Running}, {EndExited, vm.Exited}, {EndDeadlock, vm.Deadlock},
		{EndAssumeFailed, vm.AssumeFailed}, {EndError, vm.Failed}, {EndStepBound, vm.StepBound}}
	if len(pairs) != len(Ends) {
		t.Fatalf("%d ends, %d checked", len(Ends), len(pairs))
	}
	for i, p := range pairs {
		if uint8(p.e) != uint8(p.s) || Ends[i] != p.e {
			t.Errorf("%s = %d, vm.%s = %d", p.e, p.e, p.s, p.s)
		}
		if i > 0 && p.e.String() != p.s.String() {
			t.Errorf("%s is named %q, vm calls it %q", p.e, p.e.String(), p.s.String())
		}
	}
}

// TestFingerprints: packed fingerprints survive a JSON round trip in order,
// take 16 bytes each (base64 on the wire), and a payload cut inside one is
// named as such.
func TestFingerprints(t *testing.T) {
	hs := [][2]uint64{{0, 0}, {1, ^uint64(0)}, {0x0123456789abcdef, 0xfedcba9876543210}}
	var f Fingerprints
	for _, h := range hs {
		f = f.Append(h)
	}
	if f.Len() != len(hs) || len(f) != len(hs)*FingerprintSize || f.Check() != "" {
		t.Fatalf("packed %d fingerprints into %d bytes (Len %d, Check %q)", len(hs), len(f), f.Len(), f.Check())
	}
	b, err := json.Marshal(TraceOutcomes{States: f})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"states":"`) {
		t.Errorf("fingerprints are not a base64 string on the wire: %s", b)
	}
	var back TraceOutcomes
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		if got := back.States.At(i); got != h {
			t.Errorf("fingerprint %d: %#x after the round trip, want %#x", i, got, h)
		}
	}
	for _, n := range []int{1, 15, 17, 47} {
		if Fingerprints(make([]byte, n)).Check() == "" {
			t.Errorf("%d bytes pass as whole fingerprints", n)
		}
	}
}

// TestOutcomesPacked: trace outcomes travel packed (protocol 5): every
// field survives a round trip through JSON, indexes that do not follow
// each other too, and malformed or non-finite input is refused with an
// error saying where.
func TestOutcomesPacked(t *testing.T) {
	ok := []Outcomes{
		nil,
		{{Index: 0, Steps: 0, End: EndExited}},
		{{Index: 512, Sat: true, Steps: 3, End: EndProperty}, {Index: 513, Steps: 1 << 40, End: EndStepBound},
			{Index: 514, Steps: 7, End: EndError, Value: -2.5}, {Index: 900, Steps: 9, End: EndDeadlock, Value: 1e300},
			{Index: 901, Sat: true, Steps: ^uint64(0), End: EndAssumeFailed}, {Index: 3, Steps: 1, End: EndExited}},
	}
	for _, outs := range ok {
		b, err := json.Marshal(TraceOutcomes{First: 1, Count: uint64(len(outs)), Outcomes: outs})
		if err != nil {
			t.Fatalf("%v: %v", outs, err)
		}
		var got TraceOutcomes
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if fmt.Sprint(got.Outcomes) != fmt.Sprint(outs) || len(got.Outcomes) != len(outs) {
			t.Errorf("round trip: %v -> %s -> %v", outs, b, got.Outcomes)
		}
	}
	// 256 consecutive plain outcomes take a few bytes each
	var many Outcomes
	for i := range uint64(256) {
		many = append(many, Outcome{Index: 1024 + i, Sat: i%3 == 0, Steps: 3000 + i, End: EndProperty})
	}
	if b, _ := json.Marshal(many); len(b) > 256*6 {
		t.Errorf("256 outcomes take %d bytes", len(b))
	}

	for _, outs := range []Outcomes{{{Value: math.NaN()}}, {{Value: math.Inf(-1)}}, {{End: End(len(Ends))}}} {
		if _, err := json.Marshal(outs); err == nil {
			t.Errorf("%v encoded", outs)
		}
	}
	nan := binary.LittleEndian.AppendUint64([]byte{outValue, 1}, math.Float64bits(math.NaN()))
	for _, c := range []struct {
		packed []byte
		json   string
		want   string
	}{
		{packed: []byte{0x40, 1}, want: "bad flags 0x40 at byte 0"},
		{packed: []byte{6 << outEndShift, 1}, want: "bad flags"},
		{packed: []byte{0, 1, 0}, want: "bad step count at byte 3"},
		{packed: []byte{0, 0x80}, want: "bad step count at byte 1"},
		{packed: []byte{outIndex, 0xff}, want: "bad index at byte 1"},
		{packed: []byte{outValue, 1, 0, 0, 0}, want: "value cut short at byte 2"},
		{packed: nan, want: "is not finite"},
		{json: `[{"i":0,"n":3,"e":1}]`, want: "want a base64 string"},
		{json: `"!!!!"`, want: "illegal base64"},
	} {
		js := c.json
		if js == "" {
			js = `"` + base64.StdEncoding.EncodeToString(c.packed) + `"`
		}
		var outs Outcomes
		if err := json.Unmarshal([]byte(js), &outs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", js, err, c.want)
		}
	}
}

// FuzzOutcomes: packed outcomes from anyone who can publish are refused
// with an error or decode to outcomes that pack and unpack to themselves.
func FuzzOutcomes(f *testing.F) {
	p, _ := Outcomes{{Index: 7, Sat: true, Steps: 300, End: EndProperty}, {Index: 8, Steps: 2, End: EndExited, Value: 0.5}}.Pack(nil)
	f.Add(p)
	f.Add(binary.LittleEndian.AppendUint64([]byte{outValue, 1}, math.Float64bits(math.Copysign(0, -1))))
	f.Add([]byte{outIndex, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		outs, err := Outcomes(nil).Unpack(b)
		if err != nil {
			return
		}
		p, err := outs.Pack(nil)
		if err != nil {
			t.Fatalf("%v decoded from %x does not encode: %v", outs, b, err)
		}
		again, err := Outcomes(nil).Unpack(p)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(outs) {
			t.Fatalf("%x -> %v -> %x -> %v, %v", b, outs, p, again, err)
		}
	})
}
