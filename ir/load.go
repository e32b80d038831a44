package ir

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/llir/llvm/asm"
	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
)

// LoadError is a load-time rejection naming the place and the cause.
type LoadError struct {
	File  string
	Func  string
	Block string
	Inst  string
	Msg   string
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Func != "" {
		fmt.Fprintf(&b, ": function @%s", e.Func)
	}
	if e.Block != "" {
		fmt.Fprintf(&b, ", block %%%s", e.Block)
	}
	if e.Inst != "" {
		fmt.Fprintf(&b, ", instruction `%s`", strings.TrimSpace(e.Inst))
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ParseLL parses LLVM assembly text and compiles it. It never panics: a panic
// inside the parser is reported as an error.
func ParseLL(name string, src []byte) (prog *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("%s: parser failed: %v", name, r)
		}
	}()
	src = Prepass(src)
	mod, err := asm.ParseBytes(name, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, trimParseErr(err))
	}
	if err := checkTypeDefs(mod.TypeDefs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Compile(name, mod)
}

// checkTypeDefs rejects types that contain themselves by value (a struct
// among its own fields, directly or through arrays and other structs):
// they have no finite size, and every walk over them (layout, zero values)
// would recurse without end — a Go stack overflow is fatal, not a panic a
// recover could turn into an error.
func checkTypeDefs(defs []types.Type) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[types.Type]int{}
	var path []string
	var walk func(t types.Type) error
	walk = func(t types.Type) error {
		switch t := t.(type) {
		case *types.ArrayType:
			return walk(t.ElemType)
		case *types.VectorType:
			return walk(t.ElemType)
		case *types.StructType:
			switch state[t] {
			case visiting:
				return fmt.Errorf("type %s contains itself by value (%s): it would have infinite size", t.Name(), strings.Join(append(path, t.Name()), " -> "))
			case done:
				return nil
			}
			state[t] = visiting
			path = append(path, t.Name())
			for _, f := range t.Fields {
				if err := walk(f); err != nil {
					return err
				}
			}
			path = path[:len(path)-1]
			state[t] = done
		}
		return nil // pointers, scalars, functions: no containment by value
	}
	for _, t := range defs {
		if err := walk(t); err != nil {
			return err
		}
	}
	return nil
}

func trimParseErr(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "\n"); i > 0 {
		msg = msg[:i]
	}
	return fmt.Errorf("malformed LLVM assembly: %s", msg)
}

type loader struct {
	name      string
	mod       *lir.Module
	prog      *Program
	globalIdx map[*lir.Global]int
	funcIdx   map[*lir.Func]int
	locIdx    map[SrcLoc]int32
	dl        layout
}

// Compile compiles a parsed llir module into a Program.
func Compile(name string, mod *lir.Module) (prog *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("%s: cannot compile module: %v", name, r)
		}
	}()
	l := &loader{
		name: name, mod: mod,
		prog:      &Program{Name: name, FuncIdx: map[string]int{}, GlobalIdx: map[string]int{}, Entry: -1},
		globalIdx: map[*lir.Global]int{},
		funcIdx:   map[*lir.Func]int{},
		locIdx:    map[SrcLoc]int32{},
	}
	dm, err := dataModelOf(mod.DataLayout)
	if err != nil {
		return nil, &LoadError{File: name, Msg: err.Error()}
	}
	l.prog.DataModel, l.dl = dm, layout{ilp32: dm == ILP32}
	l.prog.Locs = append(l.prog.Locs, SrcLoc{})
	// (before the layout: the functions and globals they add take blocks
	// after the program's, and the first dynamic block follows them)
	start, err := atexitHandlers(mod)
	if err != nil {
		return nil, &LoadError{File: name, Msg: err.Error()}
	}
	uninitInputs(mod)
	if err := l.layoutGlobals(); err != nil {
		return nil, err
	}
	if err := l.indexFuncs(); err != nil {
		return nil, err
	}
	if err := l.initGlobals(); err != nil {
		return nil, err
	}
	for i, f := range mod.Funcs {
		if len(f.Blocks) == 0 {
			continue
		}
		cf, err := l.compileFunc(f, l.prog.Funcs[i])
		if err != nil {
			return nil, err
		}
		l.prog.Funcs[i] = cf
	}
	main, ok := l.prog.FuncIdx["main"]
	if !ok || l.prog.Funcs[main].External {
		return nil, &LoadError{File: name, Msg: "no definition of main"}
	}
	l.prog.Entry = main
	if start != nil {
		l.prog.Entry = l.prog.FuncIdx[AtexitStart]
		for _, name := range []string{AtexitStart, AtexitPush, AtexitPop, "atexit", "exit"} {
			l.prog.Funcs[l.prog.FuncIdx[name]].Synthetic = true
		}
	}
	if l.dl.ilp32 {
		if l.prog.FirstDynBlock > Ptr32MaxBlock-64 {
			// the image's blocks (and the platform's, after them) need
			// 32-bit addresses
			return nil, &LoadError{File: name, Msg: fmt.Sprintf("%d globals and functions: more than the ILP32 data model's %d blocks leave room for", l.prog.FirstDynBlock-1, Ptr32MaxBlock-64)}
		}
	}
	return l.prog, nil
}

func (l *loader) layoutGlobals() error {
	for i, g := range l.mod.Globals {
		size, err := l.dl.sizeOf(g.ContentType)
		if err != nil {
			return &LoadError{File: l.name, Msg: fmt.Sprintf("global @%s: %v", g.Name(), err)}
		}
		if size > 1<<31 {
			return &LoadError{File: l.name, Msg: fmt.Sprintf("global @%s: size %d is too large", g.Name(), size)}
		}
		gl := &Global{Name: g.Name(), Block: uint32(i + 1), Size: uint32(size), Const: g.Immutable,
			ElemKind: kindOf(g.ContentType), ThreadLocal: g.TLSModel != enum.TLSModelNone}
		for _, md := range g.Metadata {
			if md.Name != "dbg" {
				continue
			}
			if e, ok := md.Node.(*metadata.DIGlobalVariableExpression); ok && e.Var != nil {
				gl.CName = e.Var.Name
				gl.CType = cTypeOf(e.Var.Type)
			}
		}
		l.globalIdx[g] = i
		l.prog.GlobalIdx[g.Name()] = i
		l.prog.Globals = append(l.prog.Globals, gl)
	}
	l.prog.FirstFuncBlock = uint32(len(l.mod.Globals) + 1)
	l.prog.FirstDynBlock = l.prog.FirstFuncBlock + uint32(len(l.mod.Funcs))
	return nil
}

func (l *loader) initGlobals() error {
	for i, g := range l.mod.Globals {
		gl := l.prog.Globals[i]
		gl.Init = make([]byte, gl.Size)
		if g.Init == nil && IsStdStream(g.Name()) && gl.Size == 8 {
			// glibc's FILE *stdin, *stdout, *stderr: the stream handle is
			// the address of the variable itself, which the platform's
			// stdio functions recognise (programs never dereference it).
			binary.LittleEndian.PutUint64(gl.Init, MakePtr(gl.Block, 0))
			continue
		}
		if g.Init == nil && IsStdStream(g.Name()) && gl.Size == 4 && l.dl.ilp32 {
			// the same under ILP32: the handle's 32-bit form
			x, ok := Ptr32(MakePtr(gl.Block, 0))
			if !ok {
				return &LoadError{File: l.name, Msg: fmt.Sprintf("global @%s: block %d has no 32-bit address (ILP32)", g.Name(), gl.Block)}
			}
			binary.LittleEndian.PutUint32(gl.Init, x)
			continue
		}
		if g.Init == nil && getoptGlobal(gl.Init, g.Name(), l.dl.ilp32) {
			continue
		}
		if g.Init == nil {
			return &LoadError{File: l.name, Msg: fmt.Sprintf("external global variable @%s is not defined in the program", g.Name())}
		}
		if err := l.constBytes(g.Init, gl.Init); err != nil {
			return &LoadError{File: l.name, Msg: fmt.Sprintf("initialiser of global @%s: %v", g.Name(), err)}
		}
	}
	return nil
}

// ignoredIntrinsic reports intrinsics that have no run-time effect.
func ignoredIntrinsic(name string) bool {
	for _, p := range []string{"llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
		"llvm.var.annotation", "llvm.invariant.", "llvm.sideeffect", "llvm.donothing", "llvm.prefetch"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (l *loader) indexFuncs() error {
	var missing, notILP32 []string
	for i, f := range l.mod.Funcs {
		cf := &Func{Name: f.Name(), Index: i, Block: l.prog.FirstFuncBlock + uint32(i), Variadic: f.Sig.Variadic}
		l.funcIdx[f] = i
		l.prog.FuncIdx[f.Name()] = i
		l.prog.Funcs = append(l.prog.Funcs, cf)
		if len(f.Blocks) > 0 {
			continue
		}
		cf.External = true
		if strings.HasPrefix(f.Name(), "llvm.") {
			continue // intrinsics are checked at their call sites
		}
		b, ok := LookupBuiltin(f.Name())
		if !ok {
			missing = append(missing, f.Name())
			continue
		}
		cf.Builtin = b
		if l.dl.ilp32 && !b.ILP32Ready() {
			notILP32 = append(notILP32, f.Name())
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return &LoadError{File: l.name, Msg: fmt.Sprintf("unknown external function(s), not implemented by the platform: %s "+
			"(defined in another source file? give all the program's files: wyvern run main.c lib.c)", strings.Join(missing, ", "))}
	}
	if len(notILP32) > 0 {
		sort.Strings(notILP32)
		return &LoadError{File: l.name, Msg: fmt.Sprintf("platform function(s) not supported under the ILP32 data model yet: %s",
			strings.Join(notILP32, ", "))}
	}
	return nil
}

// location returns the index of an instruction's debug location.
func (l *loader) location(mds lir.Metadata) int32 {
	for _, md := range mds {
		if md.Name != "dbg" {
			continue
		}
		loc, ok := md.Node.(*metadata.DILocation)
		if !ok {
			continue
		}
		sl := SrcLoc{File: scopeFile(loc.Scope), Line: int32(loc.Line), Col: int32(loc.Column)}
		if idx, ok := l.locIdx[sl]; ok {
			return idx
		}
		idx := int32(len(l.prog.Locs))
		l.prog.Locs = append(l.prog.Locs, sl)
		l.locIdx[sl] = idx
		return idx
	}
	return 0
}

func scopeFile(s metadata.Field) string {
	for i := 0; i < 64 && s != nil; i++ {
		switch sc := s.(type) {
		case *metadata.DISubprogram:
			if sc.File != nil {
				return sc.File.Filename
			}
			s = sc.Scope
		case *metadata.DILexicalBlock:
			if sc.File != nil {
				return sc.File.Filename
			}
			s = sc.Scope
		case *metadata.DILexicalBlockFile:
			if sc.File != nil {
				return sc.File.Filename
			}
			s = sc.Scope
		case *metadata.DIFile:
			return sc.Filename
		default:
			return ""
		}
	}
	return ""
}

// getoptGlobal gives init, the bytes of an external global of the
// program, glibc's initial value when the global is one of getopt's
// (optind 1, opterr 1, optopt '?', optarg NULL; of their C types' sizes)
// and reports whether it was. getopt itself is not a platform function:
// a program that calls it is refused by name; one that only reads the
// variables (SV-COMP's busybox tasks) sees what a run without arguments
// sees.
func getoptGlobal(init []byte, name string, ilp32 bool) bool {
	switch name {
	case "optind", "opterr", "optopt":
		if len(init) != 4 {
			return false
		}
		v := uint32(1)
		if name == "optopt" {
			v = '?'
		}
		binary.LittleEndian.PutUint32(init, v)
		return true
	case "optarg":
		return len(init) == 8 || ilp32 && len(init) == 4 // NULL
	}
	return false
}

// IsStdStream reports whether name is one of glibc's standard stream
// variables (stdin, stdout, stderr), which a program may declare external.
func IsStdStream(name string) bool {
	return name == "stdin" || name == "stdout" || name == "stderr"
}
