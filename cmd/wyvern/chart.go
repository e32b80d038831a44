package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/wyvernmc/wyvern/charts"
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
)

// writeCharts draws the charts a result has data for into dir (created if
// needed), each as PNG and SVG, and returns the files written.
func writeCharts(res *coordinator.Result, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	title := filepath.Base(res.Program) // the file, not its path
	if res.Program == "" {
		title = "Wyvern"
	}
	q := res.Query
	if len(q) > 70 {
		q = q[:67] + "..."
	}
	if q != "" {
		title += ": " + q
	}
	var files []string
	draw := func(name string, f func(path string) error) error {
		for _, ext := range []string{".png", ".svg"} {
			p := filepath.Join(dir, name+ext)
			if err := f(p); err != nil {
				return err
			}
			files = append(files, p)
		}
		return nil
	}
	if d := simulator.DetailOf(res); d != nil {
		if len(d.Convergence) > 0 {
			pts := make([]charts.ConvPoint, len(d.Convergence))
			for i, c := range d.Convergence {
				pts[i] = charts.ConvPoint{Runs: int(c.Runs), Estimate: c.Estimate, Lo: c.Lo, Hi: c.Hi}
			}
			ylabel := map[string]string{"probability": "probability", "hypothesis": "observed frequency (no interval: the test stops on the data)",
				"estimate": "mean of the runs' values"}[res.Kind]
			if d.Always {
				ylabel = "probability of [] P"
			}
			if err := draw("convergence", func(p string) error { return charts.ConvergenceOf(p, title, ylabel, pts) }); err != nil {
				return files, err
			}
		}
		if res.Kind == "hypothesis" && len(d.Convergence) > 0 {
			// The test as it ran: on Pr(<> !P) against 1-θ for Pr([] P).
			t := charts.SPRTTest{Theta: d.Theta, Delta: d.Delta, Alpha: d.Alpha, Beta: d.Beta}
			pts := make([]charts.SPRTPoint, len(d.Convergence))
			for i, c := range d.Convergence {
				sat := int(math.Round(c.Estimate * float64(c.Runs)))
				if d.Always {
					sat = int(c.Runs) - sat
				}
				pts[i] = charts.SPRTPoint{Runs: int(c.Runs), Satisfied: sat}
			}
			if d.Always {
				t.Theta = 1 - d.Theta
			}
			if err := draw("sprt", func(p string) error { return charts.SPRT(p, title, t, pts) }); err != nil {
				return files, err
			}
		}
		if len(d.Histogram) > 0 {
			bins := make([]charts.Bin, len(d.Histogram))
			for i, b := range d.Histogram {
				bins[i] = charts.Bin{Lo: float64(b.Lo), Hi: float64(b.Hi) + 1, Count: b.Count} // [Lo, Hi] inclusive
			}
			if err := draw("run-lengths", func(p string) error { return charts.RunLengthBins(p, title, bins) }); err != nil {
				return files, err
			}
		}
		if len(d.Values) > 0 {
			if err := draw("estimate-values", func(p string) error {
				return charts.EstimateValues(p, title, d.Values, res.Estimate, res.Lo, res.Hi)
			}); err != nil {
				return files, err
			}
		}
	}
	if ex := res.Stats.Exploration; len(ex) >= 2 {
		pts := make([]charts.ExplorePoint, len(ex))
		for i, e := range ex {
			pts[i] = charts.ExplorePoint{Seconds: e.Seconds, States: int(e.States), Queue: e.Queue}
		}
		if err := draw("exploration", func(p string) error { return charts.Exploration(p, title, pts) }); err != nil {
			return files, err
		}
	}
	if s := splitting.ResultOf(res); s != nil {
		var levels []charts.Level
		for _, l := range s.Levels {
			th, err := strconv.ParseFloat(l.Threshold, 64)
			if err != nil {
				th = float64(l.Index)
			}
			levels = append(levels, charts.Level{Level: l.Index, Threshold: th, CondProb: l.CondProb, Property: l.Threshold == "property", VarShare: l.VarShare})
		}
		if len(levels) > 0 {
			if err := draw("splitting-levels", func(p string) error { return charts.Splitting(p, title, levels) }); err != nil {
				return files, err
			}
		}
		if len(s.Replications) > 0 {
			if err := draw("replications", func(p string) error {
				return charts.Replications(p, title, s.Replications, s.Lo, s.Hi)
			}); err != nil {
				return files, err
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: the result has nothing to chart (%s query with %d runs)", charts.ErrNoData, res.Kind, res.Runs)
	}
	return files, nil
}

func cmdChart(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("chart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", ".", "directory for the charts (created if needed)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern chart RESULT.json [--out DIR]")
		fmt.Fprintln(stderr, "\nDraws the charts of a result saved with `wyvern check --json` (PNG and SVG).")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	b, err := os.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	var res coordinator.Result
	if err := json.Unmarshal(b, &res); err != nil {
		fmt.Fprintf(stderr, "wyvern: %s is not a result of `wyvern check --json`: %v\n", pos[0], err)
		return exitUsage
	}
	if res.Kind == "" {
		fmt.Fprintf(stderr, "wyvern: %s is not a result of `wyvern check --json` (no kind)\n", pos[0])
		return exitUsage
	}
	files, err := writeCharts(&res, *out)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: chart: %v\n", err)
		if errors.Is(err, charts.ErrNoData) {
			return exitUsage
		}
		return 1
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return 0
}
