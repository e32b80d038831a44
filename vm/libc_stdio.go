package vm

import (
	"github.com/wyvernmc/wyvern/ir"
)

// The stdio functions beyond printf/puts/putchar. They format through the
// same code as printf (printf.go). Streams: stdout is the run's output;
// what is written to stderr is checked (arguments are read) and dropped,
// as it is no part of a run's output; any other stream is an error.

const (
	streamOther = iota
	streamStdout
	streamStderr
)

// stream identifies a FILE * value: the address of the program's stdout or
// stderr variable (see ir.IsStdStream).
func (m *Machine) stream(p uint64) int {
	for name, s := range map[string]int{"stdout": streamStdout, "stderr": streamStderr} {
		if i, ok := m.Prog.GlobalIdx[name]; ok && p == ir.MakePtr(m.Prog.Globals[i].Block, 0) {
			return s
		}
	}
	return streamOther
}

// write sends bytes to a stream, or fails for a stream that is neither
// stdout nor stderr.
func (c call) write(stream uint64, b []byte) bool {
	switch c.m.stream(stream) {
	case streamStdout:
		return c.output(b...)
	case streamStderr:
	default:
		c.fail(ErrBadArg, "%s: the stream is neither stdout nor stderr", c.b)
		return false
	}
	return true
}

// output appends b to the run's captured output, or ends the run with
// ErrResourceLimit if it would pass what the per-run memory limit leaves.
func (c call) output(b ...byte) bool {
	if room := c.st.memRoom(); uint64(len(b)) > room {
		c.fail(ErrResourceLimit, "%s: output: %d more bytes with %d captured would pass the per-run memory limit (%d bytes left)",
			c.b, len(b), len(c.st.Out), room)
		return false
	}
	c.st.Out = append(c.st.Out, b...)
	return true
}

// span checks that the n bytes at p are in one block (and writable, for
// write) before a buffer of n bytes is made for them, so that a size the
// program passes cannot make the host allocate more than its blocks hold.
func (c call) span(p, n uint64, write bool, what string) bool {
	if n == 0 {
		return true
	}
	if n > 1<<32-1 {
		c.fail(ErrOutOfBounds, "%s of %d bytes", what, n)
		return false
	}
	if _, _, e := c.st.Mem.check(p, uint32(n), write); e != ErrNone {
		c.fail(e, "%s of %d bytes", what, n)
		return false
	}
	return true
}

func init() {
	platform[ir.BSprintf] = platformFunc{run: func(c call, a args) int {
		out, err := c.m.format(c.st, a.cs, a.r, 1, nil, c.st.memRoom())
		if err != nil {
			return c.fail(err.kind, "sprintf: %s", err.msg)
		}
		if e := c.st.Mem.Write(a.arg(0), append(out, 0)); e != ErrNone {
			return c.fail(e, "sprintf destination")
		}
		a.ret(uint64(len(out)))
		return bNext
	}}
	platform[ir.BSnprintf] = platformFunc{run: func(c call, a args) int {
		out, err := c.m.format(c.st, a.cs, a.r, 2, nil, c.st.memRoom())
		if err != nil {
			return c.fail(err.kind, "snprintf: %s", err.msg)
		}
		if n := a.arg(1); n > 0 {
			k := min(uint64(len(out)), n-1)
			if e := c.st.Mem.Write(a.arg(0), append(out[:k:k], 0)); e != ErrNone {
				return c.fail(e, "snprintf destination")
			}
		}
		a.ret(uint64(len(out)))
		return bNext
	}}
	platform[ir.BFprintf] = platformFunc{run: func(c call, a args) int {
		out, err := c.m.format(c.st, a.cs, a.r, 1, nil, c.st.memRoom())
		if err != nil {
			return c.fail(err.kind, "fprintf: %s", err.msg)
		}
		if !c.write(a.arg(0), out) {
			return bEnd
		}
		a.ret(uint64(len(out)))
		return bNext
	}}
	platform[ir.BFputs] = platformFunc{run: func(c call, a args) int {
		s, ok := c.m.readString(c, a.arg(0), "string")
		if !ok {
			return bEnd
		}
		if !c.write(a.arg(1), s) {
			return bEnd
		}
		a.ret(1) // glibc's fputs returns 1 on success
		return bNext
	}}
	platform[ir.BFputc] = platformFunc{run: func(c call, a args) int {
		ch := byte(a.arg(0))
		if !c.write(a.arg(1), []byte{ch}) {
			return bEnd
		}
		a.ret(uint64(ch))
		return bNext
	}}
	platform[ir.BFwrite] = platformFunc{run: func(c call, a args) int {
		size, n := a.arg(1), a.arg(2)
		if size != 0 && n > (1<<31)/size {
			return c.fail(ErrOutOfBounds, "fwrite of %d elements of %d bytes", n, size)
		}
		if !c.span(a.arg(0), size*n, false, "fwrite") {
			return bEnd
		}
		buf := make([]byte, size*n)
		if e := c.st.Mem.Read(a.arg(0), buf); e != ErrNone {
			return c.fail(e, "fwrite")
		}
		if !c.write(a.arg(3), buf) {
			return bEnd
		}
		if size == 0 {
			n = 0
		}
		a.ret(n)
		return bNext
	}}
	platform[ir.BFflush] = platformFunc{run: ret0}
	platform[ir.BPerror] = platformFunc{run: func(c call, a args) int {
		if p := a.arg(0); p != 0 { // "s: message" goes to stderr: checked, dropped
			if _, ok := c.m.readString(c, p, "string"); !ok {
				return bEnd
			}
		}
		return bNext
	}}
}
