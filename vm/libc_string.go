package vm

import (
	"bytes"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
)

// String, conversion and ctype functions of the libc subset, with glibc's
// behaviour in the C locale.

func init() {
	platform[ir.BStrcat] = platformFunc{run: strcat}
	platform[ir.BStrncat] = platformFunc{run: strcat}
	platform[ir.BStrstr] = platformFunc{run: strstr}
	platform[ir.BStrrchr] = platformFunc{run: strrchr}
	platform[ir.BMemchr] = platformFunc{run: memchr}
	platform[ir.BStrtol] = platformFunc{run: strtol}
	platform[ir.BStrtoul] = platformFunc{run: strtol}
	platform[ir.BStrtod] = platformFunc{run: strtod}
	for b, class := range map[ir.Builtin]uint16{
		ir.BIsalnum: ctAlnum, ir.BIsalpha: ctAlpha, ir.BIsblank: ctBlank, ir.BIscntrl: ctCntrl,
		ir.BIsdigit: ctDigit, ir.BIsgraph: ctGraph, ir.BIslower: ctLower, ir.BIsprint: ctPrint,
		ir.BIspunct: ctPunct, ir.BIsspace: ctSpace, ir.BIsupper: ctUpper, ir.BIsxdigit: ctXdigit,
	} {
		platform[b] = platformFunc{run: func(c call, a args) int {
			// glibc returns the table entry masked by the class bit
			a.ret(uint64(ctypeClass(int64(int32(a.arg(0)))) & class))
			return bNext
		}}
	}
	platform[ir.BToupper] = platformFunc{run: func(c call, a args) int {
		a.ret(uint64(ctypeToupper(int64(int32(a.arg(0))))))
		return bNext
	}}
	platform[ir.BTolower] = platformFunc{run: func(c call, a args) int {
		a.ret(uint64(ctypeTolower(int64(int32(a.arg(0))))))
		return bNext
	}}
	for b, f := range map[ir.Builtin]func(l *libcImage) uint64{
		ir.BCtypeBLoc:       func(l *libcImage) uint64 { return l.ctypeB },
		ir.BCtypeToupperLoc: func(l *libcImage) uint64 { return l.ctypeUpper },
		ir.BCtypeTolowerLoc: func(l *libcImage) uint64 { return l.ctypeLower },
	} {
		platform[b] = platformFunc{run: func(c call, a args) int {
			p := f(&c.m.libc)
			if p == 0 { // only reachable through a function pointer the image did not plan for
				return c.fail(ErrInvalidCall, "%s: the ctype tables are not in this program's image", c.b)
			}
			a.ret(p)
			return bNext
		}}
	}
	platform[ir.BAbs] = platformFunc{run: func(c call, a args) int {
		v := a.argInt(0)
		if v < 0 {
			v = -v // abs(INT_MIN) is INT_MIN, as glibc computes it
		}
		a.ret(uint64(v))
		return bNext
	}}
}

// readString reads the NUL-terminated string at p (without the NUL).
func (m *Machine) readString(c call, p uint64, what string) ([]byte, bool) {
	n, e := m.strlen(c.st, p)
	if e != ErrNone {
		c.fail(e, "%s: %s", c.b, what)
		return nil, false
	}
	buf := make([]byte, n)
	if e := c.st.Mem.Read(p, buf); e != ErrNone {
		c.fail(e, "%s: %s", c.b, what)
		return nil, false
	}
	return buf, true
}

// readStringN reads the string at p, at most n bytes of it (strncat's
// source, strndup): a fault ends the run, naming what was read.
func readStringN(c call, p, n uint64, what string) ([]byte, bool) {
	var s []byte
	for i := uint64(0); i < n; i++ {
		ch, e := c.st.Mem.ByteAt(p + i)
		if e != ErrNone {
			c.fail(e, "%s", what)
			return nil, false
		}
		if ch == 0 {
			break
		}
		s = append(s, ch)
	}
	return s, true
}

// strcat is strcat and strncat (which appends at most n bytes of the
// source, then a NUL).
func strcat(c call, a args) int {
	d, s := a.arg(0), a.arg(1)
	dn, e := c.m.strlen(c.st, d)
	if e != ErrNone {
		return c.fail(e, "%s destination", c.b)
	}
	var src []byte
	if c.b == ir.BStrncat {
		var ok bool
		if src, ok = readStringN(c, s, a.arg(2), "strncat source"); !ok {
			return bEnd
		}
	} else {
		var ok bool
		if src, ok = c.m.readString(c, s, "source"); !ok {
			return bEnd
		}
	}
	if e := c.st.Mem.Write(d+dn, append(src, 0)); e != ErrNone {
		return c.fail(e, "%s destination", c.b)
	}
	a.ret(d)
	return bNext
}

func strstr(c call, a args) int {
	h, ok := c.m.readString(c, a.arg(0), "haystack")
	if !ok {
		return bEnd
	}
	n, ok := c.m.readString(c, a.arg(1), "needle")
	if !ok {
		return bEnd
	}
	if i := bytes.Index(h, n); i >= 0 {
		a.ret(a.arg(0) + uint64(i))
	} else {
		a.ret(0)
	}
	return bNext
}

func strrchr(c call, a args) int {
	s, ch := a.arg(0), byte(a.arg(1))
	h, ok := c.m.readString(c, s, "string")
	if !ok {
		return bEnd
	}
	switch i := bytes.LastIndexByte(append(h, 0), ch); {
	case i >= 0:
		a.ret(s + uint64(i))
	default:
		a.ret(0)
	}
	return bNext
}

func memchr(c call, a args) int {
	s, ch, n := a.arg(0), byte(a.arg(1)), a.arg(2)
	for i := uint64(0); i < n; i++ {
		x, e := c.st.Mem.ByteAt(s + i)
		if e != ErrNone {
			return c.fail(e, "memchr")
		}
		if x == ch {
			a.ret(s + i)
			return bNext
		}
	}
	a.ret(0)
	return bNext
}

// isCSpace is isspace in the C locale.
func isCSpace(ch byte) bool { return ctypeClass(int64(ch))&ctSpace != 0 }

func digitVal(ch byte) int {
	switch {
	case ch >= '0' && ch <= '9':
		return int(ch - '0')
	case ch >= 'a' && ch <= 'z':
		return int(ch-'a') + 10
	case ch >= 'A' && ch <= 'Z':
		return int(ch-'A') + 10
	}
	return 99
}

// parseInt parses an integer prefix of s as strtol/strtoul do (leading
// white space, sign, base 0 prefixes, base 16's optional 0x). It returns
// the magnitude (saturated at 2^64-1 on overflow), the sign, whether
// the magnitude overflowed, and the number of bytes consumed (0 when there
// is no number). maxDigits > 0 limits the characters read after the white
// space (scanf's field width).
func parseInt(s []byte, base int, maxLen int) (mag uint64, neg, overflow bool, n int) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	start := i
	end := len(s)
	if maxLen > 0 && start+maxLen < end {
		end = start + maxLen
	}
	if i < end && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if (base == 0 || base == 16) && i+1 < end && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') &&
		i+2 < end && digitVal(s[i+2]) < 16 {
		i += 2
		base = 16
	} else if base == 0 {
		base = 10
		if i < end && s[i] == '0' {
			base = 8
		}
	}
	digits := i
	for i < end && digitVal(s[i]) < base {
		d := uint64(digitVal(s[i]))
		if !overflow {
			hi, lo := mulAdd(mag, uint64(base), d)
			if hi != 0 {
				overflow, mag = true, math.MaxUint64
			} else {
				mag = lo
			}
		}
		i++
	}
	if i == digits {
		return 0, false, false, 0
	}
	return mag, neg, overflow, i
}

func mulAdd(x, y, z uint64) (hi, lo uint64) {
	h, l := bits.Mul64(x, y)
	l2, carry := bits.Add64(l, z, 0)
	return h + carry, l2
}

// clampSigned converts a parsed magnitude to a signed value of width bits,
// saturating as strtol does (LONG_MIN/LONG_MAX on overflow).
func clampSigned(mag uint64, neg, overflow bool, bits uint) int64 {
	maxv := uint64(1)<<(bits-1) - 1
	if neg {
		if overflow || mag > maxv+1 {
			return -int64(maxv) - 1
		}
		return -int64(mag)
	}
	if overflow || mag > maxv {
		return int64(maxv)
	}
	return int64(mag)
}

// clampUnsigned is strtoul's conversion: the magnitude negated when a minus
// sign was read, ULONG_MAX on overflow.
func clampUnsigned(mag uint64, neg, overflow bool) uint64 {
	if overflow {
		return math.MaxUint64
	}
	if neg {
		return -mag
	}
	return mag
}

// strtol is strtol, strtoll, strtoul, strtoull and (base 10, no end
// pointer) atoi, atol and atoll; errno is ERANGE when the result saturates.
func strtol(c call, a args) int {
	p := a.arg(0)
	s, ok := c.m.readString(c, p, "string")
	if !ok {
		return bEnd
	}
	base, endp := 10, uint64(0)
	if len(a.cs.Args) >= 3 {
		endp, base = a.arg(1), int(int32(a.arg(2)))
		if base < 0 || base == 1 || base > 36 {
			return c.fail(ErrBadArg, "%s: base %d", c.b, base)
		}
	}
	mag, neg, overflow, n := parseInt(s, base, 0)
	bits := uint(64)
	if c.m.ilp32 && a.cs.RetBits == 32 {
		bits = 32 // a 32-bit long: strtol, strtoul, atol (and atoi, which is (int)strtol)
	}
	if c.b == ir.BStrtoul {
		if bits == 32 && mag > math.MaxUint32 {
			overflow = true
		}
		a.ret(clampUnsigned(mag, neg, overflow)) // (ULONG_MAX: masked to the result's width)
		if overflow {
			c.setErrno(eRange)
		}
	} else {
		maxv := uint64(1)<<(bits-1) - 1
		a.ret(uint64(clampSigned(mag, neg, overflow, bits)))
		if overflow || !neg && mag > maxv || neg && mag > maxv+1 {
			c.setErrno(eRange)
		}
	}
	if endp != 0 {
		if e := c.m.StorePtr(c.st, endp, p+uint64(n)); e != ErrNone {
			return c.fail(e, "%s: end pointer", c.b)
		}
	}
	return bNext
}

// strtod is strtod, strtof (the result width tells them apart) and atof
// (no end pointer): leading white space, a decimal number with optional
// exponent, inf, infinity or nan. Hexadecimal floats are not recognised
// (their prefix "0" is). errno is ERANGE when the result overflows or
// underflows (0 or subnormal from a non-zero number), as glibc sets it.
func strtod(c call, a args) int {
	p := a.arg(0)
	s, ok := c.m.readString(c, p, "string")
	if !ok {
		return bEnd
	}
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	n := floatPrefix(s[i:], 0)
	w := floatWidthOf(a)
	bitSize, minNormal := 64, 0x1p-1022
	if w == 32 {
		bitSize, minNormal = 32, 0x1p-126
	}
	x := 0.0
	if n > 0 {
		num := string(s[i : i+n])
		v, err := strconv.ParseFloat(num, bitSize)
		switch {
		case err != nil && !isRangeErr(err):
			n = 0
		default:
			x = v
			nonzero := strings.ContainsAny(strings.SplitN(strings.ToLower(num), "e", 2)[0], "123456789")
			if err != nil || math.Abs(x) < minNormal && nonzero && !strings.ContainsAny(strings.ToLower(num), "in") {
				c.setErrno(eRange)
			}
		}
	}
	end := p
	if n > 0 {
		end = p + uint64(i+n)
	}
	a.ret(floatSlot(x, w))
	if len(a.cs.Args) >= 2 {
		if endp := a.arg(1); endp != 0 {
			if e := c.m.StorePtr(c.st, endp, end); e != ErrNone {
				return c.fail(e, "%s: end pointer", c.b)
			}
		}
	}
	return bNext
}

func init() {
	platform[ir.BStrdup] = platformFunc{run: strdup}
	platform[ir.BStrnlen] = platformFunc{run: func(c call, a args) int {
		s, n := a.arg(0), a.arg(1)
		i := uint64(0)
		for ; i < n; i++ {
			ch, e := c.st.Mem.ByteAt(s + i)
			if e != ErrNone {
				return c.fail(e, "strnlen")
			}
			if ch == 0 {
				break
			}
		}
		a.ret(i)
		return bNext
	}}
	platform[ir.BStrspn] = platformFunc{run: strspn}
	platform[ir.BStrcspn] = platformFunc{run: strspn}
	platform[ir.BStrpbrk] = platformFunc{run: func(c call, a args) int {
		s, ok := c.m.readString(c, a.arg(0), "string")
		if !ok {
			return bEnd
		}
		set, ok := c.m.readString(c, a.arg(1), "set")
		if !ok {
			return bEnd
		}
		a.ret(0)
		for i, ch := range s {
			if bytes.IndexByte(set, ch) >= 0 {
				a.ret(a.arg(0) + uint64(i))
				break
			}
		}
		return bNext
	}}
	platform[ir.BStrcasecmp] = platformFunc{run: strcasecmp}
	platform[ir.BStrtok] = platformFunc{run: strtok}
	platform[ir.BStpcpy] = platformFunc{run: func(c call, a args) int {
		d := a.arg(0)
		s, ok := c.m.readString(c, a.arg(1), "source")
		if !ok {
			return bEnd
		}
		if e := c.st.Mem.Write(d, append(s, 0)); e != ErrNone {
			return c.fail(e, "stpcpy destination")
		}
		a.ret(d + uint64(len(s)))
		return bNext
	}}
}

// strdup is strdup and strndup (a second argument bounds the copy): a new
// heap block holding the string and a NUL (NULL when it is too large).
func strdup(c call, a args) int {
	p := a.arg(0)
	var s []byte
	if len(a.cs.Args) >= 2 {
		var ok bool
		if s, ok = readStringN(c, p, a.arg(1), "strndup"); !ok {
			return bEnd
		}
	} else {
		var ok bool
		if s, ok = c.m.readString(c, p, "string"); !ok {
			return bEnd
		}
	}
	q := c.m.malloc(c.st, uint64(len(s))+1)
	if q != 0 {
		c.st.Mem.Write(q, append(s, 0))
	}
	a.ret(q)
	return bNext
}

// strspn is strspn (the length of the prefix of bytes in the set) and
// strcspn (of bytes not in it).
func strspn(c call, a args) int {
	s, ok := c.m.readString(c, a.arg(0), "string")
	if !ok {
		return bEnd
	}
	set, ok := c.m.readString(c, a.arg(1), "set")
	if !ok {
		return bEnd
	}
	in := c.b == ir.BStrspn
	n := 0
	for n < len(s) && (bytes.IndexByte(set, s[n]) >= 0) == in {
		n++
	}
	a.ret(uint64(n))
	return bNext
}

// strcasecmp is strcasecmp and strncasecmp (a third argument bounds the
// comparison), comparing tolower of each byte as glibc's C locale does.
func strcasecmp(c call, a args) int {
	p, q := a.arg(0), a.arg(1)
	limit := ^uint64(0)
	if len(a.cs.Args) >= 3 {
		limit = a.arg(2)
	}
	res := int64(0)
	for i := uint64(0); i < limit; i++ {
		x, e1 := c.st.Mem.ByteAt(p + i)
		if e1 != ErrNone {
			return c.fail(e1, "%s", c.b)
		}
		y, e2 := c.st.Mem.ByteAt(q + i)
		if e2 != ErrNone {
			return c.fail(e2, "%s", c.b)
		}
		lx, ly := ctypeTolower(int64(x)), ctypeTolower(int64(y))
		if lx != ly || x == 0 {
			res = lx - ly
			break
		}
	}
	a.ret(uint64(res))
	return bNext
}

// strtok is strtok (its position kept in a platform block) and strtok_r
// (kept in *saveptr): the next token of bytes not in the delimiter set,
// NUL-terminated in place.
func strtok(c call, a args) int {
	save := c.m.libc.strtok
	if len(a.cs.Args) >= 3 {
		save = a.arg(2)
	}
	if save == 0 {
		return c.fail(ErrInvalidCall, "strtok: its saved position is not in this program's image")
	}
	s := a.arg(0)
	if s == 0 {
		v, e := c.m.LoadPtr(c.st, save)
		if e != ErrNone {
			return c.fail(e, "%s: saved position", c.b)
		}
		s = v
	}
	if s == 0 {
		a.ret(0)
		return bNext
	}
	delim, ok := c.m.readString(c, a.arg(1), "delimiters")
	if !ok {
		return bEnd
	}
	str, ok := c.m.readString(c, s, "string")
	if !ok {
		return bEnd
	}
	i := 0
	for i < len(str) && bytes.IndexByte(delim, str[i]) >= 0 {
		i++
	}
	if i == len(str) {
		c.m.StorePtr(c.st, save, s+uint64(i))
		a.ret(0)
		return bNext
	}
	j := i
	for j < len(str) && bytes.IndexByte(delim, str[j]) < 0 {
		j++
	}
	next := s + uint64(j)
	if j < len(str) {
		if e := c.st.Mem.Store(s+uint64(j), 1, 0); e != ErrNone {
			return c.fail(e, "%s: string", c.b)
		}
		next++
	}
	if e := c.m.StorePtr(c.st, save, next); e != ErrNone {
		return c.fail(e, "%s: saved position", c.b)
	}
	a.ret(s + uint64(i))
	return bNext
}
