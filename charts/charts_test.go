package charts

import (
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// convPoints are Clopper–Pearson-like intervals at checkpoints n0·2^j for a
// true probability of 0.05.
func convPoints() []ConvPoint {
	rng := rand.New(rand.NewPCG(1, 2))
	var pts []ConvPoint
	sat, runs := 0, 0
	for n := 50; n <= 51200; n *= 2 {
		for runs < n {
			runs++
			if rng.Float64() < 0.05 {
				sat++
			}
		}
		p := float64(sat) / float64(runs)
		h := 1.96 * math.Sqrt(p*(1-p)/float64(runs))
		pts = append(pts, ConvPoint{Runs: runs, Estimate: p, Lo: math.Max(0, p-h), Hi: math.Min(1, p+h)})
	}
	return pts
}

// charts renders every chart into path (its extension picks the format).
var all = map[string]func(path string) error{
	"convergence": func(path string) error { return Convergence(path, "Pr[<=5000](<> DataRace)", convPoints()) },
	"runlengths": func(path string) error {
		rng := rand.New(rand.NewPCG(3, 4))
		v := make([]float64, 2000)
		for i := range v {
			v[i] = float64(100 + rng.IntN(400) + rng.IntN(400))
		}
		return RunLengths(path, "satisfying-run lengths", v)
	},
	"runlengthbins": func(path string) error {
		return RunLengthBins(path, "satisfying-run lengths", []Bin{{10, 20, 3}, {20, 30, 9}, {30, 40, 4}, {50, 60, 1}})
	},
	"estimate": func(path string) error {
		rng := rand.New(rand.NewPCG(5, 6))
		v := make([]float64, 1000)
		var m float64
		for i := range v {
			v[i] = distuv.Normal{Mu: 12, Sigma: 3, Src: rng}.Rand()
			m += v[i]
		}
		m /= float64(len(v))
		return EstimateValues(path, "Estimate[<=500,1000]{max x}", v, m, m-0.19, m+0.19)
	},
	"splitting": func(path string) error {
		return Splitting(path, "fixed splitting", []Level{{0, 0, 1, false, 0}, {1, 2, 0.31, false, 0}, {2, 4, 0.12, false, 0}, {3, 6, 0.05, false, 0}, {4, 8, 0.02, false, 0}, {5, 10, 0.004, false, 0}})
	},
	"replications": func(path string) error {
		rng := rand.New(rand.NewPCG(7, 8))
		v := make([]float64, 30)
		for i := range v {
			v[i] = 4e-6 * math.Exp(rng.NormFloat64()*0.4)
		}
		return Replications(path, "splitting replications", v, 3.4e-6, 4.7e-6)
	},
	"replications-log": func(path string) error {
		return Replications(path, "rare event", []float64{1e-15, 5e-14, 3e-15, 0, 2e-13}, 1e-15, 9e-14)
	},
	"exploration": func(path string) error {
		var pts []ExplorePoint
		for i := 0; i <= 40; i++ {
			s := float64(i) / 4
			pts = append(pts, ExplorePoint{Seconds: s, States: int(1e5 * (1 - math.Exp(-s/3))), Queue: int(2e4 * s * math.Exp(-s/2))})
		}
		return Exploration(path, "EnumStates", pts)
	},
	"splitting-variance": func(path string) error {
		return Splitting(path, "fixed splitting with variance shares", []Level{{1, 1, 0.036, false, 0.3}, {2, 2, 0.048, false, 0.25}, {3, 3, 0.0125, true, 0.45}})
	},
	"sweep": func(path string) error {
		var pts []SweepPoint
		for n := 1; n <= 8; n++ {
			p := 1 - math.Pow(0.8, float64(n))
			pts = append(pts, SweepPoint{X: float64(n), Estimate: p, Lo: math.Max(0, p-0.04), Hi: math.Min(1, p+0.04)})
		}
		return Sweep(path, "Pr[<=1000](<> done) against N", "N", "probability", pts)
	},
	"sweep-log": func(path string) error {
		var pts []SweepPoint
		for n := 10; n <= 18; n += 2 {
			p := math.Pow(0.3, float64(n))
			pts = append(pts, SweepPoint{X: float64(n), Estimate: p, Lo: p / 2, Hi: p * 2})
		}
		return Sweep(path, "rare event against N", "N", "probability", pts)
	},
}

func TestPNG(t *testing.T) {
	dir := t.TempDir()
	for name, render := range all {
		path := filepath.Join(dir, name+".png")
		if err := render(path); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: PNG does not decode: %v", name, err)
			continue
		}
		wantW, wantH := int(Width/vg.Inch*DPI), int(Height/vg.Inch*DPI)
		if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
			t.Errorf("%s: PNG is %dx%d, want %dx%d", name, b.Dx(), b.Dy(), wantW, wantH)
		}
		if n := colours(img); n < 8 {
			t.Errorf("%s: PNG has %d distinct colours: nothing drawn?", name, n)
		}
	}
}

// colours counts the distinct colours of img (up to 1000).
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= 1000 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

func TestSVG(t *testing.T) {
	dir := t.TempDir()
	for name, render := range all {
		path := filepath.Join(dir, name+".svg")
		if err := render(path); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		root, elems, err := parseXML(b)
		if err != nil {
			t.Errorf("%s: SVG is not well-formed XML: %v", name, err)
			continue
		}
		if root.Name.Local != "svg" {
			t.Errorf("%s: root element is <%s>, want <svg>", name, root.Name.Local)
		}
		if elems < 30 {
			t.Errorf("%s: SVG has only %d elements: nothing drawn?", name, elems)
		}
		if w := attr(root, "width"); !strings.HasPrefix(w, "576") { // 8 in = 576 pt
			t.Errorf("%s: SVG width %q, want 576pt", name, w)
		}
	}
}

// The interval band is translucent: the SVG carries a fill opacity strictly
// between 0 and 1 (gonum/plot needs color.NRGBA for that).
func TestTranslucentBand(t *testing.T) {
	for _, name := range []string{"convergence", "replications"} {
		path := filepath.Join(t.TempDir(), name+".svg")
		if err := all[name](path); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		ok := false
		for _, m := range regexp.MustCompile(`fill-opacity:([0-9.]+)`).FindAllStringSubmatch(string(b), -1) {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil && v > 0 && v < 1 {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: no translucent fill in the SVG", name)
		}
	}
}

func parseXML(b []byte) (root xml.StartElement, elems int, err error) {
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if elems == 0 {
				return root, 0, errors.New("no elements")
			}
			return root, elems, nil
		}
		if err != nil {
			return root, elems, err
		}
		if se, ok := tok.(xml.StartElement); ok {
			if elems == 0 {
				root = se.Copy()
			}
			elems++
		}
	}
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "x.png")
	empty := map[string]func() error{
		"convergence":    func() error { return Convergence(png, "t", nil) },
		"runlengths":     func() error { return RunLengths(png, "t", nil) },
		"runlengthbins":  func() error { return RunLengthBins(png, "t", []Bin{}) },
		"estimate":       func() error { return EstimateValues(png, "t", nil, 0, 0, 0) },
		"splitting":      func() error { return Splitting(png, "t", nil) },
		"replications":   func() error { return Replications(png, "t", nil, 0, 1) },
		"exploration":    func() error { return Exploration(png, "t", []ExplorePoint{}) },
		"sweep":          func() error { return Sweep(png, "t", "N", "probability", nil) },
		"estimate-empty": func() error { return EstimateValues(png, "t", []float64{}, 0, 0, 0) },
	}
	for name, f := range empty {
		err := f()
		if !errors.Is(err, ErrNoData) {
			t.Errorf("%s with no data: err = %v, want ErrNoData", name, err)
		} else if !strings.Contains(err.Error(), "charts: ") {
			t.Errorf("%s: error %q does not say where it comes from", name, err)
		}
	}
	if _, err := os.Stat(png); !os.IsNotExist(err) {
		t.Errorf("a failed chart left %s behind", png)
	}

	for _, bad := range []string{"x.jpg", "x.pdf", "x", "x.png.txt"} {
		path := filepath.Join(dir, bad)
		for name, render := range all {
			err := render(path)
			if err == nil || !strings.Contains(err.Error(), "use .png or .svg") {
				t.Errorf("%s to %s: err = %v, want an unknown-format error", name, bad, err)
			}
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("unknown format %s: a file was written", bad)
		}
	}
	// Upper-case extensions are fine.
	if err := all["splitting"](filepath.Join(dir, "UP.SVG")); err != nil {
		t.Errorf("UP.SVG: %v", err)
	}

	invalid := map[string]error{
		"interval not around the estimate": Convergence(png, "t", []ConvPoint{{Runs: 10, Estimate: 0.5, Lo: 0.6, Hi: 0.7}}),
		"zero runs":                        Convergence(png, "t", []ConvPoint{{Runs: 0, Estimate: 0.5, Lo: 0.4, Hi: 0.7}}),
		"NaN estimate":                     Convergence(png, "t", []ConvPoint{{Runs: 1, Estimate: math.NaN(), Lo: 0, Hi: 1}}),
		"overlapping bins":                 RunLengthBins(png, "t", []Bin{{0, 10, 1}, {5, 15, 1}}),
		"empty bin interval":               RunLengthBins(png, "t", []Bin{{3, 3, 1}}),
		"infinite length":                  RunLengths(png, "t", []float64{1, math.Inf(1)}),
		"probability above 1":              Splitting(png, "t", []Level{{1, 2, 1.5, false, 0}}),
		"lo above hi":                      Replications(png, "t", []float64{0.1}, 0.2, 0.1),
		"time going backwards":             Exploration(png, "t", []ExplorePoint{{2, 10, 0}, {1, 20, 0}}),
		"negative states":                  Exploration(png, "t", []ExplorePoint{{1, -1, 0}}),
		"sweep interval not around":        Sweep(png, "t", "N", "probability", []SweepPoint{{X: 1, Estimate: 0.5, Lo: 0.6, Hi: 0.7}}),
		"sweep NaN parameter":              Sweep(png, "t", "N", "probability", []SweepPoint{{X: math.NaN(), Estimate: 0.5, Lo: 0.4, Hi: 0.7}}),
	}
	for name, err := range invalid {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}

	// An unwritable destination is reported with the path.
	nowhere := filepath.Join(dir, "no", "such", "dir", "x.png")
	if err := all["convergence"](nowhere); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("unwritable path: err = %v", err)
	}
}

func TestEdgeCases(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]func(string) error{
		// One point: no band, just the estimate.
		"one-point": func(p string) error {
			return Convergence(p, "t", []ConvPoint{{Runs: 100, Estimate: 0.1, Lo: 0.05, Hi: 0.18}})
		},
		// Unsorted points are sorted.
		"unsorted": func(p string) error {
			return Convergence(p, "t", []ConvPoint{{200, 0.1, 0.05, 0.15}, {100, 0.2, 0.1, 0.3}})
		},
		"constant-values": func(p string) error { return EstimateValues(p, "t", []float64{3, 3, 3}, 3, 3, 3) },
		"one-length":      func(p string) error { return RunLengths(p, "t", []float64{42}) },
		// A level never reached: product 0 from there on.
		"zero-level": func(p string) error {
			return Splitting(p, "t", []Level{{1, 1, 0.5, false, 0}, {2, 2, 0, false, 0}, {3, 3, 0, false, 0}})
		},
		"all-zero":    func(p string) error { return Splitting(p, "t", []Level{{1, 1, 0, false, 0}}) },
		"one-replica": func(p string) error { return Replications(p, "t", []float64{0.3}, 0.3, 0.3) },
		"t0":          func(p string) error { return Exploration(p, "t", []ExplorePoint{{0, 1, 1}}) },
	}
	for name, f := range cases {
		if err := f(filepath.Join(dir, name+".png")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestAutoBins(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []float64
	}{
		{"integers", []float64{100, 101, 150, 199, 200, 200, 357}},
		{"reals", []float64{0.1, 0.25, 0.33, 0.9, 0.91}},
		{"constant", []float64{7.5, 7.5}},
		{"one", []float64{4}},
	} {
		bins := autoBins(tc.values, 0)
		var total uint64
		for i, b := range bins {
			total += b.Count
			if b.Hi <= b.Lo {
				t.Errorf("%s: bin %d [%g, %g) is empty", tc.name, i, b.Lo, b.Hi)
			}
			if i > 0 && math.Abs(b.Lo-bins[i-1].Hi) > 1e-12 {
				t.Errorf("%s: gap between bins %d and %d", tc.name, i-1, i)
			}
		}
		if total != uint64(len(tc.values)) {
			t.Errorf("%s: bins hold %d values, want %d", tc.name, total, len(tc.values))
		}
		for _, v := range tc.values {
			if v < bins[0].Lo || v > bins[len(bins)-1].Hi {
				t.Errorf("%s: %g outside the bins [%g, %g)", tc.name, v, bins[0].Lo, bins[len(bins)-1].Hi)
			}
		}
	}
	// Integer data: integer bin edges.
	for _, b := range autoBins([]float64{3, 17, 40, 41, 99}, 0) {
		if b.Lo != math.Trunc(b.Lo) {
			t.Errorf("integer data got a bin edge at %g", b.Lo)
		}
	}
}

// TestConvergenceRange: a probability's axis never passes 1 (the legend
// then goes below the band); a mean's keeps room above the band.
func TestConvergenceRange(t *testing.T) {
	xy := func(ys ...float64) plotter.XYs {
		out := make(plotter.XYs, len(ys))
		for i, y := range ys {
			out[i] = plotter.XY{X: float64(i + 1), Y: y}
		}
		return out
	}
	for _, tc := range []struct {
		lo, hi     plotter.XYs
		ylabel     string
		ymin, ymax float64
		top        bool
	}{
		{xy(0.5, 0.9), xy(0.9, 1), "probability", 0.5, 1, false},
		{xy(0.1, 0.2), xy(0.3, 0.4), "probability", 0.1, 0.4 + 0.22*0.3, true},
		{xy(0.5, 0.9), xy(0.9, 1), "mean of the runs' values", 0.5, 1 + 0.22*0.5, true},
		{xy(0.5, 0.9), xy(0.9, 1), "observed frequency", 0.5, 1, false},
	} {
		ymin, ymax, top, ok := convergenceRange(tc.lo, tc.hi, tc.ylabel)
		if !ok || math.Abs(ymin-tc.ymin) > 1e-12 || math.Abs(ymax-tc.ymax) > 1e-12 || top != tc.top {
			t.Errorf("%s %v-%v: [%g, %g] legend top %v, want [%g, %g] %v", tc.ylabel, tc.lo, tc.hi, ymin, ymax, top, tc.ymin, tc.ymax, tc.top)
		}
	}
}

// TestSplittingPropertyLabel: the property's level is labelled
// "property", not with a score threshold it does not have.
func TestSplittingPropertyLabel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "levels.svg")
	err := Splitting(path, "adaptive", []Level{{1, 3, 0.2, false, 0}, {2, 6, 0.15, false, 0}, {3, 8, 0.1, true, 0}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, "property") || strings.Contains(s, "≥8") || !strings.Contains(s, "≥6") {
		t.Errorf("the levels' labels: want ≥3, ≥6 and property (not ≥8)")
	}
}
