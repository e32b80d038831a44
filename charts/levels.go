package charts

import (
	"fmt"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Level is one importance-splitting level: its index, score threshold and
// the estimated probability of reaching it from the previous level.
type Level struct {
	Level     int
	Threshold float64
	CondProb  float64
	// Property: the level is the property itself (no score threshold),
	// labelled so
	Property bool
	// VarShare is the level's share of the relative variance (0 to 1),
	// drawn beside its conditional probability when any level has one
	VarShare float64
}

// Splitting draws an importance-splitting run's levels: the per-level
// conditional probabilities as bars (top) and their running product, the
// estimate so far, on a log axis (bottom). Levels are drawn in the order
// given; a zero conditional probability makes the product 0 from there on,
// which a log axis cannot show, so those points are left out.
func Splitting(path, title string, levels []Level) error {
	const chart = "splitting levels"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(levels) == 0 {
		return fmt.Errorf("charts: %s: %w: no levels", chart, ErrNoData)
	}
	names := make([]string, len(levels))
	probs := make(plotter.Values, len(levels))
	shares := make(plotter.Values, len(levels))
	anyShare := false
	var prod plotter.XYs
	run := 1.0
	for i, l := range levels {
		if !finite(l.CondProb, l.Threshold) || l.CondProb < 0 || l.CondProb > 1 {
			return fmt.Errorf("charts: %s: level %d: conditional probability %g is not in [0, 1]", chart, l.Level, l.CondProb)
		}
		names[i] = fmt.Sprintf("%d\n≥%s", l.Level, strconv.FormatFloat(l.Threshold, 'g', 4, 64))
		if l.Property {
			names[i] = fmt.Sprintf("%d\nproperty", l.Level)
		}
		probs[i] = l.CondProb
		if !finite(l.VarShare) || l.VarShare < 0 || l.VarShare > 1 {
			return fmt.Errorf("charts: %s: level %d: variance share %g is not in [0, 1]", chart, l.Level, l.VarShare)
		}
		shares[i], anyShare = l.VarShare, anyShare || l.VarShare > 0
		run *= l.CondProb
		if run > 0 {
			prod = append(prod, plotter.XY{X: float64(i), Y: run})
		}
	}

	top := newPlot(title, "", "conditional probability")
	top.Add(plotter.NewGrid())
	width := vg.Points(max(4, min(40, 360/float64(len(levels)))))
	if anyShare {
		width /= 2
	}
	bars, err := plotter.NewBarChart(probs, width)
	if err != nil {
		return fmt.Errorf("charts: %s: bars: %w", chart, err)
	}
	bars.Color = colBars
	bars.LineStyle = draw.LineStyle{Color: colPoints, Width: vg.Points(0.5)}
	top.Add(bars)
	if anyShare {
		// each level's share of the relative variance beside its
		// probability: where the variance comes from, which levels to
		// split (docs/splitting.md, level tuning)
		sb, err := plotter.NewBarChart(shares, width)
		if err != nil {
			return fmt.Errorf("charts: %s: variance bars: %w", chart, err)
		}
		bars.Offset, sb.Offset = -width/2, width/2
		sb.Color = colBand
		sb.LineStyle = draw.LineStyle{Color: colPoints, Width: vg.Points(0.5)}
		top.Add(sb)
		top.Legend.Add("conditional probability", bars)
		top.Legend.Add("share of the relative variance", sb)
		top.Y.Label.Text = "probability, variance share"
	}
	top.Y.Min, top.Y.Max = 0, 1
	top.NominalX(names...)
	top.X.Label.Text = "level (score threshold)"

	plots := [][]*plot.Plot{{top}}
	if len(prod) > 0 {
		bottom := newPlot(fmt.Sprintf("running product after %d levels: %.4g", len(levels), run), "level", "running product")
		bottom.Add(plotter.NewGrid())
		l, s, err := plotter.NewLinePoints(prod)
		if err != nil {
			return fmt.Errorf("charts: %s: product: %w", chart, err)
		}
		l.Color, l.Width = colEstimate, vg.Points(1.5)
		s.Color, s.Radius, s.Shape = colEstimate, vg.Points(2.5), draw.CircleGlyph{}
		bottom.Add(l, s)
		setLog(&bottom.Y)
		lo, hi := slices.MinFunc(prod, cmpY).Y, slices.MaxFunc(prod, cmpY).Y
		if lo == hi { // one decade around a constant
			lo, hi = lo/3, hi*3
		}
		bottom.Y.Min, bottom.Y.Max = lo, hi
		bottom.X.Min, bottom.X.Max = -0.5, float64(len(levels))-0.5
		bottom.X.Tick.Marker = levelTicks(levels)
		plots = append(plots, []*plot.Plot{bottom})
	}
	return save(chart, path, func(c draw.Canvas) {
		t := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2),
			PadLeft: vg.Points(2), PadRight: vg.Points(6)}
		cs := plot.Align(plots, t, c)
		for i := range plots {
			plots[i][0].Draw(cs[i][0])
		}
	})
}

func cmpY(a, b plotter.XY) int {
	switch {
	case a.Y < b.Y:
		return -1
	case a.Y > b.Y:
		return 1
	}
	return 0
}

// levelTicks labels positions 0..n-1 with the levels' indices.
type levelTicks []Level

func (lt levelTicks) Ticks(_, _ float64) []plot.Tick {
	ts := make([]plot.Tick, 0, len(lt))
	step := max(1, len(lt)/12)
	for i := 0; i < len(lt); i += step {
		ts = append(ts, plot.Tick{Value: float64(i), Label: strconv.Itoa(lt[i].Level)})
	}
	return ts
}

// ExplorePoint is an explicit-state search's progress at a moment: distinct
// states found and states waiting in the queue.
type ExplorePoint struct {
	Seconds float64
	States  int
	Queue   int
}

// Exploration draws an explicit-state search's exploration curve: distinct
// states and queue size against time. Points must have non-decreasing
// Seconds.
func Exploration(path, title string, pts []ExplorePoint) error {
	const chart = "exploration"
	if _, err := format(chart, path); err != nil {
		return err
	}
	if len(pts) == 0 {
		return fmt.Errorf("charts: %s: %w: no points", chart, ErrNoData)
	}
	states := make(plotter.XYs, len(pts))
	queue := make(plotter.XYs, len(pts))
	for i, q := range pts {
		if !finite(q.Seconds) || q.Seconds < 0 || q.States < 0 || q.Queue < 0 {
			return fmt.Errorf("charts: %s: point %d (%g s, %d states, queue %d): need non-negative values", chart, i, q.Seconds, q.States, q.Queue)
		}
		if i > 0 && q.Seconds < pts[i-1].Seconds {
			return fmt.Errorf("charts: %s: point %d at %g s comes before point %d at %g s", chart, i, q.Seconds, i-1, pts[i-1].Seconds)
		}
		states[i] = plotter.XY{X: q.Seconds, Y: float64(q.States)}
		queue[i] = plotter.XY{X: q.Seconds, Y: float64(q.Queue)}
	}
	last := pts[len(pts)-1]
	p := newPlot(title, "seconds", "states")
	p.Add(plotter.NewGrid())
	ls, err := plotter.NewLine(states)
	if err != nil {
		return fmt.Errorf("charts: %s: states: %w", chart, err)
	}
	ls.Color, ls.Width = colEstimate, vg.Points(1.5)
	ls.FillColor = colBand
	lq, err := plotter.NewLine(queue)
	if err != nil {
		return fmt.Errorf("charts: %s: queue: %w", chart, err)
	}
	lq.Color, lq.Width = colSecond, vg.Points(1.2)
	lq.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(ls, lq)
	p.Legend.Add(fmt.Sprintf("distinct states (%d)", last.States), ls)
	p.Legend.Add("queue", lq)
	top := 1
	for _, q := range pts {
		top = max(top, q.States, q.Queue)
	}
	p.Y.Min, p.Y.Max = 0, float64(top)*1.15 // room for the legend
	p.Y.Tick.Marker = plainTicks{}
	if last.Seconds > 0 {
		p.Title.Text = fmt.Sprintf("%s\n%d states in %.3g s (%.0f states/s)", title, last.States, last.Seconds, float64(last.States)/last.Seconds)
	}
	return savePlot(chart, path, p)
}
