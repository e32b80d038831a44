package jobs

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the wire decoder as every message a
// peer receives — job, result, experiment, status, progress, heartbeat —
// and to the payloads of the kinds: a message from anyone who can publish
// must be refused with an error, never crash the peer. A decoded envelope
// must re-encode and decode to itself.
func FuzzDecode(f *testing.F) {
	tr, _ := json.Marshal(TraceRange{First: 64, Count: 64})
	job, _ := json.Marshal(Job{Version: Version, Kind: KindTrace, Experiment: "e1", Part: "64", Program: "abc",
		ProgramName: "p.c", Query: "Pr[<=10](<> x == 1)", Seed: 7, Payload: tr})
	outs, _ := json.Marshal(TraceOutcomes{First: 0, Count: 2, Outcomes: []Outcome{{Index: 0, Sat: true, Steps: 3, End: EndProperty}, {Index: 1, Steps: 9, End: EndExited}}})
	res, _ := json.Marshal(Result{Version: Version, Kind: KindTrace, Experiment: "e1", Part: "0", Worker: "w", Payload: outs})
	exp, _ := json.Marshal(Experiment{Version: Version, ID: "e1", Program: "abc", Query: "E<> x == 1", Kind: KindExplicit,
		Explicit: &ExplicitOptions{Order: "dfs", MaxBytes: 1 << 20}})
	hb, _ := json.Marshal(Heartbeat{Version: Version, Worker: "w", Slots: 2, Traces: 10})
	for _, s := range [][]byte{job, res, exp, hb, []byte(`{"version":99}`), []byte(`{"version":2,"payload":null}`),
		[]byte("{not json"), []byte(`{"version":2,"kind":"trace","payload":{"first":0,"count":1000000000000}}`), nil} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var j Job
		if err := Decode(data, &j); err == nil {
			if j.Version != Version {
				t.Fatalf("decoded a version-%d job", j.Version)
			}
			_ = j.ID()
			b, err := json.Marshal(j)
			if err != nil {
				t.Fatalf("re-encode %+v: %v", j, err)
			}
			var j2 Job
			if err := Decode(b, &j2); err != nil {
				t.Fatalf("a re-encoded job does not decode: %v\n%s", err, b)
			}
			if j2.ID() != j.ID() || j2.Kind != j.Kind || j2.Seed != j.Seed || j2.Query != j.Query {
				t.Fatalf("round trip changed the job: %+v -> %+v", j, j2)
			}
			var tr TraceRange
			_ = json.Unmarshal(j.Payload, &tr)
			var sj SplitJob
			_ = json.Unmarshal(j.Payload, &sj)
			var ej ExplicitJob
			_ = json.Unmarshal(j.Payload, &ej)
		} else if !strings.Contains(err.Error(), "decode message") && !strings.Contains(err.Error(), "protocol version") {
			t.Fatalf("error %q does not say what failed", err)
		}
		var r Result
		if Decode(data, &r) == nil {
			var o TraceOutcomes
			_ = json.Unmarshal(r.Payload, &o)
			var s SplitResult
			_ = json.Unmarshal(r.Payload, &s)
		}
		var e Experiment
		_ = Decode(data, &e)
		var st Status
		_ = Decode(data, &st)
		var pr Progress
		_ = Decode(data, &pr)
		var h Heartbeat
		_ = Decode(data, &h)
	})
}
