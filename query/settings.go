package query

import (
	"math"
	"strings"
)

// Setting is an option of a query with the value in effect.
type Setting struct {
	Name string // the option's canonical name (Alpha, Rule, N, ...)
	// Value is a float64 (Number), an int64 (Integer), a string (Enum,
	// Score, Levels as written; "auto" for M=auto) or nil for "none" (MaxRuns without a cap,
	// Max without a score: the property).
	Value any
	// Default: the query does not give the option; Value is its default.
	Default bool
}

// Settings lists every option of q's kind (Schema) with its value in
// effect, defaults and derived defaults (Beta = Alpha, K = N/10) included,
// in the schema's order. Options the kind does not take are not listed.
func (q *Query) Settings() []Setting {
	var out []Setting
	for _, s := range Schema(q.OptionKind()) {
		st := Setting{Name: s.Name, Default: !q.Has(s.Name)}
		switch s.Type {
		case Number:
			if f := q.Num(s.Name); !math.IsInf(f, 0) && !math.IsNaN(f) {
				st.Value = f
			}
		case Integer:
			switch n := int64(q.Num(s.Name)); {
			case n == 0 && s.Auto:
				st.Value = "auto"
			case n != 0 || !strings.EqualFold(s.Name, "MaxRuns"):
				st.Value = n
			}
		case Enum:
			if v := q.Enum(s.Name); v != "" {
				st.Value = v
			}
		case ScoreExpr, LevelList:
			if o, ok := q.Options[strings.ToLower(s.Name)]; ok {
				st.Value = o.raw
				if o.raw == "" { // a Query not made by Parse
					st.Value = o.Value
				}
			}
		}
		out = append(out, st)
	}
	return out
}
