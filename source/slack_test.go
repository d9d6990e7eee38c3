package source

import (
	"strings"
	"testing"
)

// padded returns client with n spaces inserted at the end of the line
// that holds marker (before its line break), the server's text, and
// the padding as Slack.
func padded(t *testing.T, client, marker string, n int) ([]byte, Slack) {
	t.Helper()
	i := strings.Index(client, marker)
	if i < 0 {
		t.Fatalf("no %q in %q", marker, client)
	}
	at := i + len(marker)
	return []byte(client[:at] + strings.Repeat(" ", n) + client[at:]), Slack{At: at, Len: n}
}

// TestWithSlackPositions: on a padded line every offset from the pad's
// start to the line break (and inside a CRLF) is the line's real end in
// the client's coordinates, and a character at or past that end maps to
// where the pad starts, in every encoding; other lines answer as before.
func TestWithSlackPositions(t *testing.T) {
	tests := []struct {
		name   string
		client string
		marker string // the pad goes right after it
		enc    Encoding
		end    int // the padded line's real end, in enc
	}{
		{"ascii", "resources:\n  k:\n    v: 1\n", "  k:", UTF16, 4},
		{"ascii utf8", "resources:\n  k:\n    v: 1\n", "  k:", UTF8, 4},
		{"two-byte utf16", "resources:\n  clé:\n    v: 1\n", "  clé:", UTF16, 6},
		{"two-byte utf8", "resources:\n  clé:\n    v: 1\n", "  clé:", UTF8, 7},
		{"astral utf16", "resources:\n  a😀:\n    v: é\n", "  a😀:", UTF16, 6},
		{"astral utf32", "resources:\n  a😀:\n    v: é\n", "  a😀:", UTF32, 5},
		{"astral utf8", "resources:\n  a😀:\n    v: é\n", "  a😀:", UTF8, 8},
		{"crlf", "resources:\r\n  k:\r\n    v: 1\r\n", "  k:", UTF16, 4},
		{"crlf astral", "resources:\r\n  a😀:\r\n    v: 1\r\n", "  a😀:", UTF16, 6},
		{"last line before final break", "resources:\n  k:\n", "  k:", UTF16, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 7
			text, s := padded(t, tt.client, tt.marker, n)
			plain := NewMapper([]byte(tt.client))
			m := NewMapper(text).WithSlack(SlackSlice{s})
			line := m.Line(s.At)
			brk := s.At + s.Len
			lineBreak := 1
			if text[brk] == '\r' {
				lineBreak = 2
			}
			// From the pad's start up to (and inside) its line break.
			for off := s.At; off < brk+lineBreak; off++ {
				if got, want := m.OffsetPosition(off, tt.enc), (Position{line, tt.end}); got != want {
					t.Errorf("OffsetPosition(%d) = %v, want %v", off, got, want)
				}
			}
			// The next line starts after the break, as in the client.
			if got, want := m.OffsetPosition(brk+lineBreak, tt.enc), (Position{line + 1, 0}); got != want {
				t.Errorf("OffsetPosition(next line) = %v, want %v", got, want)
			}
			for _, ch := range []int{tt.end, tt.end + 1, tt.end + n, tt.end + n + 1, 1000} {
				if got, err := m.PositionOffset(Position{line, ch}, tt.enc); err != nil || got != s.At {
					t.Errorf("PositionOffset(%d:%d) = %d, %v; want %d (the pad's start)", line, ch, got, err, s.At)
				}
			}
			// Every position of the client's text, on any line, maps to
			// the same character here (shifted past the pad) and back.
			for l := 0; l < plain.LineCount(); l++ {
				for ch := 0; ch <= tt.end+n+2; ch++ {
					p := Position{l, ch}
					co, _ := plain.PositionOffset(p, tt.enc)
					so, err := m.PositionOffset(p, tt.enc)
					if err != nil {
						t.Fatal(err)
					}
					want := co
					if co > s.At {
						want = co + n
					}
					if so != want {
						t.Errorf("PositionOffset(%v) = %d, want %d (client offset %d)", p, so, want, co)
					}
					if got, want := m.OffsetPosition(so, tt.enc), plain.OffsetPosition(co, tt.enc); got != want {
						t.Errorf("OffsetPosition(%d) = %v, want %v as the client has it", so, got, want)
					}
				}
			}
			if m.LineCount() != plain.LineCount() {
				t.Errorf("LineCount = %d, want %d", m.LineCount(), plain.LineCount())
			}
			if l, c := m.LineCol(brk, tt.enc); l != line+1 || c != tt.end+1 {
				t.Errorf("LineCol(line break) = %d:%d, want %d:%d", l, c, line+1, tt.end+1)
			}
		})
	}
}

// TestWithSlackOnlyListedRuns: spaces at the end of a line that slack
// does not list are the client's and keep their positions; only the
// listed run is skipped, on its own line.
func TestWithSlackOnlyListedRuns(t *testing.T) {
	client := "a:   \n  k:\n  j:  \n"
	text, s := padded(t, client, "  k:", 4)
	m := NewMapper(text).WithSlack(SlackSlice{s})
	if got := m.OffsetPosition(5, UTF16); got != (Position{0, 5}) {
		t.Errorf("end of an unpadded line with spaces = %v, want 0:5", got)
	}
	if got, _ := m.PositionOffset(Position{2, 9}, UTF16); got != len(text)-1 {
		t.Errorf("past the end of an unpadded line = %d, want %d (its line break)", got, len(text)-1)
	}
	if got, _ := m.PositionOffset(Position{1, 9}, UTF16); got != s.At {
		t.Errorf("past the end of the padded line = %d, want %d", got, s.At)
	}
}

// TestWithSlackCopies: WithSlack leaves the mapper it copies alone,
// Edited (the mapper of an edited text) knows no padding, and a pad of
// no spaces changes no answer.
func TestWithSlackCopies(t *testing.T) {
	text, s := padded(t, "r:\n  k:\n    v: 1\n", "  k:", 5)
	base := NewMapper(text)
	m := base.WithSlack(SlackSlice{s})
	if base.Slack().Len() != 0 {
		t.Errorf("WithSlack changed its receiver: %v", base.Slack())
	}
	if got := SlackOf(m.Slack()); len(got) != 1 || got[0] != s {
		t.Errorf("Slack() = %v, want [%v]", got, s)
	}
	// An edit of "v: 1" to "v: 12": the text is the server's, the
	// mapper of it has no padding until one is given back.
	next := []byte(string(text[:len(text)-1]) + "2\n")
	e := m.Edited(NewText(next), len(text)-1, len(text)-1, len(text))
	if e.Slack().Len() != 0 {
		t.Errorf("Edited kept the padding %v", e.Slack())
	}
	if got := e.OffsetPosition(s.At+s.Len, UTF16); got != (Position{1, 9}) {
		t.Errorf("Edited: line break of the padded line at %v, want 1:9 (the spaces are text)", got)
	}

	// A zero-length pad at a line end: every answer is the plain one's.
	client := []byte("r:\n  k:\n    v: é\r\n  x:\n")
	plain := NewMapper(client)
	zero := NewMapper(client).WithSlack(SlackSlice{{At: 7, Len: 0}, {At: 22, Len: 0}})
	for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
		for off := -1; off <= len(client)+1; off++ {
			if g, w := zero.OffsetPosition(off, enc), plain.OffsetPosition(off, enc); g != w {
				t.Errorf("zero pad: OffsetPosition(%d, %v) = %v, want %v", off, enc, g, w)
			}
		}
		for l := 0; l <= plain.LineCount(); l++ {
			for ch := 0; ch < 12; ch++ {
				g, _ := zero.PositionOffset(Position{l, ch}, enc)
				w, _ := plain.PositionOffset(Position{l, ch}, enc)
				if g != w {
					t.Errorf("zero pad: PositionOffset(%d:%d, %v) = %d, want %d", l, ch, enc, g, w)
				}
			}
		}
	}
}
