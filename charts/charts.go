// Package charts draws Wyvern's pictures with gonum/plot: confidence
// interval against the number of runs, histograms of satisfying-run lengths
// and of Estimate values, importance-splitting levels, replication estimates
// and explicit-state exploration curves.
//
// Inputs are plain data (no dependency on the coordinator). Every function
// writes one image to path, in the format its extension names: .png
// (Width × Height inches at DPI, i.e. 1024 × 640 pixels) or .svg. Empty or
// malformed input and unknown extensions are errors naming the chart and
// the cause; nothing is written then.
package charts

import (
	"bufio"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Image size: PNG images are Width·DPI × Height·DPI pixels.
const (
	Width  = 8 * vg.Inch
	Height = 5 * vg.Inch
	DPI    = 128
)

// ErrNoData is returned (wrapped) for empty input.
var ErrNoData = errors.New("no data")

// Colours: opaque strokes and translucent fills (gonum/plot needs
// non-premultiplied NRGBA for translucency).
var (
	colEstimate = color.NRGBA{R: 0x1f, G: 0x4e, B: 0x9a, A: 0xff}
	colBand     = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x40}
	colBound    = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xb0}
	colBars     = color.NRGBA{R: 0xe0, G: 0x7b, B: 0x1a, A: 0xc0}
	colSecond   = color.NRGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}
	colPoints   = color.NRGBA{R: 0x2c, G: 0x2c, B: 0x2c, A: 0xff}
)

// format returns "png" or "svg" for path, or an error.
func format(chart, path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch ext {
	case "png", "svg":
		return ext, nil
	}
	return "", fmt.Errorf("charts: %s: %s: unknown image format %q (use .png or .svg)", chart, path, filepath.Ext(path))
}

// drawer draws a chart onto a canvas.
type drawer func(c draw.Canvas)

// save renders d to path in the format of its extension.
func save(chart, path string, d drawer) error {
	ext, err := format(chart, path)
	if err != nil {
		return err
	}
	var w io.WriterTo
	switch ext {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI))
		d(draw.New(c))
		w = vgimg.PngCanvas{Canvas: c}
	case "svg":
		c := vgsvg.New(Width, Height)
		d(draw.New(c))
		w = c
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("charts: %s: %w", chart, err)
	}
	bw := bufio.NewWriter(f)
	if _, err := w.WriteTo(bw); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("charts: %s: write %s: %w", chart, path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("charts: %s: write %s: %w", chart, path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("charts: %s: write %s: %w", chart, path, err)
	}
	return nil
}

// savePlot renders one plot.
func savePlot(chart, path string, p *plot.Plot) error {
	return save(chart, path, p.Draw)
}

// finite reports whether all values are finite numbers.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// newPlot returns a plot with Wyvern's common style.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	return p
}

// useLog reports whether positive values spanning min..max are better
// shown on a log axis (more than two decades).
func useLog(min, max float64) bool {
	return min > 0 && max/min > 100
}

// setLog puts an axis on a log scale with decade ticks.
func setLog(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = decades{}
}

// decades ticks a log axis: labelled powers of ten ("1e-06", "0.01", "100")
// and unlabelled minor ticks at 2..9 times them. When the range spans more
// than 12 decades only every other (or every third, ...) power is labelled.
type decades struct{}

func (decades) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo || !finite(lo, hi) {
		return nil
	}
	k0, k1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	every := max(1, (k1-k0+11)/12)
	var ts []plot.Tick
	for k := k0; k <= k1; k++ {
		p := math.Pow10(k)
		if p >= lo && p <= hi {
			label := ""
			if k%every == 0 {
				label = strconv.FormatFloat(p, 'g', -1, 64)
			}
			ts = append(ts, plot.Tick{Value: p, Label: label})
		}
		if every > 1 {
			continue // no minor ticks on long ranges
		}
		for m := 2; m <= 9; m++ {
			if v := float64(m) * p; v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v})
			}
		}
	}
	return ts
}

// plainTicks are gonum's default ticks with labels in the shortest form
// ("250", not "250.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}
