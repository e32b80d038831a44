package ir

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

//go:embed include/wyvern.h
var wyvernH []byte

// Options control the frontend.
type Options struct {
	OptLevel   int      // clang optimisation level for C input (0 or 1; default 0)
	ClangFlags []string // extra flags passed to clang
	// DataModel: C input is compiled for x86-64 (LP64) or i386 (ILP32,
	// clang -m32); a .ll or .bc module must have been compiled for it
	// (CheckDataModel).
	DataModel DataModel
}

// CheckDataModel reports an error when p was compiled for another data
// model than want.
func CheckDataModel(p *Program, want DataModel) error {
	if p.DataModel != want {
		return fmt.Errorf("%s: the module was compiled for the %s data model, not %s", p.Name, p.DataModel, want)
	}
	return nil
}

// Source is a program's LLVM assembly with where it came from.
type Source struct {
	Name string // user-facing file name
	LL   []byte // LLVM assembly text
}

// Load reads a C, LLVM bitcode or LLVM assembly file and compiles it.
func Load(path string, opts Options) (*Program, error) {
	src, err := Frontend(path, opts)
	if err != nil {
		return nil, err
	}
	p, err := ParseLL(src.Name, src.LL)
	if err != nil {
		return nil, err
	}
	if err := CheckDataModel(p, opts.DataModel); err != nil {
		return nil, err
	}
	return p, nil
}

// LoadFiles is Load of one program made of several files (C, LLVM bitcode or
// assembly), linked into one module by llvm-link-14.
func LoadFiles(paths []string, opts Options) (*Program, error) {
	src, err := FrontendFiles(paths, opts)
	if err != nil {
		return nil, err
	}
	p, err := ParseLL(src.Name, src.LL)
	if err != nil {
		return nil, err
	}
	if err := CheckDataModel(p, opts.DataModel); err != nil {
		return nil, err
	}
	return p, nil
}

// ProgramName is the user-facing name of a program made of the files
// paths: the file, or the files separated by spaces (as on a command line).
func ProgramName(paths []string) string { return strings.Join(paths, " ") }

// FrontendFiles is Frontend of a program of one file or more: each file is
// turned into LLVM assembly as Frontend does and the modules are linked
// into one by llvm-link-14, so that a function defined in one file and
// declared in another is one function. The source's name is ProgramName.
func FrontendFiles(paths []string, opts Options) (*Source, error) {
	switch len(paths) {
	case 0:
		return nil, fmt.Errorf("no program file given")
	case 1:
		return Frontend(paths[0], opts)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if seen[abs] {
			return nil, fmt.Errorf("%s: given twice (each file of a program once)", p)
		}
		seen[abs] = true
	}
	link, err := findTool("WYVERN_LLVM_LINK", "llvm-link-14", "llvm-link")
	if err != nil {
		return nil, fmt.Errorf("link %s: %w", ProgramName(paths), err)
	}
	dir, err := os.MkdirTemp("", "wyvern-link-")
	if err != nil {
		return nil, fmt.Errorf("link %s: %w", ProgramName(paths), err)
	}
	defer os.RemoveAll(dir)
	args := []string{"-S", "-o", "-"}
	for i, p := range paths {
		src, err := Frontend(p, opts)
		if err != nil {
			return nil, err
		}
		f := filepath.Join(dir, fmt.Sprintf("%d.ll", i))
		if err := os.WriteFile(f, src.LL, 0o644); err != nil {
			return nil, fmt.Errorf("link %s: %w", ProgramName(paths), err)
		}
		args = append(args, f)
	}
	out, err := runTool(link, args...)
	if err != nil {
		// llvm-link names the temporary files; name the user's instead
		msg := err.Error()
		for i, p := range paths {
			msg = strings.ReplaceAll(msg, filepath.Join(dir, fmt.Sprintf("%d.ll", i)), p)
		}
		return nil, fmt.Errorf("link %s: llvm-link failed: %s", ProgramName(paths), msg)
	}
	return &Source{Name: ProgramName(paths), LL: out}, nil
}

// Frontend turns a file into LLVM assembly: .c through clang-14, .bc through
// llvm-dis-14, .ll as is.
func Frontend(path string, opts Options) (*Source, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ll":
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		return &Source{Name: path, LL: b}, nil
	case ".bc":
		dis, err := findTool("WYVERN_LLVM_DIS", "llvm-dis-14", "llvm-dis")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out, err := runTool(dis, path, "-o", "-")
		if err != nil {
			return nil, fmt.Errorf("%s: llvm-dis failed: %w", path, err)
		}
		return &Source{Name: path, LL: out}, nil
	case ".c", ".i":
		clang, err := findTool("WYVERN_CLANG", "clang-14", "clang")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		inc, err := IncludeDir()
		if err != nil {
			return nil, err
		}
		// -fno-pic keeps -O1 from turning lookup tables into relative
		// (pointer-difference) tables, which block/offset pointers cannot
		// represent.
		args := []string{"-S", "-emit-llvm", "-g", fmt.Sprintf("-O%d", opts.OptLevel),
			"-fno-discard-value-names", "-fno-pic", "-Wno-everything", "-I", inc}
		if opts.OptLevel > 0 {
			// keep the program scalar: the vm rejects vector instructions
			args = append(args, "-fno-vectorize", "-fno-slp-vectorize")
		}
		if opts.DataModel == ILP32 {
			// i386: needs the 32-bit C headers (libc6-dev-i386) for .c
			args = append(args, "-m32")
		}
		args = append(args, opts.ClangFlags...)
		args = append(args, "-o", "-", path)
		out, err := runTool(clang, args...)
		if err != nil {
			return nil, fmt.Errorf("%s: clang failed: %w", path, err)
		}
		return &Source{Name: path, LL: out}, nil
	}
	return nil, fmt.Errorf("%s: unknown file type (want .c, .i, .ll or .bc)", path)
}

func findTool(env string, names ...string) (string, error) {
	if p := os.Getenv(env); p != "" {
		return p, nil
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in PATH (run scripts/install-deps.sh, or set %s)", names[0], env)
}

func runTool(tool string, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(tool, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return nil, err
		}
		return nil, errors.New(msg)
	}
	return stdout.Bytes(), nil
}

// IncludeDir returns a directory holding wyvern.h, writing it on first use.
func IncludeDir() (string, error) {
	sum := sha256.Sum256(wyvernH)
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "wyvern", "include-"+hex.EncodeToString(sum[:6]))
	p := filepath.Join(dir, "wyvern.h")
	if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, wyvernH) {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create include dir: %w", err)
	}
	tmp := p + fmt.Sprintf(".%d", os.Getpid())
	if err := os.WriteFile(tmp, wyvernH, 0o644); err != nil {
		return "", fmt.Errorf("write wyvern.h: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return "", fmt.Errorf("write wyvern.h: %w", err)
	}
	return dir, nil
}

var (
	reDefineAlign = regexp.MustCompile(`^(define\s+(?:[a-z_]+(?:\([0-9]+\))?\s+)*?)align\s+[0-9]+\s+`)
	reCallAlign   = regexp.MustCompile(`((?:^|[\s=])call\s+(?:[a-z_]+(?:\([0-9]+\))?\s+)*?)align\s+[0-9]+\s+`)
)

// Prepass works around llir/llvm v0.3.6 parser limitations: it rejects
// `align N` among the return attributes of define and call.
func Prepass(src []byte) []byte {
	src = hoistGEPSub(src)
	if !bytes.Contains(src, []byte("align")) {
		return src
	}
	lines := bytes.Split(src, []byte("\n"))
	changed := false
	for i, ln := range lines {
		if bytes.HasPrefix(ln, []byte("define ")) {
			for reDefineAlign.Match(ln) {
				ln = reDefineAlign.ReplaceAll(ln, []byte("$1"))
				changed = true
			}
		} else if bytes.Contains(ln, []byte("call ")) {
			for reCallAlign.Match(ln) {
				ln = reCallAlign.ReplaceAll(ln, []byte("$1"))
				changed = true
			}
		}
		lines[i] = ln
	}
	if !changed {
		return src
	}
	return bytes.Join(lines, []byte("\n"))
}

// gepSubs start a getelementptr instruction index that is a constant
// `sub` expression: clang -O0 writes `(char *)p - offsetof(T, m)` with
// a hand-written offsetof (((size_t)&((T *)0)->m), the container_of
// idiom) as `i64 sub (i64 0, i64 ptrtoint (... to i64))` — `i32 ...`
// under ILP32 (clang -m32) — an index the llir parser rejects ("support
// for gep index type *ast.SubExpr").
var gepSubs = [...]struct{ ty, pat string }{{"i64", ", i64 sub (i64 "}, {"i32", ", i32 sub (i32 "}}

// hoistGEPSub rewrites each getelementptr instruction whose index is a
// constant sub expression into a sub instruction computing the index,
// named %wyvern.gepidx.N, followed by the getelementptr using it: the
// same value, in a form llir parses.
func hoistGEPSub(src []byte) []byte {
	found := false
	for _, g := range gepSubs {
		found = found || bytes.Contains(src, []byte(g.pat))
	}
	if !found {
		return src
	}
	lines := bytes.Split(src, []byte("\n"))
	out := make([][]byte, 0, len(lines)+8)
	n := 0
	for _, ln := range lines {
		ty, j := "", -1
		for _, g := range gepSubs {
			if j = bytes.Index(ln, []byte(g.pat)); j >= 0 {
				ty = g.ty
				break
			}
		}
		k := bytes.Index(ln, []byte("getelementptr "))
		eq := bytes.Index(ln, []byte(" = "))
		if j < 0 || k < 0 || eq < 0 || eq > k || !bytes.HasPrefix(bytes.TrimSpace(ln), []byte("%")) {
			out = append(out, ln)
			continue
		}
		// The expression's parenthesised operands: "(T A, T B)".
		open := j + len(", "+ty+" sub ")
		depth, end := 0, -1
		for p := open; p < len(ln); p++ {
			switch ln[p] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				end = p
				break
			}
		}
		if end < 0 {
			out = append(out, ln)
			continue
		}
		ops := ln[open+1 : end] // "T A, T B"
		comma := topLevelComma(ops)
		tp := []byte(ty + " ")
		if comma < 0 || !bytes.HasPrefix(ops, tp) || !bytes.HasPrefix(bytes.TrimSpace(ops[comma+1:]), tp) {
			out = append(out, ln)
			continue
		}
		a := bytes.TrimSpace(ops[len(tp):comma])
		b := bytes.TrimPrefix(bytes.TrimSpace(ops[comma+1:]), tp)
		name := fmt.Sprintf("%%wyvern.gepidx.%d", n)
		n++
		indent := ln[:len(ln)-len(bytes.TrimLeft(ln, " \t"))]
		sub := fmt.Sprintf("%s%s = sub %s %s, %s", indent, name, ty, a, b)
		rest := append(append(append([]byte{}, ln[:j]...), []byte(", "+ty+" "+name)...), ln[end+1:]...)
		out = append(out, []byte(sub), rest)
	}
	return bytes.Join(out, []byte("\n"))
}

// topLevelComma is the index of the first comma of b outside parentheses
// (-1: none).
func topLevelComma(b []byte) int {
	depth := 0
	for i, c := range b {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
