package syntax

import (
	"math/rand"
	"testing"
)

// TestPadPointsRuns: the eight-bytes-at-a-time searches stop where a
// byte-by-byte search does, wherever the stop falls in a word.
func TestPadPointsRuns(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("ab${}.-_'\"\\: \t\r\n#\x01\x1f\x7f\x80\xc2\x85\xe2\xff")
	for range 20000 {
		src := make([]byte, rng.Intn(40))
		for j := range src {
			switch rng.Intn(6) {
			case 0:
				src[j] = alphabet[rng.Intn(len(alphabet))]
			case 1, 2:
				src[j] = ' '
			default:
				src[j] = 'a' + byte(rng.Intn(26))
			}
		}
		from := rng.Intn(len(src) + 1)
		want := from
		for want < len(src) && src[want] > ' ' && src[want] != ':' && src[want] < 0x80 {
			want++
		}
		if got := plainRun(src, from); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", src, from, got, want)
		}
		want = from
		for want < len(src) && src[want] == ' ' {
			want++
		}
		if got := skipSpaces(src, from); got != want {
			t.Fatalf("skipSpaces(%q, %d) = %d, want %d", src, from, got, want)
		}
		for _, q := range []byte{'\'', '"'} {
			want := from
			for want < len(src) && src[want] >= ' ' && src[want] != q && src[want] != '\\' && src[want] < 0x80 {
				want++
			}
			if got := quotedRun(src, from, q); got != want {
				t.Fatalf("quotedRun(%q, %d, %c) = %d, want %d", src, from, q, got, want)
			}
		}
	}
}
