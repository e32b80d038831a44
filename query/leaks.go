package query

import "github.com/wyvernmc/wyvern/vm"

// LeakChecksOf returns the leak checks a machine must make for q: those
// of the error kinds q names (Error(MemLeak), Error(MemCleanup)). A bare
// Error does not turn them on: a program that leaks is no error of the
// other properties (see vm.LeakChecks).
func LeakChecksOf(q *Query) vm.LeakChecks {
	var c vm.LeakChecks
	walkProp(q.Prop, &c)
	walkExpr(q.Expr, &c)
	walkExpr(q.Score, &c)
	for _, p := range q.LevelProps {
		walkProp(p, &c)
	}
	return c
}

func walkProp(p Prop, c *vm.LeakChecks) {
	switch x := p.(type) {
	case propAnd:
		walkProp(x.l, c)
		walkProp(x.r, c)
	case propOr:
		walkProp(x.l, c)
		walkProp(x.r, c)
	case propNot:
		walkProp(x.x, c)
	case propUntil:
		walkProp(x.l, c)
		walkProp(x.r, c)
	case propExists:
		walkProp(x.body, c)
	case propCmp:
		walkExpr(x.l, c)
		walkExpr(x.r, c)
	case propKeyword:
		if x.name == "Error" {
			if k, ok := vm.ErrKindByName(x.arg); ok {
				*c |= vm.LeakChecksFor(k)
			}
		}
	}
}

func walkExpr(e Expr, c *vm.LeakChecks) {
	switch x := e.(type) {
	case exprBin:
		walkExpr(x.l, c)
		walkExpr(x.r, c)
	case exprNeg:
		walkExpr(x.x, c)
	case exprProp:
		walkProp(x.x, c)
	case exprVar:
		for _, s := range x.path {
			walkExpr(s.index, c)
		}
	}
}
