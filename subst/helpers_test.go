package subst

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var update = flag.Bool("update", false, "rewrite golden files")

// tree renders an expression compactly with ranges, for table tests:
// Kind[start,end) and the node's particulars.
func tree(e Expr, ranges bool) string {
	var b strings.Builder
	writeTree(&b, e, ranges)
	return b.String()
}

func rs(r source.Range, ranges bool) string {
	if !ranges {
		return ""
	}
	return fmt.Sprintf("@%d-%d", r.Start, r.End)
}

func writeTree(b *strings.Builder, e Expr, ranges bool) {
	switch e := e.(type) {
	case *Ref:
		fmt.Fprintf(b, "Ref%s(%s", rs(e.Rng, ranges), e.Namespace)
		if e.Bare {
			b.WriteString(" bare")
		}
		if e.Namespace.NeedsName() {
			q := ""
			if e.NameQuoted {
				q = " quoted"
			}
			if e.NameSingle {
				q = " single-quoted"
			}
			fmt.Fprintf(b, " %q%s%s", e.Name, q, rs(e.NameRange(), ranges))
		}
		writePath(b, e.Path, ranges)
		b.WriteString(")")
	case *Call:
		fmt.Fprintf(b, "Call%s(%s%s", rs(e.Rng, ranges), e.Name, rs(e.NameRange, ranges))
		if !e.Closed {
			b.WriteString(" unclosed")
		}
		for _, a := range e.Args {
			b.WriteString(" ")
			if a.Name != "" {
				fmt.Fprintf(b, "%s%s=", a.Name, rs(a.NameRange, ranges))
			}
			writeTree(b, a.Value, ranges)
		}
		writePath(b, e.Path, ranges)
		b.WriteString(")")
	case *ArrayLit:
		fmt.Fprintf(b, "Array%s(", rs(e.Rng, ranges))
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(" ")
			}
			writeTree(b, x, ranges)
		}
		b.WriteString(")")
	case *BadExpr:
		fmt.Fprintf(b, "Bad%s", rs(e.Rng, ranges))
	case *StringLit:
		fmt.Fprintf(b, "Str%s(%q)", rs(e.Rng, ranges), e.Value)
	case *IntLit:
		fmt.Fprintf(b, "Int%s(%d)", rs(e.Rng, ranges), e.Value)
	case *FloatLit:
		fmt.Fprintf(b, "Float%s(%s)", rs(e.Rng, ranges), strconv.FormatFloat(e.Value, 'g', -1, 64))
	case *BoolLit:
		fmt.Fprintf(b, "Bool%s(%t)", rs(e.Rng, ranges), e.Value)
	case *NoneLit:
		fmt.Fprintf(b, "None%s", rs(e.Rng, ranges))
	default:
		fmt.Fprintf(b, "%T", e)
	}
}

func writePath(b *strings.Builder, path []Accessor, ranges bool) {
	for _, a := range path {
		switch a := a.(type) {
		case *FieldAccessor:
			fmt.Fprintf(b, " .%s%s", a.Name, rs(a.Rng, ranges))
		case *QuotedAccessor:
			if a.Single {
				fmt.Fprintf(b, " ['%s']%s", a.Name, rs(a.Rng, ranges))
				break
			}
			fmt.Fprintf(b, " [%q]%s", a.Name, rs(a.Rng, ranges))
		case *IndexAccessor:
			fmt.Fprintf(b, " [%d]%s", a.Index, rs(a.Rng, ranges))
		case *FirstAccessor:
			fmt.Fprintf(b, " []%s", rs(a.Rng, ranges))
		case *BadAccessor:
			fmt.Fprintf(b, " [bad]%s", rs(a.Rng, ranges))
		}
	}
}

// templateTree renders all parts of a template.
func templateTree(t *Template, ranges bool) string {
	var parts []string
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *Literal:
			parts = append(parts, fmt.Sprintf("Lit%s(%q)", rs(p.Rng, ranges), p.Value))
		case *Sub:
			parts = append(parts, fmt.Sprintf("Sub%s{%s}", rs(p.Rng, ranges), tree(p.Expr, ranges)))
		}
	}
	return strings.Join(parts, " ")
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	testutil.Golden(t, "testdata/"+name, got, *update)
}

// checkInvariants verifies the range properties every template must have:
// all ranges within lo..hi, children within parents, parts and tokens in
// order.
func checkInvariants(t *testing.T, tpl *Template, lo, hi int) {
	t.Helper()
	in := func(what string, r, outer source.Range) {
		t.Helper()
		if r.Start > r.End || r.Start < outer.Start || r.End > outer.End {
			t.Fatalf("%s range %v not within %v", what, r, outer)
		}
	}
	whole := source.R(lo, hi)
	in("template", tpl.Rng, whole)
	prev := lo
	for _, p := range tpl.Parts {
		in("part", p.Range(), tpl.Rng)
		if p.Range().Start < prev {
			t.Fatalf("part %v overlaps the previous one ending at %d", p.Range(), prev)
		}
		prev = p.Range().End
		if s, ok := p.(*Sub); ok {
			in("open", s.Open(), s.Rng)
			in("close", s.Close(), s.Rng)
			in("expr", s.Expr.Range(), s.Rng)
			checkExpr(t, s.Expr, in)
		}
	}
	prev = lo
	for _, k := range tpl.Tokens() {
		in("token", k.Range, tpl.Rng)
		if k.Range.Start < prev {
			t.Fatalf("token %v out of order", k.Range)
		}
		prev = k.Range.End
	}
	for _, d := range tpl.Diagnostics() {
		in("diagnostic "+d.Code, d.Range, tpl.Rng)
	}
}

func checkExpr(t *testing.T, e Expr, in func(string, source.Range, source.Range)) {
	t.Helper()
	r := e.Range()
	path := func(p []Accessor) {
		for _, a := range p {
			in("accessor", a.Range(), r)
			switch a := a.(type) {
			case *FieldAccessor:
				in("field name", a.NameRange, a.Rng)
			case *QuotedAccessor:
				in("quoted name", a.NameRange, a.Rng)
			case *IndexAccessor:
				in("index", a.IndexRange, a.Rng)
			}
		}
	}
	switch e := e.(type) {
	case *Ref:
		in("keyword", e.KeywordRange(), r)
		in("ref name", e.NameRange(), r)
		path(e.Path)
	case *Call:
		in("call name", e.NameRange, r)
		in("lparen", e.Lparen, r)
		in("rparen", e.Rparen, r)
		for _, a := range e.Args {
			in("arg", a.Rng, r)
			in("arg value", a.Value.Range(), a.Rng)
			checkExpr(t, a.Value, in)
		}
		path(e.Path)
	case *ArrayLit:
		for _, x := range e.Elems {
			in("item", x.Range(), r)
			checkExpr(t, x, in)
		}
	}
}

// diagString renders a diagnostic for table tests.
func diagString(d source.Diagnostic) string {
	return fmt.Sprintf("%s %d-%d: %s", d.Code, d.Range.Start, d.Range.End, d.Message)
}

func identity(start, n int) source.OffsetMap { return source.Identity(start, n) }

func newMapper(doc string) *source.Mapper { return source.NewMapper([]byte(doc)) }
