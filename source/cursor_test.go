package source

import (
	"math/rand/v2"
	"testing"
)

// TestLineCursorSame holds LineCursor to LineCol over texts with every
// kind of line ending, a multi-byte text (which the cursor hands to
// LineCol), slack, small chunks and chunks of many lines (where a place
// some lines on is searched for in the cursor's chunk), and offsets in
// order, at random and some lines apart.
func TestLineCursorSame(t *testing.T) {
	defer func(n int) { chunkLines = n }(chunkLines)
	var long []byte
	for i := range 300 {
		long = append(long, make([]byte, i%37)...)
		long = append(long, '\n')
	}
	for i := range long {
		if long[i] == 0 {
			long[i] = 'x'
		}
	}
	for _, lines := range []int{3, 64} {
		chunkLines = lines
		lineCursorSame(t, string(long))
	}
}

func lineCursorSame(t *testing.T, long string) {
	texts := []string{
		long,
		"",
		"one line",
		"a\nbb\n\nccc\r\ndd\re\n",
		"version: x\nresources:\n  a:\n    type: aws/sqs/queue\n",
		"héllo\nwörld\n\n𝄞 x\n",
	}
	rng := rand.New(rand.NewPCG(36, 5))
	for _, text := range texts {
		padded := "pad  \n" + text // two spaces of slack before the first line break
		for _, m := range []*Mapper{NewMapper([]byte(text)), NewMapper([]byte(padded)).WithSlack(SlackSlice{{At: 3, Len: 2}})} {
			text := string(m.Content())
			for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
				c := m.Cursor()
				for i := range 600 {
					off := i%(len(text)+4) - 2
					switch {
					case i >= 400:
						off = (i - 400) * 83 % (len(text) + 4) // a few lines on, then around again
					case i >= 200:
						off = rng.IntN(len(text)+5) - 2
					}
					gl, gc := c.LineCol(off, enc)
					wl, wc := m.LineCol(off, enc)
					if gl != wl || gc != wc {
						t.Fatalf("%q %v offset %d: cursor %d:%d, LineCol %d:%d", text, enc, off, gl, gc, wl, wc)
					}
				}
			}
		}
	}
}
