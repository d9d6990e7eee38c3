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
		mappers := []*Mapper{NewMapper([]byte(text)), NewMapper([]byte(padded)).WithSlack(SlackSlice{{At: 3, Len: 2}})}
		if pt, slack := padLines(text, rng); len(slack) > 0 {
			mappers = append(mappers, NewMapper([]byte(pt)).WithSlack(slack))
		}
		for _, m := range mappers {
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

// padLines pads about every third line of text that ends in a line
// break (before its terminator, as the language server pads a
// definition's first line) with 1-4 spaces, and returns the padded text
// and its slack.
func padLines(text string, rng *rand.Rand) (string, SlackSlice) {
	var out []byte
	var slack SlackSlice
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] != '\n' && text[j] != '\r' {
			j++
		}
		out = append(out, text[i:j]...)
		if j < len(text) && rng.IntN(3) == 0 {
			n := 1 + rng.IntN(4)
			slack = append(slack, Slack{At: len(out), Len: n})
			for range n {
				out = append(out, ' ')
			}
		}
		k := j
		if k < len(text) && text[k] == '\r' {
			k++
		}
		if k < len(text) && text[k] == '\n' && (k == j || text[j] == '\r') {
			k++
		}
		out = append(out, text[j:k]...)
		i = k
		if k == j {
			break
		}
	}
	return string(out), slack
}
