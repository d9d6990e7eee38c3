package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

func formatString(t *testing.T, uri, in string, opts Options) string {
	t.Helper()
	edits, err := Format(uri, []byte(in), opts)
	if err != nil {
		t.Fatalf("Format: %v", err)
	}
	return string(Apply([]byte(in), edits))
}

func TestFormatCases(t *testing.T) {
	def := DefaultOptions()
	tests := []struct {
		name, uri, in, want string
		opts                Options
	}{
		{"yaml indentless sequence", "a.yaml", "a:\n- x\n- y\n", "a:\n  - x\n  - y\n", def},
		{"yaml width 4", "a.yaml", "a:\n  b:\n  - x\n", "a:\n    b:\n        - x\n", Options{IndentWidth: 4, InsertFinalNewline: true}},
		{"yaml colon and dash spacing", "a.yaml", "a:    1\nb:\n  -    x\n  -   c:  2\n      d: 3\n", "a: 1\nb:\n  - x\n  - c: 2\n    d: 3\n", def},
		{"yaml block scalar content moves with its key", "a.yaml", "a:\n      b: |\n            x\n              y\n", "a:\n  b: |\n    x\n      y\n", def},
		{"yaml indentation indicator keeps its distance", "a.yaml", "a:\n    b: |1\n      x\n", "a:\n  b: |1\n    x\n", def},
		{"yaml trailing spaces in block scalars are content", "a.yaml", "a: |\n  x  \nb: y  \n", "a: |\n  x  \nb: y\n", def},
		{"yaml keep chomping keeps trailing lines", "a.yaml", "a: |+\n  x\n\n\n", "a: |+\n  x\n\n\n", def},
		{"yaml no newline after block scalar", "a.yaml", "a: |\n  x", "a: |\n  x", def},
		{"yaml final newline collapsed", "a.yaml", "a: 1\n\n\n", "a: 1\n", def},
		{"yaml final newline inserted", "a.yaml", "a: 1", "a: 1\n", def},
		{"yaml no final newline option", "a.yaml", "a: 1", "a: 1", Options{}},
		{"yaml trailing spaces kept on request", "a.yaml", "a: 1  \n", "a: 1  \n", Options{InsertFinalNewline: true}},
		{"yaml comment follows the entry it precedes", "a.yaml", "a:\n    # c\n    b: 1\n", "a:\n  # c\n  b: 1\n", def},
		{"yaml quoted multi-line keeps its trailing spaces", "a.yaml", "a:\n    b: \"x  \n      y\"\n", "a:\n  b: \"x  \n    y\"\n", def},
		{"yaml flow collection moves as a whole", "a.yaml", "a:\n    b: [1,\n        2]\n", "a:\n  b: [1,\n      2]\n", def},
		{"yaml subst spacing", "a.yaml", "a: ${ f( x ,y ) }\n", "a: ${f(x, y)}\n", def},
		{"yaml subst in flow left alone", "a.yaml", "a: [\"${ x }\"]\n", "a: [\"${ x }\"]\n", def},
		{"yaml subst with escapes left alone", "a.yaml", "a: \"${ f(\\\"x\\\") }\"\n", "a: \"${ f(\\\"x\\\") }\"\n", def},
		{"yaml subst in block scalar left alone", "a.yaml", "a: |\n  ${ x }\n", "a: |\n  ${ x }\n", def},
		{"yaml subst with error left alone", "a.yaml", "a: ${ f( }\n", "a: ${ f( }\n", def},
		{"yaml subst keeps single-quoted names", "a.yaml", "a: ${ x.metadata.annotations[ 'k.v1' ] }\nb: \"${ datasources[ 'core.v1' ][\\\"t\\\"] }\"\nc: \"${ datasources[ 'core.v1' ].t }\"\n",
			"a: ${x.metadata.annotations['k.v1']}\nb: \"${ datasources[ 'core.v1' ][\\\"t\\\"] }\"\nc: \"${datasources['core.v1'].t}\"\n", def},
		{"json subst keeps single-quoted names", "a.json", "{\n  \"a\": \"${ x.spec[ 'k' ] }\"\n}\n", "{\n  \"a\": \"${x.spec['k']}\"\n}\n", def},
		{"yaml keys left alone", "a.yaml", "${ x }: 1\n", "${ x }: 1\n", def},
		{"yaml crlf", "a.yaml", "a:\r\n    b: 1  \r\n", "a:\r\n  b: 1\r\n", def},
		{"json layout", "a.json", `{"a":[1,{"b":null}],"c":{},"d":[]}`, "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}\n", def},
		{"json tabs", "a.json", `{"a":{"b":1}}`, "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}\n", Options{UseTabs: true, InsertFinalNewline: true}},
		{"json subst", "a.json", `{"a": "x ${ f(y,z) } y"}`, "{\n  \"a\": \"x ${f(y, z)} y\"\n}\n", def},
		{"json subst with escapes left alone", "a.json", `{"a": "${ f(\"y\") }"}`, "{\n  \"a\": \"${ f(\\\"y\\\") }\"\n}\n", def},
		{"json keeps one blank line", "a.json", "{\"a\": 1,\n\n\n\"b\": 2}", "{\n  \"a\": 1,\n\n  \"b\": 2\n}\n", def},
		{"jsonc comments", "a.jsonc", "{/* a */\"a\":1,// b\n\"b\":/* c */2 /* d */}", "{ /* a */\n  \"a\": 1, // b\n  \"b\": /* c */ 2 /* d */\n}\n", def},
		{"jsonc trailing comma kept", "a.jsonc", "{\"a\": [1,2,],}", "{\n  \"a\": [\n    1,\n    2,\n  ],\n}\n", def},
		{"jsonc comment in empty object", "a.jsonc", "{\"a\": {\n// nothing\n}}", "{\n  \"a\": {\n    // nothing\n  }\n}\n", def},
		{"jsonc block comment lines move along", "a.jsonc", "{\n      /* x\n      y */\n\"a\": 1}", "{\n  /* x\n  y */\n  \"a\": 1\n}\n", def},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := formatString(t, tt.uri, tt.in, tt.opts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Format(%q) (-want +got):\n%s", tt.in, diff)
			}
			checkProperties(t, tt.uri, []byte(tt.in), tt.opts)
		})
	}
}

func TestFormatRefusesSyntaxErrors(t *testing.T) {
	for _, tt := range []struct{ uri, in, pos string }{
		{"a.yaml", "a: 1\nb: [1, 2\n", "2:4"},
		{"a.json", "{\"a\": 1,}", "1:8"},
		{"a.json", "{\"a\": 1 // c\n}", "1:9"},
	} {
		edits, err := Format(tt.uri, []byte(tt.in), DefaultOptions())
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) || len(edits) > 0 {
			t.Errorf("Format(%q) = %v, %v; want a syntax error and no edits", tt.in, edits, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), tt.pos+":") {
			t.Errorf("Format(%q) error %q, want it at %s", tt.in, err, tt.pos)
		}
	}
}

// TestFormatMinimalEdits checks that edits touch only what changes: a
// document with one bad line gets one small edit, never a rewrite.
func TestFormatMinimalEdits(t *testing.T) {
	in := "a:\n  b: 1\n  c:   2\n  d: 3\n"
	edits, err := Format("a.yaml", []byte(in), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []source.Edit{{Range: source.R(15, 17), NewText: ""}}
	if diff := cmp.Diff(want, edits); diff != "" {
		t.Errorf("edits (-want +got):\n%s", diff)
	}
	in = "{\n  \"a\": 1,\n    \"b\": 2\n}\n"
	edits, err = Format("a.json", []byte(in), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want = []source.Edit{{Range: source.R(14, 16), NewText: ""}}
	if diff := cmp.Diff(want, edits); diff != "" {
		t.Errorf("edits (-want +got):\n%s", diff)
	}
}

func TestFormatRange(t *testing.T) {
	in := "a:    1\nb:    2\nc:    3\n"
	lineRange := func(first, last int) source.Range {
		m := source.NewMapper([]byte(in))
		return source.R(m.LineStart(first), m.LineStart(last+1))
	}
	for _, tt := range []struct {
		name string
		r    source.Range
		want string
	}{
		{"middle line", lineRange(1, 1), "a:    1\nb: 2\nc:    3\n"},
		{"cursor only", source.R(18, 18), "a:    1\nb:    2\nc: 3\n"},
		{"all", lineRange(0, 2), "a: 1\nb: 2\nc: 3\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			edits, err := FormatRange("a.yaml", []byte(in), tt.r, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(Apply([]byte(in), edits))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Re-indenting part of a mapping would break it: the check drops it.
	in = "a:\n    b: 1\n    c: 2\n"
	edits, err := FormatRange("a.yaml", []byte(in), source.R(3, 3), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 0 {
		t.Errorf("partial re-indentation kept: %v", edits)
	}
}
