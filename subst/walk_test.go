package subst

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func kinds(es []Expr) string {
	var out []string
	for _, e := range es {
		out = append(out, tree(e, false))
	}
	return strings.Join(out, " > ")
}

func TestNodeAt(t *testing.T) {
	// The cursor is where | is; it is removed before parsing.
	for _, c := range []struct{ in, want string }{
		{`x ${trim(values.a|b)}`, `Call(trim Ref(values "ab")) > Ref(values "ab")`},
		{`x ${tr|im(values.ab)}`, `Call(trim Ref(values "ab"))`},
		{`${f(1, g(|2))}`, `Call(f Int(1) Call(g Int(2))) > Call(g Int(2)) > Int(2)`},
		{`${variables.|`, `Ref(variables "")`},
		{`${trim(|`, `Call(trim unclosed)`},
		{`${ | }`, `Bad`},
		{`lit|eral ${x}`, ``},
		{`${x}|`, ``},
		{`${[1, |2]}`, `Array(Int(1) Int(2)) > Int(2)`},
	} {
		off := strings.IndexByte(c.in, '|')
		tpl := ParseTemplate(strings.Replace(c.in, "|", "", 1), nil)
		if got := kinds(NodeAt(tpl, off)); got != c.want {
			t.Errorf("NodeAt(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestAccessorAndArgAt(t *testing.T) {
	in := `${f(a, resources.x.spec.|, c)}`
	off := strings.IndexByte(in, '|')
	tpl := ParseTemplate(strings.Replace(in, "|", "", 1), nil)
	path := NodeAt(tpl, off)
	call := path[0].(*Call)
	if got := ArgAt(call, off); got != 1 {
		t.Errorf("ArgAt = %d, want 1", got)
	}
	ref := path[len(path)-1].(*Ref)
	a, ok := AccessorAt(ref, off).(*FieldAccessor)
	if !ok || a.Name != "" || a.NameRange.Start != off {
		t.Errorf("AccessorAt = %#v, want the empty field at %d", AccessorAt(ref, off), off)
	}
	if got := ArgAt(call, call.Lparen.Start); got != -1 {
		t.Errorf("ArgAt before ( = %d, want -1", got)
	}
	if got := ArgAt(call, call.Lparen.End); got != 0 {
		t.Errorf("ArgAt after ( = %d, want 0", got)
	}
}

func TestWalk(t *testing.T) {
	tpl := ParseTemplate(`${f(a, g(b, [c]), n = "s")} ${d}`, nil)
	var got []string
	WalkTemplate(tpl, func(e Expr) bool {
		got = append(got, fmt.Sprintf("%T", e))
		_, isG := e.(*Call)
		return !isG || e.(*Call).Name != "g"
	})
	want := []string{"*subst.Call", "*subst.Ref", "*subst.Call", "*subst.StringLit", "*subst.Ref"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestPure(t *testing.T) {
	for _, c := range []struct {
		in   string
		pure bool
	}{
		{"${x}", true},
		{"  ${list(1, 2)}\n", true},
		{"a${x}", false},
		{"${x}${y}", false},
		{"plain", false},
		{"", false},
		{"${x} .", false},
	} {
		if got := ParseTemplate(c.in, nil).IsPure(); got != c.pure {
			t.Errorf("IsPure(%q) = %v, want %v", c.in, got, c.pure)
		}
	}
}

func TestPrint(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"${ values [ \"x\" ] . y [ 0 ] [ ] }", `${values["x"].y[0][]}`},
		{"${resources.x.spec}", "${resources.x.spec}"},
		{"${object(a=1,b = \"q\\\"\")}", `${object(a = 1, b = "q\"")}`},
		{"${f( -1.50 , none , true ,[ 1 ] )}", "${f(-1.50, none, true, [1])}"},
		{"a ${elem[\"k.v\"]} b ${i}", `a ${elem["k.v"]} b ${i}`},
		{"${ datasources [ 'core.v1' ] [ \"t\" ][ 'u' ] }", `${datasources['core.v1']["t"]['u']}`},
		{"${trim('x')}", `${trim("x")}`},
	} {
		if got := PrintTemplate(ParseTemplate(c.in, nil)); got != c.want {
			t.Errorf("PrintTemplate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseReference(t *testing.T) {
	for _, c := range []struct {
		in    string
		want  string
		diags []string
	}{
		{"resources.fn.state.arn", `Ref@0-22(resources "fn"@10-12 .state@12-18 .arn@18-22)`, nil},
		{"fn.state.arn", `Ref@0-12(resources bare "fn"@0-2 .state@2-8 .arn@8-12)`, nil},
		{`values["a.b"][0]`, `Ref@0-16(values "a.b" quoted@7-12 [0]@13-16)`, nil},
		{"${resources.fn.state.arn}", `Ref@2-24(resources "fn"@12-14 .state@14-20 .arn@20-24)`,
			[]string{"subst-export-field-substitution 0-25: an export field is a plain reference: remove '${' and '}'"}},
		{"resources.fn.${variables.f}", `Bad@0-27`,
			[]string{"subst-export-field-substitution 0-27: an export field is a plain reference and cannot contain substitutions"}},
		{"trim(resources.fn.state.arn)", `Call@0-28(trim@0-4 Ref@5-27(resources "fn"@15-17 .state@17-23 .arn@23-27))`,
			[]string{"subst-export-field-call 0-28: an export field is a plain reference: function calls such as trim(..) are only allowed inside ${..}"}},
		{`"arn"`, `Str@0-5("arn")`,
			[]string{"subst-export-field-not-reference 0-5: an export field must be a reference, not a literal"}},
		{"", `Bad@0-0`,
			[]string{"subst-export-field-not-reference 0-0: an export field must name a reference, such as resources.x.state.id"}},
		{"resources.fn x", `Ref@0-12(resources "fn"@10-12)`,
			[]string{`subst-unexpected-token 13-14: unexpected name "x" after the reference`}},
		{"resources.fn}", `Ref@0-12(resources "fn"@10-12)`,
			[]string{`subst-unexpected-token 12-13: unexpected '}' after the reference`}},
	} {
		e, ds := ParseReference(c.in, nil)
		if got := tree(e, true); got != c.want {
			t.Errorf("ParseReference(%q) = %s, want %s", c.in, got, c.want)
		}
		var got []string
		for _, d := range ds {
			got = append(got, diagString(d))
		}
		if diff := cmp.Diff(c.diags, got); diff != "" {
			t.Errorf("ParseReference(%q) diagnostics (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestArrayLiteralFix(t *testing.T) {
	tpl := ParseTemplate(`${join([1, 2], ",")}`, nil)
	if len(tpl.Diagnostics()) != 1 || len(tpl.Diagnostics()[0].Suggestions) != 1 {
		t.Fatalf("want one warning with a fix, got %v", tpl.Diagnostics())
	}
	s := `${join([1, 2], ",")}`
	edits := tpl.Diagnostics()[0].Suggestions[0].Edits
	fixed := s[:edits[0].Range.Start] + edits[0].NewText + s[edits[0].Range.End:edits[1].Range.Start] + edits[1].NewText + s[edits[1].Range.End:]
	if fixed != `${join(list(1, 2), ",")}` {
		t.Errorf("fixed = %s", fixed)
	}
}

func TestMessagesWithMapper(t *testing.T) {
	doc := "a: b\nname: ${trim(values.x}\n"
	start := strings.Index(doc, "${")
	end := strings.LastIndexByte(doc, '}') + 1
	m := identity(start, end-start)
	tpl := ParseTemplateWith(doc[start:end], &m, Options{Mapper: newMapper(doc)})
	if len(tpl.Diagnostics()) != 1 {
		t.Fatalf("diagnostics: %v", tpl.Diagnostics())
	}
	d := tpl.Diagnostics()[0]
	want := "expected ')' to close the call to trim started at 2:9, found '}'"
	if d.Message != want || d.Range.Start != end-1 || len(d.Related) != 1 || d.Related[0].Range.Start != start+6 {
		t.Errorf("got %+v, want %q at %d with related '(' at %d", d, want, end-1, start+6)
	}
}
