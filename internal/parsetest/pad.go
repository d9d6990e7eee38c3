package parsetest

// What the padding tests share: texts padded, trees compared by what
// they say, a corpus read from disk.

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Pad returns content with n spaces inserted at each of points (sorted).
func Pad(content []byte, points []int, n int) []byte {
	out := make([]byte, 0, len(content)+n*len(points))
	last := 0
	for _, p := range points {
		out = append(out, content[last:p]...)
		out = append(out, bytes.Repeat([]byte(" "), n)...)
		last = p
	}
	return append(out, content[last:]...)
}

// Meaning spells out what a tree says, offsets aside: every key and
// value with its tag and style, every collection with its kind and
// whether it is a flow one.
func Meaning(n syntax.Node) string {
	var b strings.Builder
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.Mapping:
			fmt.Fprintf(&b, "{flow=%v ", n.Flow)
			for _, e := range n.Entries {
				walk(e.Key)
				b.WriteString(": ")
				walk(e.Value)
				b.WriteString(", ")
			}
			b.WriteString("}")
		case *syntax.Sequence:
			fmt.Fprintf(&b, "[flow=%v ", n.Flow)
			for _, it := range n.Items {
				walk(it)
				b.WriteString(", ")
			}
			b.WriteString("]")
		case *syntax.Scalar:
			if n == nil {
				b.WriteString("<nil scalar>")
				return
			}
			fmt.Fprintf(&b, "%q/%v/%v", n.Value, n.Tag, n.Style)
		case nil:
			b.WriteString("~")
		default:
			fmt.Fprintf(&b, "%T", n)
		}
	}
	walk(n)
	return b.String()
}

// Corpus returns the files under dirs whose names end in one of exts,
// by path; a directory that is not there is skipped (and logged).
func Corpus(t testing.TB, dirs []string, exts ...string) map[string][]byte {
	t.Helper()
	docs := map[string][]byte{}
	for _, dir := range dirs {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("no %s: skipped", dir)
			continue
		}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !slices.Contains(exts, filepath.Ext(path)) {
				return err
			}
			data, err := os.ReadFile(path)
			docs[path] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return docs
}
