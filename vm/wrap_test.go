package vm

import (
	"fmt"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// TestWrapOverflow runs one operation per case, in -O0 code (optnone:
// its flags are checked), on values loaded from globals (nothing folds them) with overflow as an error and with
// ir.Program.WrapOverflow: the flags that make poison wrap around
// (nsw/nuw of add, sub, mul, shl; abs's int_min_poison), the kept ones
// (sdiv of the minimum by -1, exact, shift by the width) stay errors.
func TestWrapOverflow(t *testing.T) {
	const min32 = "-2147483648"
	cases := []struct {
		name string
		typ  string // the operands' type
		a, b string
		op   string // %x, %y are the operands
		// plain: the error kind without WrapOverflow (ErrNone: no error);
		// wrapped: the result with it; keep: an error with it too
		plain   ErrKind
		wrapped uint64
		keep    bool
	}{
		{"add nsw i8", "i8", "127", "1", "add nsw i8 %x, %y", ErrOverflow, 0x80, false},
		{"add nuw i8", "i8", "-1", "1", "add nuw i8 %x, %y", ErrOverflow, 0, false},
		{"add nsw i32 (fused fast path)", "i32", "2147483647", "1", "add nsw i32 %x, %y", ErrOverflow, 0x8000_0000, false},
		{"add nuw nsw i64", "i64", "9223372036854775807", "1", "add nuw nsw i64 %x, %y", ErrOverflow, 1 << 63, false},
		{"sub nsw i32", "i32", min32, "1", "sub nsw i32 %x, %y", ErrOverflow, 0x7fff_ffff, false},
		{"sub nsw i32 negation", "i32", "0", min32, "sub nsw i32 %x, %y", ErrOverflow, 0x8000_0000, false},
		{"sub nuw i8", "i8", "0", "1", "sub nuw i8 %x, %y", ErrOverflow, 0xff, false},
		{"mul nsw i8", "i8", "64", "2", "mul nsw i8 %x, %y", ErrOverflow, 0x80, false},
		{"mul nsw i32", "i32", "65536", "65536", "mul nsw i32 %x, %y", ErrOverflow, 0, false},
		{"mul nuw i64", "i64", "-9223372036854775808", "2", "mul nuw i64 %x, %y", ErrOverflow, 0, false},
		{"shl nsw i8", "i8", "64", "1", "shl nsw i8 %x, %y", ErrOverflow, 0x80, false},
		{"shl nuw i16", "i16", "-32768", "1", "shl nuw i16 %x, %y", ErrOverflow, 0, false},
		{"abs int_min_poison", "i32", min32, "0", "call i32 @llvm.abs.i32(i32 %x, i1 true)", ErrOverflow, 0x8000_0000, false},
		{"add nsw without overflow", "i32", "2", "3", "add nsw i32 %x, %y", ErrNone, 5, false},
		{"sdiv minimum by -1", "i32", min32, "-1", "sdiv i32 %x, %y", ErrOverflow, 0, true},
		{"udiv exact remainder", "i8", "7", "2", "udiv exact i8 %x, %y", ErrOverflow, 0, true},
		{"ashr exact shifted out", "i8", "3", "1", "ashr exact i8 %x, %y", ErrOverflow, 0, true},
		{"shl by the width", "i8", "1", "8", "shl i8 %x, %y", ErrShiftOverflow, 0, true},
	}
	for _, c := range cases {
		src := fmt.Sprintf(`
@a = global %[1]s %[2]s
@b = global %[1]s %[3]s
@r = global %[1]s 0
declare i32 @llvm.abs.i32(i32, i1)
define i32 @main() #0 {
entry:
  %%x = load %[1]s, %[1]s* @a
  %%y = load %[1]s, %[1]s* @b
  %%v = %[4]s
  store %[1]s %%v, %[1]s* @r
  ret i32 0
}
attributes #0 = { noinline optnone }
`, c.typ, c.a, c.b, c.op)
		for _, wrap := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/wrap=%v", c.name, wrap), func(t *testing.T) {
				p, err := ir.ParseLL("wrap.ll", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				if wrap {
					p.WrapOverflow()
					p.WrapOverflow() // idempotent
				}
				m := NewMachine(p)
				st := m.NewState()
				m.Run(st, 100, NewRand(1, 0))
				want := c.plain
				if wrap && !c.keep {
					want = ErrNone
				}
				if want != ErrNone {
					if st.Status != Failed || st.Err.Kind != want {
						t.Fatalf("status %s (%v), want the error %s", st.Status, st.Err, want)
					}
					return
				}
				if st.Status != Exited {
					t.Fatalf("status %s (%v), want exited", st.Status, st.Err)
				}
				g := p.Globals[p.GlobalIdx["r"]]
				v, _ := st.Mem.Load(ir.MakePtr(g.Block, 0), g.Size)
				if v != c.wrapped {
					t.Errorf("result %#x, want %#x", v, c.wrapped)
				}
			})
		}
	}
}
