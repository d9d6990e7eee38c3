package bplang_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
)

// TestPadPointsBP: the exact points of texts holding what a padded line
// must stay clear of, or that the scan declines.
func TestPadPointsBP(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  string
		// unclean says the text does not parse clean (the points are
		// then only what the scan gives, asserted as marked).
		unclean bool
	}{
		{name: "every kind", doc: slackDocMarked},
		{name: "spaces already there", doc: "resource a: aws/s3/bucket {   ¶\n}\n"},
		{name: "crlf", doc: "resource a: aws/s3/bucket {¶\r\n    spec {\r\n    }\r\n}\r\nvalue v: string {  ¶\r\n}\r\n"},
		{name: "tab after the brace", doc: "resource a: aws/s3/bucket {\t\n}\n"},
		{name: "comment after the brace", doc: "resource a: aws/s3/bucket { # c\n}\n"},
		{name: "block on one line", doc: "resource a: aws/s3/bucket { }\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "no block", doc: "value v: string\nvalue w: string {¶\n}\n"},
		{name: "quoted name", doc: "resource \"my bucket\": aws/s3/bucket {¶\n}\n"},
		{name: "statements in a multi-line string", doc: "resource a: aws/s3/bucket {¶\n    spec {\n        s = \"\"\"\nresource b: x {\n}\n\"\"\"\n    }\n}\nresource c: aws/s3/bucket {¶\n}\n"},
		{name: "braces in strings and interpolations", doc: "resource a: aws/s3/bucket {¶\n    n = \"}${f(\"}\")}\"\n    m = \"\\\"}\"\n}\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "braces in comments", doc: "resource a: aws/s3/bucket {¶\n    # }\n    n = 1 # }\n}\n# resource c: x {\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "next statement not first on its line", doc: "resource a: aws/s3/bucket {\n}\n, resource b: aws/s3/bucket {\n}\n"},
		{name: "statement not first on its line", doc: ", resource a: aws/s3/bucket {\n}\n"},
		{name: "metadata and version between", doc: "version \"2025-11-02\"\nresource a: aws/s3/bucket {¶\n}\nmetadata {\n    owner = \"me\"\n}\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "transform across lines", doc: "transform \"a\" ==\nresource\nresource a: aws/s3/bucket {¶\n}\n"},
		{name: "transform continued by an operator", doc: "resource a: aws/s3/bucket {¶\n}\ntransform \"a\"\n\n    == \"b\"\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "transform list", doc: "transform [\n\"a\",\nresource\n]\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "include", doc: "include child \"child.bp\" {¶\n    variables {\n    }\n}\ninclude other \"o.bp\"\n"},
		{name: "byte order mark", doc: "\ufeffresource a: aws/s3/bucket {\n}\nresource b: aws/s3/bucket {¶\n}\n"},
		{name: "empty", doc: ""},
		{name: "unterminated string", doc: "resource a: aws/s3/bucket {\n    n = \"x\n}\n", unclean: true},
		{name: "unterminated multi-line string", doc: "resource a: aws/s3/bucket {\n    n = \"\"\"\n}\n", unclean: true},
		{name: "unclosed block", doc: "resource a: aws/s3/bucket {\n    n = 1\n", unclean: true},
		{name: "indented statement", doc: "  resource a: aws/s3/bucket {\n}\n", unclean: false},
	} {
		t.Run(c.name, func(t *testing.T) {
			content, want := parsetest.Unmark(c.doc)
			got := bplang.PadPoints(content)
			if !slices.Equal(got, want) {
				t.Fatalf("points %v, want %v in\n%s", got, want, content)
			}
			if clean := parsetest.CheckPadPoints(t, c.name, content, got, true, bplang.Parse, bplang.DefinitionAt); clean == c.unclean {
				t.Errorf("parses clean: %v, want %v: %v", clean, !c.unclean, bplang.Parse("", content).Diagnostics)
			}
		})
	}
}

// slackDocMarked is slackDoc with the points of its Open declarations.
var slackDocMarked = func() string {
	content := []byte(slackDoc)
	var out []byte
	last := 0
	for _, head := range []string{"variable env: string {", "resource a: aws/s3/bucket {  ", "data d: aws/vpc\t{", "include child \"child.bp\" {", "export out: string {"} {
		at := bytes.Index(content, []byte(head)) + len(head)
		out = append(append(out, content[last:at]...), parsetest.Mark...)
		last = at
	}
	return string(append(out, content[last:]...))
}()

// TestPadPointsBPCorpus: on every blueprint-language document of the
// testdata and the shared examples, and on generated blueprints, the
// points are exactly the Open declarations' first line ends, and padding
// there changes no meaning.
func TestPadPointsBPCorpus(t *testing.T) {
	parsetest.CheckPadPointsCorpus(t, []string{".bp", ".blueprint"}, gen.Blueprint(1000, "bp"), 50, 2000, bplang.PadPoints, bplang.Parse, bplang.DefinitionAt)
}

// TestPadPointsBPEdited: soundness on texts a few random edits away from
// real ones, edits that type what changes the statements (line breaks,
// brackets, quotes, """, comments, operators, keywords).
func TestPadPointsBPEdited(t *testing.T) {
	typed := []string{"\n", "\n    ", " ", "{", "}", "[", "]", "(", ")", "\"", "\"\"\"", "\"\"\"\n", "#", "${", "==", "&&", ",", "\t", "\r\n",
		"resource r: t {", "\nresource r: t {\n", "\nvalue v: string\n", "\ntransform \"a\" ==\n", "metadata {", "x = 1"}
	for name, doc := range map[string][]byte{"gen.bp": gen.Blueprint(6, "bp"), "slack.bp": []byte(slackDoc)} {
		if !parsetest.CheckPadPoints(t, name, doc, bplang.PadPoints(doc), true, bplang.Parse, bplang.DefinitionAt) {
			t.Fatalf("%s does not parse clean", name)
		}
		parsetest.CheckPadPointsEdited(t, name, doc, typed, 2500, 10, bplang.PadPoints, bplang.Parse, bplang.DefinitionAt)
	}
}

// FuzzPadPointsBP: on any text that parses clean, every point is an Open
// declaration's first line end, and padding there changes no meaning.
func FuzzPadPointsBP(f *testing.F) {
	f.Add(gen.Blueprint(3, "bp"))
	f.Add([]byte(slackDoc))
	f.Add([]byte("transform \"a\" ==\nresource\nresource a: aws/s3/bucket {\n    s = \"\"\"\nresource b: x {\n\"\"\"\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.CheckPadPoints(t, "fuzz.bp", data, bplang.PadPoints(data), false, bplang.Parse, bplang.DefinitionAt)
	})
}

// BenchmarkPadPointsBP5000 scans a 5,000-resource blueprint.
func BenchmarkPadPointsBP5000(b *testing.B) {
	content := gen.Blueprint(5000, "bp")
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if len(bplang.PadPoints(content)) < 5000 {
			b.Fatal("too few points")
		}
	}
}
