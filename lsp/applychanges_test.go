package lsp

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestApplyChangesMapper: the mapper applyChanges hands the next snapshot
// (the previous one's with each edit indexed, Mapper.Edited) answers
// every offset as a mapper made from the whole new text does, after
// random insertions, deletions and replacements with and without line
// breaks (LF and CRLF), several per notification, and with text that is
// not ASCII (which Edited hands back to NewMapper).
func TestApplyChangesMapper(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	pieces := []string{"", "x", "\n", "\r\n", "ab\ncd", "é", "  key: ${values.v}\n", "\n\n", "\r"}
	for _, start := range []string{"version: 2025-11-02\nresources:\n  a:\n    type: aws/sqs/queue\n", "a\r\nb\r\n\r\nc", ""} {
		text := []byte(start)
		m := source.NewMapper(text)
		for step := 0; step < 300; step++ {
			var changes []protocol.TextDocumentContentChangeEvent
			cur, cm := text, m
			for k := rng.Intn(3) + 1; k > 0; k-- {
				a := rng.Intn(len(cur) + 1)
				b := a + rng.Intn(min(len(cur)-a, 6)+1)
				// Positions name characters, and a line ends at its
				// "\r\n" as a whole: edit at such boundaries only.
				inside := func(i int) bool {
					return i < len(cur) && (!utf8.RuneStart(cur[i]) || (i > 0 && cur[i-1] == '\r' && cur[i] == '\n'))
				}
				for inside(a) {
					a++
				}
				for b = max(a, b); inside(b); b++ {
				}
				s, e := cm.OffsetPosition(a, source.UTF16), cm.OffsetPosition(b, source.UTF16)
				piece := pieces[rng.Intn(len(pieces))]
				changes = append(changes, &protocol.TextDocumentContentChangePartial{
					Range: protocol.Range{Start: protocol.Position{Line: uint32(s.Line), Character: uint32(s.Character)},
						End: protocol.Position{Line: uint32(e.Line), Character: uint32(e.Character)}},
					Text: piece})
				cur = slices.Concat(cur[:a:a], []byte(piece), cur[b:])
				cm = source.NewMapper(cur)
			}
			next, nm, err := applyChanges(text, m, changes, source.UTF16)
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			if string(next) != string(cur) {
				t.Fatalf("step %d: text %q, want %q", step, next, cur)
			}
			want := source.NewMapper(next)
			if !slices.Equal(nm.LineStarts(), want.LineStarts()) {
				t.Fatalf("step %d: line starts %v, want %v (text %q)", step, nm.LineStarts(), want.LineStarts(), next)
			}
			for off := 0; off <= len(next); off++ {
				if g, w := nm.OffsetPosition(off, source.UTF16), want.OffsetPosition(off, source.UTF16); g != w {
					t.Fatalf("step %d: offset %d at %v, want %v", step, off, g, w)
				}
			}
			text, m = next, nm
			if len(text) > 400 {
				text = text[:200:200]
				m = source.NewMapper(text)
			}
		}
	}
}

// applyChanges is applyChangesAt for the tests that look at the text
// and the mapper; it checks the change it returns (coversChange), so
// that every random edit of those tests (several changes per
// notification) checks it too.
func applyChanges(text []byte, m *source.Mapper, changes []protocol.TextDocumentContentChangeEvent, enc source.Encoding) ([]byte, *source.Mapper, error) {
	nt, m, edit, err := applyChangesAt(source.NewText(text), m, changes, enc)
	next := nt.Bytes()
	if err == nil {
		err = coversChange(text, next, edit)
	}
	return next, m, err
}

// coversChange reports whether edit fits the texts old and next and
// holds every byte in which they differ.
func coversChange(old, next []byte, edit schema.Change) error {
	if !edit.Fits(len(old), len(next)) {
		return fmt.Errorf("the change %+v does not fit texts of %d and %d bytes", edit, len(old), len(next))
	}
	if !bytes.Equal(old[:edit.Start], next[:edit.Start]) || !bytes.Equal(old[edit.OldEnd:], next[edit.NewEnd:]) {
		return fmt.Errorf("the change %+v leaves out a changed byte: %q became %q", edit, old, next)
	}
	return nil
}
