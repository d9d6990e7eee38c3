package bplang_test

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// checkCursorInStatement holds CursorInStatement to CursorAt at off in
// text, a clean parse, read from the statement DefinitionAt places and
// from that statement cut short at the end of off's line: where it
// says it knows, it must say what CursorAt says.
func checkCursorInStatement(t *testing.T, name string, text []byte, off int) {
	t.Helper()
	f := bplang.Parse(name, text)
	d, ok := bplang.DefinitionAt(f, off, off)
	if !ok {
		return
	}
	lineEnd := off + max(0, bytes.IndexByte(text[off:], '\n'))
	want, wantOK := bplang.CursorAt(text, off)
	for _, end := range []int{d.End, lineEnd, len(text)} {
		if end < off || end < d.Start {
			continue
		}
		got, gotOK, known := bplang.CursorInStatement(text[d.Start:end], d.Start, off)
		if known && (gotOK != wantOK || !reflect.DeepEqual(got, want)) {
			t.Fatalf("%s at %d, statement [%d, %d): %+v %v, want %+v %v", name, off, d.Start, end, got, gotOK, want, wantOK)
		}
	}
}

// TestCursorInStatementEqualsCursorAt: the cursor read from its
// statement is the cursor read from the whole text, at offsets all over
// every clean document of the repository.
func TestCursorInStatementEqualsCursorAt(t *testing.T) {
	for name, data := range referenceDocs(t) {
		if len(data) > 200_000 || len(bplang.Parse(name, data).Diagnostics) > 0 {
			continue
		}
		rng := rand.New(rand.NewSource(int64(len(data))))
		for k := 0; k < 80; k++ {
			checkCursorInStatement(t, name, data, rng.Intn(len(data)+1))
		}
	}
}

func FuzzCursorInStatement(f *testing.F) {
	f.Add(gen.Blueprint(2, "bp"))
	f.Add([]byte("resource a: aws/x {\n    spec {\n        na\n    }\n}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(bplang.Parse("f.bp", b).Diagnostics) > 0 {
			return
		}
		for k := 0; k <= 16; k++ {
			checkCursorInStatement(t, "f.bp", b, len(b)*k/16)
		}
	})
}
