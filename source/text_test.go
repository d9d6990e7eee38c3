package source

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestTextEdits replays random edits on a Text and on a plain byte slice
// and compares every version, old versions included (they must not
// change when a newer one is made).
func TestTextEdits(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		size := []int{0, 10, 5000, 200_000}[seed%4]
		plain := make([]byte, size)
		for i := range plain {
			plain[i] = byte('a' + r.IntN(26))
		}
		x := NewText(bytes.Clone(plain))
		if seed > 4 {
			x = cutInto(plain, r) // many short pieces, in many groups
		}
		type version struct {
			x     Text
			plain []byte
		}
		var old []version
		for step := 0; step < 400; step++ {
			a := r.IntN(len(plain) + 1)
			b := a + r.IntN(min(len(plain)-a, 70_000)+1)
			if r.IntN(3) == 0 {
				b = a
			}
			repl := bytes.Repeat([]byte{byte('A' + r.IntN(26))}, r.IntN([]int{3, 40, 100_000}[r.IntN(3)]))
			if r.IntN(4) == 0 {
				x.Bytes() // joined versions hand out flat slices
			}
			old = append(old, version{x, plain})
			x = x.Edit(a, b, repl)
			plain = append(append(append([]byte(nil), plain[:a]...), repl...), plain[b:]...)
			if x.Len() != len(plain) {
				t.Fatalf("seed %d step %d: Len %d, want %d", seed, step, x.Len(), len(plain))
			}
			for k := 0; k < 20 && len(plain) > 0; k++ {
				a := r.IntN(len(plain))
				b := a + r.IntN(min(len(plain)-a, 80_000)+1)
				if got := x.Slice(a, b); !bytes.Equal(got, plain[a:b]) {
					t.Fatalf("seed %d step %d: Slice(%d, %d) differs", seed, step, a, b)
				}
				if x.At(a) != plain[a] {
					t.Fatalf("seed %d step %d: At(%d) differs", seed, step, a)
				}
			}
			if n := x.pieceCount(); seed <= 4 && n > 4+2*len(plain)/minPiece {
				t.Fatalf("seed %d step %d: %d pieces for %d bytes", seed, step, n, len(plain))
			}
		}
		if !bytes.Equal(x.Bytes(), plain) {
			t.Fatalf("seed %d: Bytes differs", seed)
		}
		for i, v := range old {
			if !bytes.Equal(v.x.Bytes(), v.plain) {
				t.Fatalf("seed %d: version %d changed after later edits", seed, i)
			}
		}
	}
}

// pieceCount returns how many pieces x holds.
func (x Text) pieceCount() int {
	if x.t == nil {
		return 0
	}
	n := 0
	for _, g := range x.t.groups {
		n += len(g.pieces)
	}
	return n
}

// cutInto returns TextOf a copy of b in pieces of 1 to 2,000 bytes.
func cutInto(b []byte, r *rand.Rand) Text {
	var parts [][]byte
	for at := 0; at < len(b); {
		end := min(at+1+r.IntN(2000), len(b))
		parts = append(parts, bytes.Clone(b[at:end]))
		at = end
	}
	return TextOf(parts...)
}

// TestTextOfEditCopiesLittle: an edit of a text of many short pieces (a
// padded parse's, 10,000 of them) copies a group of pieces and the list
// of groups, not the list of every piece.
func TestTextOfEditCopiesLittle(t *testing.T) {
	var parts [][]byte
	line, pad := []byte("  resource:\n    spec: {a: b}\n"), bytes.Repeat([]byte(" "), 64)
	for range 5000 {
		parts = append(parts, line, pad)
	}
	x := TextOf(parts...)
	want := bytes.Repeat(append(bytes.Clone(line), pad...), 5000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 20 {
		at := x.Len() / 20 * i
		x = x.Edit(at, at+1, []byte("xy"))
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 20; per > 2*maxPiece {
		t.Errorf("%d bytes allocated per edit of a text of %d pieces", per, x.pieceCount())
	}
	for i := range 20 {
		at := len(want) / 20 * i
		want = append(want[:at:at], append([]byte("xy"), want[at+1:]...)...)
	}
	if !bytes.Equal(x.Bytes(), want) {
		t.Error("the edited text differs")
	}
}

// TestTextEditCopiesLittle: an edit of a large text copies a few pieces,
// not the text.
func TestTextEditCopiesLittle(t *testing.T) {
	x := NewText(bytes.Repeat([]byte("resources:\n  a: b\n"), 1<<20/18*12))
	n := testing.AllocsPerRun(20, func() { x = x.Edit(x.Len()/2, x.Len()/2+1, []byte("xy")) })
	if n > 5 {
		t.Errorf("%v allocations per edit", n)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 20 {
		x = x.Edit(x.Len()/3, x.Len()/3+1, []byte("xy"))
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 20; per > 4*maxPiece {
		t.Errorf("%d bytes allocated per edit of a %d-byte text", per, x.Len())
	}
}

func TestTextIndexAny(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	plain := make([]byte, 300_000)
	for i := range plain {
		plain[i] = "ab\n\r  xyz"[r.IntN(9)]
		if r.IntN(50) != 0 && (plain[i] == '\n' || plain[i] == '\r') {
			plain[i] = 'q'
		}
	}
	x := NewText(bytes.Clone(plain))
	for step := 0; step < 300; step++ {
		a := r.IntN(len(plain))
		repl := bytes.Repeat([]byte("k\n"), r.IntN(3))
		x = x.Edit(a, a+r.IntN(min(9, len(plain)-a)+1), repl)
		plain = x.Bytes()
		if step%2 == 0 {
			x = NewText(nil).Edit(0, 0, plain) // not joined: pieces
			x = x.Edit(0, 0, nil)
		}
		for k := 0; k < 30; k++ {
			off := r.IntN(len(plain) + 1)
			want := bytes.IndexAny(plain[min(off, len(plain)):], "\r\n")
			if want >= 0 {
				want += off
			}
			if got := x.IndexAny(off, "\r\n"); got != want {
				t.Fatalf("IndexAny(%d) = %d, want %d", off, got, want)
			}
			if got, want := x.LastIndexAny(off, "\r\n"), bytes.LastIndexAny(plain[:off], "\r\n"); got != want {
				t.Fatalf("LastIndexAny(%d) = %d, want %d", off, got, want)
			}
		}
	}
}

func TestCommonPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	base := bytes.Repeat([]byte("abcdefgh\n"), 30_000)
	x := NewText(bytes.Clone(base))
	for step := 0; step < 200; step++ {
		a := r.IntN(x.Len() + 1)
		b := a + r.IntN(min(x.Len()-a, 50)+1)
		y := x.Edit(a, b, []byte{byte('A' + r.IntN(3))})
		if r.IntN(3) == 0 {
			y.Bytes()
		}
		want := 0
		xb, yb := x.Slice(0, x.Len()), y.Slice(0, y.Len()) // copies: neither is joined
		for want < min(len(xb), len(yb)) && xb[want] == yb[want] {
			want++
		}
		if got := CommonPrefix(x, y); got != want {
			t.Fatalf("step %d: CommonPrefix = %d, want %d", step, got, want)
		}
		wantSuf := 0
		for wantSuf < min(len(xb), len(yb))-want && xb[len(xb)-1-wantSuf] == yb[len(yb)-1-wantSuf] {
			wantSuf++
		}
		if got := CommonSuffix(x, y, min(x.Len(), y.Len())-want); got != wantSuf {
			t.Fatalf("step %d: CommonSuffix = %d, want %d", step, got, wantSuf)
		}
		if got := CommonPrefix(y, y); got != y.Len() {
			t.Fatalf("step %d: CommonPrefix(y, y) = %d, want %d", step, got, y.Len())
		}
		if r.IntN(2) == 0 {
			x = y
		}
	}
}
