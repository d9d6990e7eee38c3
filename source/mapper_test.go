package source

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestMapperOffsetPosition(t *testing.T) {
	// "a😀b" : 😀 is 4 bytes, 2 UTF-16 units, 1 code point.
	tests := []struct {
		name    string
		content string
		off     int
		enc     Encoding
		want    Position
	}{
		{"ascii", "ab\ncd", 4, UTF16, Position{1, 1}},
		{"after astral utf16", "a😀b", 5, UTF16, Position{0, 3}},
		{"after astral utf32", "a😀b", 5, UTF32, Position{0, 2}},
		{"after astral utf8", "a😀b", 5, UTF8, Position{0, 5}},
		{"inside astral utf16", "a😀b", 3, UTF16, Position{0, 1}},
		{"two-byte", "ü=1", 2, UTF16, Position{0, 1}},
		{"three-byte", "中x", 3, UTF16, Position{0, 1}},
		{"crlf second line", "a\r\nb", 3, UTF16, Position{1, 0}},
		{"inside crlf", "a\r\nb", 2, UTF16, Position{0, 1}},
		{"lone cr", "a\rb", 2, UTF16, Position{1, 0}},
		{"end", "ab\n", 3, UTF16, Position{1, 0}},
		{"past end", "ab", 99, UTF16, Position{0, 2}},
		{"negative", "ab", -5, UTF16, Position{0, 0}},
		{"invalid bytes count one each", "\xf0\x9fA", 2, UTF16, Position{0, 2}},
		{"non-ascii on earlier line", "é\nx😀y", 8, UTF16, Position{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapper([]byte(tt.content))
			if got := m.OffsetPosition(tt.off, tt.enc); got != tt.want {
				t.Errorf("OffsetPosition(%d, %v) = %v, want %v", tt.off, tt.enc, got, tt.want)
			}
		})
	}
}

func TestMapperPositionOffset(t *testing.T) {
	tests := []struct {
		name    string
		content string
		pos     Position
		enc     Encoding
		want    int
	}{
		{"astral utf16", "a😀b", Position{0, 3}, UTF16, 5},
		{"inside surrogate pair", "a😀b", Position{0, 2}, UTF16, 1},
		{"astral utf32", "a😀b", Position{0, 2}, UTF32, 5},
		{"utf8", "a😀b", Position{0, 5}, UTF8, 5},
		{"past line end", "ab\ncd", Position{0, 10}, UTF16, 2},
		{"past line end crlf", "ab\r\ncd", Position{0, 10}, UTF16, 2},
		{"past line end utf8", "ü\nx", Position{0, 10}, UTF8, 2},
		{"line past end", "ab\ncd", Position{7, 0}, UTF16, 5},
		{"lone cr", "a\rb", Position{1, 1}, UTF16, 3},
		{"empty last line", "a\n", Position{1, 0}, UTF16, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapper([]byte(tt.content))
			got, err := m.PositionOffset(tt.pos, tt.enc)
			if err != nil || got != tt.want {
				t.Errorf("PositionOffset(%v, %v) = %d, %v; want %d", tt.pos, tt.enc, got, err, tt.want)
			}
		})
	}
	if _, err := NewMapper([]byte("x")).PositionOffset(Position{-1, 0}, UTF16); err == nil {
		t.Error("negative position: no error")
	}
}

func TestMapperLines(t *testing.T) {
	m := NewMapper([]byte("a\r\nb\rc\nd"))
	if got := m.LineCount(); got != 4 {
		t.Errorf("LineCount = %d, want 4", got)
	}
	var starts []int
	for i := range 5 {
		starts = append(starts, m.LineStart(i))
	}
	if diff := cmp.Diff([]int{0, 3, 5, 7, 8}, starts); diff != "" {
		t.Errorf("LineStart (-want +got):\n%s", diff)
	}
	if l, c := m.LineCol(7, UTF16); l != 4 || c != 1 {
		t.Errorf("LineCol(7) = %d:%d, want 4:1", l, c)
	}
}

func TestOffsetMap(t *testing.T) {
	// Decoded "a\tb😀" from source `"a\tb\U0001F600"` at offset 10:
	// a (verbatim), \t (2→1), b (verbatim), \U0001F600 (10→4).
	m := OffsetMap{Base: 11, Segments: []Segment{
		{Dec: 0, DecLen: 1, Src: 0, SrcLen: 1},
		{Dec: 1, DecLen: 1, Src: 1, SrcLen: 2},
		{Dec: 2, DecLen: 1, Src: 3, SrcLen: 1},
		{Dec: 3, DecLen: 4, Src: 4, SrcLen: 10},
	}}
	source := []int{m.Source(0), m.Source(1), m.Source(2), m.Source(3), m.Source(5), m.Source(7), m.Source(99)}
	if diff := cmp.Diff([]int{11, 12, 14, 15, 15, 25, 25}, source); diff != "" {
		t.Errorf("Source (-want +got):\n%s", diff)
	}
	if got := m.SourceEnd(2); got != 14 {
		t.Errorf("SourceEnd(2) = %d, want 14 (the whole escape)", got)
	}
	if got := m.SourceEnd(5); got != 25 {
		t.Errorf("SourceEnd(5) = %d, want 25", got)
	}
	if got := m.Range(1, 3); got != R(12, 15) {
		t.Errorf("Range(1,3) = %v, want [12,15)", got)
	}
	if got := m.Range(3, 3); got != R(15, 15) {
		t.Errorf("empty Range(3,3) = %v", got)
	}
	var empty OffsetMap
	empty.Base = 7
	if empty.Source(3) != 7 || empty.SourceEnd(3) != 7 {
		t.Error("empty map does not return Base")
	}
	id, none := Identity(4, 3), Identity(9, 0)
	if id.Source(2) != 6 || id.SourceEnd(3) != 7 || none.Source(0) != 9 {
		t.Error("Identity maps wrongly")
	}
}

// FuzzMapper checks that offsets round-trip through positions in every
// encoding and that positions stay within the document.
func FuzzMapper(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\nb\rc", "a😀b\n中文\r\n", "\xf0\x9fA\n\xffz", "é\u2028x"} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, content []byte, off int) {
		m := NewMapper(content)
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			for o := -1; o <= len(content)+1; o++ {
				p := m.OffsetPosition(o, enc)
				if p.Line < 0 || p.Line >= m.LineCount() || p.Character < 0 {
					t.Fatalf("OffsetPosition(%d, %v) = %v out of bounds", o, enc, p)
				}
				back, err := m.PositionOffset(p, enc)
				if err != nil || back < 0 || back > len(content) {
					t.Fatalf("PositionOffset(%v, %v) = %d, %v", p, enc, back, err)
				}
				if o < 0 || o > len(content) || !boundary(content, o) {
					continue
				}
				if back != o {
					t.Fatalf("%q: offset %d -> %v -> %d (%v)", content, o, p, back, enc)
				}
			}
		}
		p := Position{Line: off % 5, Character: off % 11}
		if p.Line < 0 || p.Character < 0 {
			return
		}
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			if o, err := m.PositionOffset(p, enc); err != nil || o < 0 || o > len(content) {
				t.Fatalf("PositionOffset(%v) = %d, %v", p, o, err)
			}
		}
	})
}

// boundary reports whether o starts a character that is not the inside of
// a line terminator: the offsets that must round-trip exactly.
func boundary(b []byte, o int) bool {
	if o == len(b) {
		return true
	}
	if o > 0 && b[o-1] == '\r' && b[o] == '\n' {
		return false // between CR and LF
	}
	if o > 0 && (b[o-1] == '\r' || b[o-1] == '\n') {
		return true
	}
	// Inside a character (as PositionOffset decodes from the line start)
	// is not a boundary.
	start := o
	for start > 0 && b[start-1] != '\n' && b[start-1] != '\r' {
		start--
	}
	for i := start; i < o; {
		_, size := utf8.DecodeRune(b[i:])
		if i+size > o {
			return false
		}
		i += size
	}
	return true
}

// TestNewMapperPaths: the shortcut for ASCII text without carriage
// returns gives the same lines as the byte-by-byte loop takes for any
// other text.
func TestNewMapperPaths(t *testing.T) {
	for _, text := range []string{"", "a", "a\n", "\n\n", "ab\ncd\nef", "abcdefgh\nijklmnop\nq", "é\nx\n", "a\r\nb\n", "abcdefghé\n"} {
		m := NewMapper([]byte(text))
		var want []int
		want = append(want, 0)
		for i := 0; i < len(text); i++ {
			if text[i] == '\n' {
				want = append(want, i+1)
			}
		}
		if got := m.lines.starts(); !slices.Equal(got, want) {
			t.Errorf("%q: lines %v, want %v", text, got, want)
		}
		if m.ascii != isASCII([]byte(text)) || m.ascii == strings.ContainsFunc(text, func(r rune) bool { return r >= utf8.RuneSelf }) {
			t.Errorf("%q: ascii %v", text, m.ascii)
		}
	}
}

// TestMapperPadded: a mapper moved for padding put before line breaks
// (Padded) has the line table of a scan of the padded text, for LF,
// CRLF and lone-CR texts, ASCII or not, with padding on the first and
// last lines too.
func TestMapperPadded(t *testing.T) {
	for _, text := range []string{"a:\n  b:\n    c: 1\n", "a:\r\n  b:\r\n  é: 2\r\n", "x\ry\rz", "one line", "\n\n\n"} {
		var points []int
		for i := 0; i < len(text); i++ {
			if text[i] == '\n' || text[i] == '\r' {
				if i == 0 || text[i-1] != '\r' {
					points = append(points, i)
				}
			}
		}
		points = append(points, len(text))
		size := func(i int) int { return 1 + i%3 }
		var padded []byte
		prev := 0
		for i, p := range points {
			padded = append(padded, text[prev:p]...)
			padded = append(padded, strings.Repeat(" ", size(i))...)
			prev = p
		}
		padded = append(padded, text[prev:]...)
		got := NewMapper([]byte(text)).Padded(NewText(padded), points, size)
		want := NewMapper(padded)
		if !slices.Equal(got.LineStarts(), want.LineStarts()) || got.ASCII() != want.ASCII() || string(got.Content()) != string(padded) {
			t.Errorf("%q: line starts %v, want %v", text, got.LineStarts(), want.LineStarts())
		}
	}
}
