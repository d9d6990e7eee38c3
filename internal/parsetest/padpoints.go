package parsetest

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// A DefinitionAt is syntax.DefinitionAt (YAML, JSON) or
// bplang.DefinitionAt.
type DefinitionAt func(f *syntax.File, start, end int) (syntax.Definition, bool)

// OpenKeyLineEnds returns, in order, every offset p of f's text at which
// definitionAt(f, p, p) gives an Open definition whose KeyLineEnd is p,
// enumerated from the tree: such a p ends the line of an entry of a
// section, the line of its key (YAML, JSON) or of its statement's first
// token (the blueprint language), so only those line ends are asked.
func OpenKeyLineEnds(f *syntax.File, definitionAt DefinitionAt) []int {
	root, ok := f.Root.(*syntax.Mapping)
	if !ok {
		return nil
	}
	var out []int
	ask := func(from int) {
		if from < 0 || from > len(f.Content()) {
			return
		}
		p, broken := source.LineEnd(f.Content(), from)
		if !broken {
			return
		}
		if d, ok := definitionAt(f, p, p); ok && d.Open && d.KeyLineEnd == p {
			out = append(out, p)
		}
	}
	for _, e := range root.Entries {
		section, ok := e.Value.(*syntax.Mapping)
		if !ok {
			continue
		}
		for _, d := range section.Entries {
			ask(d.Key.Rng.End)
			if d.Value != nil {
				ask(d.Value.Range().Start)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

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

// CheckPadPoints checks points, what a PadPoints returned for the text
// name holds, against the whole parse of that text (parse) when it is
// clean: each point must be an Open definition's key line end
// (definitionAt), all of them when complete is set, and the text padded
// with 64 spaces at every point must mean what the text means and parse
// clean too. A text that does
// not parse clean is not checked (PadPoints may say anything there).
// It reports whether the text parsed clean.
func CheckPadPoints(t testing.TB, name string, content []byte, points []int, complete bool,
	parse func(uri string, content []byte) *syntax.File, definitionAt DefinitionAt) bool {
	t.Helper()
	f := parse(name, content)
	if len(f.Diagnostics) > 0 || f.HasSyntaxErrors() {
		return false
	}
	if !slices.IsSorted(points) || len(slices.Compact(slices.Clone(points))) != len(points) {
		t.Fatalf("%s: points %v are not sorted apart", name, points)
	}
	want := OpenKeyLineEnds(f, definitionAt)
	for _, p := range points {
		if _, found := slices.BinarySearch(want, p); !found {
			t.Fatalf("%s: %d is not where an Open definition's key line ends: %q\nwant %v", name, p, around(content, p), want)
		}
	}
	if complete && !slices.Equal(points, want) {
		var missed []string
		for _, p := range want {
			if _, found := slices.BinarySearch(points, p); !found {
				missed = append(missed, fmt.Sprintf("%d %q", p, around(content, p)))
			}
		}
		t.Fatalf("%s: %d points, want %d; missed %v", name, len(points), len(want), missed)
	}
	const n = 64
	padded := parse(name, Pad(content, points, n))
	if g, w := Meaning(padded.Root), Meaning(f.Root); g != w {
		t.Fatalf("%s: padded at %v, the text means\n%s\nnot\n%s", name, points, g, w)
	}
	if len(padded.Diagnostics) > 0 {
		t.Fatalf("%s: padded at %v, the text no longer parses clean: %v", name, points, padded.Diagnostics)
	}
	return true
}

// around quotes the text around offset p.
func around(content []byte, p int) string {
	return string(content[max(p-40, 0):p]) + "‸" + string(content[p:min(p+20, len(content))])
}

// Mark is where a test's text expects a pad point (Unmark).
const Mark = "¶"

// Unmark returns doc without its Marks and the offsets they stood at.
func Unmark(doc string) ([]byte, []int) {
	var points []int
	var out []byte
	for {
		i := strings.Index(doc, Mark)
		if i < 0 {
			return append(out, doc...), points
		}
		out = append(out, doc[:i]...)
		points = append(points, len(out))
		doc = doc[i+len(Mark):]
	}
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

// CheckPadPointsEdited runs CheckPadPoints (not asking completeness) on
// n texts made from doc by one to three random edits (Edit, typing
// typed), and fails when fewer than one in few of them parse clean
// (then it would check little).
func CheckPadPointsEdited(t *testing.T, name string, doc []byte, typed []string, n, few int, padPoints func([]byte) []int,
	parse func(uri string, content []byte) *syntax.File, definitionAt DefinitionAt) {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(len(doc))))
	clean := 0
	for range n {
		text := doc
		for range 1 + rng.Intn(3) {
			text = Edit(rng, text, typed)
		}
		if CheckPadPoints(t, name, text, padPoints(text), false, parse, definitionAt) {
			clean++
		}
	}
	t.Logf("%s: %d of %d edited texts parse clean", name, clean, n)
	if clean*few < n {
		t.Errorf("%s: only %d of %d edited texts parse clean", name, clean, n)
	}
}

// CheckPadPointsCorpus runs CheckPadPoints, asking completeness, on
// every blueprint under the repository's testdata and the shared
// examples whose name ends in one of exts (the test runs in a package
// folder), and on generated ones (gen, with "\n" and with "\r\n" line
// ends); it fails when fewer than minClean parse clean or they hold
// fewer than minPoints points between them (the corpus would be
// missing).
func CheckPadPointsCorpus(t *testing.T, exts []string, gen []byte, minClean, minPoints int, padPoints func([]byte) []int,
	parse func(uri string, content []byte) *syntax.File, definitionAt DefinitionAt) {
	t.Helper()
	docs := Corpus(t, []string{"../testdata", "../../shared/examples"}, exts...)
	docs["gen"+exts[0]] = gen
	docs["gen-crlf"+exts[0]] = bytes.ReplaceAll(gen, []byte("\n"), []byte("\r\n"))
	clean, points := 0, 0
	for name, data := range docs {
		got := padPoints(data)
		if CheckPadPoints(t, name, data, got, true, parse, definitionAt) {
			clean++
			points += len(got)
		}
	}
	t.Logf("%d documents, %d clean, %d points", len(docs), clean, points)
	if clean < minClean || points < minPoints {
		t.Errorf("only %d clean documents and %d points: the corpus is missing", clean, points)
	}
}
