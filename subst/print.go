package subst

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Print renders e in canonical form: no optional whitespace except after
// commas and around `=` of named arguments, `values.x` rather than
// `values["x"]` unless the name needs quotes. Parsing the result gives the
// same tree (ranges aside) for any tree without *BadExpr.
func Print(e Expr) string {
	var b strings.Builder
	printExpr(&b, e)
	return b.String()
}

func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

func printExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Ref:
		if !e.Bare {
			b.WriteString(e.Namespace.Keyword())
		}
		if e.Namespace.NeedsName() {
			switch {
			case e.Bare:
				b.WriteString(e.Name)
			case e.NameQuoted && e.NameSingle:
				b.WriteString("[" + quoteWith(e.Name, '\'') + "]")
			case e.NameQuoted || !isName(e.Name):
				b.WriteString("[" + quote(e.Name) + "]")
			default:
				b.WriteString("." + e.Name)
			}
		}
		printPath(b, e.Path)
	case *Call:
		b.WriteString(e.Name)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if a.Name != "" {
				b.WriteString(a.Name + " = ")
			}
			printExpr(b, a.Value)
		}
		b.WriteByte(')')
		printPath(b, e.Path)
	case *StringLit:
		b.WriteString(quote(e.Value))
	case *IntLit:
		b.WriteString(e.Text)
	case *FloatLit:
		b.WriteString(e.Text)
	case *BoolLit:
		b.WriteString(strconv.FormatBool(e.Value))
	case *NoneLit:
		b.WriteString("none")
	case *ArrayLit:
		b.WriteByte('[')
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			printExpr(b, x)
		}
		b.WriteByte(']')
	case *BadExpr:
		b.WriteString("<bad>")
	}
}

func printPath(b *strings.Builder, path []Accessor) {
	for _, a := range path {
		switch a := a.(type) {
		case *FieldAccessor:
			b.WriteString("." + a.Name)
		case *QuotedAccessor:
			q := byte('"')
			if a.Single {
				q = '\''
			}
			b.WriteString("[" + quoteWith(a.Name, q) + "]")
		case *IndexAccessor:
			b.WriteString("[" + strconv.Itoa(a.Index) + "]")
		case *FirstAccessor:
			b.WriteString("[]")
		case *BadAccessor:
			b.WriteString("[<bad>]")
		}
	}
}

// DumpRange is a range as [start, end] document offsets.
type DumpRange [2]int

func dumpRange(r source.Range) DumpRange { return DumpRange{r.Start, r.End} }

// DumpNode is the JSON-able form of a node, for goldens and `inspect`.
type DumpNode struct {
	Kind      string      `json:"kind"`
	Range     DumpRange   `json:"range"`
	Pos       string      `json:"pos,omitempty"` // 1-based line:col-line:col, with a mapper
	Namespace string      `json:"namespace,omitempty"`
	Bare      bool        `json:"bare,omitempty"`
	Name      string      `json:"name,omitempty"`
	NameRange *DumpRange  `json:"nameRange,omitempty"`
	Quoted    bool        `json:"quoted,omitempty"`
	Single    bool        `json:"single,omitempty"` // a name in single quotes
	Value     string      `json:"value,omitempty"`  // literals, as printed; literal text
	Unclosed  bool        `json:"unclosed,omitempty"`
	Expr      *DumpNode   `json:"expr,omitempty"`
	Args      []*DumpNode `json:"args,omitempty"`
	Elems     []*DumpNode `json:"elems,omitempty"`
	Path      []*DumpNode `json:"path,omitempty"`
}

// DumpDiagnostic is a diagnostic with its position spelled out.
type DumpDiagnostic struct {
	Pos      string    `json:"pos,omitempty"`
	Range    DumpRange `json:"range"`
	Severity string    `json:"severity"`
	Code     string    `json:"code"`
	Message  string    `json:"message"`
}

// DumpTemplate is the JSON-able form of a template.
type DumpTemplate struct {
	Pure        bool             `json:"pure"`
	Parts       []*DumpNode      `json:"parts"`
	Tokens      []string         `json:"tokens,omitempty"`
	Diagnostics []DumpDiagnostic `json:"diagnostics,omitempty"`
}

// Dump converts t for printing as JSON. With a mapper (of the document
// the ranges point into) positions are also given as 1-based line:col,
// columns counted in characters.
func Dump(t *Template, mapper *source.Mapper) *DumpTemplate {
	d := &dumper{mapper: mapper}
	out := &DumpTemplate{Pure: t.IsPure(), Parts: []*DumpNode{}}
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *Literal:
			out.Parts = append(out.Parts, &DumpNode{Kind: "Literal", Range: dumpRange(p.Rng), Pos: d.pos(p.Rng), Value: p.Value})
		case *Sub:
			out.Parts = append(out.Parts, &DumpNode{Kind: "Sub", Range: dumpRange(p.Rng), Pos: d.pos(p.Rng), Unclosed: !p.Closed, Expr: d.expr(p.Expr)})
		}
	}
	for _, k := range t.Tokens() {
		out.Tokens = append(out.Tokens, fmt.Sprintf("%s %d-%d", k.Kind, k.Range.Start, k.Range.End))
	}
	out.Diagnostics = DumpDiagnostics(t.Diagnostics(), mapper)
	return out
}

// DumpDiagnostics converts diagnostics, sorted, for printing.
func DumpDiagnostics(ds []source.Diagnostic, mapper *source.Mapper) []DumpDiagnostic {
	d := &dumper{mapper: mapper}
	ds = append([]source.Diagnostic(nil), ds...)
	source.SortDiagnostics(ds)
	var out []DumpDiagnostic
	for _, x := range ds {
		out = append(out, DumpDiagnostic{Pos: d.pos(x.Range), Range: dumpRange(x.Range), Severity: x.Severity.String(), Code: x.Code, Message: x.Message})
	}
	return out
}

// DumpExpr converts one expression.
func DumpExpr(e Expr, mapper *source.Mapper) *DumpNode {
	return (&dumper{mapper: mapper}).expr(e)
}

type dumper struct{ mapper *source.Mapper }

func (d *dumper) pos(r source.Range) string {
	if d.mapper == nil {
		return ""
	}
	l1, c1 := d.mapper.LineCol(r.Start, source.UTF32)
	l2, c2 := d.mapper.LineCol(r.End, source.UTF32)
	return fmt.Sprintf("%d:%d-%d:%d", l1, c1, l2, c2)
}

func (d *dumper) node(kind string, r source.Range) *DumpNode {
	return &DumpNode{Kind: kind, Range: dumpRange(r), Pos: d.pos(r)}
}

func (d *dumper) expr(e Expr) *DumpNode {
	switch e := e.(type) {
	case *Ref:
		n := d.node("Ref", e.Rng)
		n.Namespace, n.Bare, n.Name, n.Quoted, n.Single = e.Namespace.String(), e.Bare, e.Name, e.NameQuoted, e.NameSingle
		if e.Namespace.NeedsName() {
			r := dumpRange(e.NameRange())
			n.NameRange = &r
		}
		n.Path = d.path(e.Path)
		return n
	case *Call:
		n := d.node("Call", e.Rng)
		r := dumpRange(e.NameRange)
		n.Name, n.NameRange, n.Unclosed = e.Name, &r, !e.Closed
		n.Args = []*DumpNode{}
		for _, a := range e.Args {
			an := d.node("Arg", a.Rng)
			if a.Name != "" {
				nr := dumpRange(a.NameRange)
				an.Name, an.NameRange = a.Name, &nr
			}
			an.Expr = d.expr(a.Value)
			n.Args = append(n.Args, an)
		}
		n.Path = d.path(e.Path)
		return n
	case *ArrayLit:
		n := d.node("ArrayLit", e.Rng)
		n.Unclosed = !e.Closed
		n.Elems = []*DumpNode{}
		for _, x := range e.Elems {
			n.Elems = append(n.Elems, d.expr(x))
		}
		return n
	case *BadExpr:
		return d.node("BadExpr", e.Rng)
	}
	kind := strings.TrimPrefix(fmt.Sprintf("%T", e), "*subst.")
	n := d.node(kind, e.Range())
	n.Value = Print(e)
	return n
}

func (d *dumper) path(path []Accessor) []*DumpNode {
	var out []*DumpNode
	for _, a := range path {
		kind := strings.TrimPrefix(fmt.Sprintf("%T", a), "*subst.")
		n := d.node(kind, a.Range())
		switch a := a.(type) {
		case *FieldAccessor:
			r := dumpRange(a.NameRange)
			n.Name, n.NameRange = a.Name, &r
		case *QuotedAccessor:
			r := dumpRange(a.NameRange)
			n.Name, n.NameRange, n.Single = a.Name, &r, a.Single
		case *IndexAccessor:
			n.Value = strconv.Itoa(a.Index)
		}
		out = append(out, n)
	}
	return out
}
