package bplang_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// slackDoc has a declaration of every kind, statements whose first line
// ends in the block's '{' (with spaces after it, or a tab before it) and
// ones whose first line ends otherwise (a comment, a field or an object
// opened on it, no block), a """ string, comments between statements and
// a metadata statement.
const slackDoc = "# header\nversion \"2025-11-02\"\n\n" +
	"variable env: string {\n    default = \"dev\"\n}\n\n" +
	"resource a: aws/s3/bucket {  \n    spec {\n        bucketName = \"\"\"\n            text   \n            \"\"\"\n    }\n}\n\n" +
	"# between a and v\n" +
	"value v: string\n" +
	"value w: string { # trailing comment\n    value = \"x\"\n}\n" +
	"resource b: aws/s3/bucket { spec {\n        n = 1\n    }\n}\n" +
	"resource c: aws/s3/bucket { metadata {\n        labels = { k = \"v\" }\n    }\n}\n" +
	"data d: aws/vpc\t{\n    filter \"tags\" has key \"x\"\n    export id: string\n}\n\n" +
	"metadata {\n    owner = \"me\"\n}\n\n" +
	"include child \"child.bp\" {\n    variables {\n        env = variables.env\n    }\n}\n\n" +
	"export out: string {\n    field = values.v\n}\n"

// def is the definition of the statement starting with head in doc,
// ending where next starts ("" for the end of doc).
func def(t *testing.T, doc, head, next string, open bool) syntax.Definition {
	t.Helper()
	start := strings.Index(doc, head)
	if start < 0 {
		t.Fatalf("no %q", head)
	}
	end := len(doc)
	if next != "" {
		end = strings.Index(doc, next)
	}
	line := start + strings.IndexByte(doc[start:], '\n')
	if doc[line-1] == '\r' {
		line--
	}
	return syntax.Definition{Start: start, End: end, KeyLineEnd: line, Open: open}
}

// offsetOf returns the offset of needle in doc plus delta.
func offsetOf(t *testing.T, doc, needle string, delta int) int {
	t.Helper()
	i := strings.Index(doc, needle)
	if i < 0 {
		t.Fatalf("no %q", needle)
	}
	return i + delta
}

func TestDefinitionAt(t *testing.T) {
	f := bplang.Parse("doc.bp", []byte(slackDoc))
	if len(f.Diagnostics) > 0 {
		t.Fatalf("the document does not parse clean: %v", f.Diagnostics)
	}
	env := def(t, slackDoc, "variable env", "resource a", true)
	a := def(t, slackDoc, "resource a", "value v", true)
	v := def(t, slackDoc, "value v", "value w", false)
	w := def(t, slackDoc, "value w", "resource b", false)
	b := def(t, slackDoc, "resource b", "resource c", false)
	c := def(t, slackDoc, "resource c", "data d", false)
	d := def(t, slackDoc, "data d", "metadata {\n    owner", true)
	child := def(t, slackDoc, "include child", "export out", true)
	out := def(t, slackDoc, "export out", "", true)
	doc := slackDoc
	for _, c := range []struct {
		name       string
		start, end int
		want       syntax.Definition
		ok         bool
	}{
		{"the header comment", 2, 2, syntax.Definition{}, false},
		{"the version", offsetOf(t, doc, "2025", 0), offsetOf(t, doc, "2025", 4), syntax.Definition{}, false},
		{"the first statement's keyword", env.Start, env.Start, env, true},
		{"inside the first statement", offsetOf(t, doc, `"dev"`, 1), offsetOf(t, doc, `"dev"`, 4), env, true},
		{"the first statement's last line break", a.Start - 1, a.Start, env, true},
		{"an insertion where the next statement starts", a.Start, a.Start, a, true},
		{"the padding's place", a.KeyLineEnd, a.KeyLineEnd, a, true},
		{"a multi-line string's text", offsetOf(t, doc, "text", 4), offsetOf(t, doc, "text", 4), a, true},
		{"a comment after a statement", offsetOf(t, doc, "between", 0), offsetOf(t, doc, "between", 7), a, true},
		{"up to the next statement", offsetOf(t, doc, "between", 0), v.Start, a, true},
		{"across two statements", offsetOf(t, doc, "between", 0), v.Start + 1, syntax.Definition{}, false},
		{"a declaration without a block", offsetOf(t, doc, "value v", 6), offsetOf(t, doc, "value v", 7), v, true},
		{"a first line ending in a comment", offsetOf(t, doc, `"x"`, 1), offsetOf(t, doc, `"x"`, 1), w, true},
		{"a first line opening a nested block", offsetOf(t, doc, "n = 1", 4), offsetOf(t, doc, "n = 1", 5), b, true},
		{"a first line opening the metadata block", offsetOf(t, doc, `"v"`, 1), offsetOf(t, doc, `"v"`, 2), c, true},
		{"a tab before the block", offsetOf(t, doc, "export id", 7), offsetOf(t, doc, "export id", 7), d, true},
		{"the metadata statement", offsetOf(t, doc, `"me"`, 1), offsetOf(t, doc, `"me"`, 1), syntax.Definition{}, false},
		{"an include", offsetOf(t, doc, "env = variables", 0), offsetOf(t, doc, "env = variables", 3), child, true},
		{"the last statement", offsetOf(t, doc, "values.v", 7), offsetOf(t, doc, "values.v", 8), out, true},
		{"to the end of the text", out.End - 2, out.End, out, true},
		{"an insertion at the end of the text", out.End, out.End, syntax.Definition{}, false},
		{"an inverted range", a.Start + 5, a.Start + 4, syntax.Definition{}, false},
		{"past the end", out.End - 1, out.End + 1, syntax.Definition{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := bplang.DefinitionAt(f, c.start, c.end)
			if ok != c.ok || got != c.want {
				t.Errorf("DefinitionAt(%d, %d) = %+v, %v; want %+v, %v", c.start, c.end, got, ok, c.want, c.ok)
			}
		})
	}
}

// TestDefinitionAtRefuses: text that is not a clean .bp document, and
// statements that do not start a line, have no definitions.
func TestDefinitionAtRefuses(t *testing.T) {
	for _, c := range []struct {
		name, uri, doc, at string
	}{
		{"a syntax error elsewhere", "doc.bp", "resource a: aws/s3/bucket {\n    spec {\n        n = 1\n    }\n}\nresource b: aws/s3/bucket {\n    n = \n}\n", "n = 1"},
		{"YAML", "doc.yaml", "resources:\n  a:\n    type: aws/s3/bucket\n    spec:\n      n: 1\n", "n: 1"},
		{"a statement after a comma", "doc.bp", "resource a: aws/s3/bucket {\n    n = 1\n}\n, resource b: aws/s3/bucket {\n    m = 2\n}\n", "m = 2"},
		{"a statement before one after a comma", "doc.bp", "resource a: aws/s3/bucket {\n    n = 1\n}\n, resource b: aws/s3/bucket {\n    m = 2\n}\n", "n = 1"},
		{"an indented statement", "doc.bp", "  resource a: aws/s3/bucket {\n    n = 1\n}\n", "n = 1"},
		{"a one-line statement without a line break", "doc.bp", "resource a: aws/s3/bucket { n = 1 }", "n = 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f *syntax.File
			if c.uri == "doc.bp" {
				f = bplang.Parse(c.uri, []byte(c.doc))
			} else {
				f = syntax.Parse(c.uri, []byte(c.doc))
			}
			if c.name != "a syntax error elsewhere" && len(f.Diagnostics) > 0 {
				t.Fatalf("the document does not parse clean: %v", f.Diagnostics)
			}
			off := offsetOf(t, c.doc, c.at, 0)
			if got, ok := bplang.DefinitionAt(f, off, off+1); ok {
				t.Errorf("DefinitionAt = %+v, want none", got)
			}
		})
	}
}

// TestDefinitionAtCRLF: the first line ends before its "\r\n".
func TestDefinitionAtCRLF(t *testing.T) {
	doc := "version \"2025-11-02\"\r\n\r\nresource a: aws/s3/bucket {   \r\n    spec {\r\n        n = 1\r\n    }\r\n}\r\n"
	f := bplang.Parse("doc.bp", []byte(doc))
	if len(f.Diagnostics) > 0 {
		t.Fatalf("the document does not parse clean: %v", f.Diagnostics)
	}
	want := def(t, doc, "resource a", "", true)
	off := offsetOf(t, doc, "n = 1", 4)
	if got, ok := bplang.DefinitionAt(f, off, off+1); !ok || got != want || doc[got.KeyLineEnd:got.KeyLineEnd+2] != "\r\n" {
		t.Errorf("DefinitionAt = %+v, %v; want %+v", got, ok, want)
	}
}

// TestPaddedEditIsSpliced: padding a definition's first line, and an
// edit inside it that takes its length from the padding, are spliced,
// the second without moving anything after it, and give the tree a
// whole parse gives.
func TestPaddedEditIsSpliced(t *testing.T) {
	prev := bplang.Parse("doc.bp", []byte(slackDoc))
	for _, c := range []struct{ name, head, needle, typed string }{
		{"a resource, in a multi-line string", "resource a", "text", "xyz"},
		{"a variable", "variable env", `dev"`, "-x"},
		{"a data source", "data d", "id: string", "x"},
		{"an include", "include child", "variables.env", "  "},
		{"the last statement", "export out", "v\n}", "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			off := offsetOf(t, slackDoc, c.needle, 0)
			d, ok := bplang.DefinitionAt(prev, off, off)
			if !ok || !d.Open || d.Start != offsetOf(t, slackDoc, c.head, 0) {
				t.Fatalf("DefinitionAt = %+v, %v; want the open definition of %s", d, ok, c.head)
			}
			const pad = 16
			padded := slackDoc[:d.KeyLineEnd] + strings.Repeat(" ", pad) + slackDoc[d.KeyLineEnd:]
			first := bplang.Splice(prev, []byte(padded))
			if first == nil {
				t.Fatal("padding the first line is not spliced")
			}
			if sp, ok := first.Spliced(prev); !ok || sp.Delta != pad {
				t.Fatalf("padding: Spliced = %+v, %v; want a delta of %d", sp, ok, pad)
			}
			off += pad
			edited := padded[:d.KeyLineEnd] + strings.Repeat(" ", pad-len(c.typed)) + padded[d.KeyLineEnd+pad:off] + c.typed + padded[off:]
			second := bplang.Splice(first, []byte(edited))
			if second == nil {
				t.Fatal("the padded edit is not spliced")
			}
			if sp, ok := second.Spliced(first); !ok || sp.Delta != 0 {
				t.Errorf("padded edit: Spliced = %+v, %v; want a delta of 0", sp, ok)
			}
			if diff := parsetest.Diff(second, bplang.Parse("doc.bp", []byte(edited))); diff != "" {
				t.Error(diff)
			}
			want := strings.Replace(slackDoc, c.needle, c.typed+c.needle, 1)
			if client := edited[:d.KeyLineEnd] + edited[d.KeyLineEnd+pad-len(c.typed):]; client != want {
				t.Errorf("without its padding the text is\n%s\nwant\n%s", client, want)
			}
			if len(second.Diagnostics) > 0 {
				t.Errorf("the edit breaks the document: %v", second.Diagnostics)
			}
		})
	}
}

// TestUnterminatedStringEndsWithItsText: a string left open ends where
// its line's text does, so blanks (padding too) before the line break
// change neither its diagnostics nor a message quoting it.
func TestUnterminatedStringEndsWithItsText(t *testing.T) {
	var want []string
	for _, blanks := range []string{"", " ", " \t ", strings.Repeat(" ", 64)} {
		doc := "variable v: string {\n    \"ab" + blanks + "\n}\nresource a: aws/s3/bucket {\n    default = \"cd" + blanks + "\r\n}\n"
		var got []string
		var strs []source.Range
		for _, d := range bplang.Parse("doc.bp", []byte(doc)).Diagnostics {
			got = append(got, d.Message)
			if strings.HasPrefix(d.Message, "unterminated string") {
				strs = append(strs, d.Range)
			}
		}
		ab, cd := strings.Index(doc, `"ab`), strings.Index(doc, `"cd`)
		if wantStrs := []source.Range{source.R(ab, ab+3), source.R(cd, cd+3)}; !reflect.DeepEqual(strs, wantStrs) {
			t.Errorf("with %q before the line breaks: unterminated strings at %v, want %v", blanks, strs, wantStrs)
		}
		if want == nil {
			want = got
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("with %q before the line breaks: %q, want %q", blanks, got, want)
		}
	}
	if len(want) != 3 || want[1] != `expected '=' or '{' after the field name "ab, found end of line` {
		t.Errorf("messages %q", want)
	}
}
