package charts

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SweepPoint is a query's answer for one value X of a swept parameter:
// the estimate with its interval [Lo, Hi] (Lo = Hi = Estimate for an
// exact answer or a test's observed frequency).
type SweepPoint struct {
	X        float64
	Estimate float64
	Lo, Hi   float64
}

// Sweep draws a query's answer against a swept parameter (check --sweep),
// each estimate with its confidence interval as an error bar and the
// band between the intervals, as PRISM's experiments plot a property
// against a constant. xlabel names the parameter, ylabel the answer. The
// value axis of a probability stays in [0, 1]; it is logarithmic when the
// estimates are positive and span more than two decades (rare events).
func Sweep(path, title, xlabel, ylabel string, pts []SweepPoint) error {
	const chart = "sweep"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(pts) == 0 {
		return fmt.Errorf("charts: %s: %w: no points", chart, ErrNoData)
	}
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(a, b SweepPoint) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		}
		return 0
	})
	for _, q := range pts {
		if !finite(q.X, q.Estimate, q.Lo, q.Hi) || q.Lo > q.Estimate || q.Estimate > q.Hi {
			return fmt.Errorf("charts: %s: point at %s = %g: need finite Lo ≤ Estimate ≤ Hi, have %g ≤ %g ≤ %g",
				chart, xlabel, q.X, q.Lo, q.Estimate, q.Hi)
		}
	}
	est := make(plotter.XYs, len(pts))
	errs := make(plotter.YErrors, len(pts))
	band := make(plotter.XYs, 0, 2*len(pts))
	ymin, ymax, posMin := math.Inf(1), math.Inf(-1), math.Inf(1)
	for i, q := range pts {
		est[i] = plotter.XY{X: q.X, Y: q.Estimate}
		errs[i].Low, errs[i].High = q.Estimate-q.Lo, q.Hi-q.Estimate
		band = append(band, plotter.XY{X: q.X, Y: q.Hi})
		ymin, ymax = math.Min(ymin, q.Lo), math.Max(ymax, q.Hi)
		if q.Estimate > 0 {
			posMin = math.Min(posMin, q.Estimate)
		}
	}
	for i := len(pts) - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: pts[i].X, Y: pts[i].Lo})
	}
	p := newPlot(title, xlabel, ylabel)
	p.Add(plotter.NewGrid())
	logY := posMin < math.Inf(1) && ymin > 0 && useLog(ymin, ymax)
	if len(pts) > 1 && !logY {
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return fmt.Errorf("charts: %s: band: %w", chart, err)
		}
		poly.Color = colBand
		poly.LineStyle.Width = 0
		p.Add(poly)
		p.Legend.Add("confidence interval", poly)
	}
	l, s, err := plotter.NewLinePoints(est)
	if err != nil {
		return fmt.Errorf("charts: %s: estimate: %w", chart, err)
	}
	l.Color, l.Width = colEstimate, vg.Points(1.5)
	s.Color, s.Radius, s.Shape = colEstimate, vg.Points(2.5), draw.CircleGlyph{}
	p.Add(l, s)
	p.Legend.Add("answer", l, s)
	bars, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{est, errs})
	if err != nil {
		return fmt.Errorf("charts: %s: intervals: %w", chart, err)
	}
	bars.Color = colBound
	bars.Width = vg.Points(1)
	p.Add(bars)
	switch {
	case logY:
		setLog(&p.Y)
		p.Legend.Top = false
	case ymax > ymin:
		lo, hi := ymin-0.05*(ymax-ymin), ymax+0.22*(ymax-ymin)
		if probability(ylabel) {
			lo, hi = math.Max(lo, 0), math.Min(hi, 1)
		}
		p.Y.Min, p.Y.Max = lo, hi
	}
	// the legend sits in the right-hand corner away from the last answer
	if last := pts[len(pts)-1]; !logY && p.Y.Max > p.Y.Min {
		p.Legend.Top = last.Estimate < (p.Y.Min+p.Y.Max)/2
	}
	if pts[0].X < pts[len(pts)-1].X {
		pad := 0.03 * (pts[len(pts)-1].X - pts[0].X)
		p.X.Min, p.X.Max = pts[0].X-pad, pts[len(pts)-1].X+pad
	}
	return savePlot(chart, path, p)
}
