package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestParseGolden parses every file under testdata/parse and compares the
// printed tree (ranges, values, segment maps, diagnostics) with its golden.
func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/parse/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".golden") {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			content, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := Parse(path, content)
			checkFile(t, f)
			testutil.Golden(t, path+".golden", dump(f), *update)
		})
	}
	if n == 0 {
		t.Fatal("no golden inputs")
	}
}

// TestParseExamples parses the repository's example blueprints: valid ones
// without syntax diagnostics, all of them with sound trees.
func TestParseExamples(t *testing.T) {
	var paths []string
	filepath.WalkDir("../testdata/examples", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonc")) {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skip("no examples")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			content, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := Parse(p, content)
			checkFile(t, f)
			if f.Root == nil {
				t.Fatalf("no tree: %v", f.Diagnostics)
			}
			if strings.Contains(p, "/valid/") && len(f.Diagnostics) > 0 {
				t.Errorf("unexpected diagnostics: %v", f.Diagnostics)
			}
		})
	}
}

// errorSpans renders diagnostics as "line:col-line:col code" (UTF-16).
func errorSpans(f *File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		l1, c1 := f.Mapper.LineCol(d.Range.Start, source.UTF16)
		l2, c2 := f.Mapper.LineCol(d.Range.End, source.UTF16)
		out = append(out, spanString(l1, c1, l2, c2)+" "+d.Code)
	}
	return out
}

func spanString(l1, c1, l2, c2 int) string {
	return itoa(l1) + ":" + itoa(c1) + "-" + itoa(l2) + ":" + itoa(c2)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestYAMLSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"second mapping value", "a: b: c\n", []string{"1:5-1:6 yaml-syntax"}},
		{"dedented key", "a:\n  b: 1\n c: 2\n", []string{"3:2-3:3 yaml-syntax"}},
		{"sequence after mapping", "version: x\nresources: {}\n- b\n", []string{"3:1-3:2 yaml-syntax"}},
		{"junk after quoted", "a: \"x\" y\n", []string{"1:8-1:9 yaml-syntax"}},
		{"unterminated single quote", "a: 1\nb: 'abc\n", []string{"2:4-2:5 yaml-syntax"}},
		{"bad token", "a:\n  b: @c\n", []string{"2:6-2:8 yaml-syntax"}},
		{"tab indentation", "a:\n\tb: 1\n", []string{"2:1-2:2 yaml-syntax"}},
		{"unknown escape", "x: 1\ny: \"ab\\qc\"\n", []string{"2:7-2:9 yaml-syntax"}},
		{"unknown escape after good ones", "x: \"\\0\\a\\t\\/\"\n", []string{"1:11-1:13 yaml-syntax"}},
		{"bad hex escape", "x: \"\\u00g1\"\n", []string{"1:5-1:7 yaml-syntax"}},
		{"deep error", strings.Repeat("k: v\n", 40) + "bad: x: y\n", []string{"41:7-41:8 yaml-syntax"}},
		{"unclosed flow sequence", "a: [1, 2\n", []string{"1:4-1:5 yaml-syntax"}},
		{"non-ascii line", "ключ: значение: x\n", []string{"1:15-1:16 yaml-syntax"}},
		{"anchor and alias", "a: &x 1\nb: *x\n", []string{"1:4-1:6 yaml-anchor", "2:4-2:6 yaml-anchor"}},
		{"tag", "a: !!str 1\n", []string{"1:4-1:9 yaml-tag"}},
		{"two documents", "a: 1\n---\nb: 2\n", []string{"2:1-2:4 yaml-multiple-documents"}},
		{"explicit first document", "---\na: 1\n---\nb: 2\n", []string{"3:1-3:4 yaml-multiple-documents"}},
		{"broken second document", "a: 1\n---\nb: [\n", []string{"2:1-2:4 yaml-multiple-documents", "3:4-3:5 yaml-syntax"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseYAML([]byte(tt.src))
			checkFile(t, f)
			if diff := cmp.Diff(tt.want, errorSpans(f)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%v", diff, f.Diagnostics)
			}
			for _, d := range f.Diagnostics {
				if d.Code == "yaml-syntax" && f.Root != nil && !strings.Contains(tt.name, "second") {
					t.Errorf("tree built despite a syntax error")
				}
			}
		})
	}
}

func TestJSONSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		name, src string
		jsonc     bool
		want      []string
		msg       string // a substring of the first message
	}{
		{"missing comma", "{\"a\": 1\n \"b\": 2}", false, []string{"2:2-2:5 json-syntax"}, "expected ',' or '}' after object member"},
		{"missing colon", `{"a" 1}`, false, []string{"1:6-1:7 json-syntax"}, "expected ':' after object key"},
		{"trailing comma json", `{"a": [1,],}`, false, []string{"1:9-1:10 json-syntax", "1:11-1:12 json-syntax"}, "trailing commas"},
		{"trailing comma jsonc", `{"a": [1,],}`, true, nil, ""},
		{"comment json", "{\n// c\n\"a\": 1}", false, []string{"2:1-2:5 json-syntax"}, "comments are not allowed"},
		{"comment jsonc", "{\n/* c */\n\"a\": 1}", true, nil, ""},
		{"unterminated object", `{"a": 1`, false, []string{"1:8-1:8 json-syntax"}, "expected ',' or '}'"},
		{"unterminated string", "{\"a\": \"x\n}", false, []string{"1:7-1:8 json-syntax"}, "unterminated string"},
		{"bad escape", `["a\qb"]`, false, []string{"1:4-1:6 json-syntax"}, "invalid escape"},
		{"bad number", `[01, 1.]`, false, []string{"1:2-1:4 json-syntax", "1:6-1:8 json-syntax"}, "invalid number"},
		{"bare word", `{"a": yes}`, false, []string{"1:7-1:10 json-syntax"}, "expected a JSON value"},
		{"several errors", "{\"a\": 1 \"b\": 2, \"c\" 3, \"d\": }", false, []string{"1:9-1:12 json-syntax", "1:21-1:22 json-syntax", "1:29-1:30 json-syntax"}, "expected"},
		{"after top level", `{} {}`, false, []string{"1:4-1:5 json-syntax"}, "after the top-level value"},
		{"empty", "  ", false, []string{"1:3-1:3 json-syntax"}, "end of input"},
		{"non-ascii column", "{\"ü😀\": 1 2}", false, []string{"1:11-1:12 json-syntax"}, "expected ',' or '}'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseJSON([]byte(tt.src), tt.jsonc)
			checkFile(t, f)
			if diff := cmp.Diff(tt.want, errorSpans(f)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%v", diff, f.Diagnostics)
			}
			if tt.msg != "" && len(f.Diagnostics) > 0 && !strings.Contains(f.Diagnostics[0].Message, tt.msg) {
				t.Errorf("message %q does not contain %q", f.Diagnostics[0].Message, tt.msg)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		uri, content string
		want         Format
	}{
		{"file:///a.yaml", "{}", YAML},
		{"file:///a.YML", "", YAML},
		{"file:///a.json", "a: 1", JSON},
		{"file:///a.jsonc?x=1", "", JSONC},
		{"file:///a.txt", "  // c\n/* d */ {\"a\": 1}", JSONC},
		{"file:///a.txt", "# {\nversion: x", YAML},
		{"file:///a.blueprint", "  // c\n/* d */ {\"a\": 1}", BP},
		{"file:///project.BP", "version: x", BP},
		{"untitled:1", "\ufeff{}", JSONC},
	}
	for _, tt := range tests {
		if got := FormatOf(tt.uri, []byte(tt.content)); got != tt.want {
			t.Errorf("FormatOf(%q, %q) = %v, want %v", tt.uri, tt.content, got, tt.want)
		}
	}
}

func TestResolvePlain(t *testing.T) {
	tests := map[string]ScalarTag{
		"": NullTag, "~": NullTag, "null": NullTag, "NULL": NullTag, "nulls": StringTag,
		"true": BoolTag, "False": BoolTag, "yes": StringTag, "on": StringTag,
		"0": IntTag, "-12": IntTag, "+7": IntTag, "0x1F": IntTag, "0o17": IntTag, "0o8": StringTag, "0xg": StringTag,
		"1.5": FloatTag, ".5": FloatTag, "1.": FloatTag, "1e3": FloatTag, "-1.5E-3": FloatTag, ".inf": FloatTag, "-.Inf": FloatTag, ".nan": FloatTag,
		".": StringTag, "1e": StringTag, "2023-04-20": StringTag, "2001-12-14t21:59:43.10-05:00": StringTag, "1_000": StringTag, "12:30": StringTag,
	}
	for in, want := range tests {
		if got := resolvePlain(in); got != want {
			t.Errorf("resolvePlain(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestYAMLMapsMatchSource checks, for scalars in every style, that mapping
// a decoded substring back gives the source text it came from.
func TestYAMLMapsMatchSource(t *testing.T) {
	src := "a: \"x ${variables.env} y\"\nb: 'it''s ${values.v}'\nc: |\n  line\n  ${resources.r1.spec.name}\nd: >\n  fold\n  ${variables.env}\ne: pre\n  ${variables.env}\nf: \"\\t${variables.env}\"\n"
	f := ParseYAML([]byte(src))
	checkFile(t, f)
	root := f.Root.(*Mapping)
	want := map[string]string{"a": "${variables.env}", "b": "${values.v}", "c": "${resources.r1.spec.name}", "d": "${variables.env}", "e": "${variables.env}", "f": "${variables.env}"}
	for _, e := range root.Entries {
		s := e.Value.(*Scalar)
		sub := want[e.Key.Value]
		i := strings.Index(s.Value, sub)
		if i < 0 {
			t.Fatalf("%s: %q lacks %q", e.Key.Value, s.Value, sub)
		}
		r := s.OffsetMap().Range(i, i+len(sub))
		if got := src[r.Start:r.End]; got != sub {
			t.Errorf("%s: map gives %q, want %q", e.Key.Value, got, sub)
		}
	}
}

// TestParseNeverPanics feeds inputs that once upset the parser or are
// easy to get wrong.
func TestParseNeverPanics(t *testing.T) {
	inputs := []string{"", "\ufeff", "\xff\xfe", "-", ":", "? ", "{", "[", "\"", "'", "|", ">", "a: |", "a: |9\n", "&", "*", "!",
		"a: \"\\", "a: \"\\x4", "a: \"\\U0001F6", "\r", "\r\r\n", "a:\u2028b", "a: b\u0085c", "{\"a\":\"\\ud800\"}", "[" + strings.Repeat("[", 20000),
		strings.Repeat("- ", 5000) + "x", "a: !<tag:x> b", "? [a]\n: b", "[a: 1]", "{a, b}", "a: 'x\n\n  y'"}
	for _, in := range inputs {
		for _, f := range []*File{ParseYAML([]byte(in)), ParseJSON([]byte(in), true), ParseJSON([]byte(in), false)} {
			checkFile(t, f)
		}
	}
}
