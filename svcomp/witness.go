package svcomp

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// Witness format 2.0 (sosy-lab/sv-witnesses): a list with one
// violation_sequence entry whose content is segments of waypoints, each
// segment ending in a waypoint with action follow.

type wWitness struct {
	EntryType string     `yaml:"entry_type"`
	Metadata  wMetadata  `yaml:"metadata"`
	Content   []wSegment `yaml:"content"`
}

type wMetadata struct {
	FormatVersion string    `yaml:"format_version"`
	UUID          string    `yaml:"uuid"`
	CreationTime  string    `yaml:"creation_time"`
	Producer      wProducer `yaml:"producer"`
	Task          wTask     `yaml:"task"`
}

type wProducer struct {
	Name          string `yaml:"name"`
	Version       string `yaml:"version"`
	Configuration string `yaml:"configuration,omitempty"`
}

type wTask struct {
	InputFiles      []string          `yaml:"input_files"`
	InputFileHashes map[string]string `yaml:"input_file_hashes"`
	Specification   string            `yaml:"specification"`
	DataModel       string            `yaml:"data_model"`
	Language        string            `yaml:"language"`
}

type wSegment struct {
	Segment []wWaypointItem `yaml:"segment"`
}

type wWaypointItem struct {
	Waypoint wWaypoint `yaml:"waypoint"`
}

type wWaypoint struct {
	Type       string       `yaml:"type"`
	Action     string       `yaml:"action"`
	Constraint *wConstraint `yaml:"constraint,omitempty"`
	Location   wLocation    `yaml:"location"`
}

type wConstraint struct {
	Value  string `yaml:"value"`
	Format string `yaml:"format,omitempty"`
}

type wLocation struct {
	FileName string `yaml:"file_name"`
	Line     int    `yaml:"line"`
	Column   int    `yaml:"column,omitempty"`
	Function string `yaml:"function,omitempty"`
}

// scheduleTag starts the comment lines that carry the schedule: format 2.0
// has no way to say which thread steps, so Wyvern writes the process of
// every step (run-length encoded, "process*count") as YAML comments, which
// other readers ignore and `wyvern replay --witness` follows.
const scheduleTag = "# wyvern-schedule:"

// platformTag starts the comment lines that carry the draws of the
// platform's behaviours (vm.Behaviours: the waiter a pthread_cond_signal
// wakes, a spurious wakeup of a pthread_cond_wait), which format 2.0
// cannot say either: "step:draw" pairs, steps counted from 1.
const platformTag = "# wyvern-platform:"

// WitnessMeta is what a witness says about its task.
type WitnessMeta struct {
	InputFiles []string // the program's files (one, or several linked)
	Spec       string   // the property's formula, e.g. G ! call(reach_error())
	DataModel  string   // ILP32 or LP64
	Producer   string   // the producer's version
	Engine     string   // the engine that found the violation
}

// stepInfo is one replayed step of a trace.
type stepInfo struct {
	thread int32
	fn     string
	loc    ir.SrcLoc
	callee string // the called function's name for a step that draws a value
	value  uint64 // its result
	width  int    // the result's bits (0: no draw)
	signed bool
	// platform: the step draws a platform behaviour (its Choices[0]),
	// written under platformTag
	platform bool
}

var calleeRe = regexp.MustCompile(`call [^@]*@([A-Za-z0-9_.$]+)\(`)

// callee names the function an instruction's text calls ("" if none).
func callee(text string) string {
	if m := calleeRe.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// signedResult tells whether a drawing function returns a signed C type.
func signedResult(fn string) bool {
	switch {
	case strings.HasPrefix(fn, ir.UninitPrefix):
		// an uninitialised local's value: 'i' or 'u', its type's sign
		return strings.HasPrefix(fn[len(ir.UninitPrefix):], "i")
	case strings.HasPrefix(fn, "__VERIFIER_nondet_u"), strings.Contains(fn, "bool"), strings.Contains(fn, "pointer"),
		strings.Contains(fn, "size_t"), strings.HasSuffix(fn, "_uchar"), fn == "wyvern_coin":
		return false
	}
	return true
}

// nextInfo describes the step thread t of st is about to take, with the
// choice it makes (ok false: none).
func nextInfo(m *vm.Machine, st *vm.State, t *vm.Thread) (si stepInfo, c vm.Choice, ok bool) {
	fr := &t.Frames[len(t.Frames)-1]
	si = stepInfo{thread: t.ID}
	si.loc, si.fn = m.Place(t)
	if c, ok = m.NextChoice(st, t); ok {
		text := ""
		if int(fr.PC) < len(fr.Fn.Text) {
			text = fr.Fn.Text[fr.PC]
		}
		si.callee = callee(text)
		si.width = 64
		if c.Kind == vm.Bits && c.Width() > 0 {
			si.width = c.Width()
		}
		si.signed = signedResult(si.callee)
	}
	return si, c, ok
}

// replaySteps runs steps from m's initial state, describing each, and
// returns the last state.
func replaySteps(m *vm.Machine, steps []trace.Step) ([]stepInfo, *vm.State, error) {
	st := m.NewState()
	en := m.Settle(st, nil)
	infos := make([]stepInfo, 0, len(steps))
	for i, s := range steps {
		if st.Status == vm.Failed && st.Err != nil && vm.LeakChecksFor(st.Err.Kind) != 0 {
			// A leak is found after every step here, but only where the
			// interpreter returns in a simulation (after a run of steps):
			// the steps so far are the violation's shorter witness.
			return infos, st, nil
		}
		t := st.Thread(s.Thread)
		if t == nil || st.Status != vm.Running || len(t.Frames) == 0 {
			return nil, st, fmt.Errorf("witness step %d: process %d cannot step (%s)", i+1, s.Thread, st.Describe())
		}
		si, c, draws := nextInfo(m, st, t)
		_, behaves := m.NextDraw(st, t, vm.PosixBehaviours)
		ch := trace.NewReplayer(s.Choices)
		if !m.StepOnly(st, s.Thread, ch) {
			return nil, st, fmt.Errorf("witness step %d: process %d is not enabled", i+1, s.Thread)
		}
		if !ch.Exact() {
			return nil, st, fmt.Errorf("witness step %d: process %d draws %d values, %d recorded", i+1, s.Thread, ch.Used(), len(s.Choices))
		}
		switch {
		case draws && len(s.Choices) == 1:
			si.value = c.Result(s.Choices[0])
		case !draws && behaves && len(s.Choices) == 1:
			si.platform = true // a behaviour's draw (platformTag)
		case draws || len(s.Choices) > 0:
			return nil, st, fmt.Errorf("witness step %d: a step of process %d at %s with %d draws", i+1, s.Thread, si.loc, len(s.Choices))
		}
		infos = append(infos, si)
		en = m.Settle(st, en)
	}
	return infos, st, nil
}

func sext(v uint64, w int) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := 64 - w
	return int64(v<<s) >> s
}

func mask(v uint64, w int) uint64 {
	if w >= 64 {
		return v
	}
	return v & (1<<w - 1)
}

// valueText writes a drawn value as a C constant of the call's type.
func (si stepInfo) valueText() string {
	if si.signed {
		return strconv.FormatInt(sext(si.value, si.width), 10)
	}
	return strconv.FormatUint(mask(si.value, si.width), 10)
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// FileSHA256 is the hex SHA-256 of a file's contents.
func FileSHA256(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// targetLoc is where the violation of a trace's last state is: the call
// of the error function for unreach-call, the faulting instruction for
// other errors, the next instruction of the last process that stepped for
// a data race.
func targetLoc(m *vm.Machine, infos []stepInfo, final *vm.State, g *Goal) (ir.SrcLoc, string) {
	if final.Status == vm.Failed && final.Err != nil {
		e := final.Err
		if g.Prop.Kind == UnreachCall && slices.Contains(errorFuncs(g.Prop, m.Prog), e.Func) {
			// The call of the error function: the last step of the process
			// outside it.
			for i := len(infos) - 1; i >= 0; i-- {
				if infos[i].thread == e.Thread && infos[i].fn != e.Func {
					return infos[i].loc, infos[i].fn
				}
			}
		}
		return e.Loc, e.Func
	}
	if g.Prop.Kind == UnreachCall {
		// The process about to call the error function.
		funcs := errorFuncs(g.Prop, m.Prog)
		for _, t := range final.Threads {
			if t.Done || len(t.Frames) == 0 {
				continue
			}
			fr := &t.Frames[len(t.Frames)-1]
			if int(fr.PC) < len(fr.Fn.Text) && slices.Contains(funcs, callee(fr.Fn.Text[fr.PC])) {
				return m.Place(t)
			}
		}
	}
	if len(infos) > 0 {
		last := infos[len(infos)-1]
		if t := final.Thread(last.thread); t != nil && len(t.Frames) > 0 {
			return m.Place(t)
		}
		return last.loc, last.fn
	}
	return ir.SrcLoc{}, ""
}

// WriteWitness writes the violation witness (format 2.0) of the trace
// steps to w: a function_return waypoint with the value of every
// nondeterministic call, in order, then the target; the schedule as
// comments (scheduleTag). It replays the trace to do so and fails if the
// trace does not replay.
func WriteWitness(w io.Writer, m *vm.Machine, steps []trace.Step, g *Goal, meta WitnessMeta) error {
	infos, final, err := replaySteps(m, steps)
	if err != nil {
		return err
	}
	if len(meta.InputFiles) == 0 {
		return fmt.Errorf("witness: no input file")
	}
	var files []string
	hashes := map[string]string{}
	for _, in := range meta.InputFiles {
		f := filepath.Base(in)
		hash, err := FileSHA256(in)
		if err != nil {
			return fmt.Errorf("witness: %w", err)
		}
		files = append(files, f)
		hashes[f] = hash
	}
	file := files[0]
	dm := meta.DataModel
	if dm == "" {
		dm = "LP64"
	}
	wt := wWitness{EntryType: "violation_sequence", Metadata: wMetadata{
		FormatVersion: "2.0", UUID: newUUID(), CreationTime: time.Now().UTC().Format(time.RFC3339),
		Producer: wProducer{Name: "Wyvern", Version: meta.Producer, Configuration: meta.Engine},
		Task: wTask{InputFiles: files, InputFileHashes: hashes,
			Specification: meta.Spec, DataModel: dm, Language: "C"},
	}}
	loc := func(l ir.SrcLoc, fn string) wLocation {
		// the waypoint's file: the step's own among several files
		f := file
		if b := filepath.Base(l.File); len(files) > 1 && hashes[b] != "" {
			f = b
		}
		return wLocation{FileName: f, Line: int(l.Line), Column: int(l.Col), Function: fn}
	}
	for _, si := range infos {
		if si.width == 0 {
			continue
		}
		wt.Content = append(wt.Content, wSegment{Segment: []wWaypointItem{{Waypoint: wWaypoint{
			Type: "function_return", Action: "follow", Location: loc(si.loc, si.fn),
			Constraint: &wConstraint{Value: `\result == ` + si.valueText(), Format: "c_expression"},
		}}}})
	}
	tl, tfn := targetLoc(m, infos, final, g)
	wt.Content = append(wt.Content, wSegment{Segment: []wWaypointItem{{Waypoint: wWaypoint{
		Type: "target", Action: "follow", Location: loc(tl, tfn)}}}})
	var body bytes.Buffer
	enc := yaml.NewEncoder(&body)
	enc.SetIndent(2)
	if err := enc.Encode([]wWitness{wt}); err != nil {
		return fmt.Errorf("witness: %w", err)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Violation witness (format 2.0) by Wyvern %s, engine %s: %d steps.\n", meta.Producer, meta.Engine, len(steps))
	fmt.Fprintf(&buf, "# Replay: wyvern replay %s --witness THIS_FILE\n", strings.Join(files, " "))
	writeSchedule(&buf, steps)
	writePlatform(&buf, steps, infos)
	buf.Write(body.Bytes())
	_, err = w.Write(buf.Bytes())
	return err
}

// writeSchedule writes the process of every step, run-length encoded, as
// comment lines of at most about 100 characters.
func writeSchedule(w io.Writer, steps []trace.Step) {
	var runs []string
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && steps[j].Thread == steps[i].Thread {
			j++
		}
		runs = append(runs, fmt.Sprintf("%d*%d", steps[i].Thread, j-i))
		i = j
	}
	line := scheduleTag
	for _, r := range runs {
		if len(line)+1+len(r) > 100 {
			fmt.Fprintln(w, line)
			line = scheduleTag
		}
		line += " " + r
	}
	fmt.Fprintln(w, line)
}

// writePlatform writes the draws of the steps that draw a platform
// behaviour (platformTag), nothing when none does.
func writePlatform(w io.Writer, steps []trace.Step, infos []stepInfo) {
	line := ""
	for i, si := range infos {
		if !si.platform {
			continue
		}
		p := fmt.Sprintf("%d:%d", i+1, steps[i].Choices[0])
		if line != "" && len(line)+1+len(p) > 100 {
			fmt.Fprintln(w, line)
			line = ""
		}
		if line == "" {
			line = platformTag
		}
		line += " " + p
	}
	if line != "" {
		fmt.Fprintln(w, line)
	}
}

// ReadWitness reads a violation witness: the values of its function_return
// waypoints, in order, the schedule Wyvern writes as comments (nil when
// there is none) and the draws of platform behaviours it writes, by step
// index from 0 (nil when there are none).
func ReadWitness(data []byte) (values []WitnessValue, schedule []int32, platform map[int]uint64, err error) {
	d, err := violationEntry(data)
	if err != nil {
		return nil, nil, nil, err
	}
	{
		if d.Metadata.FormatVersion != "2.0" {
			return nil, nil, nil, fmt.Errorf("witness: format_version %q (want 2.0)", d.Metadata.FormatVersion)
		}
		for _, s := range d.Content {
			for _, it := range s.Segment {
				wp := it.Waypoint
				if wp.Type != "function_return" || wp.Action != "follow" || wp.Constraint == nil {
					continue
				}
				v, err := parseResult(wp.Constraint.Value)
				if err != nil {
					return nil, nil, nil, fmt.Errorf("witness: waypoint at line %d: %w", wp.Location.Line, err)
				}
				values = append(values, WitnessValue{Line: wp.Location.Line, Value: v})
			}
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, platformTag); ok {
			for _, p := range strings.Fields(rest) {
				a, b, ok := strings.Cut(p, ":")
				i, err1 := strconv.Atoi(a)
				d, err2 := strconv.ParseUint(b, 10, 64)
				if !ok || err1 != nil || err2 != nil || i <= 0 {
					return nil, nil, nil, fmt.Errorf("witness: bad platform draw %q (want step:draw)", p)
				}
				if platform == nil {
					platform = map[int]uint64{}
				}
				platform[i-1] = d
			}
			continue
		}
		if !strings.HasPrefix(line, scheduleTag) {
			continue
		}
		for _, r := range strings.Fields(line[len(scheduleTag):]) {
			tid, n, ok := strings.Cut(r, "*")
			t, err1 := strconv.ParseInt(tid, 10, 32)
			c, err2 := strconv.Atoi(n)
			if !ok || err1 != nil || err2 != nil || c <= 0 {
				return nil, nil, nil, fmt.Errorf("witness: bad schedule run %q (want process*count)", r)
			}
			for range c {
				schedule = append(schedule, int32(t))
			}
		}
	}
	return values, schedule, platform, nil
}

// WitnessValue is the value a nondeterministic call returns, from a
// function_return waypoint.
type WitnessValue struct {
	Line  int
	Value uint64 // two's complement for negative values
}

var resultRe = regexp.MustCompile(`^\\result\s*==\s*\(?\s*(-?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*\)?$`)

func parseResult(s string) (uint64, error) {
	m := resultRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("constraint %q is not \\result == CONSTANT", s)
	}
	if strings.HasPrefix(m[1], "-") {
		v, err := strconv.ParseInt(m[1], 0, 64)
		return uint64(v), err
	}
	return strconv.ParseUint(m[1], 0, 64)
}

// Replay runs program m along a witness: the recorded schedule (or, with
// none, the only enabled process at each step), the witness's values for
// its nondeterministic calls, in order, and its platform behaviours' draws
// (by step index). It returns the trace and its last state; maxSteps
// bounds a run without a schedule.
func Replay(m *vm.Machine, values []WitnessValue, schedule []int32, platform map[int]uint64, maxSteps uint64) ([]trace.Step, *vm.State, error) {
	st := m.NewState()
	en := m.Settle(st, nil)
	var steps []trace.Step
	next := 0
	for i := 0; st.Status == vm.Running; i++ {
		var tid int32
		switch {
		case schedule != nil && i == len(schedule):
			return steps, st, nil
		case schedule != nil:
			tid = schedule[i]
		case uint64(i) >= maxSteps:
			return steps, st, fmt.Errorf("witness replay: no violation within %d steps", maxSteps)
		case len(en) == 1:
			tid = en[0]
		default:
			return steps, st, fmt.Errorf("witness replay: step %d: %d processes can step and the witness has no schedule", i+1, len(en))
		}
		t := st.Thread(tid)
		if t == nil || len(t.Frames) == 0 {
			return steps, st, fmt.Errorf("witness replay: step %d: no process %d", i+1, tid)
		}
		s := trace.Step{Thread: tid}
		if c, ok := m.NextChoice(st, t); ok {
			if next >= len(values) {
				return steps, st, fmt.Errorf("witness replay: step %d (%s) draws a value; the witness has only %d", i+1, m.Loc(t), len(values))
			}
			width := 64
			if c.Kind == vm.Bits && c.Width() > 0 {
				width = c.Width()
			}
			d, ok := c.DrawFor(mask(values[next].Value, width))
			if !ok {
				return steps, st, fmt.Errorf("witness replay: step %d (%s): value %d is out of the call's range", i+1, m.Loc(t), int64(values[next].Value))
			}
			s.Choices = []uint64{d}
			next++
		}
		if d, ok := platform[i]; ok {
			if _, ok := m.NextDraw(st, t, vm.PosixBehaviours); !ok || len(s.Choices) > 0 {
				return steps, st, fmt.Errorf("witness replay: step %d (%s) draws no platform behaviour, but the witness gives it one", i+1, m.Loc(t))
			}
			s.Choices = []uint64{d}
		}
		if !m.StepOnly(st, tid, trace.NewReplayer(s.Choices)) {
			return steps, st, fmt.Errorf("witness replay: step %d: process %d is not enabled (%s)", i+1, tid, m.Loc(t))
		}
		steps = append(steps, s)
		en = m.Settle(st, en)
	}
	return steps, st, nil
}

// violationEntry decodes the violation_sequence entry of a witness.
func violationEntry(data []byte) (*wWitness, error) {
	var doc []wWitness
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("witness: not a list of entries in YAML: %w", err)
	}
	for i := range doc {
		if doc[i].EntryType == "violation_sequence" {
			return &doc[i], nil
		}
	}
	return nil, fmt.Errorf("witness: no violation_sequence entry")
}

// WitnessSpec returns the specification a witness's task states.
func WitnessSpec(data []byte) (string, error) {
	d, err := violationEntry(data)
	if err != nil {
		return "", err
	}
	if d.Metadata.Task.Specification == "" {
		return "", fmt.Errorf("witness: no metadata.task.specification")
	}
	return d.Metadata.Task.Specification, nil
}

// WitnessDataModel returns the data model a witness's task states ("ILP32",
// "LP64"; "" when it states none).
func WitnessDataModel(data []byte) (string, error) {
	d, err := violationEntry(data)
	if err != nil {
		return "", err
	}
	return d.Metadata.Task.DataModel, nil
}

// SpecProperty reads a witness's specification: the LTL formulas of a
// property file joined with " && " (Property.Spec).
func SpecProperty(spec string) (*Property, error) {
	var b strings.Builder
	for _, f := range strings.Split(spec, " && ") {
		fmt.Fprintf(&b, "CHECK( init(main()), LTL(%s) )\n", strings.TrimSpace(f))
	}
	return ParseProperty(b.String())
}
