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
	saved := chunkLines
	defer func() { chunkLines = saved }()
	for _, size := range []int{saved, 1, 2, 3} {
		chunkLines = size
		testMapperEdited(t)
	}
}

func testMapperEdited(t *testing.T) {
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
		nt := m.Text().Edit(start, oldEnd, []byte(ins))
		if rng.Intn(2) == 0 {
			// Cut into pieces of a few bytes, so "\r\n" pairs and
			// lines straddle pieces (a real text's pieces are 16 KiB).
			nt = cutText(nt.Bytes(), rng)
		}
		got := m.Edited(nt, start, oldEnd, start+len(ins))
		want := NewMapper(next)
		if !reflect.DeepEqual(got.LineStarts(), want.LineStarts()) || got.ascii != want.ascii || string(got.Content()) != string(next) {
			t.Fatalf("chunks of %d, step %d: %q at [%d,%d) of %q: lines %v, want %v", chunkLines, step, ins, start, oldEnd, text, got.LineStarts(), want.LineStarts())
		}
		if err := got.lines.check(len(next)); err != "" {
			t.Fatalf("chunks of %d, step %d: %s", chunkLines, step, err)
		}
		for off := 0; off <= len(next); off++ {
			if g, w := got.Line(off), want.Line(off); g != w {
				t.Fatalf("chunks of %d, step %d: Line(%d) = %d, want %d", chunkLines, step, off, g, w)
			}
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

// cutText returns the Text of b in pieces of 1 to 5 bytes.
func cutText(b []byte, rng *rand.Rand) Text {
	if len(b) == 0 {
		return Text{}
	}
	var parts [][]byte
	for at := 0; at < len(b); {
		end := min(at+1+rng.Intn(5), len(b))
		parts = append(parts, append([]byte(nil), b[at:end]...))
		at = end
	}
	return TextOf(parts...)
}
