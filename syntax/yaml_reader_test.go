package syntax

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// TestReaderProblemAsYAMLv3: on a document shorter than yaml.v3's
// 512-byte read-ahead the reader's refusal is always what yaml.v3 reports
// first, so there ParseYAML's own scan (readerProblem) must give exactly
// the diagnostic yaml.v3's error gave: random small documents with a bad
// byte sequence, a control character or a surrogate put in, with and
// without a syntax error elsewhere.
func TestReaderProblemAsYAMLv3(t *testing.T) {
	bad := []string{"\xff", "\xc3", "\xc3(", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\x01", "\x7f", "\xc2\x80", "\xef\xbf\xbe", "\x0e", "é"}
	lines := []string{"version: 2023-04-20", "resources:", "  a:", "    type: aws/sqs/queue", "    spec:", "      queueName: 'q'", "      tags: [x, y]", "  b: {c: d}", "    e: f", "  \"g\": |", "    text", "  - h", "# note"}
	rng := rand.New(rand.NewSource(5))
	problems := 0
	for step := 0; step < 3000; step++ {
		var b strings.Builder
		for n := 1 + rng.Intn(8); n > 0; n-- {
			b.WriteString(lines[rng.Intn(len(lines))])
			b.WriteString([]string{"\n", "\r\n"}[rng.Intn(2)])
		}
		doc := b.String()
		at := rng.Intn(len(doc) + 1)
		doc = doc[:at] + bad[rng.Intn(len(bad))] + doc[at:]
		if len(doc) >= 512 {
			continue
		}
		if _, _, ok := readerProblem([]byte(doc)); ok {
			problems++
		}
		got := ParseYAML([]byte(doc))
		scanForReader = false
		want := ParseYAML([]byte(doc))
		scanForReader = true
		if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
			t.Fatalf("%q:\n got %v\nwant %v", doc, got.Diagnostics, want.Diagnostics)
		}
	}
	if problems < 1000 {
		t.Errorf("only %d of the documents had a character the reader refuses", problems)
	}
}

// TestReaderProblemWinsOnLongDocuments: a document with a syntax error
// near its start and a bad byte further on reports the bad byte, however
// far the text before it is moved (yaml.v3 alone reported one or the
// other by where its 512-byte blocks fell).
func TestReaderProblemWinsOnLongDocuments(t *testing.T) {
	for pad := 0; pad < 600; pad += 7 {
		doc := "a: b\n  c: d" + strings.Repeat(" ", pad) + "\n" + strings.Repeat("k: v\n", 200) + "e: \xff\n"
		f := ParseYAML([]byte(doc))
		if len(f.Diagnostics) != 1 || !strings.Contains(f.Diagnostics[0].Message, "UTF-8") {
			t.Fatalf("padded by %d: %v", pad, f.Diagnostics)
		}
		if want := strings.Index(doc, "\xff"); f.Diagnostics[0].Range.Start != want {
			t.Fatalf("padded by %d: at %d, want %d", pad, f.Diagnostics[0].Range.Start, want)
		}
	}
	_ = fmt.Sprint()
}

// TestPrintable8 holds the word-at-a-time test to the byte rule: every
// byte value in every position of a word of printable characters.
func TestPrintable8(t *testing.T) {
	base := []byte("abcXYZ~ ")
	for pos := range 8 {
		for c := range 256 {
			w := append([]byte(nil), base...)
			w[pos] = byte(c)
			want := c >= 0x20 && c < 0x7F
			var u uint64
			for i := 7; i >= 0; i-- {
				u = u<<8 | uint64(w[i])
			}
			if got := printable8(u); got != want {
				t.Fatalf("byte %#x at %d: printable8 = %v, want %v", c, pos, got, want)
			}
		}
	}
}
