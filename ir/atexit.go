package ir

import (
	"fmt"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Exit handlers (atexit) are program code, not a platform function: when a
// program declares atexit, the loader gives it, and exit, bodies in the
// module itself, so that every engine (interpreter, explicit search, BMC,
// abstract interpretation) runs the handlers as the calls they are:
//
//   - atexit(f) appends f to a table of AtexitMax handlers (two globals,
//     AtexitTable and AtexitCount) and returns 0, or -1 when it is full
//     (POSIX guarantees at least 32);
//   - exit(code) calls the registered handlers, the last registered first
//     (each is taken off the table before it is called, so a handler that
//     registers another has it called too), then ends the program as _Exit
//     does;
//   - the table is pushed and popped in atomic functions (AtexitPush,
//     AtexitPop: __VERIFIER_atomic_*), as glibc takes a lock: threads that
//     register handlers at once lose none, and no handler runs twice;
//   - the program's entry becomes AtexitStart, which calls main with its
//     arguments and then exit with main's result, as the C runtime does:
//     main's locals are dead when the handlers run (a block only they
//     pointed to is lost at main's return, as before).
//
// _Exit and _exit end the program without calling the handlers. When main
// called pthread_exit, the vm runs exit(0) in a new process once the last
// one ends, as POSIX has it. A program without atexit is left as it is;
// one that defines atexit or exit itself keeps its own. These functions are
// Synthetic: a place inside them is reported at their caller's.
const (
	AtexitMax   = 64
	AtexitTable = "wyvern.atexit.handlers"
	AtexitCount = "wyvern.atexit.count"
	AtexitStart = "wyvern.start"
	AtexitPush  = "__VERIFIER_atomic_wyvern_atexit_push"
	AtexitPop   = "__VERIFIER_atomic_wyvern_atexit_pop"
)

// atexitHandlers gives atexit and exit bodies when mod declares atexit
// (see above), and returns the entry function that replaces main (nil when
// the module is left as it is).
func atexitHandlers(mod *lir.Module) (*lir.Func, error) {
	var atexit, exit, main *lir.Func
	for _, f := range mod.Funcs {
		switch f.Name() {
		case "atexit":
			atexit = f
		case "exit":
			exit = f
		case "main":
			main = f
		}
	}
	if atexit == nil || len(atexit.Blocks) > 0 || main == nil || len(main.Blocks) == 0 ||
		(exit != nil && len(exit.Blocks) > 0) {
		return nil, nil
	}
	i32 := types.I32
	if !atexit.Sig.RetType.Equal(i32) || len(atexit.Params) != 1 || atexit.Sig.Variadic {
		return nil, fmt.Errorf("atexit is declared as %s, not as int atexit(void (*)(void))", atexit.Sig)
	}
	hp, ok := atexit.Params[0].Typ.(*types.PointerType)
	if !ok {
		return nil, fmt.Errorf("atexit's parameter is a %s, not a function pointer", atexit.Params[0].Typ)
	}
	if _, ok := hp.ElemType.(*types.FuncType); !ok {
		return nil, fmt.Errorf("atexit's parameter is a %s, not a function pointer", hp)
	}
	if exit == nil {
		exit = mod.NewFunc("exit", types.Void, lir.NewParam("", i32))
	} else if !exit.Sig.RetType.Equal(types.Void) || len(exit.Params) != 1 || !exit.Params[0].Typ.Equal(i32) {
		return nil, fmt.Errorf("exit is declared as %s, not as void exit(int)", exit.Sig)
	}
	quick := declareFunc(mod, "_Exit", types.NewFunc(types.Void, i32))
	if quick == nil {
		return nil, fmt.Errorf("_Exit is declared with another signature than void _Exit(int)")
	}

	tableT := types.NewArray(AtexitMax, hp)
	table := mod.NewGlobalDef(AtexitTable, constant.NewZeroInitializer(tableT))
	count := mod.NewGlobalDef(AtexitCount, constant.NewInt(i32, 0))
	zero, one := constant.NewInt(i32, 0), constant.NewInt(i32, 1)
	slot := func(b *lir.Block, n value.Value) value.Value {
		return b.NewGetElementPtr(tableT, table, zero, n)
	}

	// int push(void (*f)(void)), atomic
	push := mod.NewFunc(AtexitPush, i32, lir.NewParam("f", hp))
	entry, full, add := push.NewBlock("entry"), push.NewBlock("full"), push.NewBlock("add")
	n := entry.NewLoad(i32, count)
	entry.NewCondBr(entry.NewICmp(enum.IPredSGE, n, constant.NewInt(i32, AtexitMax)), full, add)
	full.NewRet(constant.NewInt(i32, -1))
	add.NewStore(push.Params[0], slot(add, n))
	add.NewStore(add.NewAdd(n, one), count)
	add.NewRet(zero)

	// void (*pop(void))(void), atomic: the last handler, taken off the
	// table, or null
	pop := mod.NewFunc(AtexitPop, hp)
	entry, none, take := pop.NewBlock("entry"), pop.NewBlock("none"), pop.NewBlock("take")
	n = entry.NewLoad(i32, count)
	entry.NewCondBr(entry.NewICmp(enum.IPredSGT, n, zero), take, none)
	none.NewRet(constant.NewNull(hp))
	left := take.NewSub(n, one)
	take.NewStore(left, count)
	take.NewRet(take.NewLoad(hp, slot(take, left)))

	// int atexit(void (*f)(void))
	atexit.Params[0].SetName("f")
	b := atexit.NewBlock("entry")
	b.NewRet(b.NewCall(push, atexit.Params[0]))

	// void exit(int code)
	exit.Params[0].SetName("code")
	entry, loop, call, done := exit.NewBlock("entry"), exit.NewBlock("loop"), exit.NewBlock("call"), exit.NewBlock("done")
	entry.NewBr(loop)
	h := loop.NewCall(pop)
	loop.NewCondBr(loop.NewICmp(enum.IPredEQ, h, constant.NewNull(hp)), done, call)
	call.NewCall(h)
	call.NewBr(loop)
	done.NewCall(quick, exit.Params[0])
	done.NewUnreachable()

	// the entry: exit(main(args...))
	params := make([]*lir.Param, len(main.Params))
	args := make([]value.Value, len(main.Params))
	for i, p := range main.Params {
		params[i] = lir.NewParam(fmt.Sprintf("arg%d", i), p.Typ)
		args[i] = params[i]
	}
	start := mod.NewFunc(AtexitStart, main.Sig.RetType, params...)
	b = start.NewBlock("entry")
	r := b.NewCall(main, args...)
	var code value.Value = zero
	if it, ok := main.Sig.RetType.(*types.IntType); ok {
		switch {
		case it.BitSize == 32:
			code = r
		case it.BitSize > 32:
			code = b.NewTrunc(r, i32)
		case it.BitSize == 1 || zeroExt(main):
			code = b.NewZExt(r, i32) // (_Bool, unsigned char, unsigned short)
		default:
			code = b.NewSExt(r, i32)
		}
	}
	b.NewCall(exit, code)
	b.NewUnreachable()
	for _, f := range []*lir.Func{push, pop, atexit, exit, start} {
		if err := f.AssignIDs(); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	return start, nil
}

// zeroExt reports whether f's result is zero-extended (zeroext: an
// unsigned type narrower than int).
func zeroExt(f *lir.Func) bool {
	for _, a := range f.ReturnAttrs {
		if a == enum.ReturnAttrZeroExt {
			return true
		}
	}
	return false
}

// declareFunc returns mod's function name, declared with signature sig if
// the module has none of that name; nil if it has one of another
// signature.
func declareFunc(mod *lir.Module, name string, sig *types.FuncType) *lir.Func {
	for _, f := range mod.Funcs {
		if f.Name() == name {
			if !f.Sig.Equal(sig) {
				return nil
			}
			return f
		}
	}
	params := make([]*lir.Param, len(sig.Params))
	for i, t := range sig.Params {
		params[i] = lir.NewParam("", t)
	}
	return mod.NewFunc(name, sig.RetType, params...)
}
