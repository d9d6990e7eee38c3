package syntax_test

import (
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// jsonDocs are the JSON and JSONC documents the random edits start
// from: generated blueprints (one named .jsonc, so comments and trailing
// commas are allowed in it) and real ones.
func jsonDocs(t testing.TB) map[string][]byte {
	return withFiles(t, map[string][]byte{"gen.json": gen.Blueprint(20, "json"), "gen.jsonc": gen.Blueprint(12, "json")},
		"testdata/parse/*.json", "testdata/parse/*.jsonc", "../testdata/examples/valid/*.json",
		"../testdata/bluelink-provider-aws/resources-*.jsonc", "../../shared/examples/valid/*.json")
}

// jsonEdits are what the random edits type into JSON: values, commas,
// colons, brackets and braces, quotes and escapes, comments of both
// kinds (and their ends), new members, line breaks.
var jsonEdits = []string{"x", "9", " ", "\n", "\n    ", ",", ":", "\"", "\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "{", "}", "[", "]",
	"//", "/*", "*/", "/* c */", "// c\n", ", \"k\": 1", "\"k\": [1, 2],", "\"extra\": {\"a\": true}", ",\n  \"r9\": {}",
	"null", "true", "-1.5e3", "'", "é", "\r\n", "\t"}

// TestReparseJSONCases pins which edits of a JSON or JSONC document are
// spliced and which are parsed whole, for each hazard of the format.
func TestReparseJSONCases(t *testing.T) {
	const base = `{
  "version": "2025-11-02",
  "resources": {
    "a": {
      "type": "x",
      "spec": {"n": 1, "s": "t\"q\u00e9"}
    },
    "b": {"type": "y"},
    "c": 5
  },
  "exports": {
    "e": {"type": "string"}
  }
}
`
	const jsonc = `{
  // the version
  "version": "2025-11-02",
  "resources": {
    "a": {
      "type": "x", /* inline */
      "spec": {"n": 1,}
    },
    /* between
       members */
    "b": {"type": "y"},
  },
}
`
	for _, c := range []struct {
		name, uri, doc, from, to string
		spliced                  bool
	}{
		{"value inside a member", "f.json", base, `"n": 1`, `"n": 22`, true},
		{"new field in a member", "f.json", base, `"type": "x",`, `"type": "x", "m": [1, {}],`, true},
		{"key of a member", "f.json", base, `"b": {`, `"bb": {`, true},
		{"key emptied", "f.json", base, `"b": {`, `"": {`, true},
		{"duplicate key", "f.json", base, `"b": {`, `"a": {`, true},
		{"scalar member", "f.json", base, `"c": 5`, `"c": 56`, true},
		{"scalar member made an object", "f.json", base, `"c": 5`, `"c": {"x": 5}`, true},
		{"escape edited", "f.json", base, `t\"q`, `t\\q`, true},
		{"escape broken", "f.json", base, `\u00e9`, `\u00g9`, false},
		{"quote ends the string early", "f.json", base, `t\"q`, `t"q`, false},
		{"last member of the last section", "f.json", base, `"type": "string"`, `"type": "str"`, true},
		{"comma after a member removed", "f.json", base, "    },\n    \"b\"", "    }\n    \"b\"", false},
		{"comma added after the last member", "f.json", base, `"c": 5`, `"c": 5,`, false},
		{"member removed", "f.json", base, "    \"b\": {\"type\": \"y\"},\n", "", false},
		{"new member after a value", "f.json", base, `"c": 5`, `"c": 5, "d": 6`, false},
		{"opening brace of a member", "f.json", base, `"a": {`, `"a": [`, false},
		{"closing brace of a member removed", "f.json", base, "\"y\"},", "\"y\",", false},
		{"closing brace of a member added", "f.json", base, `"spec": {"n": 1,`, `"spec": {}}, "n": 1,`, false},
		{"first quote of a key", "f.json", base, `"b": {`, `b": {`, false},
		{"brace of a section", "f.json", base, "\"exports\": {", "\"exports\": [", false},
		{"top-level value", "f.json", base, "2025-11-02", "2023-04-20", false},
		{"comment in JSON", "f.json", base, `"n": 1`, `"n": /* c */ 1`, false},
		{"comment in JSONC", "f.jsonc", jsonc, `"type": "x", /* inline */`, `"type": "x", /* in */ // line` + "\n", true},
		{"comment opened in JSONC", "f.jsonc", jsonc, `/* inline */`, `/* inline`, false},
		{"comment opened that another closes", "f.jsonc", jsonc, `"spec": {"n": 1,}`, `"spec": {"n": 1 /*,}`, false},
		{"comment between members", "f.jsonc", jsonc, "between", "betwixt", false},
		{"trailing comma in JSONC", "f.jsonc", jsonc, `{"n": 1,}`, `{"n": 1}`, true},
		{"trailing comma in JSON", "f.json", base, `{"n": 1,`, `{"n": 1,,`, false},
		{"same text", "f.json", base, `"n": 1`, `"n": 1`, true},
		{"line break in a value", "f.json", base, `"type": "x",`, "\"type\":\r\n\"x\",", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			prev := syntax.Parse(c.uri, []byte(c.doc))
			if len(prev.Diagnostics) > 0 {
				t.Fatalf("the base document has diagnostics: %v", prev.Diagnostics)
			}
			next := []byte(replaceOnce(c.doc, c.from, c.to))
			got, spliced := Reparse(prev, next)
			if spliced != c.spliced {
				t.Errorf("spliced %v, want %v", spliced, c.spliced)
			}
			if diff := sameParse(c.uri, got); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestReparseJSONLeavesPrevAlone checks that a JSON splice shares the
// nodes before the edit, moves those after it and changes none of prev's,
// and says what it re-parsed (File.Spliced).
func TestReparseJSONLeavesPrevAlone(t *testing.T) {
	data := gen.Blueprint(6, "json")
	prev := syntax.Parse("f.json", data)
	before := syntax.Parse("f.json", data)
	at := bytesIndex(data, `"visibilityTimeout": 45`) + len(`"visibilityTimeout": 4`)
	text := append(append(append([]byte{}, data[:at]...), '1'), data[at:]...)
	next, spliced := Reparse(prev, text)
	if !spliced {
		t.Fatal("an edit inside a resource was not spliced")
	}
	if !reflect.DeepEqual(prev.Root, before.Root) {
		t.Fatal("Reparse changed the previous tree")
	}
	if next.Root.(*syntax.Mapping).Entries[0] != prev.Root.(*syntax.Mapping).Entries[0] {
		t.Error("the first top-level entry, before the edit, was copied rather than shared")
	}
	sp, ok := next.Spliced(prev)
	if !ok || sp.Delta != 1 || sp.Start >= at || sp.End <= at || data[sp.Start] != '"' {
		t.Errorf("Spliced = %+v, %v; want the member around offset %d, moved by 1", sp, ok, at)
	}
}

// FuzzReparseJSON edits a generated JSON (or, named .jsonc, JSONC)
// blueprint at a fuzzed offset and checks that the reparsed tree is the
// whole parse's.
func FuzzReparseJSON(f *testing.F) {
	base := gen.Blueprint(4, "json")
	f.Add(uint16(900), uint8(0), "x", false)
	f.Add(uint16(1500), uint8(3), `, "extra": [1, 2]`, false)
	f.Add(uint16(400), uint8(1), `"`, true)
	f.Add(uint16(2000), uint8(0), "/* c */", true)
	f.Add(uint16(700), uint8(2), `\u00e9`, false)
	prevs := map[bool]*syntax.File{false: syntax.Parse("f.json", base), true: syntax.Parse("f.jsonc", base)}
	f.Fuzz(func(t *testing.T, at uint16, del uint8, insert string, jsonc bool) {
		checkFuzzedEdit(t, prevs[jsonc], at, del, insert)
	})
}

// BenchmarkSpliceJSON is an edit inside one resource in the middle of a
// generated JSON blueprint of n resources, spliced (SpliceAt told the
// edit, as the language server tells it) from the version before;
// BenchmarkParseJSONWhole parses the same texts whole.
func BenchmarkSpliceJSON(b *testing.B) { benchReparse(b, "json", told, 1000, 5000) }

// BenchmarkParseJSONWhole is BenchmarkSpliceJSON's texts parsed whole.
func BenchmarkParseJSONWhole(b *testing.B) { benchReparse(b, "json", whole, 1000, 5000) }
