package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestSyntaxErrorIgnoresPadding: spaces at the end of a line (the
// padding the language server keeps on key lines) do not move where a
// syntax error is reported, as the client sees it (positions through a
// mapper that skips the padding). Bisecting the line with them once put
// the error of "  firstArchiveBucket:é" on the "é" (62 spaces) instead of
// the key (none).
func TestSyntaxErrorIgnoresPadding(t *testing.T) {
	for _, text := range []string{
		"exports:\n  a:\n    type: string\n  firstArchiveBucket:é%s\n    type: string\n",
		"exports:\r\n  a:\r\n    type: string\r\n  firstArchiveBucket:x%s\r\n    type: string\r\n",
		"resources:\n  r:\n    type: x\n  s:%s\n    a: b: c\n",
	} {
		client := fmt.Sprintf(text, "")
		want := spelled(ParseYAML([]byte(client)).Diagnostics, source.NewMapper([]byte(client)))
		if want == "" {
			t.Fatalf("%q parses clean", text)
		}
		for _, n := range []int{1, 2, 40, 41, 62, 64, 200, 1024} {
			src := fmt.Sprintf(text, strings.Repeat(" ", n))
			pad := source.Slack{At: strings.Index(text, "%s"), Len: n}
			m := source.NewMapper([]byte(src)).WithSlack([]source.Slack{pad})
			if got := spelled(ParseYAML([]byte(src)).Diagnostics, m); got != want {
				t.Errorf("%q with %d spaces:\n%s\nwant\n%s", text, n, got, want)
			}
		}
	}
}

// spelled writes diagnostics with their places as positions.
func spelled(ds []source.Diagnostic, m *source.Mapper) string {
	var b strings.Builder
	r := func(r source.Range) string {
		s, e := m.RangePositions(r, source.UTF16)
		return fmt.Sprintf("%d:%d-%d:%d", s.Line, s.Character, e.Line, e.Character)
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %s\n", r(d.Range), d.Code, d.Message)
		for _, rel := range d.Related {
			fmt.Fprintf(&b, "  related %s %s\n", r(rel.Range), rel.Message)
		}
		for _, s := range d.Suggestions {
			for _, e := range s.Edits {
				fmt.Fprintf(&b, "  %s: %s %q\n", s.Title, r(e.Range), e.NewText)
			}
		}
	}
	return b.String()
}
