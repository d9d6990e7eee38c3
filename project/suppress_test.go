package project

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

func TestSuppressionsRanges(t *testing.T) {
	content := []byte("a: 1  # blueprint-ls:ignore x,y -- why\n  # blueprint-ls:ignore\nb: 2\n\"c\": 3, // blueprint-ls:ignore z\nd: e#blueprint-ls:ignore\nf: 1 # blueprint-ls:ignored\n")
	type row struct {
		Directive, Removal string
		Line               int
		Codes              []string
	}
	var got []row
	for _, s := range Suppressions(content) {
		got = append(got, row{string(content[s.Range.Start:s.Range.End]), string(content[s.Removal.Start:s.Removal.End]), s.Line, s.Codes})
	}
	want := []row{
		{"blueprint-ls:ignore x,y", "  # blueprint-ls:ignore x,y -- why", 0, []string{"x", "y"}},
		{"blueprint-ls:ignore", "  # blueprint-ls:ignore\n", 2, []string{}},
		{"blueprint-ls:ignore z", " // blueprint-ls:ignore z", 3, []string{"z"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
	if Suppressions([]byte("a: 1\n")) != nil {
		t.Error("no directive, no suppressions")
	}
}

// at returns a diagnostic of code on the key text, the first one that
// starts a line of content.
func at(t *testing.T, content, text, code string) source.Diagnostic {
	t.Helper()
	for i := 0; i+len(text) <= len(content); i++ {
		if (i == 0 || content[i-1] == '\n') && content[i:i+len(text)] == text {
			c, ok := source.LookupCode(code)
			if !ok {
				t.Fatalf("unknown code %s", code)
			}
			return c.New(source.R(i, i+len(text)), "%s here", code)
		}
	}
	t.Fatalf("%q not in content", text)
	return source.Diagnostic{}
}

// summary is "line code severity" per diagnostic, 1-based lines.
func summary(content string, ds []source.Diagnostic) []string {
	m := source.NewMapper([]byte(content))
	var out []string
	for _, d := range ds {
		out = append(out, string(rune('0'+m.Line(d.Range.Start)+1))+" "+d.Code+" "+d.Severity.String())
	}
	return out
}

func TestSuppress(t *testing.T) {
	content := "a: 1 # blueprint-ls:ignore spec-unknown-field\n" +
		"# blueprint-ls:ignore spec-unknown-field, unused-variable -- legacy\n" +
		"b: 2\n" +
		"c: 3 # blueprint-ls:ignore\n" +
		"d: 4 # blueprint-ls:ignore cycle\n" +
		"e: 5 # blueprint-ls:ignore spec-unknwon-field\n" +
		"# blueprint-ls:ignore\n"
	ds := []source.Diagnostic{
		at(t, content, "a", "spec-unknown-field"),
		at(t, content, "b", "spec-unknown-field"),
		at(t, content, "c", "spec-unknown-field"),
		at(t, content, "d", "spec-unknown-field"),
		at(t, content, "e", "spec-unknown-field"),
	}
	orig := append([]source.Diagnostic(nil), ds...)
	got := suppress([]byte(content), ds)
	want := []string{
		"5 spec-unknown-field warning", // cycle does not match
		"6 spec-unknown-field warning",
		"2 suppress-unused hint", // unused-variable suppressed nothing on line 3
		"5 suppress-unused hint",
		"6 suppress-unknown-code warning",
		"7 suppress-unused hint", // nothing on the line after the last
	}
	if diff := cmp.Diff(want, summary(content, got)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(orig, ds); diff != "" {
		t.Errorf("input modified (-want +got):\n%s", diff)
	}
	for _, d := range got {
		if d.Code == "suppress-unused" && (len(d.Tags) != 1 || d.Tags[0] != source.Unnecessary || len(d.Suggestions) != 1) {
			t.Errorf("suppress-unused without the Unnecessary tag and a fix: %+v", d)
		}
	}
}

// TestSuppressUnusedFix applies each suppress-unused fix: an unused
// comment goes (with its line when it stands alone), a partly used one
// keeps the codes that still suppress something.
func TestSuppressUnusedFix(t *testing.T) {
	tests := []struct{ content, diagAt, code, want string }{
		{"a: 1 # blueprint-ls:ignore cycle\nb: 2\n", "", "", "a: 1\nb: 2\n"},
		{"a: 1\n  # blueprint-ls:ignore\nb: 2\n", "", "", "a: 1\nb: 2\n"},
		{"{\"a\": 1, // blueprint-ls:ignore\n}\n", "", "", "{\"a\": 1,\n}\n"},
		{"x: 1 # blueprint-ls:ignore cycle, spec-unknown-field -- why\n", "x", "spec-unknown-field",
			"x: 1 # blueprint-ls:ignore spec-unknown-field -- why\n"},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			var ds []source.Diagnostic
			if tt.diagAt != "" {
				ds = append(ds, at(t, tt.content, tt.diagAt, tt.code))
			}
			var fixes []source.Suggestion
			for _, d := range suppress([]byte(tt.content), ds) {
				if d.Code == "suppress-unused" {
					fixes = append(fixes, d.Suggestions...)
				}
			}
			if len(fixes) != 1 || len(fixes[0].Edits) != 1 {
				t.Fatalf("fixes %+v", fixes)
			}
			e := fixes[0].Edits[0]
			if got := tt.content[:e.Range.Start] + e.NewText + tt.content[e.Range.End:]; got != tt.want {
				t.Errorf("%q: got %q, want %q", fixes[0].Title, got, tt.want)
			}
		})
	}
}

// TestSuppressionReason: the words after the codes are the reason, not
// more codes; a misspelt code (shaped like one) is still a code.
func TestSuppressionReason(t *testing.T) {
	content := []byte("a: 1 # blueprint-ls:ignore unused-value kept for the next release\nb: 2 # blueprint-ls:ignore unused-value, unused-valeu public website\nc: 3 # blueprint-ls:ignore unused-value -- why not\n")
	type row struct {
		Directive, Reason string
		Codes             []string
	}
	var got []row
	for _, s := range Suppressions(content) {
		got = append(got, row{string(content[s.Range.Start:s.Range.End]), s.Reason, s.Codes})
	}
	want := []row{
		{"blueprint-ls:ignore unused-value", "kept for the next release", []string{"unused-value"}},
		{"blueprint-ls:ignore unused-value, unused-valeu", "public website", []string{"unused-value", "unused-valeu"}},
		{"blueprint-ls:ignore unused-value", "why not", []string{"unused-value"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}
