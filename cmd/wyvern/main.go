// Command wyvern is Wyvern's one binary: it runs LLVM programs under a
// probabilistic semantics and answers questions about them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
)

// version is the release, set at build time with
// -ldflags "-X main.version=v1.2.3"; builds from a checkout say "devel" and
// their VCS revision.
var version = "devel"

// buildVersion is the release, or "devel" and the VCS revision of a build
// from a checkout ("devel 5767e63a1b2c+dirty").
func buildVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if v == "devel" && rev != "" {
			v += " " + rev[:min(12, len(rev))]
			if dirty {
				v += "+dirty"
			}
		}
	}
	return v
}

// versionLine describes this build: release (or revision), wire protocol
// version, Go version.
func versionLine() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return fmt.Sprintf("wyvern %s (protocol %d, %s)", buildVersion(), jobs.Version, bi.GoVersion)
	}
	return fmt.Sprintf("wyvern %s (protocol %d)", buildVersion(), jobs.Version)
}

// exitUsage is the status for bad input: a missing file, a malformed
// program, an unknown external function, a bad flag.
const exitUsage = 2

type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = []command{
	{"run", "run one trace of a program and print its output and why it ended", cmdRun},
	{"check", "answer a query with an in-process NATS server, coordinator and workers", cmdCheck},
	{"replay", "print a trace step by step (e.g. the first satisfying trace of check)", cmdReplay},
	{"worker", "serve trace jobs from a NATS server", cmdWorker},
	{"coordinator", "serve experiments on a NATS server", cmdCoordinator},
	{"submit", "submit an experiment to a coordinator and print its result", cmdSubmit},
	{"cancel", "stop running experiments by id", cmdCancel},
	{"chart", "draw the charts of a result saved with check --json", cmdChart},
	{"verify", "verify an SV-COMP task with a portfolio of engines (TRUE, FALSE(...), UNKNOWN)", cmdVerify},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: wyvern COMMAND [flags] ...")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'wyvern COMMAND -h' for a command's flags, 'wyvern --version' for the build.")
	fmt.Fprintln(w, "check and submit exit 0 when the property holds (or for an estimate), 10 when it is")
	fmt.Fprintln(w, "violated or the target is reachable, 11 without a verdict, 2 on bad input, 1 on failure.")
}

func main() {
	coordinator.Version = buildVersion()
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if args[0] == "help" && len(args) == 2 { // help COMMAND: COMMAND -h
		args = []string{args[1], "-h"}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			if helpAsked(args[1:]) { // asked for: the usage goes to stdout, status 0
				c.run(args[1:], stdout, stdout)
				return 0
			}
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "wyvern: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

// helpAsked reports whether a command's arguments ask for its help (-h,
// -help or --help before any "--"): the command then prints its usage and
// stops at that flag.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// parseInterspersed parses flags that may appear before or after positional
// arguments.
//
// A bad flag is reported in two lines — the flag package's message and
// where to find help — instead of the whole usage, which -h prints.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	usage := fs.Usage
	if usage == nil {
		usage = func() {
			fmt.Fprintf(fs.Output(), "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
	}
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
			} else {
				fmt.Fprintf(fs.Output(), "(wyvern %s -h for help)\n", fs.Name())
			}
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// oneLine keeps the first line of an error message for the terminal.
func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
