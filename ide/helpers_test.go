package ide

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// marker is the cursor in test sources; it is removed before parsing.
const marker = "<>"

// cursor removes the marker from src and returns the text and its offset.
func cursor(t testing.TB, src string) (string, int) {
	t.Helper()
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("no %s marker in %q", marker, src)
	}
	return src[:i] + src[i+len(marker):], i
}

// analyze parses and analyses src as a document named name (its
// extension picks the format).
func analyze(t testing.TB, name, src string) *analysis.Result {
	t.Helper()
	f := schema.Parse(name, []byte(src))
	return analysis.Analyze(context.Background(), f, analysis.Options{})
}

// analyzeFile analyses a file under testdata with its children.
func analyzeFile(t testing.TB, name string) *analysis.Result {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := schema.Parse(path, data)
	return analysis.Analyze(context.Background(), f, analysis.Options{Path: path, Loader: analysis.NewLoader(nil, analysis.Options{})})
}

// text returns the source text a range covers.
func text(res *analysis.Result, r source.Range) string {
	return string(res.File.Content()[r.Start:r.End])
}

// offsetOf returns the offset of the n-th (0-based) occurrence of sub
// plus delta.
func offsetOf(t testing.TB, src, sub string, n, delta int) int {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], sub)
		if j < 0 {
			t.Fatalf("occurrence %d of %q not found", n, sub)
		}
		off += 1 + j
	}
	return off + delta
}

func labels(items []CompletionItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Label
	}
	return out
}

// offers fails the test unless items offer every label of want and none
// of not.
func offers(t *testing.T, items []CompletionItem, want, not []string) {
	t.Helper()
	got := labels(items)
	if !has(got, want...) {
		t.Fatalf("want %v in %v", want, got)
	}
	for _, n := range not {
		if has(got, n) {
			t.Errorf("%q should not be offered", n)
		}
	}
}

func has(list []string, want ...string) bool {
	set := map[string]bool{}
	for _, s := range list {
		set[s] = true
	}
	for _, w := range want {
		if !set[w] {
			return false
		}
	}
	return true
}
