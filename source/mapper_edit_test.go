package source

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestMapperEdited applies random edits, line breaks of every kind among
// them, and checks after each that the edited mapper is the one a fresh
// NewMapper builds.
func TestMapperEdited(t *testing.T) {
	pieces := []string{"a", "\n", "\r", "\r\n", "  ", "x\ny", "\n\n", ""}
	rng := rand.New(rand.NewSource(1))
	text := []byte("version: 1\r\nresources:\n  a:\r    b: 1\n")
	m := NewMapper(text)
	for step := 0; step < 5000; step++ {
		start := rng.Intn(len(text) + 1)
		oldEnd := min(start+rng.Intn(4), len(text))
		ins := pieces[rng.Intn(len(pieces))]
		if rng.Intn(3) == 0 {
			// The same length: the line table is shared when every
			// break stays in place.
			b := make([]byte, oldEnd-start)
			for i := range b {
				b[i] = "ab\n\r"[rng.Intn(4)]
			}
			ins = string(b)
		}
		if rng.Intn(100) == 0 {
			ins = "é" // not ASCII: indexed afresh
		}
		next := append(append(append([]byte{}, text[:start]...), ins...), text[oldEnd:]...)
		got := m.Edited(next, start, oldEnd, start+len(ins))
		want := NewMapper(next)
		if !reflect.DeepEqual(got.lines, want.lines) || got.ascii != want.ascii || string(got.content) != string(next) {
			t.Fatalf("step %d: %q at [%d,%d) of %q: lines %v, want %v", step, ins, start, oldEnd, text, got.lines, want.lines)
		}
		text, m = next, got
		if len(text) > 400 || !m.ascii && rng.Intn(10) == 0 {
			text = []byte(string(text[:min(200, len(text))]))
			for i, c := range text {
				if c >= 0x80 {
					text[i] = 'e'
				}
			}
			m = NewMapper(text)
		}
	}
}
