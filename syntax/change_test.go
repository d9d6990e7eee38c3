package syntax_test

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

func TestChangeBetween(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     syntax.Change
	}{
		{"abc", "abc", syntax.Change{Start: 3, OldEnd: 3, NewEnd: 3}},
		{"", "", syntax.Change{}},
		{"abc", "aXc", syntax.Change{Start: 1, OldEnd: 2, NewEnd: 2}},
		{"abc", "abXc", syntax.Change{Start: 2, OldEnd: 2, NewEnd: 3}},
		{"abc", "ac", syntax.Change{Start: 1, OldEnd: 2, NewEnd: 1}},
		// An insertion into a run of equal bytes is placed at its end:
		// the prefix is taken first, and the suffix never overlaps it.
		{"aaa", "aaaa", syntax.Change{Start: 3, OldEnd: 3, NewEnd: 4}},
		{"", "xy", syntax.Change{Start: 0, OldEnd: 0, NewEnd: 2}},
	} {
		if got := syntax.ChangeBetween([]byte(c.old), []byte(c.new)); got != c.want {
			t.Errorf("ChangeBetween(%q, %q) = %+v, want %+v", c.old, c.new, got, c.want)
		}
		// EditOf not told the edit reads the texts piece by piece, and
		// finds the same.
		if got := syntax.EditOf(source.NewText([]byte(c.old)), source.NewText([]byte(c.new)), nil); got != c.want {
			t.Errorf("EditOf(%q, %q, nil) = %+v, want %+v", c.old, c.new, got, c.want)
		}
	}
}

func TestChangeNarrowed(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, new string
		ch, want syntax.Change
	}{
		{"already narrow", "abcdef", "abXdef", syntax.Change{Start: 2, OldEnd: 3, NewEnd: 3}, syntax.Change{Start: 2, OldEnd: 3, NewEnd: 3}},
		{"wide on both sides", "abcdef", "abXdef", syntax.Change{Start: 0, OldEnd: 6, NewEnd: 6}, syntax.Change{Start: 2, OldEnd: 3, NewEnd: 3}},
		{"the same text", "abc", "abc", syntax.Change{Start: 1, OldEnd: 3, NewEnd: 3}, syntax.Change{Start: 3, OldEnd: 3, NewEnd: 3}},
		// Only the bytes inside the change are read: the insertion stays
		// where the change puts it, not at the end of the run of a's.
		{"inside a run", "aaaa", "aaaaa", syntax.Change{Start: 1, OldEnd: 1, NewEnd: 2}, syntax.Change{Start: 1, OldEnd: 1, NewEnd: 2}},
		{"a deletion", "abcdef", "abef", syntax.Change{Start: 1, OldEnd: 5, NewEnd: 3}, syntax.Change{Start: 2, OldEnd: 4, NewEnd: 2}},
		// A change that does not fit the texts is not trusted.
		{"ends past the text", "abc", "aXc", syntax.Change{Start: 0, OldEnd: 4, NewEnd: 4}, syntax.Change{Start: 1, OldEnd: 2, NewEnd: 2}},
		{"suffixes of other lengths", "abc", "aXc", syntax.Change{Start: 0, OldEnd: 2, NewEnd: 3}, syntax.Change{Start: 1, OldEnd: 2, NewEnd: 2}},
		{"start after an end", "abc", "aXc", syntax.Change{Start: 2, OldEnd: 1, NewEnd: 1}, syntax.Change{Start: 1, OldEnd: 2, NewEnd: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.ch.Narrowed([]byte(c.old), []byte(c.new)); got != c.want {
				t.Errorf("Narrowed = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestChangeThen(t *testing.T) {
	for _, c := range []struct {
		name          string
		first, second syntax.Change
		want          syntax.Change
	}{
		{"no change first", syntax.Change{}, syntax.Change{Start: 4, OldEnd: 5, NewEnd: 7}, syntax.Change{Start: 4, OldEnd: 5, NewEnd: 7}},
		{"no change second", syntax.Change{Start: 4, OldEnd: 5, NewEnd: 7}, syntax.Change{Start: 9, OldEnd: 9, NewEnd: 9}, syntax.Change{Start: 4, OldEnd: 5, NewEnd: 7}},
		// "0123456789" to "01x23456789" to "01x2345679": the old
		// text's "2345678" became "x234567".
		{"insertion then a later deletion", syntax.Change{Start: 2, OldEnd: 2, NewEnd: 3}, syntax.Change{Start: 9, OldEnd: 10, NewEnd: 9},
			syntax.Change{Start: 2, OldEnd: 9, NewEnd: 9}},
		{"deletion then an earlier insertion", syntax.Change{Start: 8, OldEnd: 9, NewEnd: 8}, syntax.Change{Start: 1, OldEnd: 1, NewEnd: 3},
			syntax.Change{Start: 1, OldEnd: 9, NewEnd: 10}},
		{"second inside the first", syntax.Change{Start: 2, OldEnd: 3, NewEnd: 8}, syntax.Change{Start: 4, OldEnd: 5, NewEnd: 4},
			syntax.Change{Start: 2, OldEnd: 3, NewEnd: 7}},
		// The second deletes past the first's end: the end is the
		// second's, carried back through the first's growth.
		{"second across the first's end", syntax.Change{Start: 2, OldEnd: 3, NewEnd: 5}, syntax.Change{Start: 4, OldEnd: 9, NewEnd: 4},
			syntax.Change{Start: 2, OldEnd: 7, NewEnd: 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.first.Then(c.second); got != c.want {
				t.Errorf("Then = %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestChangeThenCovers folds random edit sequences and checks that the
// folded change fits the first and last texts and covers every byte
// that differs between them.
func TestChangeThenCovers(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 2000; round++ {
		first := randomText(rng, rng.Intn(40))
		text, folded := first, syntax.Change{}
		for range 1 + rng.Intn(6) {
			start := rng.Intn(len(text) + 1)
			end := start + rng.Intn(len(text)-start+1)
			ins := randomText(rng, rng.Intn(5))
			next := append(append(append([]byte{}, text[:start]...), ins...), text[end:]...)
			folded = folded.Then(syntax.Change{Start: start, OldEnd: end, NewEnd: start + len(ins)})
			text = next
		}
		if !folded.Fits(len(first), len(text)) {
			t.Fatalf("%q to %q: %+v does not fit", first, text, folded)
		}
		if !bytes.Equal(first[:folded.Start], text[:folded.Start]) || !bytes.Equal(first[folded.OldEnd:], text[folded.NewEnd:]) {
			t.Fatalf("%q to %q: %+v leaves out a changed byte", first, text, folded)
		}
		if bytes.Equal(first, text) != folded.Narrowed(first, text).Same() {
			t.Fatalf("%q to %q: Narrowed(%+v) says the texts are the same: %v", first, text, folded, !bytes.Equal(first, text))
		}
	}
}

// randomText is n bytes from a small alphabet, so that edits often
// repeat the bytes around them.
func randomText(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = "ab\n"[rng.Intn(3)]
	}
	return b
}
