package symbolic

// Affine equalities among main's scalar variables at a loop header
// (Karr 1976), as candidate invariants of k-induction (kinduction_inv.go).
//
// The variables are main's scalar integer allocas whose address is used
// by nothing but loads and stores of their own size (clang -O0's locals).
// The abstract state at a block's entry is an affine space over them, kept
// as a point and a basis of directions (generators): an assignment v := an
// affine expression of the variables maps both, an unknown value adds v's
// unit vector to the basis, and the join of two spaces is their affine
// hull. Guards are ignored (the equalities hold on every path), registers
// are affine expressions of the variables within a block and unknown at a
// block's entry, and the arithmetic is over the rationals, ignoring the
// machine's wrap-around: a candidate is only a guess, which Houdini checks
// against the encoding's bit-vector semantics before k-induction assumes
// it (kinduction_inv.go), so a wrong one is dropped, never used.
// Spaces only grow, by at most one dimension a time, so the iteration
// ends after at most (variables + 1) changes per block.

import (
	"math/big"

	"github.com/wyvernmc/wyvern/ir"
)

// maxKarrVars bounds the variables analysed (the basis is a square matrix
// of rationals).
const maxKarrVars = 24

// affEq is an equality sum(coef[i] * var[i]) = rhs with integer
// coefficients, over the analysed variables.
type affEq struct {
	coef []*big.Int
	rhs  *big.Int
}

// affSpace is an affine space: bottom, or p + span(basis) (basis in
// reduced row echelon form).
type affSpace struct {
	bot   bool
	p     []*big.Rat
	basis [][]*big.Rat
}

func ratVec(n int) []*big.Rat {
	v := make([]*big.Rat, n)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

func topSpace(n int) *affSpace {
	s := &affSpace{p: ratVec(n)}
	for i := 0; i < n; i++ {
		e := ratVec(n)
		e[i].SetInt64(1)
		s.basis = append(s.basis, e)
	}
	return s
}

func (s *affSpace) clone() *affSpace {
	if s.bot {
		return &affSpace{bot: true}
	}
	c := &affSpace{p: cloneVec(s.p)}
	for _, b := range s.basis {
		c.basis = append(c.basis, cloneVec(b))
	}
	return c
}

func cloneVec(v []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(v))
	for i, x := range v {
		out[i] = new(big.Rat).Set(x)
	}
	return out
}

// rref reduces vectors to reduced row echelon form, dropping zero rows.
func rref(rows [][]*big.Rat, n int) [][]*big.Rat {
	r := 0
	for col := 0; col < n && r < len(rows); col++ {
		piv := -1
		for i := r; i < len(rows); i++ {
			if rows[i][col].Sign() != 0 {
				piv = i
				break
			}
		}
		if piv < 0 {
			continue
		}
		rows[r], rows[piv] = rows[piv], rows[r]
		inv := new(big.Rat).Inv(rows[r][col])
		for j := range rows[r] {
			rows[r][j].Mul(rows[r][j], inv)
		}
		for i := range rows {
			if i == r || rows[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(rows[i][col])
			for j := range rows[i] {
				rows[i][j].Sub(rows[i][j], new(big.Rat).Mul(f, rows[r][j]))
			}
		}
		r++
	}
	return rows[:r]
}

// join makes s the affine hull of s and t, and reports whether s grew.
func (s *affSpace) join(t *affSpace, n int) bool {
	if t.bot {
		return false
	}
	if s.bot {
		*s = *t.clone()
		return true
	}
	rows := make([][]*big.Rat, 0, len(s.basis)+len(t.basis)+1)
	for _, b := range s.basis {
		rows = append(rows, cloneVec(b))
	}
	for _, b := range t.basis {
		rows = append(rows, cloneVec(b))
	}
	d := ratVec(n)
	for i := range d {
		d[i].Sub(t.p[i], s.p[i])
	}
	rows = append(rows, d)
	rows = rref(rows, n)
	grew := len(rows) > len(s.basis)
	s.basis = rows
	return grew
}

// assign maps s by v := sum(coef[i] * x[i]) + c (coef nil: v unknown).
func (s *affSpace) assign(v int, coef []*big.Rat, c *big.Rat, n int) {
	if s.bot {
		return
	}
	if coef == nil {
		s.p[v].SetInt64(0)
		e := ratVec(n)
		e[v].SetInt64(1)
		s.basis = rref(append(s.basis, e), n)
		return
	}
	dot := func(x []*big.Rat) *big.Rat {
		r := new(big.Rat)
		for i, a := range coef {
			if a.Sign() != 0 {
				r.Add(r, new(big.Rat).Mul(a, x[i]))
			}
		}
		return r
	}
	nv := dot(s.p)
	s.p[v] = nv.Add(nv, c)
	for _, b := range s.basis {
		b[v] = dot(b)
	}
	s.basis = rref(s.basis, n)
}

// equalities returns the equalities that define s: the null space of its
// basis, each scaled to integer coefficients.
func (s *affSpace) equalities(n int) []affEq {
	if s.bot {
		return nil
	}
	pivotOf := map[int]int{} // column → row
	for r, b := range s.basis {
		for col := 0; col < n; col++ {
			if b[col].Sign() != 0 {
				pivotOf[col] = r
				break
			}
		}
	}
	var out []affEq
	for free := 0; free < n; free++ {
		if _, ok := pivotOf[free]; ok {
			continue
		}
		// c with c[free] = 1 orthogonal to every basis vector: in RREF,
		// row r has 1 at its pivot and 0 at the other pivots, so
		// c[pivot_r] = -b_r[free] (c zero at the other free columns)
		// gives c·b_r = -b_r[free] + b_r[free] = 0
		c := ratVec(n)
		c[free].SetInt64(1)
		for col, r := range pivotOf {
			c[col].Neg(s.basis[r][free])
		}
		rhs := new(big.Rat)
		for i := range c {
			rhs.Add(rhs, new(big.Rat).Mul(c[i], s.p[i]))
		}
		// scale by the lcm of the denominators
		l := big.NewInt(1)
		for _, x := range append(c, rhs) {
			d := x.Denom()
			g := new(big.Int).GCD(nil, nil, l, d)
			l.Mul(l, new(big.Int).Quo(d, g))
		}
		eq := affEq{rhs: new(big.Int).Quo(new(big.Int).Mul(rhs.Num(), l), rhs.Denom())}
		for _, x := range c {
			eq.coef = append(eq.coef, new(big.Int).Quo(new(big.Int).Mul(x.Num(), l), x.Denom()))
		}
		out = append(out, eq)
	}
	return out
}

// karrVar is an analysed variable: main's alloca register and its size.
type karrVar struct {
	reg  int32
	size uint8
}

// karrVars are main's scalar integer allocas used only by loads and
// stores of their size.
func karrVars(fn *ir.Func) []karrVar {
	size := map[int32]uint8{}
	var order []int32
	for _, in := range fn.Code {
		if in.Op == ir.OpAlloca && in.A < 0 && (in.Imm == 1 || in.Imm == 2 || in.Imm == 4 || in.Imm == 8) {
			if _, dup := size[in.Dst]; dup {
				size[in.Dst] = 0
				continue
			}
			size[in.Dst] = uint8(in.Imm)
			order = append(order, in.Dst)
		}
	}
	esc := func(r int32) {
		if _, ok := size[r]; ok {
			size[r] = 0
		}
	}
	for _, in := range fn.Code {
		switch in.Op {
		case ir.OpAlloca:
			continue
		case ir.OpLoad:
			if in.Aux != 0 || size[in.A] != in.W {
				esc(in.A)
			}
			continue
		case ir.OpStore:
			if in.Aux != 0 || size[in.A] != in.W {
				esc(in.A)
			}
			esc(in.B)
			continue
		case ir.OpJmp:
			continue
		}
		esc(in.A)
		esc(in.B)
		esc(in.C)
		esc(in.Dst)
	}
	for _, cs := range fn.Calls {
		for _, a := range cs.Args {
			esc(a)
		}
		esc(cs.FnSlot)
	}
	for _, e := range fn.Edges {
		for _, m := range e.Moves {
			esc(m.Src)
		}
	}
	var out []karrVar
	for _, r := range order {
		if size[r] != 0 && len(out) < maxKarrVars {
			out = append(out, karrVar{r, size[r]})
		}
	}
	return out
}

// linExpr is an affine expression over the variables (coef nil: unknown).
type linExpr struct {
	coef []*big.Rat
	c    *big.Rat
}

// karrHeader returns the affine equalities over vars that hold at every
// entry of block hb of main's graph g.
func karrHeader(fn *ir.Func, g *graph, vars []karrVar, hb int) []affEq {
	n := len(vars)
	if n == 0 {
		return nil
	}
	idx := map[int32]int{}
	for i, v := range vars {
		idx[v.reg] = i
	}
	nb := len(g.start)
	in := make([]*affSpace, nb)
	for b := range in {
		in[b] = &affSpace{bot: true}
	}
	entry := g.pcBlock[0]
	in[entry] = topSpace(n)
	work := []int{entry}
	queued := map[int]bool{entry: true}
	constOf := func(r int32, w uint8) (*big.Rat, bool) {
		if r < fn.ConstBase || int(r-fn.ConstBase) >= len(fn.Consts) {
			return nil, false
		}
		x := fn.Consts[r-fn.ConstBase]
		if w > 0 && w < 64 {
			return new(big.Rat).SetInt64(sx(x, int(w))), true
		}
		return new(big.Rat).SetInt64(int64(x)), true
	}
	for steps := 0; len(work) > 0 && steps < 64*nb*(n+2); steps++ {
		b := work[0]
		work = work[1:]
		queued[b] = false
		s := in[b].clone()
		regs := map[int32]linExpr{}
		get := func(r int32, w uint8) linExpr {
			if c, ok := constOf(r, w); ok {
				return linExpr{coef: ratVec(n), c: c}
			}
			if e, ok := regs[r]; ok {
				return e
			}
			return linExpr{}
		}
		for pc := g.start[b]; pc < g.end[b]; pc++ {
			ins := &fn.Code[pc]
			switch ins.Op {
			case ir.OpLoad:
				if v, ok := idx[ins.A]; ok {
					c := ratVec(n)
					c[v].SetInt64(1)
					regs[ins.Dst] = linExpr{coef: c, c: new(big.Rat)}
					continue
				}
			case ir.OpStore:
				if v, ok := idx[ins.A]; ok {
					e := get(ins.B, 8*ins.W)
					s.assign(v, e.coef, e.c, n)
					for r, x := range regs { // (registers read the old value)
						if x.coef != nil && x.coef[v].Sign() != 0 {
							delete(regs, r)
						}
					}
					continue
				}
			case ir.OpAdd, ir.OpSub:
				a, c := get(ins.A, ins.W), get(ins.B, ins.W)
				if a.coef != nil && c.coef != nil {
					out := linExpr{coef: ratVec(n), c: new(big.Rat)}
					for i := range out.coef {
						if ins.Op == ir.OpAdd {
							out.coef[i].Add(a.coef[i], c.coef[i])
						} else {
							out.coef[i].Sub(a.coef[i], c.coef[i])
						}
					}
					if ins.Op == ir.OpAdd {
						out.c.Add(a.c, c.c)
					} else {
						out.c.Sub(a.c, c.c)
					}
					regs[ins.Dst] = out
					continue
				}
			case ir.OpMul:
				a, c := get(ins.A, ins.W), get(ins.B, ins.W)
				k, e := c, a
				if isConstExpr(a) {
					k, e = a, c
				}
				if e.coef != nil && isConstExpr(k) {
					out := linExpr{coef: ratVec(n), c: new(big.Rat).Mul(e.c, k.c)}
					for i := range out.coef {
						out.coef[i].Mul(e.coef[i], k.c)
					}
					regs[ins.Dst] = out
					continue
				}
			case ir.OpSExt, ir.OpTrunc, ir.OpMov:
				if e := get(ins.A, 0); e.coef != nil {
					regs[ins.Dst] = e
					continue
				}
			}
			if ins.Dst >= 0 {
				delete(regs, ins.Dst)
			}
		}
		for _, t := range g.succ[b] {
			if in[t].join(s, n) && !queued[t] {
				work = append(work, t)
				queued[t] = true
			}
		}
	}
	if len(work) > 0 {
		return nil // (the bound on steps: no fixpoint, no guess)
	}
	return in[hb].equalities(n)
}

func isConstExpr(e linExpr) bool {
	if e.coef == nil {
		return false
	}
	for _, c := range e.coef {
		if c.Sign() != 0 {
			return false
		}
	}
	return true
}
