package vm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
)

type fmtErr struct {
	kind ErrKind
	msg  string
}

// printf formats like C's printf (glibc output conventions) and appends to
// the state's output. It returns the number of bytes written.
func (m *Machine) printf(st *State, cs *ir.CallSite, r []uint64) (int, *fmtErr) {
	start := len(st.Out)
	out, err := m.format(st, cs, r, 0, st.Out, st.memRoom()+uint64(start))
	if err != nil {
		return 0, err
	}
	st.Out = out
	return len(out) - start, nil
}

// format formats like C's printf with the format string in argument fi and
// the values in the arguments after it, appending to out, which may not
// grow past room bytes: a field width or precision, or an output, that
// would pass it ends the run with ErrResourceLimit, naming what was asked
// (room is what the run's memory limit leaves, State.room).
func (m *Machine) format(st *State, cs *ir.CallSite, r []uint64, fi int, out []byte, room uint64) ([]byte, *fmtErr) {
	format, e := m.cbytes(st, st.fmtBuf[:0], arg(cs, r, fi), 1<<20)
	st.fmtBuf = format // kept for the next call: formatting allocates nothing
	if e != ErrNone {
		return nil, &fmtErr{e, "format string"}
	}
	ai := fi + 1
	next := func() (uint64, ir.ValueKind, bool) {
		if ai >= len(cs.Args) {
			return 0, 0, false
		}
		v, k := r[cs.Args[ai]], cs.ArgKinds[ai]
		ai++
		return v, k, true
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(format) {
			break
		}
		var spec fspec
		spec.prec = -1
		for ; i < len(format); i++ {
			switch format[i] {
			case '-':
				spec.minus = true
				continue
			case '+':
				spec.plus = true
				continue
			case ' ':
				spec.space = true
				continue
			case '0':
				spec.zero = true
				continue
			case '#':
				spec.alt = true
				continue
			}
			break
		}
		if i < len(format) && format[i] == '*' {
			v, _, ok := next()
			if !ok {
				return nil, &fmtErr{ErrBadArg, "missing argument for *"}
			}
			w := int(int32(v))
			if w < 0 {
				spec.minus, w = true, -w
			}
			spec.width = w
			i++
		} else {
			spec.width, i = digits(format, i)
		}
		if i < len(format) && format[i] == '.' {
			i++
			spec.prec = 0
			if i < len(format) && format[i] == '*' {
				v, _, ok := next()
				if !ok {
					return nil, &fmtErr{ErrBadArg, "missing argument for .*"}
				}
				spec.prec = int(int32(v))
				if spec.prec < 0 {
					spec.prec = -1
				}
				i++
			} else {
				spec.prec, i = digits(format, i)
			}
		}
		bitsz := 32
	length:
		for i < len(format) {
			switch format[i] {
			case 'h':
				if bitsz == 16 {
					bitsz = 8
				} else {
					bitsz = 16
				}
			case 'l', 'z', 't':
				// long, size_t, ptrdiff_t: 32 bits under ILP32; ll is 64
				switch {
				case !m.ilp32 || bitsz == 64 || format[i] == 'l' && i+1 < len(format) && format[i+1] == 'l':
					bitsz = 64
				default:
					bitsz = 32
				}
			case 'j', 'q', 'L':
				bitsz = 64
			default:
				break length
			}
			i++
		}
		if i >= len(format) {
			break
		}
		conv := format[i]
		if conv == '%' {
			out = append(out, '%')
			continue
		}
		v, kind, ok := next()
		if !ok {
			return nil, &fmtErr{ErrBadArg, "too few arguments for the format"}
		}
		// Bound what the field may take before formatting it: a width or
		// (but for %s, where it only limits what is read) a precision
		// above what is left of the run's memory.
		left := room - min(room, uint64(len(out)))
		if uint64(spec.width) > left {
			return nil, tooLarge("field width", spec.width, left, room)
		}
		if conv != 's' && spec.prec > 0 && uint64(spec.prec) > left {
			return nil, tooLarge("precision", spec.prec, left, room)
		}
		switch conv {
		case 'd', 'i':
			x := sx(v, uint8(bitsz))
			neg := x < 0
			u := uint64(x)
			if neg {
				u = -u
			}
			out = spec.integer(out, strconv.FormatUint(u, 10), neg, "")
		case 'u', 'x', 'X', 'o':
			u := v & ir.Mask(uint8(bitsz))
			base := 10
			switch conv {
			case 'x', 'X':
				base = 16
			case 'o':
				base = 8
			}
			digits := strconv.FormatUint(u, base)
			if conv == 'X' {
				digits = strings.ToUpper(digits)
			}
			prefix := ""
			if spec.alt && u != 0 {
				switch conv {
				case 'x':
					prefix = "0x"
				case 'X':
					prefix = "0X"
				}
			}
			if spec.alt && conv == 'o' && !strings.HasPrefix(digits, "0") {
				digits = "0" + digits
			}
			spec.plus, spec.space = false, false
			out = spec.integer(out, digits, false, prefix)
		case 'c':
			out = spec.pad(out, string([]byte{byte(v)}), false)
		case 's':
			var s string
			if v == 0 {
				s = "(null)"
			} else {
				limit := 1 << 30
				if spec.prec >= 0 {
					limit = spec.prec
				}
				var e ErrKind
				s, e = m.cstring(st, v, limit)
				if e != ErrNone {
					return nil, &fmtErr{e, "%s argument"}
				}
			}
			if spec.prec >= 0 && len(s) > spec.prec {
				s = s[:spec.prec]
			}
			out = spec.pad(out, s, false)
		case 'p':
			s := "(nil)"
			if m.ilp32 && v != 0 {
				x, ok := ir.Ptr32(v)
				if !ok {
					return nil, &fmtErr{ErrResourceLimit, ptr32Detail("%p", v)}
				}
				v = uint64(x)
			}
			if v != 0 {
				s = "0x" + strconv.FormatUint(v, 16)
			}
			out = spec.pad(out, s, false)
		case 'f', 'F', 'e', 'E', 'g', 'G':
			f := f64(v)
			if kind == ir.KindF32 {
				f = float64(f32(v))
			}
			out = spec.float(out, f, conv)
		case 'n':
			return nil, &fmtErr{ErrBadArg, "%n is not supported"}
		default:
			return nil, &fmtErr{ErrBadArg, "unknown conversion %" + string(conv)}
		}
		if uint64(len(out)) > room {
			return nil, &fmtErr{ErrResourceLimit, fmt.Sprintf("output: %d bytes would pass the %d bytes the per-run memory limit leaves", len(out), room)}
		}
	}
	return out, nil
}

// maxField saturates parsed field widths and precisions (any value above
// every room).
const maxField = 1 << 59

// digits parses the decimal number at format[i:], saturating at maxField,
// and returns it with the index after it.
func digits(format []byte, i int) (int, int) {
	n := 0
	for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
		n = min(n*10+int(format[i]-'0'), maxField)
	}
	return n, i
}

// tooLarge is the ResourceLimit error of a field width or precision of n
// bytes where left of room remain.
func tooLarge(what string, n int, left, room uint64) *fmtErr {
	return &fmtErr{ErrResourceLimit, fmt.Sprintf("%s %d would pass the per-run memory limit (%d bytes left of this output's %d)", what, n, left, room)}
}

type fspec struct {
	minus, plus, space, zero, alt bool
	width, prec                   int
}

func (s *fspec) pad(out []byte, body string, zeroOK bool) []byte {
	n := s.width - len(body)
	if n <= 0 {
		return append(out, body...)
	}
	if s.minus {
		out = append(out, body...)
		return appendSpaces(out, n)
	}
	return append(appendSpaces(out, n), body...)
}

// appendSpaces appends n spaces to out, a block at a time (no temporary
// string of n bytes: n may be most of a run's memory).
func appendSpaces(out []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(spaces))
		out = append(out, spaces[:k]...)
		n -= k
	}
	return out
}

var spaces = []byte(strings.Repeat(" ", 4096))

// integer formats digits with sign, prefix, precision and padding.
func (s *fspec) integer(out []byte, digits string, neg bool, prefix string) []byte {
	if s.prec >= 0 {
		if s.prec == 0 && digits == "0" {
			digits = ""
		}
		for len(digits) < s.prec {
			digits = "0" + digits
		}
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case s.plus:
		sign = "+"
	case s.space:
		sign = " "
	}
	head := sign + prefix
	total := len(head) + len(digits)
	if s.zero && !s.minus && s.prec < 0 && total < s.width {
		digits = strings.Repeat("0", s.width-total) + digits
	}
	return s.pad(out, head+digits, false)
}

func (s *fspec) float(out []byte, f float64, conv byte) []byte {
	neg := math.Signbit(f)
	a := math.Abs(f)
	upper := conv == 'F' || conv == 'E' || conv == 'G'
	var body string
	switch {
	case math.IsInf(f, 0):
		body = "inf"
	case math.IsNaN(f):
		body = "nan"
		neg = false
	default:
		prec := s.prec
		if prec < 0 {
			prec = 6
		}
		switch conv {
		case 'f', 'F':
			body = strconv.FormatFloat(a, 'f', prec, 64)
			if s.alt && prec == 0 {
				body += "."
			}
		case 'e', 'E':
			body = strconv.FormatFloat(a, 'e', prec, 64)
		case 'g', 'G':
			if prec == 0 {
				prec = 1
			}
			body = cFormatG(a, prec, s.alt)
		}
	}
	if upper {
		body = strings.ToUpper(body)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case s.plus:
		sign = "+"
	case s.space:
		sign = " "
	}
	total := len(sign) + len(body)
	finite := !math.IsInf(f, 0) && !math.IsNaN(f)
	if s.zero && !s.minus && finite && total < s.width {
		body = strings.Repeat("0", s.width-total) + body
	}
	return s.pad(out, sign+body, false)
}

// cFormatG implements C's %g: P significant digits, %e style when the
// exponent X < -4 or X >= P, trailing zeros removed unless alt.
func cFormatG(a float64, p int, alt bool) string {
	e := strconv.FormatFloat(a, 'e', p-1, 64)
	x := 0
	if i := strings.IndexByte(e, 'e'); i >= 0 {
		x, _ = strconv.Atoi(e[i+1:])
	}
	var body string
	if x < -4 || x >= p {
		body = e
		if !alt {
			i := strings.IndexByte(body, 'e')
			mant, exp := body[:i], body[i:]
			if strings.Contains(mant, ".") {
				mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
			}
			body = mant + exp
		}
	} else {
		body = strconv.FormatFloat(a, 'f', p-1-x, 64)
		if !alt && strings.Contains(body, ".") {
			body = strings.TrimRight(strings.TrimRight(body, "0"), ".")
		}
	}
	return body
}
