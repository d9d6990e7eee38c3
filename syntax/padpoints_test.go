package syntax_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

func parseYAML(uri string, content []byte) *syntax.File {
	f := syntax.ParseYAML(content)
	f.URI = uri
	return f
}

// TestPadPointsYAML: the exact points of texts holding each hazard a
// padded line must stay clear of, or that the scan declines.
func TestPadPointsYAML(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  string
		// unclean says the text does not parse clean (the points are
		// then only what the scan gives, asserted as marked); declined
		// that it does, but the scan declines some of its definitions.
		unclean, declined bool
	}{
		{name: "sections", doc: "version: 2025-11-02\nresources:\n  a:¶\n    type: x\n  b: 1\n  c:¶\n    - 1\nvalues:\n  v:¶\n    type: string\n"},
		{name: "spaces already there", doc: "resources:\n  a:   ¶\n    type: x\n"},
		{name: "crlf", doc: "resources:\r\n  a:¶\r\n    type: x\r\n  b:  ¶\r\n    type: y\r\n"},
		{name: "lone cr ends no key line", doc: "resources:\r  a:\r    type: x\r"},
		{name: "comment after the colon", doc: "resources:\n  a: # note\n    type: x\n"},
		{name: "comment on the section's line", doc: "resources: # all\n  a:¶\n    type: x\n"},
		{name: "tab after the colon", doc: "resources:\n  a:\t\n    type: x\n  b:¶\n    type:\tx\n"},
		{name: "empty values", doc: "resources:\n  a:\n  b:¶\n    x: 1\n  c:\nvalues:\n  d:\n"},
		{name: "key line at the end", doc: "resources:\n  a:¶\n    x: 1\n  b:"},
		{name: "indentless sequence value", doc: "resources:\n  a:¶\n  - 1\n  b:¶\n    x: 1\n"},
		{name: "value after a dedented comment", doc: "resources:\n  a:¶\n# c\n    x: 1\n"},
		{name: "quoted keys", doc: "resources:\n  \"a b\":¶\n    x: 1\n  'c''d':¶\n    x: 1\n  \"e\\\"\" :¶\n    x: 1\n"},
		{name: "space before the colon", doc: "resources:\n  a :¶\n    x: 1\n"},
		{name: "colon in a plain key", doc: "resources:\n  a:b:¶\n    x: 1\n"},
		{name: "deeper keys are not definitions", doc: "resources:\n  a:¶\n    spec:\n      b:\n        c: 1\n"},
		{name: "section block scalar", doc: "notes: |\n  a:\n    b: 1\nresources:\n  r:¶\n    type: x\n"},
		{name: "section folded scalar", doc: "notes: >-\n  a:\n\n  b:\nresources:\n  r:¶\n    type: x\n"},
		{name: "block scalar with key lines", doc: "resources:\n  a:¶\n    script: |\n      text:\n        more:\n  b:¶\n    x: 1\n"},
		{name: "block scalar, explicit indentation", doc: "resources:\n  a:¶\n    s: |2\n        deep:\n      y:\n  b:¶\n    x: 1\n"},
		{name: "block scalar, empty lines", doc: "resources:\n  a:¶\n    s: |+\n\n      t\n\n  b:¶\n    x: 1\n"},
		{name: "block scalar ended by a less indented comment", doc: "resources:\n  a:¶\n    s: |\n        t\n      # c\n  b:¶\n    x: 1\n"},
		{name: "block scalar in a sequence", doc: "resources:\n  a:¶\n    l:\n    - |\n      x:\n  b:¶\n    x: 1\n"},
		{name: "multi-line double quotes", doc: "resources:\n  a:¶\n    d: \"one\n  b:\n  two\"\n  c:¶\n    x: 1\n"},
		{name: "escaped line break", doc: "resources:\n  a:¶\n    d: \"one\\\n  b:\n  \"\n  c:¶\n    x: 1\n"},
		{name: "escaped quote and backslash", doc: "resources:\n  a:¶\n    d: \"x\\\\\"\n  b:¶\n    d: \"\\\"\n  c:\n  \"\n"},
		{name: "multi-line single quotes", doc: "resources:\n  a:¶\n    d: 'it''s\n  b:\n  '\n  c:¶\n    x: 1\n"},
		{name: "flow mapping across lines", doc: "resources:\n  a:¶\n    d: {x: 1,\n  b: 2}\n  c:¶\n    x: 1\n"},
		{name: "flow sequence across lines with comments", doc: "resources:\n  a:¶\n    d: [1, # ]\n  b:,\n  'c:']\n  c:¶\n    x: 1\n"},
		{name: "plain scalar continued", doc: "resources:\n  a:¶\n    d: one\n      \"two\n  b:¶\n    x: 1\n  c:¶\n    y: \"z\"\n"},
		{name: "plain scalar continued with quotes and dashes", doc: "resources:\n  a:¶\n    d: one\n     - 'two\n  b:¶\n    y: x\n"},
		{name: "quote inside a plain scalar", doc: "resources:\n  a:¶\n    d: it's\n  b:¶\n    y: x'\n"},
		{name: "quote inside a flow plain scalar", doc: "resources:\n  a:¶\n    d: [it's, x]\n  b:¶\n    y: 1\n"},
		{name: "hash without a blank", doc: "resources:\n  a#b:¶\n    d: x#y\n  c:¶\n    y: 1\n"},
		{name: "comments", doc: "# top\nresources:\n  # a:\n  a:¶\n    x: 1 # b:\n    # c:\n"},
		{name: "document start", doc: "---\nresources:\n  a:¶\n    x: 1\n"},
		{name: "document start with a comment", doc: "# c\n--- # c\nresources:\n  a:¶\n    x: 1\n"},
		{name: "document end", doc: "resources:\n  a:¶\n    x: 1\n  b:\n...\n# after\n"},
		{name: "byte order mark", doc: "\ufeffresources:\n  a:¶\n    x: 1\n"},
		{name: "indented root", doc: "  resources:\n    a:¶\n      x: 1\n"},
		{name: "sequence section", doc: "resources:\n  - a:\n      x: 1\n"},
		{name: "indentless sequence section", doc: "resources:\n- a:\n    x: 1\n  b:\n    y: 1\nvalues:\n  v:¶\n    x: 1\n"},
		{name: "section value on its line", doc: "resources: {a: {x: 1}}\nvalues: [1,\n  2]\nexports:\n  e:¶\n    x: 1\n"},
		{name: "flow root", doc: "{resources: {a: {x: 1}}}\n"},
		{name: "root sequence", doc: "- resources:\n    a:\n      x: 1\n"},
		{name: "empty", doc: ""},
		{name: "unicode line breaks", doc: "resources:\n  a:¶\n    x: \"1\u2028  b:\n  \"\n  c:\u0085    x: 1\n  d:¶\n    x: 1\n"},
		{name: "non-ascii keys", doc: "resources:\n  é:¶\n    x: ü\n  \"ö\":¶\n    x: 1\n"},
		{name: "anchor", doc: "resources:\n  &k a:\n    x: 1\n", unclean: true},
		{name: "alias", doc: "resources:\n  a:\n    x: *k\n", unclean: true},
		{name: "tag", doc: "resources:\n  a:\n    x: !!str 1\n", unclean: true},
		{name: "complex key", doc: "resources:\n  ? a\n  : x\n  b:\n    x: 1\n", declined: true},
		{name: "second document", doc: "resources:\n  a:\n    x: 1\n---\nb: 1\n", unclean: true},
		{name: "directive", doc: "%YAML 1.1\n---\nresources:\n  a:\n    x: 1\n", declined: true},
		{name: "tab indentation", doc: "resources:\n  a:\n\tx: 1\n", unclean: true},
		{name: "half-typed key", doc: "resources:\n  a:\n    x: 1\nvalu\nvalues:\n  v:\n    x: 1\n", unclean: true},
		{name: "half-typed key in a section", doc: "resources:\n  a:\n    x: 1\n  b\n  c:\n    x: 1\n", unclean: true},
		{name: "quoted scalar where a key must be", doc: "resources:\n  a:\n    x: 1\n  'b'\n", unclean: true},
		{name: "unclosed flow mapping", doc: "resources:\n  a:\n    x: {y: 1\n", unclean: true},
		{name: "unclosed quote", doc: "resources:\n  a:\n    x: \"1\n  b:\n", unclean: true},
		{name: "long key", doc: "resources:\n  " + strings.Repeat("k", 1100) + ":\n    x: 1\n", unclean: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			content, want := parsetest.Unmark(c.doc)
			got := syntax.PadPoints(content)
			if !slices.Equal(got, want) {
				t.Fatalf("points %v, want %v in\n%s", got, want, content)
			}
			if clean := parsetest.CheckPadPoints(t, c.name, content, got, !c.declined, parseYAML, syntax.DefinitionAt); clean == c.unclean {
				t.Errorf("parses clean: %v, want %v: %v", clean, !c.unclean, syntax.Parse("", content).Diagnostics)
			}
		})
	}
}

// TestPadPointsYAMLCorpus: on every YAML document of the testdata and
// the shared examples, and on generated blueprints, the points are
// exactly the Open definitions' key line ends, and padding there changes
// no meaning.
func TestPadPointsYAMLCorpus(t *testing.T) {
	parsetest.CheckPadPointsCorpus(t, []string{".yaml", ".yml"}, gen.Blueprint(1000, "yaml"), 100, 2000, syntax.PadPoints, parseYAML, syntax.DefinitionAt)
}

// TestPadPointsYAMLEdited: soundness on texts a few random edits away
// from real ones, edits that type what changes YAML's structure (line
// breaks and indentation, quotes, brackets, block scalar headers,
// comments, document markers).
func TestPadPointsYAMLEdited(t *testing.T) {
	typed := []string{"\n", "\n  ", "\n    ", "  ", ":", ": ", "- ", "\"", "'", "\\", "[", "]", "{", "}", ",", "|", ">-", "|2", "#", " #", "\t", "---\n", "...\n", "?", "x", "\r\n"}
	for name, doc := range map[string][]byte{"gen.yaml": gen.Blueprint(6, "yaml"), "hazards.yaml": []byte(hazards)} {
		if !parsetest.CheckPadPoints(t, name, doc, syntax.PadPoints(doc), true, parseYAML, syntax.DefinitionAt) {
			t.Fatalf("%s does not parse clean", name)
		}
		parsetest.CheckPadPointsEdited(t, name, doc, typed, 2500, 4, syntax.PadPoints, parseYAML, syntax.DefinitionAt)
	}
}

// hazards is a text of many of TestPadPointsYAML's cases in one.
const hazards = "version: 2025-11-02\nnotes: |\n  a:\n    b: 1\nresources:\n  a:\n    script: |\n      text:\n        more:\n" +
	"    d: \"one\n  b:\n  two\"\n    e: 'it''s\n  b:\n  '\n  c:\n    d: {x: 1,\n  b: 2}\n    f: one\n      \"two\n" +
	"  g:\n  - 1\n  \"h i\" :\n    l: [1, # ]\n  b:,\n  'c:']\n  k:\nvalues:\n  v:\n    x: >-\n      y\n\n      z\n"

// FuzzPadPointsYAML: on any text that parses clean, every point is an
// Open definition's key line end, and padding there changes no meaning.
func FuzzPadPointsYAML(f *testing.F) {
	f.Add(gen.Blueprint(3, "yaml"))
	f.Add([]byte(hazards))
	f.Add([]byte("resources:\n  a:\n    d: \"one\n  b:\n  two\"\n  c:\n    s: |\n      x:\n  e:\n  - 1\n"))
	f.Add([]byte("resources:\n  a:\n    d: [1, # ]\n  b:,\n  'c:']\n  c:\n    d: one\n      \"two\n  e:\n    x: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.CheckPadPoints(t, "fuzz.yaml", data, syntax.PadPoints(data), false, parseYAML, syntax.DefinitionAt)
	})
}

// BenchmarkPadPoints5000 scans a 5,000-resource blueprint.
func BenchmarkPadPoints5000(b *testing.B) {
	content := gen.Blueprint(5000, "yaml")
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if len(syntax.PadPoints(content)) < 5000 {
			b.Fatal("too few points")
		}
	}
}
