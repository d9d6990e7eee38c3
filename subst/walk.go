package subst

// Walk calls fn for e and, when fn returns true, for each expression
// inside it (call arguments, array items) in source order.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch e := e.(type) {
	case *Call:
		for _, a := range e.Args {
			Walk(a.Value, fn)
		}
	case *ArrayLit:
		for _, x := range e.Elems {
			Walk(x, fn)
		}
	}
}

// WalkTemplate walks every substitution's expression in order.
func WalkTemplate(t *Template, fn func(Expr) bool) {
	for _, p := range t.Parts {
		if s, ok := p.(*Sub); ok {
			Walk(s.Expr, fn)
		}
	}
}

// SubAt returns the substitution whose range contains the document offset
// off (its end included, so a cursor right after an unterminated
// `${variables.` is inside), or nil.
func SubAt(t *Template, off int) *Sub {
	for _, p := range t.Parts {
		if s, ok := p.(*Sub); ok && s.Rng.Contains(off) {
			if s.Closed && off == s.Rng.End {
				continue // just after the }
			}
			return s
		}
	}
	return nil
}

// AccessorAt returns the accessor of a reference or call path that
// contains off, or nil.
func AccessorAt(e Expr, off int) Accessor {
	var path []Accessor
	switch e := e.(type) {
	case *Ref:
		path = e.Path
	case *Call:
		path = e.Path
	}
	for _, a := range path {
		if a.Range().Contains(off) {
			return a
		}
	}
	return nil
}

// ArgAt returns the index of the argument of c that the document offset
// off is in (signature help's active parameter): the number of commas
// before off. It is -1 when off is outside the parentheses.
func ArgAt(c *Call, off int) int {
	if off < c.Lparen.End || (c.Closed && off > c.Rparen.Start) {
		return -1
	}
	n := 0
	for _, r := range c.Commas {
		if r.End <= off {
			n++
		}
	}
	return n
}
