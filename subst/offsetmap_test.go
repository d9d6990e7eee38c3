package subst

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// escapedScalar decodes the backslash escapes of a double-quoted YAML or
// JSON string body found at doc[start:end] (\" \\ \n \t and \uXXXX),
// building the offset map by hand: verbatim runs map byte for byte, each
// escape is an atomic segment.
func escapedScalar(t *testing.T, doc string, start, end int) (string, source.OffsetMap) {
	t.Helper()
	var dec strings.Builder
	m := source.OffsetMap{Base: start}
	verbatim := func(from, to int) {
		if to > from {
			m.Segments = append(m.Segments, source.Segment{Dec: dec.Len(), DecLen: to - from, Src: from, SrcLen: to - from})
			dec.WriteString(doc[from:to])
		}
	}
	run := start
	for i := start; i < end; i++ {
		if doc[i] != '\\' {
			continue
		}
		verbatim(run, i)
		n := 2
		var out string
		switch doc[i+1] {
		case 'n':
			out = "\n"
		case 't':
			out = "\t"
		case 'u':
			v, err := strconv.ParseUint(doc[i+2:i+6], 16, 32)
			if err != nil {
				t.Fatal(err)
			}
			out, n = string(rune(v)), 6
		default:
			out = doc[i+1 : i+2]
		}
		m.Segments = append(m.Segments, source.Segment{Dec: dec.Len(), DecLen: len(out), Src: i, SrcLen: n})
		dec.WriteString(out)
		i += n - 1
		run = i + 1
	}
	verbatim(run, end)
	return dec.String(), source.Relative(m.Base, m.Segments)
}

// foldedScalar builds a folded block scalar's value by hand: each content
// line (after indent spaces) is verbatim and each line break between them
// folds into one space that maps to the break plus the next indentation.
func foldedScalar(doc string, first, indent int) (string, source.OffsetMap) {
	var dec strings.Builder
	m := source.OffsetMap{Base: first}
	pos := first
	for {
		nl := strings.IndexByte(doc[pos:], '\n')
		if nl < 0 {
			nl = len(doc) - pos
		}
		m.Segments = append(m.Segments, source.Segment{Dec: dec.Len(), DecLen: nl, Src: pos, SrcLen: nl})
		dec.WriteString(doc[pos : pos+nl])
		next := pos + nl + 1 + indent
		if next >= len(doc) {
			return dec.String(), source.Relative(m.Base, m.Segments)
		}
		m.Segments = append(m.Segments, source.Segment{Dec: dec.Len(), DecLen: 1, Src: pos + nl, SrcLen: 1 + indent})
		dec.WriteString(" ")
		pos = next
	}
}

// rangeReport lists every node, accessor, token and diagnostic of t with
// the document text its range covers.
func rangeReport(doc string, t *Template) string {
	var b strings.Builder
	mapper := source.NewMapper([]byte(doc))
	show := func(depth int, what string, r source.Range) {
		l1, c1 := mapper.LineCol(r.Start, source.UTF32)
		l2, c2 := mapper.LineCol(r.End, source.UTF32)
		fmt.Fprintf(&b, "%s%-16s %d:%d-%d:%d %q\n", strings.Repeat("  ", depth), what, l1, c1, l2, c2, doc[r.Start:r.End])
	}
	var expr func(int, Expr)
	path := func(d int, p []Accessor) {
		for _, a := range p {
			show(d, strings.TrimPrefix(fmt.Sprintf("%T", a), "*subst."), a.Range())
		}
	}
	expr = func(d int, e Expr) {
		show(d, strings.TrimPrefix(fmt.Sprintf("%T", e), "*subst."), e.Range())
		switch e := e.(type) {
		case *Ref:
			show(d+1, "name", e.NameRange())
			path(d+1, e.Path)
		case *Call:
			show(d+1, "name", e.NameRange)
			show(d+1, "(", e.Lparen)
			for _, a := range e.Args {
				if a.Name != "" {
					show(d+1, "arg "+a.Name, a.NameRange)
				}
				expr(d+1, a.Value)
			}
			show(d+1, ")", e.Rparen)
			path(d+1, e.Path)
		case *ArrayLit:
			for _, x := range e.Elems {
				expr(d+1, x)
			}
		}
	}
	for _, p := range t.Parts {
		switch p := p.(type) {
		case *Literal:
			show(0, fmt.Sprintf("Literal %q", p.Value), p.Rng)
		case *Sub:
			show(0, "Sub", p.Rng)
			expr(1, p.Expr)
		}
	}
	b.WriteString("tokens:\n")
	for _, k := range t.Tokens() {
		show(1, k.Kind.String(), k.Range)
	}
	for _, d := range t.Diagnostics() {
		show(0, d.Code, d.Range)
		fmt.Fprintf(&b, "  %s\n", d.Message)
	}
	return b.String()
}

// TestOffsetMapRanges parses strings whose decoded text differs from the
// source and checks, through a golden, that every range lands on the
// exact document text.
func TestOffsetMapRanges(t *testing.T) {
	var out strings.Builder
	check := func(name, doc, dec string, m source.OffsetMap) {
		t.Helper()
		tpl := ParseTemplateWith(dec, &m, Options{Mapper: source.NewMapper([]byte(doc))})
		checkInvariants(t, tpl, 0, len(doc))
		fmt.Fprintf(&out, "=== %s\n%s\n--- decoded: %q\n%s\n", name, doc, dec, rangeReport(doc, tpl))
	}

	doc := "name: \"arn:${trim(\\\"a \\\\ b\\\")}-${values[\\\"x.y\\\"].z}\"\n"
	start := strings.IndexByte(doc, '"') + 1
	dec, m := escapedScalar(t, doc, start, strings.LastIndexByte(doc, '"'))
	check("yaml double-quoted with escapes", doc, dec, m)

	doc = "value: >-\n  ${join(\n  values.list,\n  \",\")}-${trim(\n  x}\n"
	dec, m = foldedScalar(strings.TrimSuffix(doc, "\n"), strings.Index(doc, "${"), 2)
	check("yaml folded block", doc, dec, m)

	doc = `{"v": "\u0024{variables.\u0065nv} \u00e9 ${f(\"\u00e9\", x.y[0]}"}`
	start = strings.Index(doc, `"\u`) + 1
	dec, m = escapedScalar(t, doc, start, strings.LastIndexByte(doc, '"'))
	check("json string with \\u escapes", doc, dec, m)

	golden(t, "offsetmap.golden", out.String())
}

// A template keeps no identity map (issue 36): its tokens are the ones a
// kept map gives, from where the template starts.
func TestTokensIdentityNotKept(t *testing.T) {
	s := `x-${resources.a.spec["b"]}-${len(values.v)}`
	id := source.Identity(40, len(s))
	tmpl := ParseTemplate(s, &id)
	if tmpl.m != nil {
		t.Fatalf("the template keeps its identity map")
	}
	want := ParseTemplate(s, nil).Tokens()
	got := tmpl.Tokens()
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d tokens, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Range != want[i].Range.Moved(40) {
			t.Errorf("token %d = %+v, want %+v moved by 40", i, got[i], want[i])
		}
	}
	if m := tmpl.Moved(5, &id).m; m != nil {
		t.Errorf("a moved template keeps its identity map")
	}
}
