package syntax_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestDefinitionAtJSON: the definition around an offset of a JSON or
// JSONC text, its lines and whether it is Open.
func TestDefinitionAtJSON(t *testing.T) {
	const doc = "{\n  \"version\": \"x\",\n  \"resources\": {\n    \"a\": {\n      \"type\": \"x\"\n    },\n" +
		"    \"b\" :  {  \n      \"n\": 1\n    },\n    \"c\": 5,\n    \"d\": { \"n\": 1 },\n    \"e\":\n    {\n    }\n  },\n" +
		"  \"values\": {\"v\": {\n  }}\n}\n"
	f := syntax.Parse("f.json", []byte(doc))
	if len(f.Diagnostics) > 0 {
		t.Fatal(f.Diagnostics)
	}
	at := func(s string) int { return bytes.Index([]byte(doc), []byte(s)) }
	lineEnd := func(s string) int { return at(s) + bytes.IndexByte([]byte(doc[at(s):]), '\n') }
	for _, c := range []struct {
		name       string
		start, end int
		ok, open   bool
		defStart   string // the definition starts at this text's line
		defEnd     string // and ends at this one's (or "": the text's end)
	}{
		{"inside the first member", at(`"type"`), at(`"type"`) + 3, true, true, `    "a"`, `    "b"`},
		{"at the key line's end", lineEnd(`"a": {`), lineEnd(`"a": {`), true, true, `    "a"`, `    "b"`},
		{"spaces around the colon and brace", at(`"n": 1`), at(`"n": 1`), true, true, `    "b"`, `    "c"`},
		{"scalar value", at(`5,`), at(`5,`), true, false, `    "c"`, `    "d"`},
		{"object closed on its line", at(`"d"`) + 1, at(`"d"`) + 1, true, false, `    "d"`, `    "e"`},
		{"brace on the next line", at("    {\n    }"), at("    {\n    }"), true, false, `    "e"`, `  "values"`},
		{"last member runs to the next section", at("  },\n  \"values\""), at("  },\n  \"values\""), true, false, `    "e"`, `  "values"`},
		{"key not first on its line", at(`"v"`), at(`"v"`), false, false, "", ""},
		{"across two members", at(`"type"`), at(`"n": 1`), false, false, "", ""},
		{"top-level key", at(`"version"`), at(`"version"`), false, false, "", ""},
		{"section's line", at(`"resources"`) + 2, at(`"resources"`) + 2, false, false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, ok := syntax.DefinitionAt(f, c.start, c.end)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v (%+v)", ok, c.ok, d)
			}
			if !ok {
				return
			}
			end := len(doc)
			if c.defEnd != "" {
				end = at(c.defEnd)
			}
			if d.Start != at(c.defStart) || d.End != end || d.Open != c.open || d.KeyLineEnd != lineEnd(c.defStart) {
				t.Errorf("got %+v, want start %d end %d open %v key line end %d", d, at(c.defStart), end, c.open, lineEnd(c.defStart))
			}
		})
	}
	if _, ok := syntax.DefinitionAt(syntax.Parse("f.json", []byte(doc+",")), at(`"type"`), at(`"type"`)); ok {
		t.Error("a text with a syntax error has a definition")
	}
}

// TestPadPointsJSON: the exact points of JSON and JSONC texts holding
// each hazard a padded line must stay clear of, or that the scan
// declines.
func TestPadPointsJSON(t *testing.T) {
	for _, c := range []struct {
		name, uri, doc string
		unclean        bool // the text does not parse clean
	}{
		{name: "sections", uri: "f.json", doc: "{\n  \"version\": \"x\",\n  \"resources\": {\n    \"a\": {¶\n      \"type\": \"x\"\n    },\n    \"b\": 1,\n    \"c\": {¶\n    }\n  },\n  \"values\": {\n    \"v\": {¶\n      \"type\": \"string\"\n    }\n  }\n}\n"},
		{name: "spaces already there", uri: "f.json", doc: "{\"resources\": {\n  \"a\" :  {   ¶\n    \"n\": 1}}}\n"},
		{name: "crlf", uri: "f.json", doc: "{\r\n \"resources\": {\r\n  \"a\": {¶\r\n   \"n\": 1\r\n  }\r\n }\r\n}\r\n"},
		{name: "lone cr ends no key line", uri: "f.json", doc: "{\r \"resources\": {\r  \"a\": {\r   \"n\": 1\r  }\r }\r}\r"},
		{name: "tab before the key", uri: "f.json", doc: "{\"resources\": {\n\t\"a\": {¶\n\t\t\"n\": 1}}}\n"},
		{name: "tab after the brace", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {\t\n    \"n\": 1}}}\n"},
		{name: "key not first on its line", uri: "f.json", doc: "{\"resources\": {\"a\": {\n  \"n\": 1}, \"b\": {\n  \"n\": 2}}}\n"},
		{name: "value on the key line", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {\"n\": 1,\n    \"m\": 2}}}\n"},
		{name: "brace on the next line", uri: "f.json", doc: "{\"resources\": {\n  \"a\":\n  {\n    \"n\": 1}}}\n"},
		{name: "deeper keys are not definitions", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {¶\n    \"spec\": {\n      \"b\": {\n        \"c\": 1}}}}}\n"},
		{name: "keys in an array are not definitions", uri: "f.json", doc: "{\"resources\": [\n  {\n  \"a\": {\n    \"n\": 1}}]}\n"},
		{name: "array root", uri: "f.json", doc: "[{\"resources\": {\n  \"a\": {\n    \"n\": 1}}}]\n"},
		{name: "object in an array root", uri: "f.json", doc: "[\n {\n  \"a\": {\n  }\n }\n]\n"},
		{name: "strings that look like keys", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {¶\n    \"s\": \"\\\"b\\\": {\", \"t\": \"x\\\\\"\n  },\n  \"c\": {¶\n  }}}\n"},
		{name: "value strings are not keys", uri: "f.json", doc: "{\"resources\": {\n  \"a\":\n  \"b\", \"c\": [\n  \"d\", {\n  \"e\": {\n  }}]}}\n"},
		{name: "comments", uri: "f.jsonc", doc: "// {\"resources\": {\n{\n  /* \"x\": {\n  */ \"resources\": { // \"y\": {\n    \"a\": {¶\n      \"n\": 1 /* } */\n    },\n    \"b\": { // c\n    },\n    /* c */ \"d\": {\n    },\n  },\n}\n"},
		{name: "comment holding a key line", uri: "f.jsonc", doc: "{\"resources\": {\n  /*\n  \"a\": {\n  */\n  \"b\": {¶\n  }}}\n"},
		{name: "byte order mark", uri: "f.json", doc: "\ufeff{\"resources\": {\n  \"a\": {¶\n  }}}\n"},
		{name: "non-ascii keys", uri: "f.json", doc: "{\"resources\": {\n  \"é\\u00e9\": {¶\n  }}}\n"},
		{name: "no line break after the key line", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {", unclean: true},
		{name: "unterminated string", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {\n    \"n\": \"x\n  }}}\n", unclean: true},
		{name: "unterminated comment", uri: "f.jsonc", doc: "{\"resources\": {\n  \"a\": {\n  }}} /*\n", unclean: true},
		{name: "unbalanced", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {\n  ]}}\n", unclean: true},
		{name: "single quotes", uri: "f.json", doc: "{\"resources\": {\n  \"a\": {\n  'n': 1}}}\n", unclean: true},
		{name: "empty", uri: "f.json", doc: "", unclean: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			content, want := parsetest.Unmark(c.doc)
			got := syntax.PadPointsJSON(content)
			if !slices.Equal(got, want) {
				t.Fatalf("points %v, want %v in\n%s", got, want, content)
			}
			if clean := parsetest.CheckPadPoints(t, c.uri, content, got, true, syntax.Parse, syntax.DefinitionAt); clean == c.unclean {
				t.Errorf("parses clean: %v, want %v: %v", clean, !c.unclean, syntax.Parse(c.uri, content).Diagnostics)
			}
		})
	}
}

// TestPadPointsJSONCorpus: on every JSON and JSONC document of the
// testdata and the shared examples, and on generated blueprints, the
// points are exactly the Open definitions' key line ends, and padding
// there changes no meaning.
func TestPadPointsJSONCorpus(t *testing.T) {
	parsetest.CheckPadPointsCorpus(t, []string{".json", ".jsonc"}, gen.Blueprint(1000, "json"), 20, 1000, syntax.PadPointsJSON, syntax.Parse, syntax.DefinitionAt)
}

// TestPadPointsJSONEdited: soundness on texts a few random edits away
// from real ones, edits that type what changes JSON's structure.
func TestPadPointsJSONEdited(t *testing.T) {
	typed := []string{"\n", "\n  ", " ", "\t", ":", ",", "\"", "\\", "{", "}", "[", "]", "//", "/*", "*/", "x", "1", "\r\n", "\r", "'"}
	for name, doc := range map[string][]byte{"gen.json": gen.Blueprint(6, "json"), "gen.jsonc": gen.Blueprint(6, "json")} {
		if !parsetest.CheckPadPoints(t, name, doc, syntax.PadPointsJSON(doc), true, syntax.Parse, syntax.DefinitionAt) {
			t.Fatalf("%s does not parse clean", name)
		}
		parsetest.CheckPadPointsEdited(t, name, doc, typed, 2500, 5, syntax.PadPointsJSON, syntax.Parse, syntax.DefinitionAt)
	}
}

// FuzzPadPointsJSON: on any JSONC text that parses clean, every point is
// an Open definition's key line end, and padding there changes no
// meaning.
func FuzzPadPointsJSON(f *testing.F) {
	f.Add(gen.Blueprint(3, "json"))
	f.Add([]byte("{\"resources\": {\n  /*\n  \"a\": {\n  */\n  \"b\": {\n  \"s\": \"\\\"c\\\": {\"}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.CheckPadPoints(t, "fuzz.jsonc", data, syntax.PadPointsJSON(data), false, syntax.Parse, syntax.DefinitionAt)
	})
}

// BenchmarkPadPointsJSON5000 scans a 5,000-resource JSON blueprint.
func BenchmarkPadPointsJSON5000(b *testing.B) {
	content := gen.Blueprint(5000, "json")
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if len(syntax.PadPointsJSON(content)) < 5000 {
			b.Fatal("too few points")
		}
	}
}

// TestBlockComments: the block comments of JSON texts, not those inside
// strings or line comments, one that does not end running to the end.
func TestBlockComments(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want []string
	}{
		{"{/* a */ \"x\": 1 /* b\n c */}", []string{"/* a */", "/* b\n c */"}},
		{"{\"s\": \"/* not\", \"t\": \"\\\" /* not\" // /* not\n}", nil},
		{"{\"s\": \"open /* not\n/* yes */}", []string{"/* yes */"}},
		{"{// x /* not\n\"a\": 1} /* open", []string{"/* open"}},
		{"/*/ x */", []string{"/*/ x */"}},
		{"/", nil},
	} {
		var got []string
		for _, r := range syntax.BlockComments([]byte(c.doc)) {
			got = append(got, c.doc[r.Start:r.End])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.doc, got, c.want)
		}
	}
}
