package chunked

import (
	"math/rand"
	"testing"
)

// TestEditSharesUntilSet checks, over random versions, that each version
// reads as a plain slice would and that a version's Sets never show
// through in the version it was made from.
func TestEditSharesUntilSet(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 255, 256, 257, 1000} {
		v := Make[int](n)
		want := make([]int, n)
		var versions []Vec[int]
		var wants [][]int
		for step := 0; step < 40; step++ {
			next, w := v.Edit(), append([]int(nil), want...)
			for range rng.Intn(5) {
				if n == 0 {
					break
				}
				i, x := rng.Intn(n), rng.Int()
				next.Set(i, x)
				w[i] = x
			}
			versions, wants = append(versions, v), append(wants, want)
			v, want = next, w
		}
		versions, wants = append(versions, v), append(wants, want)
		for k, ver := range versions {
			if ver.Len() != n {
				t.Fatalf("n=%d version %d: Len %d", n, k, ver.Len())
			}
			for i := range n {
				if ver.At(i) != wants[k][i] {
					t.Fatalf("n=%d version %d: At(%d) = %d, want %d", n, k, i, ver.At(i), wants[k][i])
				}
			}
		}
		// Shares: only ever for equal values, and for every value the
		// version after an Edit without Sets holds.
		for k := 1; k < len(versions); k++ {
			a, b := versions[k-1], versions[k]
			for i := range n {
				if a.Shares(b, i) && a.At(i) != b.At(i) {
					t.Fatalf("n=%d versions %d, %d: Shares(%d) with %d != %d", n, k-1, k, i, a.At(i), b.At(i))
				}
			}
		}
		if e := v.Edit(); n > 0 && (!e.Shares(v, 0) || !e.Shares(v, n-1)) {
			t.Errorf("n=%d: a fresh Edit shares nothing", n)
		}
		if v.Shares(v, -1) || v.Shares(v, n) {
			t.Errorf("n=%d: Shares out of range", n)
		}
		if v.At(-1) != 0 || v.At(n) != 0 {
			t.Errorf("n=%d: out of range reads a value", n)
		}
	}
}

// TestEditCopiesOneChunk checks that a version that changes one value
// of many shares every other chunk with the one it was made from.
func TestEditCopiesOneChunk(t *testing.T) {
	v := Make[int](20000)
	for i := range 20000 {
		v.Set(i, i)
	}
	next := v.Edit()
	next.Set(10000, -1)
	shared := 0
	for k := range v.chunks {
		if &v.chunks[k][0] == &next.chunks[k][0] {
			shared++
		}
	}
	if shared != len(v.chunks)-1 {
		t.Errorf("%d of %d chunks shared, want all but one", shared, len(v.chunks))
	}
}

// TestLastChunkShort checks that the last chunk holds only the values
// past the last full one, and that values in it read and write as in any.
func TestLastChunkShort(t *testing.T) {
	for _, n := range []int{1, 4, 255, 256, 257, 600} {
		v := Make[int](n)
		for i := range n {
			v.Set(i, i+1)
		}
		if last := v.chunks[len(v.chunks)-1]; len(last) != n-(len(v.chunks)-1)*size {
			t.Errorf("n=%d: last chunk %d long", n, len(last))
		}
		next := v.Edit()
		next.Set(n-1, -1)
		for i := range n {
			want := i + 1
			if got := v.At(i); got != want {
				t.Errorf("n=%d: v.At(%d) = %d, want %d", n, i, got, want)
			}
			if i == n-1 {
				want = -1
			}
			if got := next.At(i); got != want {
				t.Errorf("n=%d: next.At(%d) = %d, want %d", n, i, got, want)
			}
		}
		if got := v.At(n); got != 0 {
			t.Errorf("n=%d: At(n) = %d, want 0", n, got)
		}
	}
}
