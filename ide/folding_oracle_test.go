package ide

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestFoldsEqualOracle holds Folds, which finds lines with two cursors
// over the line table and comments by searching the text piece by piece,
// to foldsOracle, the same folds found line by line with the mapper's
// binary searches over the joined text: over every blueprint the
// incremental tests edit and testdata's other formats, their random
// edits (broken ones too) and texts with comments and CRLF line breaks,
// read as an edited (unjoined) text.
func TestFoldsEqualOracle(t *testing.T) {
	docs := incrementalDocs(t)
	more, _ := filepath.Glob("../testdata/*/*.json*")
	for _, p := range more {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = b
	}
	docs["comments.yaml"] = []byte("# a\n# b\nresources:\n  # c\n  # d\n  q:\n    type: aws/sqs/queue # e\n    spec: {a: 1,\n      b: 2}\n// f\n  // g\n#\n")
	docs["tabs.yaml"] = []byte("\t# a\n \t# b\nx: 1\n")
	// Large enough to be cut in pieces, with comments typed across their
	// boundaries by the edits.
	docs["gen300.blueprint.yaml"] = gen.Blueprint(300, "yaml")
	docs["gen200.blueprint.json"] = gen.Blueprint(200, "json")
	docs["crlf.yaml"] = []byte("# a\r\n# b\r\nresources:\r\n  q:\r\n    type: aws/sqs/queue\r\n    spec:\r\n      x: |\r\n        y\r\n        z\r\n")
	rng := rand.New(rand.NewSource(5))
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		text := docs[name]
		for step := range 6 {
			if step > 0 {
				text = editText(rng, text)
			}
			// An edited text is in pieces, as an editor's versions are:
			// source.Text cuts 16 KiB pieces, and the edit below takes
			// two bytes from the first, so pieces end at k*16 KiB - 2.
			// A line is put across each of the first two ends, its first
			// two bytes in one piece and a '#' in the next: blanks before
			// it (a comment line), then a key (not one).
			for k, line := range []string{"    # s\n", "ab  # s\n# t\n"} {
				end := (k+1)*16<<10 - 2
				if len(text) < end+64 {
					break
				}
				s := end - 2                                   // the line starts here
				l := bytes.LastIndexByte(text[:s-2], '\n') + 1 // a comment line fills up to it
				fill := "#" + strings.Repeat("f", s-l-2) + "\n"
				text = slices.Concat(text[:l], []byte(fill+line), text[l:])
			}
			prefixed := append([]byte("#\n"), text...)
			edited := source.NewText(prefixed).Edit(0, 2, nil)
			// Edited keeps the text unjoined (NewMapperOf would join it).
			f := schema.Parse(name, text)
			got := Folds(f, source.NewMapper(prefixed).Edited(edited, 0, 2, 0))
			want := foldsOracle(f, source.NewMapper(text))
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Fatalf("%s, edit %d: folds differ (-oracle +Folds):\n%s\n%s", name, step, diff, text)
			}
		}
	}
}

// foldsOracle is Folds as it was before its cursors: it folds mappings and sequences (from an entry's key line to the end
// of its value), block scalars, multi-line ${..} substitutions and runs
// of comment lines, sorted by start line, outermost first. It needs only
// the syntax tree and the text, so it works for every dialect and while
// the text does not parse (f.Root nil: comments only).
func foldsOracle(f *schema.File, m *source.Mapper) []Fold {
	var folds []Fold
	add := func(start, end int, kind FoldKind) {
		if end > start {
			folds = append(folds, Fold{start, end, kind})
		}
	}
	// lastLine is the line of a node's last character; a closing bracket
	// stays visible, so a flow collection folds up to the line before it.
	lastLine := func(n schema.Node) int {
		r := n.Range()
		end := r.End
		if end > r.Start {
			end--
		}
		l := m.Line(end)
		if isFlow(n) && l > m.Line(r.Start) {
			l--
		}
		return l
	}
	var walk func(n schema.Node, from int)
	walk = func(n schema.Node, from int) {
		if n == nil {
			return
		}
		switch n := n.(type) {
		case *schema.Mapping:
			if from >= 0 {
				add(from, lastLine(n), FoldPlain)
			}
			for _, e := range n.Entries {
				keyLine := -1
				if e.Key != nil {
					keyLine = m.Line(e.Key.Range().Start)
				}
				walk(e.Value, keyLine)
			}
		case *schema.Sequence:
			if from >= 0 {
				add(from, lastLine(n), FoldPlain)
			}
			for _, it := range n.Items {
				if it != nil {
					walk(it, m.Line(it.Range().Start))
				}
			}
		case *schema.Scalar:
			if n.Style == schema.Literal || n.Style == schema.Folded {
				start := from
				if start < 0 {
					start = m.Line(n.Range().Start)
				}
				add(start, lastLine(n), FoldPlain)
			}
			if n.IsString() && m.Line(n.Range().Start) != m.Line(n.Range().End) {
				folds = append(folds, substitutionFolds(n, m.Cursor())...) // its scan is unchanged
			}
		}
	}
	if f != nil {
		root, _ := f.Tree() // the well-formed parts of a broken text
		walk(root, -1)
	}
	folds = append(folds, commentFoldsOracle(m)...)

	sort.Slice(folds, func(i, j int) bool {
		if folds[i].StartLine != folds[j].StartLine {
			return folds[i].StartLine < folds[j].StartLine
		}
		return folds[i].EndLine > folds[j].EndLine
	})
	out := folds[:0]
	for i, f := range folds {
		if i > 0 && f == folds[i-1] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// commentFolds folds runs of two or more whole-line comments.
func commentFoldsOracle(m *source.Mapper) []Fold {
	text := m.Content()
	var folds []Fold
	run := -1
	n := m.LineCount()
	for l := 0; l <= n; l++ {
		isComment := false
		if l < n {
			start := m.LineStart(l)
			end := len(text)
			if l+1 < n {
				end = m.LineStart(l + 1)
			}
			k := start
			for k < end && (text[k] == ' ' || text[k] == '\t') {
				k++
			}
			isComment = k < end && (text[k] == '#' || (k+1 < end && text[k] == '/' && text[k+1] == '/'))
		}
		switch {
		case isComment && run < 0:
			run = l
		case !isComment && run >= 0:
			if l-1 > run {
				folds = append(folds, Fold{run, l - 1, FoldComment})
			}
			run = -1
		}
	}
	return folds
}
