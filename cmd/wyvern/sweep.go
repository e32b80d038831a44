package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/charts"
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/kind"
)

// maxSweepValues bounds a sweep: each value compiles the program and runs
// every query.
const maxSweepValues = 1000

// sweepFlag is --sweep NAME=A:B[:STEP] or NAME=V1,V2,...: the program is
// compiled once for each value V with -DNAME=V (a C macro) and every query
// answered for it, as PRISM's -const N=A:B:STEP runs an experiment over a
// constant.
type sweepFlag struct {
	name   string
	spec   string
	values []string
}

var cIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (s *sweepFlag) String() string {
	if s.name == "" {
		return ""
	}
	return s.name + "=" + s.spec
}

func (s *sweepFlag) Set(v string) error {
	if s.name != "" {
		return fmt.Errorf("one parameter a sweep (have %s)", s)
	}
	name, spec, ok := strings.Cut(v, "=")
	if !ok || !cIdent.MatchString(name) {
		return fmt.Errorf("want NAME=A:B[:STEP] or NAME=V1,V2,... with NAME a C macro name, have %q", v)
	}
	values, err := sweepValues(spec)
	if err != nil {
		return fmt.Errorf("%s: %w", v, err)
	}
	s.name, s.spec, s.values = name, spec, values
	return nil
}

// sweepValues expands a sweep's values: A:B[:STEP] (numbers, STEP > 0,
// default 1; integers stay integers) or a comma-separated list.
func sweepValues(spec string) ([]string, error) {
	if !strings.Contains(spec, ":") {
		var out []string
		for _, v := range strings.Split(spec, ",") {
			v = strings.TrimSpace(v)
			if v == "" {
				return nil, fmt.Errorf("an empty value in the list %q", spec)
			}
			out = append(out, v)
		}
		if len(out) > maxSweepValues {
			return nil, fmt.Errorf("%d values: at most %d", len(out), maxSweepValues)
		}
		return out, nil
	}
	parts := strings.Split(spec, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("want A:B or A:B:STEP, have %q", spec)
	}
	if len(parts) == 2 {
		parts = append(parts, "1")
	}
	ints := true
	var nums [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%q is not a number (a range A:B[:STEP] is of numbers; a list V1,V2,... may hold anything)", p)
		}
		if _, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64); err != nil {
			ints = false
		}
		nums[i] = f
	}
	a, b, step := nums[0], nums[1], nums[2]
	switch {
	case step <= 0:
		return nil, fmt.Errorf("STEP %g: want a step > 0", step)
	case a > b:
		return nil, fmt.Errorf("%g:%g: want A <= B", a, b)
	case (b-a)/step >= maxSweepValues:
		return nil, fmt.Errorf("%d values: at most %d", int((b-a)/step)+1, maxSweepValues)
	}
	var out []string
	for i := 0; ; i++ {
		x := a + float64(i)*step
		if x > b+1e-9*math.Max(1, math.Abs(step)) {
			break
		}
		if ints {
			out = append(out, strconv.FormatInt(int64(math.Round(x)), 10))
		} else {
			out = append(out, strconv.FormatFloat(x, 'g', 12, 64))
		}
	}
	return out, nil
}

// sweepEntry is one query's answer for one value of the swept parameter
// (--json: the entries of object sweep, docs/json.md).
type sweepEntry struct {
	Value string `json:"value"`
	Query string `json:"query"`
	Where string `json:"where,omitempty"`
	// Estimate, Lo and Hi: the answer as a number with its interval (null
	// when the answer is a verdict only: a search, a count)
	Estimate   *float64 `json:"estimate"`
	Lo         *float64 `json:"lo"`
	Hi         *float64 `json:"hi"`
	Answer     string   `json:"answer"`
	ExitStatus int      `json:"exit_status"`
	Result     any      `json:"result"` // the result (--json of check), or a failed entry
}

// sweepReport is --sweep's --json output.
type sweepReport struct {
	Kind       string       `json:"kind"` // "sweep"
	Program    string       `json:"program"`
	Parameter  string       `json:"parameter"`
	Values     []string     `json:"values"`
	Queries    []string     `json:"queries"`
	ExitStatus int          `json:"exit_status"`
	Entries    []sweepEntry `json:"entries"`
}

// answerNumber is a result's answer as a number with its interval, when
// its kind has one (kind.Numeric).
func answerNumber(r *coordinator.Result) (est, lo, hi float64, ok bool) {
	if n, isNum := r.Detail.(kind.Numeric); isNum {
		return n.Number(r)
	}
	return 0, 0, 0, false
}

// answerSweep answers every prepared query for every value of the sweep
// (ps: value-major, as prepareArgs made them), printing each answer as it
// comes, then a table a query (--json: one sweep object) and the charts of
// the answers against the parameter (--plot). The exit status is the
// worst over all answers, as with -q.
func answerSweep(ps []*prepared, ef *experimentFlags, submit func(*prepared) (*coordinator.Result, int, error), stdout, stderr io.Writer) int {
	sw := &ef.sweep
	nq := len(ps) / len(sw.values)
	rep := sweepReport{Kind: "sweep", Program: ps[0].src.Name, Parameter: sw.name, Values: sw.values}
	for _, p := range ps[:nq] {
		rep.Queries = append(rep.Queries, p.q.Text)
	}
	worst := 0
	interrupted := false
	for i, p := range ps {
		value := sw.values[i/nq]
		e := sweepEntry{Value: value, Query: p.q.Text, Where: p.where}
		res, rc, err := submit(p)
		if res == nil {
			msg := "FAILED (see above)"
			if err != nil {
				msg = err.Error()
			}
			e.Answer, e.ExitStatus = "FAILED: "+msg, rc
			e.Result = failedQuery{Kind: "failed", Query: p.q.Text, Program: p.src.Name, Where: p.where, ExitStatus: rc, Error: msg}
		} else {
			addWarnings(res, p)
			if ef.asJSON {
				if err := describeTraces(res, p); err != nil {
					fmt.Fprintf(stderr, "wyvern: %s=%s: %v\n", sw.name, value, err)
					rc = 1
				}
			}
			e.Answer, e.ExitStatus, e.Result = verdictLine(res), worseStatus(res.ExitStatus(), rc), res
			if est, lo, hi, ok := answerNumber(res); ok {
				e.Estimate, e.Lo, e.Hi = &est, &lo, &hi
			}
		}
		worst = worseStatus(worst, e.ExitStatus)
		rep.Entries = append(rep.Entries, e)
		if !ef.asJSON {
			fmt.Fprintf(stdout, "%s=%s  %s: %s\n", sw.name, value, p.q.Text, e.Answer)
		}
		if e.ExitStatus == 130 {
			interrupted = true
			break
		}
	}
	rep.ExitStatus = worst
	if ef.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(rep)
	} else {
		writeSweepTables(stdout, &rep, nq)
		if interrupted {
			fmt.Fprintln(stdout, "(interrupted: the values after the last line were not run)")
		}
	}
	if ef.plot != "" {
		if err := plotSweep(&rep, nq, ef.plot, stderr); err != nil {
			fmt.Fprintf(stderr, "wyvern: --plot: %v\n", err)
			worst = worseStatus(worst, 1)
		}
	}
	return worst
}

// writeSweepTables prints a table a query: the parameter's values down,
// the answer (estimate and interval, or the verdict) across.
func writeSweepTables(w io.Writer, rep *sweepReport, nq int) {
	width := len(rep.Parameter)
	for _, v := range rep.Values {
		width = max(width, len(v))
	}
	for qi, q := range rep.Queries {
		fmt.Fprintf(w, "\n== Sweep of %s over %s: %s\n", rep.Parameter, strings.Join(rep.Values, ", "), q)
		fmt.Fprintf(w, "  %-*s  %-12s  %-27s  %s\n", width, rep.Parameter, "estimate", "interval", "exit")
		for i := qi; i < len(rep.Entries); i += nq {
			e := rep.Entries[i]
			if e.Estimate != nil {
				fmt.Fprintf(w, "  %-*s  %-12.6g  %-27s  %d\n", width, e.Value, *e.Estimate, fmt.Sprintf("[%.6g, %.6g]", *e.Lo, *e.Hi), e.ExitStatus)
			} else {
				fmt.Fprintf(w, "  %-*s  %s  (exit %d)\n", width, e.Value, e.Answer, e.ExitStatus)
			}
		}
	}
	fmt.Fprintf(w, "\n(exit status %d: the worst over the %d answers)\n", rep.ExitStatus, len(rep.Entries))
}

// plotSweep charts each query's answers against the parameter into dir
// (sweep.png/.svg; sweep-qN with several queries). A query without
// numeric answers, or a parameter whose values are not numbers, has no
// chart: said, and no failure.
func plotSweep(rep *sweepReport, nq int, dir string, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	written := 0
	for qi, q := range rep.Queries {
		var pts []charts.SweepPoint
		ylabel := "probability"
		numeric := true
		for i := qi; i < len(rep.Entries); i += nq {
			e := rep.Entries[i]
			x, err := strconv.ParseFloat(e.Value, 64)
			if err != nil {
				numeric = false
				break
			}
			if r, ok := e.Result.(*coordinator.Result); ok && r.Kind == "estimate" {
				ylabel = "mean of the runs' values"
			}
			if e.Estimate != nil {
				pts = append(pts, charts.SweepPoint{X: x, Estimate: *e.Estimate, Lo: *e.Lo, Hi: *e.Hi})
			}
		}
		if !numeric || len(pts) == 0 {
			why := "its answers are verdicts, not numbers"
			if !numeric {
				why = "the values of " + rep.Parameter + " are not numbers"
			}
			fmt.Fprintf(stderr, "wyvern: --plot: no sweep chart for %s (%s)\n", q, why)
			continue
		}
		name := "sweep"
		if nq > 1 {
			name = fmt.Sprintf("sweep-q%d", qi+1)
		}
		title := filepath.Base(strings.Fields(rep.Program)[0])
		if len(q) > 60 {
			q = q[:57] + "..."
		}
		title += ": " + q
		for _, ext := range []string{".png", ".svg"} {
			if err := charts.Sweep(filepath.Join(dir, name+ext), title, rep.Parameter, ylabel, pts); err != nil {
				if errors.Is(err, charts.ErrNoData) {
					continue
				}
				return err
			}
			written++
		}
	}
	if written > 0 {
		fmt.Fprintf(stderr, "wyvern: %d charts written to %s\n", written, dir)
	}
	return nil
}
