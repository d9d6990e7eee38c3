package bplang_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// at is "line:col-line:col" (1-based) of r in f.
func at(f *syntax.File, r source.Range) string {
	s := f.Mapper.OffsetPosition(r.Start, source.UTF8)
	e := f.Mapper.OffsetPosition(r.End, source.UTF8)
	return itoa(s.Line+1) + ":" + itoa(s.Character+1) + "-" + itoa(e.Line+1) + ":" + itoa(e.Character+1)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestSyntaxErrors: one mistake is one bp-syntax diagnostic at its exact
// place, and the declarations around it stay in the tree.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "range message-substring"
		keeps     []string // section.name paths still in the tree
	}{
		{
			name:  "dangling operator",
			src:   "version \"2025-11-02\"\nvalue x: boolean { value = variables.a && }\nvalue y: string { value = \"ok\" }\n",
			want:  []string{"2:43-2:44 expected an expression, found '}'"},
			keeps: []string{"values.x", "values.y"},
		},
		{
			name:  "missing equals",
			src:   "resource a: aws/s3/bucket {\n    spec {\n        bucketName \"b\"\n        versioning = true\n    }\n}\n",
			want:  []string{"3:20-3:23 expected '=' or '{' after the field name bucketName"},
			keeps: []string{"resources.a"},
		},
		{
			name:  "unclosed block",
			src:   "resource a: aws/s3/bucket {\n    spec {\n        bucketName = \"b\"\n\nresource b: aws/s3/bucket {}\n",
			want:  []string{"2:10-2:11 this '{' is never closed"},
			keeps: []string{"resources.a", "resources.b"},
		},
		{
			name:  "unterminated string",
			src:   "value v: string {\n    value = \"abc\n}\nvalue w: string {}\n",
			want:  []string{"2:13-2:17 unterminated string"},
			keeps: []string{"values.v", "values.w"},
		},
		{
			name:  "stray top-level token",
			src:   "version \"2025-11-02\"\n= 3\nvariable r: string {}\n",
			want:  []string{"2:1-2:2 expected a statement"},
			keeps: []string{"variables.r"},
		},
		{
			name: "reserved name",
			src:  "variable elem: string {}\n",
			want: []string{"1:10-1:14 elem is reserved"},
		},
		{
			name:  "bad filter operator",
			src:   "data d: aws/vpc {\n    filter \"x\" like \"y\"\n    export id: string\n}\n",
			want:  []string{"2:16-2:20 expected a filter operator"},
			keeps: []string{"datasources.d"},
		},
		{
			name:  "include without a path",
			src:   "include core {\n    description = \"x\"\n}\nvariable r: string {}\n",
			want:  []string{"1:14-1:15 expected the path of the child blueprint as a string"},
			keeps: []string{"variables.r"},
		},
		{
			name:  "type segment missing",
			src:   "resource a: aws/ {\n}\nresource b: aws/s3/bucket {}\n",
			want:  []string{"1:18-1:19 expected a type segment after '/'"},
			keeps: []string{"resources.b"},
		},
		{
			name:  "select without by label",
			src:   "resource a: aws/s3/bucket {\n    select label {\n        app = \"x\"\n    }\n    spec {}\n}\n",
			want:  []string{"2:12-2:17 expected by after select"},
			keeps: []string{"resources.a"},
		},
		{
			name:  "transform of a number",
			src:   "transform 3\nvariable r: string {}\n",
			want:  []string{"1:11-1:12 expected a string or a list of strings after transform"},
			keeps: []string{"variables.r"},
		},
		{
			name:  "two fields on a line",
			src:   "variable r: string { default = \"a\" description = \"b\" }\nvariable s: string {}\n",
			want:  []string{"1:36-1:47 expected ',', a line break or '}' after the entry"},
			keeps: []string{"variables.r", "variables.s"},
		},
		{
			name:  "unterminated call",
			src:   "value v: string {\n    value = join(list(\"a\"), \"-\"\n}\nvalue w: string {}\n",
			want:  []string{"3:1-3:2 expected ')' to close the call of join"},
			keeps: []string{"values.v", "values.w"},
		},
		{
			name: "multi-line string indented less than its closer",
			src:  "value v: string {\n    value = \"\"\"\n  a\n        \"\"\"\n}\n",
			want: []string{"3:1-3:4 indented less than its closing"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := bplang.Parse("x.bp", []byte(tc.src))
			var got []string
			for _, d := range f.Diagnostics {
				if d.Code != "bp-syntax" {
					t.Errorf("code %s", d.Code)
				}
				got = append(got, at(f, d.Range)+" "+d.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("diagnostics %q, want %d like %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				rng, msg, _ := strings.Cut(w, " ")
				if !strings.HasPrefix(got[i], rng+" ") || !strings.Contains(got[i], msg) {
					t.Errorf("diagnostic %q, want %q", got[i], w)
				}
			}
			if !f.HasSyntaxErrors() {
				t.Error("HasSyntaxErrors is false")
			}
			root, _ := f.Tree()
			for _, k := range tc.keeps {
				sec, name, _ := strings.Cut(k, ".")
				m, _ := root.(*syntax.Mapping).Get(sec).(*syntax.Mapping)
				if m.Get(name) == nil {
					t.Errorf("%s is not in the tree", k)
				}
			}
		})
	}
}

// TestExpressionMapping: an operator becomes the call of its core
// function named at the operator, and every part maps back to the text.
func TestExpressionMapping(t *testing.T) {
	src := "value v: boolean {\n    value = !variables.a || values.b != \"x\" && (elem.n >= 2)\n}\n"
	f := bplang.Parse("x.bp", []byte(src))
	if len(f.Diagnostics) > 0 {
		t.Fatal(f.Diagnostics)
	}
	v := f.Root.(*syntax.Mapping).Get("values").(*syntax.Mapping).Get("v").(*syntax.Mapping).Get("value").(*syntax.Scalar)
	const want = `${or(not(variables.a), and(not(eq(values.b, "x")), ge(elem.n, 2)))}`
	if v.Value != want {
		t.Fatalf("value %s, want %s", v.Value, want)
	}
	tpl := subst.ParseTemplate(v.Value, v.OffsetMap())
	if len(tpl.Diagnostics()) > 0 {
		t.Fatal(tpl.Diagnostics())
	}
	var got []string
	subst.WalkTemplate(tpl, func(e subst.Expr) bool {
		switch e := e.(type) {
		case *subst.Call:
			got = append(got, e.Name+"@"+src[e.NameRange.Start:e.NameRange.End])
		case *subst.Ref:
			got = append(got, "ref@"+src[e.Rng.Start:e.Rng.End])
		case *subst.StringLit, *subst.IntLit:
			got = append(got, "lit@"+src[e.Range().Start:e.Range().End])
		}
		return true
	})
	wantParts := []string{"or@||", "not@!", "ref@variables.a", "and@&&", "not@!=", "eq@!=", "ref@values.b", `lit@"x"`, "ge@>=", "ref@elem.n", "lit@2"}
	if strings.Join(got, " ") != strings.Join(wantParts, " ") {
		t.Errorf("parts\n%q\nwant\n%q", got, wantParts)
	}
}

// TestDeepNesting: nesting past MaxDepth is one diagnostic, no crash.
func TestDeepNesting(t *testing.T) {
	n := bplang.MaxDepth + 10
	for _, src := range []string{
		"value v: array {\n    value = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\nvalue w: string {}\n",
		"value v: array {\n    value = " + strings.Repeat("f(", n) + strings.Repeat(")", n) + "\n}\nvalue w: string {}\n",
		"metadata {" + strings.Repeat(" a {", n) + strings.Repeat("}", n+1) + "\nvalue w: string {}\n",
	} {
		f := bplang.Parse("x.bp", []byte(src))
		if len(f.Diagnostics) != 1 || !strings.Contains(f.Diagnostics[0].Message, "nested more than") {
			t.Fatalf("diagnostics %v", f.Diagnostics)
		}
		if vals, _ := f.Root.(*syntax.Mapping).Get("values").(*syntax.Mapping); vals.Get("w") == nil {
			t.Errorf("the declaration after the deep one is lost")
		}
	}
}

// checkTree checks the invariants every parse keeps: ranges inside the
// text and inside their parents, maps inside the text and covering the
// decoded value, verbatim runs equal to their source.
func checkTree(t testing.TB, f *syntax.File) {
	t.Helper()
	n := len(f.Content())
	var walk func(node syntax.Node, parent source.Range)
	walk = func(node syntax.Node, parent source.Range) {
		if node == nil {
			t.Fatalf("nil node in %v", parent)
		}
		r := node.Range()
		if r.Start < 0 || r.Start > r.End || r.End > n || !parent.ContainsRange(r) {
			t.Fatalf("range %v of %T outside parent %v (len %d)", r, node, parent, n)
		}
		switch node := node.(type) {
		case *syntax.Mapping:
			for _, e := range node.Entries {
				walk(e.Key, source.R(0, n))
				walk(e.Value, r)
			}
		case *syntax.Sequence:
			for _, it := range node.Items {
				walk(it, r)
			}
		case *syntax.Scalar:
			dec := 0
			for _, s := range node.OffsetMap().Segments {
				s.Src += node.OffsetMap().Base // relative to it
				if s.Dec != dec || s.Src < 0 || s.Src+s.SrcLen > n {
					t.Fatalf("bad segment %+v of %q", s, node.Value)
				}
				// A one-byte run maps the same read as verbatim or
				// atomic: ')' for a '}' is such a run.
				if s.DecLen == s.SrcLen && s.DecLen > 1 && string(f.Content()[s.Src:s.Src+s.SrcLen]) != node.Value[s.Dec:s.Dec+s.DecLen] {
					t.Fatalf("verbatim segment %+v of %q differs from its source", s, node.Value)
				}
				dec += s.DecLen
			}
			if len(node.OffsetMap().Segments) > 0 && dec != len(node.Value) {
				t.Fatalf("map of %q covers %d bytes", node.Value, dec)
			}
			if node.Tag == syntax.StringTag {
				subst.ParseTemplate(node.Value, node.OffsetMap())
			}
		}
	}
	walk(f.Root, source.R(0, n))
	for _, d := range f.Diagnostics {
		if d.Range.Start < 0 || d.Range.End > n || d.Range.Start > d.Range.End {
			t.Fatalf("diagnostic %q at %v out of bounds", d.Message, d.Range)
		}
	}
}

func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/bp/*.bp")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add(gen.Blueprint(2, "bp"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkTree(t, bplang.Parse("f.bp", b))
		for _, off := range []int{0, len(b) / 3, len(b) / 2, len(b)} {
			if c, ok := bplang.CursorAt(b, off); ok && (c.Replace.Start > off || c.Replace.End != off) {
				t.Fatalf("CursorAt(%d) replaces %v", off, c.Replace)
			}
		}
		bplang.Statements(b)
	})
}

// TestInterpolationOperators: an interpolation using the language's
// operators is rewritten like a bare expression; any other stays as
// written.
func TestInterpolationOperators(t *testing.T) {
	src := "value v: string {\n    value = \"is-${variables.a == \"x\"}-${variables.b}-${!elem.c}\"\n}\n"
	f := bplang.Parse("x.bp", []byte(src))
	if len(f.Diagnostics) > 0 {
		t.Fatal(f.Diagnostics)
	}
	v := f.Root.(*syntax.Mapping).Get("values").(*syntax.Mapping).Get("v").(*syntax.Mapping).Get("value").(*syntax.Scalar)
	const want = `is-${eq(variables.a, "x")}-${variables.b}-${not(elem.c)}`
	if v.Value != want {
		t.Fatalf("value %s, want %s", v.Value, want)
	}
	tpl := subst.ParseTemplate(v.Value, v.OffsetMap())
	if len(tpl.Diagnostics()) > 0 {
		t.Fatal(tpl.Diagnostics())
	}
	var got []string
	for _, p := range tpl.Parts {
		got = append(got, src[p.Range().Start:p.Range().End])
	}
	subst.WalkTemplate(tpl, func(e subst.Expr) bool {
		switch e := e.(type) {
		case *subst.Call:
			got = append(got, e.Name+"@"+src[e.NameRange.Start:e.NameRange.End])
		case *subst.Ref:
			got = append(got, "ref@"+src[e.Rng.Start:e.Rng.End])
		}
		return true
	})
	wantParts := []string{"is-", `${variables.a == "x"}`, "-", "${variables.b}", "-", "${!elem.c}",
		"eq@==", "ref@variables.a", "ref@variables.b", "not@!", "ref@elem.c"}
	if strings.Join(got, " | ") != strings.Join(wantParts, " | ") {
		t.Errorf("parts\n%q\nwant\n%q", got, wantParts)
	}
}
