package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nats-io/nats.go"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/query"
)

// fileQuery is a query of a query file, with where it is.
type fileQuery struct {
	text string
	file string
	line int
}

// where names the query's place: "QUERIES.q:3", or "" for the command
// line's query.
func (f fileQuery) where() string {
	if f.file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", f.file, f.line)
}

// parseQueryFile reads the queries of a query file, UPPAAL's way: one
// query a line; blank lines, lines starting with // or #, and what follows
// // on a line are left out.
func parseQueryFile(name string, r io.Reader) ([]fileQuery, error) {
	var out []fileQuery
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, fileQuery{text: line, file: name, line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no query (one a line; // and # start comments)", name)
	}
	return out, nil
}

// queryArgs checks the positional arguments of check and submit, FILE...
// QUERY or FILE... with -q QUERIES.q, and returns the program's files and
// the queries; its errors say what is wrong. The program's files are the
// first argument and each following one named like a program file (.c,
// .i, .ll, .bc): several are linked into one program.
func queryArgs(pos []string, queryFile string) ([]string, []fileQuery, error) {
	if len(pos) == 0 {
		return nil, nil, fmt.Errorf("no program given: FILE QUERY, or FILE -q QUERIES.q")
	}
	n := 1
	for n < len(pos) && isProgramFile(pos[n]) {
		n++
	}
	files, rest := pos[:n], pos[n:]
	if queryFile != "" {
		if len(rest) > 0 {
			return nil, nil, fmt.Errorf("a query (%q) and -q %s given: put the query in the file, or leave out -q", rest[0], queryFile)
		}
		f, err := os.Open(queryFile)
		if err != nil {
			return nil, nil, fmt.Errorf("-q: %w", err)
		}
		defer f.Close()
		qs, err := parseQueryFile(queryFile, f)
		return files, qs, err
	}
	switch len(rest) {
	case 0:
		return nil, nil, fmt.Errorf("no query given after %s: FILE QUERY (quoted: 'Pr[<=100](<> x > 1)'), or -q QUERIES.q for a file of queries", strings.Join(files, " "))
	case 1:
		return files, []fileQuery{{text: rest[0]}}, nil
	case 2:
		return nil, nil, fmt.Errorf("two queries given (%q, %q); use -q QUERIES.q for several (one a line), and quote a query that has spaces", rest[0], rest[1])
	}
	return nil, nil, fmt.Errorf("%d queries given; use -q QUERIES.q for several (one a line), and quote a query that has spaces", len(rest))
}

// isProgramFile says whether a positional argument names a program file.
func isProgramFile(arg string) bool {
	switch strings.ToLower(filepath.Ext(arg)) {
	case ".c", ".i", ".ll", ".bc":
		return true
	}
	return false
}

// explicitFlagsFit checks that explicit-state flags given for a file of
// several queries fit at least one of them (each query takes those that fit
// it: experimentFlags.check).
func explicitFlagsFit(fs *flag.FlagSet, ef *experimentFlags, qs []fileQuery) error {
	if !ef.several || ef.exact {
		return nil
	}
	given := ""
	fs.Visit(func(f *flag.Flag) {
		if given == "" && slices.Contains(explicitFlags, f.Name) {
			given = f.Name
		}
	})
	if given == "" {
		return nil
	}
	for _, fq := range qs {
		if q, err := query.Parse(fq.text); err != nil || q.Kind == query.Reach || q.Kind == query.Invariant || q.Kind == query.EnumStates {
			return nil // (a query that does not parse fails with its line later)
		}
	}
	return fmt.Errorf("--%s applies to explicit-state queries (E<> P, A[] P, EnumStates) and to Pr[<=N](<> P) with --exact; none of the %d queries of %s is one", given, len(qs), ef.queries)
}

// prepareArgs parses the flags and the arguments of check and submit and
// prepares every query: parsed (its options checked against its kind),
// the flags checked against it, the program loaded once and the query
// compiled against it. It prints the cause when that fails, with the query
// file's line.
func prepareArgs(fs *flag.FlagSet, args []string, lf *loadFlags, ef *experimentFlags, stderr io.Writer) ([]*prepared, bool) {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, false
	}
	files, qs, err := queryArgs(pos, ef.queries)
	if err == nil && len(qs) > 1 && ef.emitLevels {
		err = fmt.Errorf("--emit-levels prints one query's levels; -q %s has %d queries", ef.queries, len(qs))
	}
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n(wyvern %s -h for help)\n", err, fs.Name())
		return nil, false
	}
	ef.several = len(qs) > 1
	if err := explicitFlagsFit(fs, ef, qs); err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return nil, false
	}
	if ef.sweep.name == "" {
		return prepareQueries(fs, files, qs, lf, ef, stderr)
	}
	// --sweep: the queries for each value in turn, the program compiled
	// for it (all of them before anything runs, so that a value the
	// program does not compile with fails at once)
	err = nil
	if ef.emitLevels {
		err = fmt.Errorf("--emit-levels prints one run's levels; --sweep makes %d runs", len(ef.sweep.values))
	}
	for _, f := range files {
		if ext := strings.ToLower(filepath.Ext(f)); err == nil && ext != ".c" && ext != ".i" {
			err = fmt.Errorf("--sweep defines the C macro %s (-D%s=V); %s is not C source", ef.sweep.name, ef.sweep.name, f)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return nil, false
	}
	var out []*prepared
	for _, v := range ef.sweep.values {
		lv := *lf
		lv.clang = append(append(multiFlag{}, lf.clang...), "-D"+ef.sweep.name+"="+v)
		ps, ok := prepareQueries(fs, files, qs, &lv, ef, &prefixWriter{w: stderr, prefix: fmt.Sprintf("%s=%s: ", ef.sweep.name, v)})
		if !ok {
			return nil, false
		}
		out = append(out, ps...)
	}
	return out, true
}

// prefixWriter writes each message with a prefix after "wyvern: " (the
// value of the sweep that failed).
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	s := string(b)
	if rest, ok := strings.CutPrefix(s, "wyvern: "); ok {
		s = "wyvern: " + p.prefix + rest
	}
	if _, err := io.WriteString(p.w, s); err != nil {
		return 0, err
	}
	return len(b), nil
}

// prepareQueries prepares the queries qs on the program of files (loaded
// once), each with the flags checked against it.
func prepareQueries(fs *flag.FlagSet, files []string, qs []fileQuery, lf *loadFlags, ef *experimentFlags, stderr io.Writer) ([]*prepared, bool) {
	var out []*prepared
	var base *prepared
	for _, fq := range qs {
		q, err := query.Parse(fq.text)
		if err == nil {
			err = ef.check(fs, q)
		}
		var p *prepared
		switch {
		case err != nil:
		case base == nil:
			p, err = prepare(files, q, lf)
			base = p
		default:
			p, err = base.withQuery(q)
		}
		if err == nil && ef.engine == engineBMC {
			p.bmc = ef.bmcOptions()
		} else if err == nil {
			p.explicit, err = ef.explicitOptions(p.q)
		}
		if err != nil {
			if w := fq.where(); w != "" {
				err = fmt.Errorf("%s: %w", w, err)
			}
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return nil, false
		}
		p.where = fq.where()
		out = append(out, p)
	}
	return out, true
}

// runQueries answers the prepared queries in turn on one cluster and
// prints their results. One query given on the command line prints as
// always (a JSON object with --json); with -q, each result is followed by
// its verdict line and a summary closes the text (--json: one array of
// results). The exit status is the worst over the queries: 1 when one
// failed, else 10 when one is violated, else 11 when one has no verdict,
// else 0; an interrupt stops at once (130) after printing the results so
// far. With --json, a query that has no result is an entry of the array
// too (failedQuery), so that the array has one entry per query, in order.
func runQueries(ctx context.Context, nc *nats.Conn, ps []*prepared, ef *experimentFlags, stdout, stderr io.Writer) int {
	return answerQueries(ps, ef, func(p *prepared) (*coordinator.Result, int, error) {
		return submitOne(ctx, nc, p, ef, stderr)
	}, stdout, stderr)
}

// failedQuery is the JSON entry (-q --json) of a query that has no
// result: its error, in the query's place in the file (docs/json.md,
// object failed-query).
type failedQuery struct {
	Kind       string `json:"kind"` // "failed"
	Query      string `json:"query"`
	Program    string `json:"program"`
	Where      string `json:"where"`
	ExitStatus int    `json:"exit_status"`
	Error      string `json:"error"`
}

// answerQueries is runQueries with the experiments submitted by submit.
func answerQueries(ps []*prepared, ef *experimentFlags, submit func(*prepared) (*coordinator.Result, int, error), stdout, stderr io.Writer) int {
	if ef.sweep.name != "" {
		return answerSweep(ps, ef, submit, stdout, stderr)
	}
	if ef.queries == "" {
		res, rc, _ := submit(ps[0])
		if res == nil {
			return rc
		}
		addWarnings(res, ps[0])
		rc = printResult(res, ps[0], ef, stdout, stderr)
		if ef.plot != "" && !plotResult(res, ef.plot, stderr) {
			return 1
		}
		return rc
	}
	results := []any{} // *coordinator.Result or failedQuery, in file order
	var summary []string
	worst := 0
	for i, p := range ps {
		if !ef.asJSON {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "== Query %d of %d (%s)\n", i+1, len(ps), p.where)
		}
		res, rc, err := submit(p)
		if res == nil {
			word := "FAILED (see above)"
			if rc == 130 {
				word = "INTERRUPTED"
			}
			msg := word
			if err != nil {
				msg = err.Error()
			}
			results = append(results, failedQuery{Kind: "failed", Query: p.q.Text, Program: p.src.Name, Where: p.where, ExitStatus: rc, Error: msg})
			summary = append(summary, fmt.Sprintf("%-14s %s: %s", p.where, p.q.Text, word))
			worst = worseStatus(worst, rc)
			if rc == 130 {
				break
			}
			continue
		}
		addWarnings(res, p)
		results = append(results, res)
		rc = res.ExitStatus()
		if ef.asJSON {
			if err := describeTraces(res, p); err != nil {
				fmt.Fprintf(stderr, "wyvern: %s: %v\n", p.where, err)
				rc = 1
			}
		}
		if !ef.asJSON {
			rc = printResult(res, p, ef, stdout, stderr)
			fmt.Fprintf(stdout, "Verdict: %s\n", verdictLine(res))
		}
		if ef.plot != "" && !plotResult(res, filepath.Join(ef.plot, fmt.Sprintf("q%d", i+1)), stderr) {
			rc = 1
		}
		worst = worseStatus(worst, rc)
		summary = append(summary, fmt.Sprintf("%-14s %s: %s", p.where, p.q.Text, verdictLine(res)))
	}
	if ef.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(results)
	} else {
		fmt.Fprintf(stdout, "\n== Summary: %d queries of %s (exit status %d)\n", len(ps), ef.queries, worst)
		for _, l := range summary {
			fmt.Fprintf(stdout, "  %s\n", l)
		}
	}
	return worst
}

// worseStatus returns the worse of two exit statuses: a usage error or an
// interrupt, then a failure, then a violation, then no verdict, then 0.
func worseStatus(a, b int) int {
	rank := func(s int) int {
		switch s {
		case 0:
			return 0
		case coordinator.ExitUnknown:
			return 1
		case coordinator.ExitViolated:
			return 2
		case 1:
			return 3
		}
		return 4 // 2 (bad input), 130 (interrupted)
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// verdictLine says in one line what a result answers (its detail's
// Summary).
func verdictLine(r *coordinator.Result) string {
	if r.Detail == nil {
		return fmt.Sprintf("%s result (exit status %d)", r.Kind, r.ExitStatus())
	}
	return r.Detail.Summary(r)
}
