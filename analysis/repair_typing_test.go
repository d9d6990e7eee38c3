package analysis

import (
	"bytes"
	"testing"
)

// FuzzPatchTyping: patching half-typed lines never panics, keeps every
// offset (same length, line breaks where they were) and changes bytes
// only inside the lines it reports, which are whole lines.
func FuzzPatchTyping(f *testing.F) {
	f.Add([]byte(brokenBlueprint))
	f.Add([]byte("a:\n  b: 'it''s\n  c\n"))
	f.Add([]byte("a:\n  - \"x\\\n  - y\r\n  k\r\n"))
	f.Add([]byte("d: |\n  \"not a quote\n  key\ne: \"\xc3\xa9\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		out, cut := patchTyping(text)
		if out == nil {
			if cut != nil {
				t.Fatal("lines without a patch")
			}
			return
		}
		if len(out) != len(text) {
			t.Fatalf("length %d, was %d", len(out), len(text))
		}
		in := func(i int) bool {
			for _, r := range cut {
				if i >= r.Start && i < r.End {
					return true
				}
			}
			return false
		}
		for i := range text {
			if text[i] == '\n' || text[i] == '\r' {
				if out[i] != text[i] {
					t.Fatalf("line break at %d changed", i)
				}
				continue
			}
			if out[i] != text[i] && !in(i) {
				t.Fatalf("byte %d changed outside the lines reported", i)
			}
		}
		for _, r := range cut {
			if r.Start > 0 && text[r.Start-1] != '\n' || r.End < len(text) && text[r.End-1] != '\n' {
				t.Fatalf("%v is not whole lines", r)
			}
		}
		if bytes.Equal(out, text) {
			t.Fatal("a patch that changes nothing")
		}
	})
}
