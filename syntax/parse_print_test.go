package syntax

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// dump renders f for golden files: every node with its range as
// line:col spans (1-based, columns in UTF-16 units), every scalar's decoded
// value and its segment map, and the diagnostics.
func dump(f *File) string {
	var sb strings.Builder
	pos := func(off int) string {
		l, c := f.Mapper.LineCol(off, source.UTF16)
		return fmt.Sprintf("%d:%d", l, c)
	}
	span := func(r source.Range) string { return pos(r.Start) + "-" + pos(r.End) }
	var walk func(n Node, depth int, label string)
	walk = func(n Node, depth int, label string) {
		ind := strings.Repeat("  ", depth)
		switch n := n.(type) {
		case nil:
			fmt.Fprintf(&sb, "%s%s<nil>\n", ind, label)
		case *Mapping:
			fmt.Fprintf(&sb, "%s%smapping %s%s\n", ind, label, span(n.Rng), flowMark(n.Flow))
			for _, e := range n.Entries {
				walk(e.Key, depth+1, "key ")
				walk(e.Value, depth+2, "value ")
			}
		case *Sequence:
			fmt.Fprintf(&sb, "%s%ssequence %s%s\n", ind, label, span(n.Rng), flowMark(n.Flow))
			for _, it := range n.Items {
				walk(it, depth+1, "- ")
			}
		case *Scalar:
			fmt.Fprintf(&sb, "%s%s%s %s %q %s content %s\n", ind, label, styleName(n.Style), n.Tag, n.Value, span(n.Rng), span(n.ValueRange()))
			if n.IsString() && (n.Style != Plain || len(n.OffsetMap().Segments) != 1) {
				for _, s := range n.OffsetMap().Segments {
					s.Src += n.OffsetMap().Base // relative to it
					kind := "fold"
					if s.DecLen == s.SrcLen && string(f.Content()[s.Src:s.Src+s.SrcLen]) == n.Value[s.Dec:s.Dec+s.DecLen] {
						kind = "same"
					}
					fmt.Fprintf(&sb, "%s    %q <- %s %s %q\n", ind, n.Value[s.Dec:s.Dec+s.DecLen], span(source.R(s.Src, s.Src+s.SrcLen)), kind, f.Content()[s.Src:s.Src+s.SrcLen])
				}
			}
		}
	}
	walk(f.Root, 0, "")
	for _, d := range f.Diagnostics {
		fmt.Fprintf(&sb, "%s %s: %s\n", span(d.Range), d.Code, d.Message)
	}
	return sb.String()
}

func flowMark(flow bool) string {
	if flow {
		return " flow"
	}
	return ""
}

func styleName(s Style) string {
	return [...]string{"plain", "single", "double", "literal", "folded", "json-string", "json-literal"}[s]
}

// checkFile asserts the structural invariants of a parse result: every
// range within the document and within its parent, contents within their
// scalars, maps within the document, and verbatim segments truly verbatim.
func checkFile(t testing.TB, f *File) {
	t.Helper()
	n := len(f.Content())
	inBounds := func(r source.Range) bool { return 0 <= r.Start && r.Start <= r.End && r.End <= n }
	var walk func(node Node, parent source.Range)
	walk = func(node Node, parent source.Range) {
		if node == nil {
			return
		}
		r := node.Range()
		if !inBounds(r) || !parent.ContainsRange(r) {
			t.Fatalf("range %v of %T out of bounds or outside parent %v (len %d)", r, node, parent, n)
		}
		switch node := node.(type) {
		case *Mapping:
			for _, e := range node.Entries {
				if e.Key == nil {
					t.Fatalf("entry without key in %v", r)
				}
				walk(e.Key, r)
				walk(e.Value, r)
			}
		case *Sequence:
			for _, it := range node.Items {
				walk(it, r)
			}
		case *Scalar:
			checkScalar(t, f, node)
		}
	}
	walk(f.Root, source.R(0, n))
	for _, d := range f.Diagnostics {
		if !inBounds(d.Range) {
			t.Fatalf("diagnostic %q at %v out of bounds (len %d)", d.Message, d.Range, n)
		}
	}
}

func checkScalar(t testing.TB, f *File, s *Scalar) {
	t.Helper()
	n := len(f.Content())
	if !s.Rng.ContainsRange(s.ValueRange()) || s.ValueRange().Start > s.ValueRange().End {
		t.Fatalf("content %v of %q outside its scalar %v", s.ValueRange(), s.Value, s.Rng)
	}
	dec := 0
	for _, seg := range s.OffsetMap().Segments {
		seg.Src += s.OffsetMap().Base // relative to it
		if seg.Dec != dec || seg.DecLen < 0 || seg.SrcLen < 0 || seg.Src < 0 || seg.Src+seg.SrcLen > n || seg.Dec+seg.DecLen > len(s.Value) {
			t.Fatalf("bad segment %+v in map of %q (len %d)", seg, s.Value, n)
		}
		if seg.DecLen == seg.SrcLen {
			got, want := string(f.Content()[seg.Src:seg.Src+seg.SrcLen]), s.Value[seg.Dec:seg.Dec+seg.DecLen]
			// A one-byte substitution (a folded or normalised line break)
			// maps identically whether read as verbatim or atomic.
			fold := seg.DecLen == 1 && (want == " " || want == "\n") && strings.ContainsAny(got, "\r\n")
			if got != want && !fold {
				t.Fatalf("verbatim segment %+v of %q: source %q != decoded %q", seg, s.Value, got, want)
			}
		}
		dec += seg.DecLen
	}
	if len(s.OffsetMap().Segments) > 0 && dec != len(s.Value) {
		t.Fatalf("map of %q covers %d bytes, value has %d", s.Value, dec, len(s.Value))
	}
	for d := 0; d <= len(s.Value); d++ {
		if !utf8.RuneStart(byteAt(s.Value, d)) {
			continue
		}
		if o := s.OffsetMap().Source(d); o < 0 || o > n {
			t.Fatalf("map of %q: Source(%d) = %d out of bounds", s.Value, d, o)
		}
		if o := s.OffsetMap().SourceEnd(d); o < 0 || o > n {
			t.Fatalf("map of %q: SourceEnd(%d) = %d out of bounds", s.Value, d, o)
		}
	}
}

func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}
