package ide

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

func TestRepeated(t *testing.T) {
	for _, tc := range []struct {
		insert, after string
		want          int
	}{
		{"variables.", ".env}", 1},
		{"join(", "(a, b)", 1},
		{"name: ", ": x", 2},
		{"name: ", "\n", 0},
		{"spec:", ":\n", 1},
		{"environment", "}-x", 0},
		{"name: ", "", 0},
	} {
		if got := repeated(tc.insert, []byte(tc.after)); got != tc.want {
			t.Errorf("repeated(%q, %q) = %d, want %d", tc.insert, tc.after, got, tc.want)
		}
	}
	// A key typed again over "name:" at the end of its line keeps one colon.
	text := []byte("a:\n  na\n  b: 1\n")
	items := fitEdits([]CompletionItem{{Label: "name", InsertText: "name: ", ReplaceRange: source.R(5, 7)}}, source.NewText(text), 6)
	if r := items[0].ReplaceRange; r.Start != 5 || r.End != 7 {
		t.Errorf("range %v", r)
	}
	text = []byte("a:\n  name:\n  b: 1\n")
	items = fitEdits([]CompletionItem{{Label: "name", InsertText: "name: ", ReplaceRange: source.R(5, 9)}}, source.NewText(text), 7)
	if r := items[0].ReplaceRange; string(text[r.Start:r.End]) != "name:" {
		t.Errorf("range %v covers %q", r, text[r.Start:r.End])
	}
}
