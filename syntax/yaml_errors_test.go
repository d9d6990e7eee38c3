package syntax

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestYAMLSyntaxErrorMessages pins the position, wording, related
// information and fix of each kind of YAML mistake.
func TestYAMLSyntaxErrorMessages(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // span message
		related   []string
		fix       string // the document after the first suggestion, if any
	}{
		// Constructs left open: at the opener, with the end of input.
		{"unclosed flow sequence", "a: [1, 2\n", "1:4-1:5 '[' is never closed: add ']' after its last item", []string{"2:1-2:1 the document ends here without a ']'"}, ""},
		{"unclosed flow sequence mid-file", "a: [1, 2\nb: 3\nc: [4]\n", "1:4-1:5 '[' is never closed: add ']' after its last item", []string{"4:1-4:1 the document ends here without a ']'"}, ""},
		{"unclosed flow mapping", "x:\n  y: {b: 1\n", "2:6-2:7 '{' is never closed: add '}' after its last item", []string{"3:1-3:1 the document ends here without a '}'"}, ""},
		{"unclosed inner flow", "a: [1, [2, 3]\n", "1:4-1:5 '[' is never closed: add ']' after its last item", []string{"2:1-2:1 the document ends here without a ']'"}, ""},
		{"empty unclosed flow", "a: [\n", "1:4-1:5 '[' is never closed: add ']' after its last item", []string{"2:1-2:1 the document ends here without a ']'"}, ""},
		{"mismatched closer", "a: [1, }\n", "1:8-1:9 '}' cannot close the '[' opened before it: expected ']'", []string{"1:4-1:5 '[' opened here"}, ""},
		{"stray closer", "a: [1, 2]]\n", "1:10-1:11 ']' closes nothing: no '[' is open here", nil, "a: [1, 2]\n"},
		{"unterminated double quote", "a: \"abc\n", "1:4-1:5 unterminated double-quoted string started here: add the closing \"", []string{"2:1-2:1 the document ends here, inside the string"}, ""},
		{"unterminated double quote no newline", "a: 1\nb: \"abc", "2:4-2:5 unterminated double-quoted string started here: add the closing \"", []string{"2:8-2:8 the document ends here, inside the string"}, ""},
		{"unterminated single quote", "a: 1\nb: 'it''s\nc: 2\n", "2:4-2:5 unterminated single-quoted string started here: add the closing '", []string{"4:1-4:1 the document ends here, inside the string"}, ""},
		{"unterminated quote after closed ones", "a: \"x\"\nb: 'y'\nc: \"z\n", "3:4-3:5 unterminated double-quoted string started here: add the closing \"", []string{"4:1-4:1 the document ends here, inside the string"}, ""},
		{"unterminated quote in flow", "a: [\"x, y]\n", "1:5-1:6 unterminated double-quoted string started here: add the closing \"", []string{"2:1-2:1 the document ends here, inside the string"}, ""},
		{"substitution in flow", "a: [${variables.env}]\n", "1:5-1:7 a ${..} inside [..] or {..} must be quoted: there YAML reads '{' as the start of a mapping (write \"${..}\")", nil, ""},
		{"substitution in unclosed flow", "a: [${variables.", "1:5-1:7 a ${..} inside [..] or {..} must be quoted: there YAML reads '{' as the start of a mapping (write \"${..}\")", nil, ""},
		// Tabs.
		{"tab indentation", "a:\n\tb: 1\n", "2:1-2:2 tabs are not allowed for indentation: indent with spaces", nil, ""},
		{"tab after spaces", "a:\n  b: 1\n  \tc: 2\n", "3:3-3:4 tabs are not allowed for indentation: indent with spaces", nil, ""},
		{"tab before sibling", "a:\n  b: 1\n\tc: 2\n", "3:1-3:2 tabs are not allowed for indentation: indent with spaces", nil, ""},
		{"tab at top", "\ta: 1\n", "1:1-1:2 tabs are not allowed for indentation: indent with spaces", nil, ""},
		// Indentation.
		{"dedented key", "a:\n  b: 1\n c: 2\n", "3:2-3:3 bad indentation: this line is indented by 1 space, which matches no block above it (they are indented by 2 or 0)", nil, ""},
		{"dedented item", "a:\n  - 1\n - 2\n", "3:2-3:3 bad indentation: this line is indented by 1 space, which matches no block above it (they are indented by 2 or 0)", nil, ""},
		{"key under a value", "a: 1\n  b: 2\n", "2:3-2:4 bad indentation: this key is indented deeper than the line above, which already has a value: indent it by 0 spaces like that line, or move that value to its own lines", nil, ""},
		{"nested key under a value", "r:\n  a: x\n    b: 2\n", "3:5-3:6 bad indentation: this key is indented deeper than the line above, which already has a value: indent it by 2 spaces like that line, or move that value to its own lines", nil, ""},
		// A second ': ' in a plain value.
		{"second mapping value", "key: value: other\n", "1:11-1:12 a plain value cannot contain ': ': quote the value, or start a nested mapping on the next line", nil, "key: \"value: other\"\n"},
		{"second mapping value with comment", "a:\n  k: v: w # c\n", "2:7-2:8 a plain value cannot contain ': ': quote the value, or start a nested mapping on the next line", nil, "a:\n  k: \"v: w\" # c\n"},
		{"second mapping value in item", "- k: v: w\n", "1:7-1:8 a plain value cannot contain ': ': quote the value, or start a nested mapping on the next line", nil, "- k: \"v: w\"\n"},
		{"second mapping value non-ascii", "ключ: значение: x\n", "1:15-1:16 a plain value cannot contain ': ': quote the value, or start a nested mapping on the next line", nil, "ключ: \"значение: x\"\n"},
		// Other messages in plain words.
		{"junk after quoted", "a: \"x\" y\n", "1:8-1:9 unexpected text: expected a new 'key: value' entry, a '- ' item or the end of the block here", nil, ""},
		{"bad token", "a:\n  b: @c\n", "2:6-2:8 this character cannot start a YAML value: quote the value", nil, ""},
		{"missing colon", "a: 1\nb\n", "2:1-2:2 expected ':' after this key ('key: value')", nil, ""},
		{"unknown escape", "y: \"ab\\qc\"\n", "1:7-1:9 unknown escape sequence in a double-quoted string: write \\\\ for a backslash, or use single quotes", nil, ""},
		{"list after key", "a: - b\n", "1:4-1:5 a '- ' list item cannot start here: put the list on the lines below its key, indented", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseYAML([]byte(tt.src))
			checkFile(t, f)
			if len(f.Diagnostics) != 1 {
				t.Fatalf("%d diagnostics, want 1: %v", len(f.Diagnostics), f.Diagnostics)
			}
			d := f.Diagnostics[0]
			if d.Code != "yaml-syntax" {
				t.Errorf("code %s", d.Code)
			}
			span := func(r source.Range) string {
				l1, c1 := f.Mapper.LineCol(r.Start, source.UTF16)
				l2, c2 := f.Mapper.LineCol(r.End, source.UTF16)
				return spanString(l1, c1, l2, c2)
			}
			if diff := cmp.Diff(tt.want, span(d.Range)+" "+d.Message); diff != "" {
				t.Errorf("diagnostic (-want +got):\n%s", diff)
			}
			var related []string
			for _, r := range d.Related {
				related = append(related, span(r.Range)+" "+r.Message)
			}
			if diff := cmp.Diff(tt.related, related); diff != "" {
				t.Errorf("related (-want +got):\n%s", diff)
			}
			fixed := ""
			if len(d.Suggestions) > 0 {
				fixed = tt.src
				for _, e := range d.Suggestions[0].Edits {
					fixed = fixed[:e.Range.Start] + e.NewText + fixed[e.Range.End:]
				}
				if g := ParseYAML([]byte(fixed)); len(g.Diagnostics) > 0 {
					t.Errorf("the fix leaves %v", g.Diagnostics)
				}
			}
			if fixed != tt.fix {
				t.Errorf("fixed to %q, want %q", fixed, tt.fix)
			}
		})
	}
}

// TestScanStructureValid checks that valid YAML with brackets, quotes and
// '#' inside plain values and block scalars gives no finding.
func TestScanStructureValid(t *testing.T) {
	for _, src := range []string{
		"a: foo[1]\nb: it's\nc: x]\n",
		"a: |\n  [unclosed \"quote\n  'x\nb: 1\n",
		"a: >-\n    {\n\n    b\nc: [1, {d: \"]\"}, 'e''f']\n",
		"a: \"multi\n  line\"\nb: [1,\n  2]  # ]\n",
		"---\na: 1 # [\n...\n",
		"a: b#c\nd: [x#y]\n",
	} {
		if ParseYAML([]byte(src)).Root == nil {
			t.Errorf("%q does not parse", src)
		}
		if f := scanStructure([]byte(src)); f.kind != scanNone {
			t.Errorf("%q: finding %+v", src, f)
		}
	}
}

// TestYAMLLocateWindow checks, on a document large enough for the window,
// that the windowed search finds the position the search over whole
// prefixes finds, with the same message.
func TestYAMLLocateWindow(t *testing.T) {
	content := gen.Blueprint(400, "yaml")
	if len(content) < minWindow {
		t.Fatalf("document of %d bytes is too small for the window", len(content))
	}
	at := bytes.LastIndex(content, []byte("\n      billingMode: PAY_PER_REQUEST"))
	mid := bytes.Index(content[len(content)/2:], []byte("\n      billingMode: PAY_PER_REQUEST")) + len(content)/2
	breakAt := func(at int, old, new string) []byte {
		out := append([]byte(nil), content[:at]...)
		return append(out, bytes.Replace(content[at:], []byte(old), []byte(new), 1)...)
	}
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"second colon at the end", breakAt(at, "PAY_PER_REQUEST", "PAY: PER_REQUEST")},
		{"dedented key at the end", breakAt(at, "\n      billingMode:", "\n     billingMode:")},
		{"second colon in the middle", breakAt(mid, "PAY_PER_REQUEST", "PAY: PER_REQUEST")},
		{"bad token in the middle", breakAt(mid, "PAY_PER_REQUEST", "@PAY")},
		{"junk after quoted", breakAt(mid, "PAY_PER_REQUEST", "'PAY' x")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dec yaml.Node
			err := yaml.Unmarshal(tc.src, &dec)
			if err == nil {
				t.Fatal("the document parses")
			}
			line, problem := splitYAMLError(err)
			b := newYAMLBuilder(tc.src, nil)
			win, ok := b.locateInWindow(problem)
			if !ok {
				t.Fatal("the window was not used")
			}
			if whole := b.locateFrom(problem, line); win != whole {
				t.Errorf("window locates at %d, whole prefixes at %d", win, whole)
			}
			f := ParseYAML(tc.src)
			if len(f.Diagnostics) != 1 || f.Diagnostics[0].Range.Start != win {
				t.Errorf("diagnostics %v, want one at %d", f.Diagnostics, win)
			}
		})
	}
}

// TestYAMLStructuralFindingsNeedAgreement checks that a construct the scan
// finds is not reported when yaml.v3 fails earlier for another reason.
func TestYAMLStructuralFindingsNeedAgreement(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a: \"x\" y\nb: [1]]\n", "1:8-1:9 unexpected text: expected a new 'key: value' entry, a '- ' item or the end of the block here"},
		{"a: \"x\" y\nb: [1, }\n", "1:8-1:9 unexpected text: expected a new 'key: value' entry, a '- ' item or the end of the block here"},
		{"a: b: c\nd: [1\n", "1:5-1:6 a plain value cannot contain ': ': quote the value, or start a nested mapping on the next line"},
	} {
		f := ParseYAML([]byte(tc.src))
		if len(f.Diagnostics) != 1 {
			t.Errorf("%q: %v", tc.src, f.Diagnostics)
			continue
		}
		d := f.Diagnostics[0]
		l1, c1 := f.Mapper.LineCol(d.Range.Start, source.UTF16)
		l2, c2 := f.Mapper.LineCol(d.Range.End, source.UTF16)
		if got := spanString(l1, c1, l2, c2) + " " + d.Message; got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.src, got, tc.want)
		}
	}
}
