package charts

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SPRTPoint is a sequential test's state after Runs runs: Satisfied of
// them satisfied the property.
type SPRTPoint struct {
	Runs, Satisfied int
}

// SPRTTest is Wald's test H0: p >= Theta+Delta against H1: p <=
// Theta-Delta with error bounds Alpha and Beta (estimator.SPRT).
type SPRTTest struct {
	Theta, Delta, Alpha, Beta float64
}

// SPRT draws a hypothesis test as it ran: the observed frequency after
// each point's runs against θ and the indifference region θ ± δ (top), and
// the log-likelihood ratio log(L(p1)/L(p0)) against the bounds at which the
// test rejects (log((1-β)/α)) and accepts (log(β/(1-α))) H0 (bottom).
func SPRT(path, title string, t SPRTTest, pts []SPRTPoint) error {
	const chart = "sprt"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(pts) == 0 {
		return fmt.Errorf("charts: %s: %w: no points", chart, ErrNoData)
	}
	p0, p1 := t.Theta+t.Delta, t.Theta-t.Delta
	if !(p1 > 0 && p0 < 1 && t.Alpha > 0 && t.Beta > 0 && t.Alpha+t.Beta < 1) {
		return fmt.Errorf("charts: %s: need 0 < θ-δ, θ+δ < 1, α, β > 0 and α+β < 1; have θ %g, δ %g, α %g, β %g", chart, t.Theta, t.Delta, t.Alpha, t.Beta)
	}
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(a, b SPRTPoint) int { return a.Runs - b.Runs })
	stepSat, stepUnsat := math.Log(p1/p0), math.Log1p(-p1)-math.Log1p(-p0)
	lower, upper := math.Log(t.Beta/(1-t.Alpha)), math.Log((1-t.Beta)/t.Alpha)
	freq := make(plotter.XYs, len(pts))
	llr := make(plotter.XYs, len(pts))
	for i, q := range pts {
		if q.Runs <= 0 || q.Satisfied < 0 || q.Satisfied > q.Runs {
			return fmt.Errorf("charts: %s: point %+v: need 0 <= satisfied <= runs, runs > 0", chart, q)
		}
		x := float64(q.Runs)
		freq[i] = plotter.XY{X: x, Y: float64(q.Satisfied) / x}
		llr[i] = plotter.XY{X: x, Y: float64(q.Satisfied)*stepSat + float64(q.Runs-q.Satisfied)*stepUnsat}
	}
	x0, x1 := freq[0].X, freq[len(freq)-1].X
	if x1 == x0 {
		x1 = x0 + 1
	}
	logX := useLog(x0, x1)

	top := newPlot(title, "runs", "frequency")
	top.Add(plotter.NewGrid())
	region, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: p1}, {X: x1, Y: p1}, {X: x1, Y: p0}, {X: x0, Y: p0}})
	if err != nil {
		return fmt.Errorf("charts: %s: region: %w", chart, err)
	}
	region.Color = color.NRGBA{R: 0xf2, G: 0xb7, B: 0x05, A: 0x50}
	region.LineStyle.Width = 0
	top.Add(region)
	top.Legend.Add(fmt.Sprintf("indifference region θ ± δ = %g ± %g", t.Theta, t.Delta), region)
	th, err := hline(x0, x1, t.Theta, color.NRGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff})
	if err != nil {
		return fmt.Errorf("charts: %s: %w", chart, err)
	}
	top.Add(th)
	top.Legend.Add(fmt.Sprintf("θ = %g", t.Theta), th)
	l, s, err := plotter.NewLinePoints(freq)
	if err != nil {
		return fmt.Errorf("charts: %s: frequency: %w", chart, err)
	}
	l.Color, l.Width = colEstimate, vg.Points(1.5)
	s.Color, s.Radius, s.Shape = colEstimate, vg.Points(1.8), draw.CircleGlyph{}
	top.Add(l, s)
	top.Legend.Add("observed frequency", l, s)
	ymax := p0
	for _, f := range freq {
		ymax = math.Max(ymax, f.Y)
	}
	top.Y.Min, top.Y.Max = 0, math.Min(1.45, 1.5*ymax) // the legend above the data

	bottom := newPlot("", "runs", "log L(θ-δ)/L(θ+δ)")
	bottom.Add(plotter.NewGrid())
	for _, b := range []struct {
		y     float64
		label string
		col   color.Color
	}{
		{upper, fmt.Sprintf("reject H0: p ≥ θ+δ (%.3g)", upper), color.NRGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}},
		{lower, fmt.Sprintf("accept H0 (%.3g)", lower), color.NRGBA{R: 0x27, G: 0xae, B: 0x60, A: 0xff}},
	} {
		hl, err := hline(x0, x1, b.y, b.col)
		if err != nil {
			return fmt.Errorf("charts: %s: %w", chart, err)
		}
		bottom.Add(hl)
		bottom.Legend.Add(b.label, hl)
	}
	ll, ls, err := plotter.NewLinePoints(llr)
	if err != nil {
		return fmt.Errorf("charts: %s: LLR: %w", chart, err)
	}
	ll.Color, ll.Width = colEstimate, vg.Points(1.5)
	ls.Color, ls.Radius, ls.Shape = colEstimate, vg.Points(1.8), draw.CircleGlyph{}
	bottom.Add(ll, ls)
	bottom.Legend.Add("log-likelihood ratio", ll, ls)
	lo, hi := math.Min(lower, llr[0].Y), math.Max(upper, llr[0].Y)
	for _, p := range llr {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
	}
	pad := 0.15 * (hi - lo)
	bottom.Y.Min, bottom.Y.Max = lo-pad, hi+4*pad // the legend above the data
	if logX {
		setLog(&top.X)
		setLog(&bottom.X)
	}
	last := pts[len(pts)-1]
	top.Title.Text = fmt.Sprintf("%s\n%d runs, frequency %.4g, log-likelihood ratio %.3g", title, last.Runs, freq[len(freq)-1].Y, llr[len(llr)-1].Y)
	plots := [][]*plot.Plot{{top}, {bottom}}
	return save(chart, path, func(c draw.Canvas) {
		t := draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2),
			PadLeft: vg.Points(2), PadRight: vg.Points(6)}
		cs := plot.Align(plots, t, c)
		for i := range plots {
			plots[i][0].Draw(cs[i][0])
		}
	})
}

// hline is a horizontal line at y from x0 to x1.
func hline(x0, x1, y float64, c color.Color) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return nil, err
	}
	l.Color, l.Width = c, vg.Points(1.2)
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	return l, nil
}
