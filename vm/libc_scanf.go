package vm

import (
	"math"
	"strconv"

	"github.com/wyvernmc/wyvern/ir"
)

// sscanf (and glibc's __isoc99_sscanf) for the common conversions: %d %i
// %u %x %X %o with the length modifiers hh h l ll z j t, %s %c %[set] with
// widths, %f %e %g (l: double, L: refused), %n, %%, assignment suppression
// (*) and white space in the format. It returns the number of assignments,
// or -1 (EOF) when the input ends before the first conversion.

func init() {
	platform[ir.BSscanf] = platformFunc{run: sscanf}
}

func sscanf(c call, a args) int {
	in, ok := c.m.readString(c, a.arg(0), "input")
	if !ok {
		return bEnd
	}
	format, ok := c.m.readString(c, a.arg(1), "format")
	if !ok {
		return bEnd
	}
	ai := 2
	pos, assigned := 0, 0
	store := func(size uint32, v uint64) bool {
		if ai >= len(a.cs.Args) {
			c.fail(ErrBadArg, "sscanf: too few arguments for the format")
			return false
		}
		p := a.arg(ai)
		ai++
		if e := c.st.Mem.Store(p, size, v); e != ErrNone {
			c.fail(e, "sscanf: argument %d", ai-1)
			return false
		}
		return true
	}
	storeBytes := func(b []byte) bool {
		if ai >= len(a.cs.Args) {
			c.fail(ErrBadArg, "sscanf: too few arguments for the format")
			return false
		}
		p := a.arg(ai)
		ai++
		if e := c.st.Mem.Write(p, b); e != ErrNone {
			c.fail(e, "sscanf: argument %d", ai-1)
			return false
		}
		return true
	}
	// result: the count, or EOF when the input ran out before any
	// assignment (glibc's input_error)
	done := func(inputFailure bool) int {
		if inputFailure && assigned == 0 {
			a.ret(^uint64(0))
		} else {
			a.ret(uint64(assigned))
		}
		return bNext
	}
	skipSpace := func() {
		for pos < len(in) && isCSpace(in[pos]) {
			pos++
		}
	}
	for i := 0; i < len(format); i++ {
		f := format[i]
		if isCSpace(f) {
			skipSpace()
			continue
		}
		if f != '%' {
			if pos >= len(in) {
				return done(true)
			}
			if in[pos] != f {
				return done(false)
			}
			pos++
			continue
		}
		i++
		if i >= len(format) {
			return c.fail(ErrBadArg, "sscanf: the format ends inside a conversion")
		}
		if format[i] == '%' {
			skipSpace()
			if pos >= len(in) {
				return done(true)
			}
			if in[pos] != '%' {
				return done(false)
			}
			pos++
			continue
		}
		suppress := false
		if format[i] == '*' {
			suppress = true
			i++
		}
		width := 0
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			width = width*10 + int(format[i]-'0')
			i++
		}
		size := uint32(4)
		long := false
	length:
		for i < len(format) {
			switch format[i] {
			case 'h':
				if size == 2 {
					size = 1
				} else {
					size = 2
				}
			case 'l':
				// long: 32 bits under ILP32 (ll: 64)
				prev := size
				long, size = true, 8
				if c.m.ilp32 && prev != 8 && !(i+1 < len(format) && format[i+1] == 'l') {
					size = 4
				}
			case 'z', 't':
				size = 8
				if c.m.ilp32 {
					size = 4 // size_t, ptrdiff_t
				}
			case 'j', 'q':
				size = 8
			case 'L':
				return c.fail(ErrBadArg, "sscanf: long double conversions are not supported")
			default:
				break length
			}
			i++
		}
		if i >= len(format) {
			return c.fail(ErrBadArg, "sscanf: the format ends inside a conversion")
		}
		conv := format[i]
		if conv != 'c' && conv != '[' && conv != 'n' {
			skipSpace()
		}
		if conv != 'n' {
			if pos >= len(in) {
				return done(true)
			}
		}
		rest := in[pos:]
		switch conv {
		case 'd', 'i', 'u', 'x', 'X', 'o':
			base := map[byte]int{'d': 10, 'i': 0, 'u': 10, 'x': 16, 'X': 16, 'o': 8}[conv]
			mag, neg, overflow, n := parseInt(rest, base, width)
			if n == 0 {
				return done(false)
			}
			pos += n
			if suppress {
				continue
			}
			// glibc converts with strtol/strtoul, strtoll/strtoull for
			// 8-byte results: saturated at the width of long (32 bits
			// under ILP32), then stored truncated to the conversion's size
			bits := uint(64)
			if c.m.ilp32 && size < 8 {
				bits = 32
			}
			var v uint64
			if conv == 'd' || conv == 'i' {
				v = uint64(clampSigned(mag, neg, overflow, bits))
			} else {
				v = clampUnsigned(mag, neg, overflow || bits == 32 && mag > math.MaxUint32)
			}
			if !store(size, v) {
				return bEnd
			}
			assigned++
		case 'f', 'e', 'E', 'g', 'G', 'a':
			n := floatPrefix(rest, width)
			if n == 0 {
				return done(false)
			}
			x, err := strconv.ParseFloat(string(rest[:n]), 64)
			if err != nil && !isRangeErr(err) {
				return done(false)
			}
			pos += n
			if suppress {
				continue
			}
			var ok bool
			if long {
				ok = store(8, math.Float64bits(x))
			} else {
				ok = store(4, uint64(math.Float32bits(float32(x))))
			}
			if !ok {
				return bEnd
			}
			assigned++
		case 's':
			n := 0
			for n < len(rest) && !isCSpace(rest[n]) && (width == 0 || n < width) {
				n++
			}
			pos += n
			if suppress {
				continue
			}
			if !storeBytes(append(append([]byte(nil), rest[:n]...), 0)) {
				return bEnd
			}
			assigned++
		case 'c':
			if width == 0 {
				width = 1
			}
			width = min(width, len(rest)) // glibc stores a partial field
			pos += width
			if suppress {
				continue
			}
			if !storeBytes(append([]byte(nil), rest[:width]...)) {
				return bEnd
			}
			assigned++
		case '[':
			set, j, ok := scanSet(format, i+1)
			if !ok {
				return c.fail(ErrBadArg, "sscanf: unterminated %%[ in the format")
			}
			i = j
			n := 0
			for n < len(rest) && set[rest[n]] && (width == 0 || n < width) {
				n++
			}
			if n == 0 {
				return done(false)
			}
			pos += n
			if suppress {
				continue
			}
			if !storeBytes(append(append([]byte(nil), rest[:n]...), 0)) {
				return bEnd
			}
			assigned++
		case 'n':
			if !suppress && !store(size, uint64(pos)) {
				return bEnd
			}
		default:
			return c.fail(ErrBadArg, "sscanf: unsupported conversion %%%c", conv)
		}
	}
	return done(false)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// floatPrefix returns the length of the longest prefix of s (at most width
// bytes when width > 0) that is a decimal floating-point number, inf or nan.
func floatPrefix(s []byte, width int) int {
	if width > 0 && width < len(s) {
		s = s[:width]
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for _, w := range []string{"infinity", "inf", "nan"} {
		if len(s)-i >= len(w) && equalFold(s[i:i+len(w)], w) {
			return i + len(w)
		}
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return i
}

func equalFold(b []byte, lower string) bool {
	for i := range b {
		if byte(ctypeTolower(int64(b[i]))) != lower[i] {
			return false
		}
	}
	return true
}

// scanSet parses a %[ set starting at format[i] (after the '['); it
// returns the set, the index of the closing ']' and whether there is one.
func scanSet(format []byte, i int) (set [256]bool, end int, ok bool) {
	neg := false
	if i < len(format) && format[i] == '^' {
		neg = true
		i++
	}
	first := true
	for ; i < len(format); i++ {
		ch := format[i]
		if ch == ']' && !first {
			if neg {
				for k := range set {
					set[k] = !set[k]
				}
			}
			return set, i, true
		}
		first = false
		if i+2 < len(format) && format[i+1] == '-' && format[i+2] != ']' {
			for k := int(ch); k <= int(format[i+2]); k++ {
				set[k] = true
			}
			i += 2
			continue
		}
		set[ch] = true
	}
	return set, i, false
}
