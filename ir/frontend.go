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
	return ParseLL(src.Name, src.LL)
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
