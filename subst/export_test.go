package subst

import "strings"

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

// PrintTemplate renders a whole template: literal text as decoded, each
// substitution as ${Print(expr)}.
func PrintTemplate(t *Template) string {
	var b strings.Builder
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *Literal:
			b.WriteString(p.Value)
		case *Sub:
			b.WriteString("${")
			printExpr(&b, p.Expr)
			b.WriteString("}")
		}
	}
	return b.String()
}

// NodeAt returns the expressions containing the document offset off, from
// the substitution's outermost expression to the innermost, or nil when
// off is not inside a substitution. Ends count as inside (a cursor at the
// end of `variables.ab` touches the reference).
func NodeAt(t *Template, off int) []Expr {
	s := SubAt(t, off)
	if s == nil {
		return nil
	}
	var path []Expr
	e := s.Expr
	for e != nil && e.Range().Contains(off) {
		path = append(path, e)
		var inner Expr
		switch x := e.(type) {
		case *Call:
			for _, a := range x.Args {
				if a.Value.Range().Contains(off) {
					inner = a.Value
					break
				}
			}
		case *ArrayLit:
			for _, y := range x.Elems {
				if y.Range().Contains(off) {
					inner = y
					break
				}
			}
		}
		e = inner
	}
	if len(path) == 0 {
		// The cursor is in the substitution but outside its expression
		// (`${ |}`): the expression is still the context.
		path = append(path, s.Expr)
	}
	return path
}
