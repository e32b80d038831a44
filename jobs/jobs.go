// Package jobs is Wyvern's wire protocol: the NATS subjects, JetStream
// streams and buckets, and the messages that coordinators, workers and
// clients exchange — jobs and results in kind-tagged envelopes, with every
// kind's payload defined here. Every message carries Version; a peer
// rejects messages of another version with a clear error.
package jobs

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Version of the protocol (2: jobs and results in kind-tagged envelopes;
// 3: EnumStatesSMC fingerprints packed as bytes, see Fingerprints; 4: a
// fingerprint is the sum of its parts' hashes, vm.State.Hash, so workers of
// version 3 compute other values for the same states; 5: a trace result's
// outcomes packed as bytes, see Outcomes; 6: the platform's behaviours,
// vm.Behaviours: a pthread_cond_signal with several waiters draws the one
// it wakes, so workers of version 5 run other traces for the same (seed,
// index); 7: an experiment's WrapOverflow, which workers of version 6 would
// ignore, checking the program with overflow errors).
const Version = 7

// NATS names.
const (
	StreamJobs        = "WYVERN_JOBS" // work queue: subjects wyvern.jobs.<experiment>
	StreamResults     = "WYVERN_RESULTS"
	ConsumerWorkers   = "workers" // durable pull consumer shared by all workers
	BucketPrograms    = "wyvern_programs"
	BucketExperiments = "wyvern_experiments"
	SubjectSubmit     = "wyvern.api.submit"
	// SubjectCancel takes a CancelRequest: the coordinator running the
	// experiment stops it (state failed, the error saying why), drops its
	// queued jobs, and workers abandon its running jobs. A SubmitReply
	// answers (Error: no such running experiment).
	SubjectCancel = "wyvern.api.cancel"
)

// WaitingSubject is answered by the client that waits for experiment exp's
// result (coordinator.Submit) for as long as it waits: a coordinator that
// gets no responder there twice in a row cancels the experiment (its
// submitter is gone: killed, or its machine lost).
func WaitingSubject(exp string) string { return "wyvern.api.waiting." + exp }

// SubjectSkew carries SkewNotice: a worker's word that it cannot run a
// job of another protocol version (it terminates the job). The coordinator
// fails the experiment naming the worker and both versions, instead of
// waiting for ever for a result that no worker of this version will send.
const SubjectSkew = "wyvern.api.skew"

// StreamMetaProtocol is the key, in the metadata of StreamJobs, of the
// protocol version of the coordinator that set the stream up: a worker of
// another version says so at start and takes no jobs.
const StreamMetaProtocol = "wyvern_protocol"

// SkewNotice is the one message whose form does not depend on Version
// (peers of every version must read it): decode it with encoding/json,
// not Decode.
type SkewNotice struct {
	Worker        string `json:"worker"`
	WorkerVersion int    `json:"worker_version"`
	JobVersion    int    `json:"job_version"`
	Experiment    string `json:"experiment"` // from the job's subject
	Seq           uint64 `json:"seq"`        // the job message's stream sequence
}

// CancelRequest asks for an experiment to stop.
type CancelRequest struct {
	Version    int    `json:"version"`
	Experiment string `json:"experiment"`
	Reason     string `json:"reason"` // why, for the experiment's error
}

// JobSubject is the work-queue subject of an experiment's jobs.
func JobSubject(exp string) string { return "wyvern.jobs." + exp }

// ResultSubject is the subject of an experiment's results.
func ResultSubject(exp string) string { return "wyvern.results." + exp }

// ProgressSubject carries an experiment's progress reports.
func ProgressSubject(exp string) string { return "wyvern.progress." + exp }

// HeartbeatSubject carries a worker's heartbeats.
func HeartbeatSubject(worker string) string { return "wyvern.heartbeat." + worker }

// HeartbeatAll matches every worker's heartbeats.
const HeartbeatAll = "wyvern.heartbeat.*"

// ProgramHash names a program by the SHA-256 of its LLVM assembly.
func ProgramHash(ll []byte) string {
	s := sha256.Sum256(ll)
	return hex.EncodeToString(s[:])
}

// Experiment is what a client submits.
type Experiment struct {
	Version     int    `json:"version"`
	ID          string `json:"id"`
	Program     string `json:"program"`      // ProgramHash, stored in BucketPrograms
	ProgramName string `json:"program_name"` // the user's file name, for messages
	Query       string `json:"query"`
	Seed        uint64 `json:"seed"`
	JobSize     int    `json:"job_size"` // traces per job
	// Args are the program's command-line arguments after argv[0]
	// (`--arg`); absent: none.
	Args []string `json:"args,omitempty"`
	// WrapOverflow: the program's signed and unsigned overflow of add,
	// sub, mul, shl and abs wraps around instead of being an error
	// (ir.Program.WrapOverflow); absent: overflow is an error.
	WrapOverflow bool `json:"wrap_overflow,omitempty"`
	// Kind is the job kind that answers the query (KindTrace, KindSplit,
	// KindExplicit, ...): decided once, by the client, from the query and
	// the options (coordinator.KindOf).
	Kind string `json:"kind"`
	// Explicit-state experiments (and exact probabilities).
	Explicit *ExplicitOptions `json:"explicit,omitempty"`
	// Bounded model checking (Kind KindBMC).
	BMC *BMCOptions `json:"bmc,omitempty"`
	// Termination analysis (Kind KindTermination).
	Termination *TerminationOptions `json:"termination,omitempty"`
	Created     time.Time           `json:"created"`
}

// SubmitReply answers a submission.
type SubmitReply struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Error   string `json:"error,omitempty"`
}

// Job kinds. A job travels in a Job envelope whose Kind names the handler
// that runs it and whose Payload is the kind's own message (TraceRange,
// SplitJob, ExplicitJob); results come back in Result envelopes of the same
// kind (TraceOutcomes, SplitResult, the explicit result).
const (
	KindTrace    = "trace"    // traces [First, First+Count)
	KindSplit    = "split"    // importance-splitting segments
	KindExplicit = "explicit" // an explicit-state search or exact probability
	KindBMC      = "bmc"      // bounded model checking with an SMT solver
	// KindTermination: does every run end (lassos, ranking functions)?
	KindTermination = "termination"
)

// ExplicitOptions configure an explicit-state experiment: a search for
// E<>, A[] and EnumStates queries, or (Exact) the exact probability of a
// Pr query.
type ExplicitOptions struct {
	Exact     bool    `json:"exact,omitempty"`
	Order     string  `json:"order,omitempty"`     // bfs (default) or dfs
	Reduction string  `json:"reduction,omitempty"` // none (default), local or global
	Compact   bool    `json:"compact,omitempty"`   // hash compaction
	POR       bool    `json:"por,omitempty"`       // partial-order reduction (with local or global)
	MaxStates int64   `json:"max_states,omitempty"`
	MaxBytes  int64   `json:"max_bytes,omitempty"`
	MaxTimeS  float64 `json:"max_time_s,omitempty"`
	// Workers: goroutines of a breadth-first search (0 or 1: one).
	Workers int `json:"workers,omitempty"`
}

// DefaultExplicitMaxBytes is the memory an explicit-state search may use
// when ExplicitOptions.MaxBytes is 0 (explicit.DefaultMaxBytes).
const DefaultExplicitMaxBytes = 2 << 30 // 2 GiB

// Job is the envelope of every job: what all kinds share (the experiment,
// its program, query and seed), the kind, a name for messages (Part, e.g.
// the trace range), and the kind's payload.
type Job struct {
	Version     int      `json:"version"`
	Kind        string   `json:"kind"`
	Experiment  string   `json:"experiment"`
	Part        string   `json:"part"` // which part of the experiment: unique within it
	Program     string   `json:"program"`
	ProgramName string   `json:"program_name"`
	Query       string   `json:"query"`
	Seed        uint64   `json:"seed"`
	Args        []string `json:"args,omitempty"` // the experiment's Args
	// WrapOverflow is the experiment's WrapOverflow.
	WrapOverflow bool            `json:"wrap_overflow,omitempty"`
	Payload      json.RawMessage `json:"payload"`
}

// ID names a job in messages.
func (j *Job) ID() string { return j.Experiment + "/" + j.Kind + "/" + j.Part }

// Result is the envelope of a job's result: the kind's payload, or Error
// when the job cannot run for a reason that will not go away (a program
// that does not load).
type Result struct {
	Version    int     `json:"version"`
	Kind       string  `json:"kind"`
	Experiment string  `json:"experiment"`
	Part       string  `json:"part"`
	Worker     string  `json:"worker"`
	Elapsed    float64 `json:"elapsed_s"`
	Error      string  `json:"error,omitempty"`
	// Refused: Error is a refusal — the kind's engine does not support
	// the job's input (a program construct), which the submitter must
	// change — not a failure of the worker or the cluster.
	Refused bool            `json:"refused,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// MaxTraceJob bounds the traces of one trace job: a worker keeps their
// outcomes until it publishes the job's result, which must fit one NATS
// message. Coordinators refuse larger job sizes; workers refuse larger jobs.
const MaxTraceJob = 1 << 14

// TraceRange is a KindTrace job: traces [First, First+Count).
type TraceRange struct {
	First uint64 `json:"first"`
	Count uint64 `json:"count"`
}

// TraceOutcomes is a KindTrace result.
type TraceOutcomes struct {
	First    uint64       `json:"first"`
	Count    uint64       `json:"count"`
	Outcomes Outcomes     `json:"outcomes,omitempty"`
	States   Fingerprints `json:"states,omitempty"` // EnumStatesSMC: the distinct states the job saw
	Steps    uint64       `json:"steps"`
}

// Fingerprints are 128-bit state fingerprints packed 16 bytes each (the two
// halves little-endian), base64 in JSON: half the size of pairs of
// decimal numbers, and decoded without parsing numbers (a job's result
// holds tens of thousands of them).
type Fingerprints []byte

// FingerprintSize is the bytes of one packed fingerprint.
const FingerprintSize = 16

// Append packs h after the fingerprints of f.
func (f Fingerprints) Append(h [2]uint64) Fingerprints {
	return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(f, h[0]), h[1])
}

// Len is the number of fingerprints in f.
func (f Fingerprints) Len() int { return len(f) / FingerprintSize }

// At returns fingerprint i of f.
func (f Fingerprints) At(i int) [2]uint64 {
	p := f[i*FingerprintSize:]
	return [2]uint64{binary.LittleEndian.Uint64(p), binary.LittleEndian.Uint64(p[8:])}
}

// Check says why f is not a sequence of whole fingerprints ("" when it is).
func (f Fingerprints) Check() string {
	if len(f)%FingerprintSize != 0 {
		return fmt.Sprintf("%d bytes of state fingerprints, not a multiple of %d", len(f), FingerprintSize)
	}
	return ""
}

// SplitJob is a KindSplit job: the splitting segments Tasks[i] of
// replication Rep, stage Stage, numbered First+i within their batch, with
// the start states they refer to (by index).
type SplitJob struct {
	Rep    int          `json:"rep"`
	Stage  int          `json:"stage"`
	First  int          `json:"first"`
	Starts []SplitStart `json:"starts"`
	Tasks  []SplitTask  `json:"tasks"`
}

// SplitResult is (part of) a KindSplit result: segments First.. of the
// job's batch (a job's segments may come in several messages).
type SplitResult struct {
	Rep      int       `json:"rep"`
	Stage    int       `json:"stage"`
	First    int       `json:"first"`
	Segments []Segment `json:"segments"`
	Steps    uint64    `json:"steps"`
}

// ExplicitJob is a KindExplicit job; its result's payload is the search's
// or the exact computation's result as package explicit encodes it.
type ExplicitJob struct {
	Options ExplicitOptions `json:"options"`
}

// BMCOptions configure bounded model checking of an E<> or A[] query.
type BMCOptions struct {
	// Unwind is a fixed unwinding bound; 0 deepens 1, 2, 4, ... up to
	// MaxUnwind, looking for a violation at small bounds first.
	Unwind    int    `json:"unwind,omitempty"`
	MaxUnwind int    `json:"max_unwind,omitempty"`
	Solver    string `json:"solver,omitempty"` // z3 (default), cvc5 or boolector
	// SolverTimeoutS bounds each solver check (0: none); a check that runs
	// out of time ends with the verdict unknown.
	SolverTimeoutS float64 `json:"solver_timeout_s,omitempty"`
	// Contexts bounds the schedules of a threaded program: C round-robin
	// rounds over the threads in creation order, which covers every
	// schedule of at most C context switches (0: DefaultContexts).
	Contexts int `json:"contexts,omitempty"`
	// Complete: when a threaded program has no violation within Contexts
	// rounds and every execution is complete within the unwinding bound,
	// check again with the rounds that hold every schedule of the bounded
	// program, whose unsat is a proof (symbolic/encode_complete.go). Off
	// by default: that formula grows with the square of those rounds.
	Complete bool `json:"complete,omitempty"`
	// RoundsOnly: a threaded program is checked by the round-robin rounds
	// alone, without the partial-order check that otherwise follows them
	// (symbolic/encode_po.go): bug finding under the context bound only.
	RoundsOnly bool `json:"rounds_only,omitempty"`
}

// BMCJob is a KindBMC job; its result's payload is the check's result as
// package symbolic encodes it.
type BMCJob struct {
	Options BMCOptions `json:"options"`
}

// TerminationOptions configure a termination analysis (package
// termination); zero values take its defaults.
type TerminationOptions struct {
	MaxStates int64   `json:"max_states,omitempty"` // states of the lasso search
	MaxTimeS  float64 `json:"max_time_s,omitempty"` // the whole analysis
	Solver    string  `json:"solver,omitempty"`     // z3 (default), cvc5 or boolector
	NoSMT     bool    `json:"no_smt,omitempty"`     // no ranking functions or recurrent sets
}

// TerminationJob is a KindTermination job; its result's payload is the
// analysis's result as package termination encodes it.
type TerminationJob struct {
	Options TerminationOptions `json:"options"`
}

// SplitStart is a state a splitting segment starts from: a vm snapshot
// (nil: the program's initial state), the observer's stage for proposition
// levels, and the running maximum of the score on the path to it.
type SplitStart struct {
	Snap  []byte `json:"snap,omitempty"`
	Stage int32  `json:"stage,omitempty"`
	Max   int64  `json:"max"`
}

// SplitTask is one splitting segment: from Starts[Start], with the random
// choices keyed by (seed, replication, stage, Replica).
type SplitTask struct {
	Replica int `json:"replica"`
	Start   int `json:"start"`
	// Stop ends the segment at the first state whose score is >= Stop
	// (math.MaxInt64: when the property holds); that state is the crossing.
	Stop int64 `json:"stop"`
	// Record keeps every new running maximum (adaptive splitting) up to
	// and including the first one >= Cap.
	Record bool  `json:"record,omitempty"`
	Cap    int64 `json:"cap,omitempty"`
	// NoSnap: the crossing's state is not needed (the last level).
	NoSnap bool `json:"nosnap,omitempty"`
}

// SplitRecord is a state of a segment: a level crossing (fixed effort) or
// a new running maximum (adaptive).
type SplitRecord struct {
	Score int64  `json:"score"`
	Stage int32  `json:"stage,omitempty"`
	Steps uint64 `json:"steps"`
	Snap  []byte `json:"snap,omitempty"`
}

// Segment is a splitting task's outcome.
type Segment struct {
	Replica int           `json:"replica"`
	Records []SplitRecord `json:"records,omitempty"`
	Max     int64         `json:"max"` // running maximum at the end (including the start's)
	Sat     bool          `json:"sat,omitempty"`
	Crossed bool          `json:"crossed,omitempty"` // reached Stop
	// PreSat is the running maximum just before the property first held
	// (with Sat); Decreased, that the score fell along the segment. Both
	// feed the splitting warnings about scores that do not lead to the
	// property.
	PreSat    int64  `json:"pre_sat,omitempty"`
	Decreased bool   `json:"decreased,omitempty"`
	Steps     uint64 `json:"steps"` // steps executed by this segment
	End       End    `json:"end"`   // how the segment ended
	Nanos     int64  `json:"nanos"`
}

// End is how a run (or a splitting segment) ended. Its values are those
// of vm.Status, in the same order (a test checks it), named here so that
// the protocol does not depend on the interpreter.
type End uint8

// How runs end.
const (
	EndProperty     End = iota // stopped where the property held (the run was still going)
	EndExited                  // main returned or exit() was called
	EndDeadlock                // no process enabled, main not finished
	EndAssumeFailed            // __VERIFIER_assume(0)
	EndError                   // an error was detected
	EndStepBound               // the step bound was reached
)

// Ends lists every End in order.
var Ends = [...]End{EndProperty, EndExited, EndDeadlock, EndAssumeFailed, EndError, EndStepBound}

var endNames = [...]string{"stopped-at-property", "exited", "deadlock", "assume-failed", "error", "step-bound"}

// String names an End as results report it.
func (e End) String() string {
	if int(e) < len(endNames) {
		return endNames[e]
	}
	return fmt.Sprintf("end(%d)", e)
}

// Outcome is one trace's result.
type Outcome struct {
	Index uint64  `json:"i"`
	Sat   bool    `json:"s,omitempty"`
	Steps uint64  `json:"n"`           // steps to the first satisfying state, else the run's length
	End   End     `json:"e"`           // how the run ended
	Value float64 `json:"v,omitempty"` // Estimate: the run's max/min/avg
}

// Outcomes are a trace result's runs, packed as bytes, base64 in JSON
// (protocol 5): decoding them as JSON objects took half a coordinator's
// CPU, which bounded the runs per second of a cluster (about 300 k on
// 16 cores whatever the program). Each outcome is a flags byte (bit 0
// Sat, bits 1-3 End, bit 4 a Value follows, bit 5 an Index follows; the
// other bits 0), an Index as a uvarint when bit 5 is set (else the
// previous outcome's index + 1, 0 for the first), Steps as a uvarint and
// the Value's IEEE 754 bits, 8 bytes little-endian, when bit 4 is set. A
// value that is not finite is refused both ways, as JSON numbers refused
// it.
type Outcomes []Outcome

const (
	outSat      = 1 << 0
	outEndShift = 1
	outEndMask  = 7 << outEndShift
	outValue    = 1 << 4
	outIndex    = 1 << 5
)

// Pack appends the packed outcomes to b.
func (outs Outcomes) Pack(b []byte) ([]byte, error) {
	next := uint64(0)
	for i, o := range outs {
		if int(o.End) >= len(Ends) {
			return b, fmt.Errorf("outcome %d: bad end %d", i, o.End)
		}
		if math.IsNaN(o.Value) || math.IsInf(o.Value, 0) {
			return b, fmt.Errorf("outcome %d: value %v is not finite", i, o.Value)
		}
		f := byte(o.End) << outEndShift
		if o.Sat {
			f |= outSat
		}
		if math.Float64bits(o.Value) != 0 { // (-0 too)
			f |= outValue
		}
		if o.Index != next {
			f |= outIndex
		}
		b = append(b, f)
		if f&outIndex != 0 {
			b = binary.AppendUvarint(b, o.Index)
		}
		b = binary.AppendUvarint(b, o.Steps)
		if f&outValue != 0 {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(o.Value))
		}
		next = o.Index + 1
	}
	return b, nil
}

// Unpack decodes packed outcomes (Pack's format), appending them to outs.
func (outs Outcomes) Unpack(b []byte) (Outcomes, error) {
	next := uint64(0)
	for at := 0; at < len(b); {
		f := b[at]
		if f&^(outSat|outEndMask|outValue|outIndex) != 0 || int(f&outEndMask>>outEndShift) >= len(Ends) {
			return outs, fmt.Errorf("outcomes: bad flags %#x at byte %d", f, at)
		}
		at++
		o := Outcome{Index: next, Sat: f&outSat != 0, End: End(f & outEndMask >> outEndShift)}
		var k int
		if f&outIndex != 0 {
			if o.Index, k = binary.Uvarint(b[at:]); k <= 0 {
				return outs, fmt.Errorf("outcomes: bad index at byte %d", at)
			}
			at += k
		}
		if o.Steps, k = binary.Uvarint(b[at:]); k <= 0 {
			return outs, fmt.Errorf("outcomes: bad step count at byte %d", at)
		}
		at += k
		if f&outValue != 0 {
			if len(b)-at < 8 {
				return outs, fmt.Errorf("outcomes: value cut short at byte %d", at)
			}
			o.Value = math.Float64frombits(binary.LittleEndian.Uint64(b[at:]))
			if math.IsNaN(o.Value) || math.IsInf(o.Value, 0) {
				return outs, fmt.Errorf("outcomes: value %v at byte %d is not finite", o.Value, at)
			}
			at += 8
		}
		outs = append(outs, o)
		next = o.Index + 1
	}
	return outs, nil
}

// MarshalJSON encodes the outcomes packed, as a base64 string.
func (outs Outcomes) MarshalJSON() ([]byte, error) {
	p, err := outs.Pack(nil)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, base64.StdEncoding.EncodedLen(len(p))+2)
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, p)
	return append(b, '"'), nil
}

// UnmarshalJSON decodes MarshalJSON's string.
func (outs *Outcomes) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*outs = nil
		return nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("outcomes: want a base64 string (protocol %d), got %.20s", Version, b)
	}
	p, err := base64.StdEncoding.AppendDecode(nil, b[1:len(b)-1])
	if err != nil {
		return fmt.Errorf("outcomes: %w", err)
	}
	out, err := Outcomes(nil).Unpack(p)
	if err != nil {
		return err
	}
	*outs = out
	return nil
}

// Heartbeat is a worker's periodic report.
type Heartbeat struct {
	Version int     `json:"version"`
	Worker  string  `json:"worker"`
	Slots   int     `json:"slots"`
	Traces  uint64  `json:"traces"`
	Steps   uint64  `json:"steps"`
	Time    float64 `json:"time"` // unix seconds
}

// Status is an experiment's state in BucketExperiments (key: experiment id).
type Status struct {
	Version    int             `json:"version"`
	Experiment Experiment      `json:"experiment"`
	State      string          `json:"state"` // running, done, failed
	Error      string          `json:"error,omitempty"`
	Refused    bool            `json:"refused,omitempty"` // failed: an engine refused the program (Result.Refused)
	Result     json.RawMessage `json:"result,omitempty"`
	Updated    time.Time       `json:"updated"`
}

// Experiment states.
const (
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// Progress is published while an experiment runs.
type Progress struct {
	Version   int     `json:"version"`
	Kind      string  `json:"kind"` // the experiment's job kind: which fields below apply
	Runs      uint64  `json:"runs"`
	Satisfied uint64  `json:"satisfied"`
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Planned   uint64  `json:"planned"`
	// Expected: Planned is an expected number of runs (a sequential test's),
	// not a bound.
	Expected bool    `json:"expected,omitempty"`
	RunsPerS float64 `json:"runs_per_s"`
	Workers  int     `json:"workers"`
	Done     bool    `json:"done"`
	// Importance splitting: replications finished and planned, and the
	// mean of the finished replications' estimates.
	Replications        int     `json:"replications,omitempty"`
	PlannedReplications int     `json:"planned_replications,omitempty"`
	Estimate            float64 `json:"estimate,omitempty"`
	// Explicit-state search: states, queue size, depth and rate.
	States     int64   `json:"states,omitempty"`
	Queue      int     `json:"queue,omitempty"`
	Depth      int     `json:"depth,omitempty"`
	StatesPerS float64 `json:"states_per_s,omitempty"`
	// Bounded model checking: the bound just checked, the formula's size
	// and the solver time so far.
	Unwind  int     `json:"unwind,omitempty"`
	Terms   int     `json:"terms,omitempty"`
	SolverS float64 `json:"solver_s,omitempty"`
	// Phase: what the solver is checking while it works (a report every
	// few seconds); empty after a bound.
	Phase string `json:"phase,omitempty"`
}

// Decode unmarshals a message and checks its version.
func Decode(data []byte, v any) error {
	var hdr struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &hdr); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	if hdr.Version != Version {
		return fmt.Errorf("protocol version %d, this build speaks %d: upgrade the older side", hdr.Version, Version)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	return nil
}
