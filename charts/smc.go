package charts

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ConvPoint is an experiment's estimate and confidence interval after Runs
// runs.
type ConvPoint struct {
	Runs     int
	Estimate float64
	Lo, Hi   float64
}

// Convergence draws the estimate with its confidence-interval band as the
// number of runs grows (LODIN's Fig. 3). Points may come in any order; Runs
// must be positive and Lo ≤ Estimate ≤ Hi. The runs axis is logarithmic
// when the points span more than two decades (e.g. checkpoints at n0·2^j).
func Convergence(path, title string, pts []ConvPoint) error {
	return ConvergenceOf(path, title, "probability", pts)
}

// convergenceRange is the value axis of a convergence chart: the band,
// with room above it for the legend so that it covers nothing; a
// probability's axis ends at 1, and its legend then goes below the band
// (top false). ok is false for a band of no height (the default range).
func convergenceRange(lo, hi plotter.XYs, ylabel string) (ymin, ymax float64, top, ok bool) {
	ymin, ymax = lo[0].Y, hi[0].Y
	for i := range lo {
		ymin, ymax = math.Min(ymin, lo[i].Y), math.Max(ymax, hi[i].Y)
	}
	if !(ymax > ymin) {
		return 0, 0, true, false
	}
	ymax, top = ymax+0.22*(ymax-ymin), true
	if probability(ylabel) && ymax > 1 {
		ymax, top = 1, false
	}
	return ymin, ymax, top, true
}

// probability reports whether an axis labelled ylabel shows a probability
// or a frequency, which stay in [0, 1].
func probability(ylabel string) bool {
	return strings.Contains(ylabel, "probability") || strings.Contains(ylabel, "frequency")
}

// ConvergenceOf is Convergence with ylabel naming what is estimated (a
// probability, an observed frequency, a mean).
func ConvergenceOf(path, title, ylabel string, pts []ConvPoint) error {
	const chart = "convergence"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(pts) == 0 {
		return fmt.Errorf("charts: %s: %w: no points", chart, ErrNoData)
	}
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(a, b ConvPoint) int { return a.Runs - b.Runs })
	for _, q := range pts {
		if q.Runs <= 0 {
			return fmt.Errorf("charts: %s: point with %d runs: runs must be positive", chart, q.Runs)
		}
		if !finite(q.Estimate, q.Lo, q.Hi) || q.Lo > q.Estimate || q.Estimate > q.Hi {
			return fmt.Errorf("charts: %s: point at %d runs: need finite Lo ≤ Estimate ≤ Hi, have %g ≤ %g ≤ %g",
				chart, q.Runs, q.Lo, q.Estimate, q.Hi)
		}
	}
	est := make(plotter.XYs, len(pts))
	lo := make(plotter.XYs, len(pts))
	hi := make(plotter.XYs, len(pts))
	band := make(plotter.XYs, 0, 2*len(pts))
	for i, q := range pts {
		x := float64(q.Runs)
		est[i] = plotter.XY{X: x, Y: q.Estimate}
		lo[i] = plotter.XY{X: x, Y: q.Lo}
		hi[i] = plotter.XY{X: x, Y: q.Hi}
		band = append(band, hi[i])
	}
	for i := len(pts) - 1; i >= 0; i-- {
		band = append(band, lo[i])
	}
	p := newPlot(title, "runs", ylabel)
	p.Add(plotter.NewGrid())
	if len(pts) > 1 {
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return fmt.Errorf("charts: %s: band: %w", chart, err)
		}
		poly.Color = colBand
		poly.LineStyle.Width = 0
		p.Add(poly)
		p.Legend.Add("confidence interval", poly)
	}
	for _, b := range []plotter.XYs{lo, hi} {
		l, err := plotter.NewLine(b)
		if err != nil {
			return fmt.Errorf("charts: %s: bound: %w", chart, err)
		}
		l.Color = colBound
		l.Width = vg.Points(0.8)
		l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		p.Add(l)
	}
	l, s, err := plotter.NewLinePoints(est)
	if err != nil {
		return fmt.Errorf("charts: %s: estimate: %w", chart, err)
	}
	l.Color, l.Width = colEstimate, vg.Points(1.5)
	s.Color, s.Radius, s.Shape = colEstimate, vg.Points(1.8), draw.CircleGlyph{}
	p.Add(l, s)
	p.Legend.Add("estimate", l, s)
	if useLog(est[0].X, est[len(est)-1].X) {
		setLog(&p.X)
	}
	if ymin, ymax, top, ok := convergenceRange(lo, hi, ylabel); ok {
		p.Y.Min, p.Y.Max, p.Legend.Top = ymin, ymax, top
	}
	last := pts[len(pts)-1]
	p.Title.Text = fmt.Sprintf("%s\n%d runs: %.4g in [%.4g, %.4g]", title, last.Runs, last.Estimate, last.Lo, last.Hi)
	return savePlot(chart, path, p)
}

// Bin is a histogram bin: Count values in [Lo, Hi).
type Bin struct {
	Lo, Hi float64
	Count  uint64
}

// histogramFromBins turns bins into a plotter.Histogram.
func histogramFromBins(bins []Bin) *plotter.Histogram {
	hb := make([]plotter.HistogramBin, len(bins))
	for i, b := range bins {
		hb[i] = plotter.HistogramBin{Min: b.Lo, Max: b.Hi, Weight: float64(b.Count)}
	}
	return &plotter.Histogram{Bins: hb, Width: bins[0].Hi - bins[0].Lo, FillColor: colBars,
		LineStyle: draw.LineStyle{Color: colPoints, Width: vg.Points(0.5)}}
}

// checkBins checks bins are in order, non-overlapping and non-empty intervals.
func checkBins(chart string, bins []Bin) error {
	if len(bins) == 0 {
		return fmt.Errorf("charts: %s: %w: no bins", chart, ErrNoData)
	}
	for i, b := range bins {
		if !finite(b.Lo, b.Hi) || b.Hi <= b.Lo {
			return fmt.Errorf("charts: %s: bin %d is [%g, %g): need Lo < Hi", chart, i, b.Lo, b.Hi)
		}
		if i > 0 && b.Lo < bins[i-1].Hi {
			return fmt.Errorf("charts: %s: bin %d [%g, %g) overlaps bin %d [%g, %g)", chart, i, b.Lo, b.Hi, i-1, bins[i-1].Lo, bins[i-1].Hi)
		}
	}
	return nil
}

// autoBins bins values into n equal bins (n ≤ 0: Sturges' rule, at most 50).
// Integer-valued data gets integer-aligned bins.
func autoBins(values []float64, n int) []Bin {
	lo, hi := slices.Min(values), slices.Max(values)
	if n <= 0 {
		n = min(50, int(math.Ceil(math.Log2(float64(len(values)))))+1)
	}
	integral := true
	for _, v := range values {
		if v != math.Trunc(v) {
			integral = false
			break
		}
	}
	var width float64
	switch {
	case integral:
		width = math.Max(1, math.Ceil((hi-lo+1)/float64(n)))
		n = int((hi-lo)/width) + 1
	case hi == lo:
		width, n = math.Max(math.Abs(lo)*1e-3, 1e-9), 1
		lo -= width / 2
	default:
		width = (hi - lo) / float64(n)
	}
	bins := make([]Bin, n)
	for i := range bins {
		bins[i] = Bin{Lo: lo + float64(i)*width, Hi: lo + float64(i+1)*width}
	}
	for _, v := range values {
		i := min(int((v-lo)/width), n-1)
		bins[i].Count++
	}
	return bins
}

// histogram draws bins with optional vertical markers.
func histogram(chart, path, title, xlabel string, bins []Bin, marks []mark) error {
	if err := checkBins(chart, bins); err != nil {
		return err
	}
	p := newPlot(title, xlabel, "runs")
	p.Add(plotter.NewGrid())
	h := histogramFromBins(bins)
	p.Add(h)
	var top uint64
	for _, b := range bins {
		top = max(top, b.Count)
	}
	p.Y.Min = 0
	p.Y.Max = math.Max(1, float64(top)*1.15) // room for the legend
	p.Y.Tick.Marker = plainTicks{}
	p.X.Tick.Marker = plainTicks{}
	for _, m := range marks {
		if !finite(m.x) {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: m.x, Y: 0}, {X: m.x, Y: p.Y.Max}})
		if err != nil {
			return fmt.Errorf("charts: %s: marker: %w", chart, err)
		}
		l.Color, l.Width, l.Dashes = m.col, vg.Points(1.2), m.dashes
		p.Add(l)
		if m.label != "" {
			p.Legend.Add(m.label, l)
		}
	}
	return savePlot(chart, path, p)
}

type mark struct {
	x      float64
	label  string
	col    color.Color
	dashes []vg.Length
}

// RunLengths draws the histogram of satisfying-run lengths (steps), binned
// automatically.
func RunLengths(path, title string, steps []float64) error {
	const chart = "run lengths"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(steps) == 0 {
		return fmt.Errorf("charts: %s: %w: no satisfying runs", chart, ErrNoData)
	}
	if !finite(steps...) {
		return fmt.Errorf("charts: %s: lengths must be finite", chart)
	}
	return histogram(chart, path, title, "steps to satisfy the property", autoBins(steps, 0), nil)
}

// RunLengthBins draws an already binned histogram of satisfying-run lengths
// (e.g. a result's histogram; an inclusive integer bin [a, b] is Bin{a, b+1, n}).
func RunLengthBins(path, title string, bins []Bin) error {
	const chart = "run lengths"
	if _, err := format(chart, path); err != nil {
		return err
	}
	return histogram(chart, path, title, "steps to satisfy the property", bins, nil)
}

// EstimateValues draws the histogram of the per-run values of an Estimate
// query with the mean and its confidence interval [lo, hi] as vertical lines
// (NaN leaves a line out).
func EstimateValues(path, title string, values []float64, mean, lo, hi float64) error {
	const chart = "estimate values"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(values) == 0 {
		return fmt.Errorf("charts: %s: %w: no values", chart, ErrNoData)
	}
	if !finite(values...) {
		return fmt.Errorf("charts: %s: values must be finite", chart)
	}
	dash := []vg.Length{vg.Points(4), vg.Points(2)}
	return histogram(chart, path, title, "value per run", autoBins(values, 0), []mark{
		{x: mean, label: "mean " + strconv.FormatFloat(mean, 'g', 5, 64), col: colSecond},
		{x: lo, label: "confidence interval", col: colBound, dashes: dash},
		{x: hi, label: "", col: colBound, dashes: dash},
	})
}

// Replications draws the estimates of M independent replications (e.g. of
// importance splitting) as points, their mean as a line and the confidence
// interval [lo, hi] as a band. The y axis is logarithmic when the positive
// estimates span more than two decades.
func Replications(path, title string, estimates []float64, lo, hi float64) error {
	const chart = "replications"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(estimates) == 0 {
		return fmt.Errorf("charts: %s: %w: no estimates", chart, ErrNoData)
	}
	if !finite(estimates...) || !finite(lo, hi) || lo > hi {
		return fmt.Errorf("charts: %s: need finite estimates and lo ≤ hi, have [%g, %g]", chart, lo, hi)
	}
	var mean float64
	for _, v := range estimates {
		mean += v
	}
	mean /= float64(len(estimates))
	n := float64(len(estimates))
	xs := func(y float64) plotter.XYs { return plotter.XYs{{X: 0.5, Y: y}, {X: n + 0.5, Y: y}} }

	p := newPlot(title, "replication", "estimate")
	p.Add(plotter.NewGrid())
	// Log axis when the positive values span more than two decades.
	ymin, ymax := math.Inf(1), math.Max(slices.Max(estimates), hi)
	for _, v := range append([]float64{lo}, estimates...) {
		if v > 0 {
			ymin = math.Min(ymin, v)
		}
	}
	logY := useLog(ymin, ymax)
	var axisLo, axisHi float64
	if logY {
		axisLo, axisHi = ymin/2, ymax*20 // room for the legend
	} else {
		axisLo = math.Min(slices.Min(estimates), lo)
		axisHi = ymax + 0.25*(ymax-axisLo)
		if axisHi == axisLo {
			axisLo, axisHi = axisLo-0.5*math.Max(math.Abs(axisLo), 1e-12), axisHi+0.5*math.Max(math.Abs(axisHi), 1e-12)
		}
	}
	if hi > lo {
		blo := math.Max(lo, axisLo) // a band from 0 cannot be drawn on a log axis
		poly, err := plotter.NewPolygon(plotter.XYs{{X: 0.5, Y: blo}, {X: n + 0.5, Y: blo}, {X: n + 0.5, Y: hi}, {X: 0.5, Y: hi}})
		if err != nil {
			return fmt.Errorf("charts: %s: band: %w", chart, err)
		}
		poly.Color = colBand
		poly.LineStyle = draw.LineStyle{Color: colBound, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
		p.Add(poly)
		p.Legend.Add(fmt.Sprintf("interval [%.4g, %.4g]", lo, hi), poly)
	}
	ml, err := plotter.NewLine(xs(mean))
	if err != nil {
		return fmt.Errorf("charts: %s: mean: %w", chart, err)
	}
	ml.Color, ml.Width = colSecond, vg.Points(1.5)
	p.Add(ml)
	p.Legend.Add(fmt.Sprintf("mean %.4g", mean), ml)
	pts := make(plotter.XYs, 0, len(estimates))
	zeros := 0
	for i, v := range estimates {
		if logY && v <= 0 {
			zeros++ // not drawable on a log axis
			continue
		}
		pts = append(pts, plotter.XY{X: float64(i + 1), Y: v})
	}
	if len(pts) > 0 {
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("charts: %s: points: %w", chart, err)
		}
		s.Color, s.Radius, s.Shape = colPoints, vg.Points(2.5), draw.CircleGlyph{}
		p.Add(s)
		label := "replication estimates"
		if zeros > 0 {
			label += fmt.Sprintf(" (%d zero, not shown)", zeros)
		}
		p.Legend.Add(label, s)
	}
	p.X.Min, p.X.Max = 0.5, n+0.5
	p.X.Tick.Marker = intTicks{}
	p.Y.Min, p.Y.Max = axisLo, axisHi
	if logY {
		setLog(&p.Y)
	} else {
		p.Y.Tick.Marker = plainTicks{}
	}
	return savePlot(chart, path, p)
}

// intTicks marks integer positions only (at most about 10 labels).
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	lo, hi = math.Ceil(lo), math.Floor(hi)
	step := math.Max(1, math.Ceil((hi-lo+1)/10))
	var ts []plot.Tick
	for v := lo; v <= hi; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ts
}
