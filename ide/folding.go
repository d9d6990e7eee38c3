package ide

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// FoldKind is the kind of a fold: "" (a collection or block scalar),
// "comment" or "region" (a multi-line ${..}); the protocol's names.
type FoldKind string

const (
	FoldPlain   FoldKind = ""
	FoldComment FoldKind = "comment"
	FoldRegion  FoldKind = "region"
)

// Fold is a foldable span of lines (EndLine > StartLine).
type Fold struct {
	StartLine, EndLine int
	Kind               FoldKind
}

// Folds folds mappings and sequences (from an entry's key line to the end
// of its value), block scalars, multi-line ${..} substitutions and runs
// of comment lines, sorted by start line, outermost first. It needs only
// the syntax tree and the text, so it works for every dialect and while
// the text does not parse (f.Root nil: comments only).
func Folds(f *schema.File, m *source.Mapper) []Fold {
	fl := folder{starts: m.Cursor(), ends: m.Cursor()}
	if f != nil {
		root, _ := f.Tree() // the well-formed parts of a broken text
		fl.walk(root, -1)
	}
	folds := append(fl.folds, commentFolds(m, fl.starts)...)
	// Nearly sorted already: the walk adds folds as it enters nodes.
	slices.SortFunc(folds, func(a, b Fold) int {
		if a.StartLine != b.StartLine {
			return cmp.Compare(a.StartLine, b.StartLine)
		}
		return cmp.Compare(b.EndLine, a.EndLine)
	})
	out := folds[:0]
	for i, f := range folds {
		if f.EndLine <= f.StartLine || (i > 0 && f == folds[i-1]) {
			continue // a node on one line, or a fold found twice
		}
		out = append(out, f)
	}
	return out
}

// folder walks a tree for Folds. The places it asks the line of come in
// two rising runs: where nodes start, in the order the walk enters them,
// and where they end, in the order it leaves them (a node's fold is
// added as the walk enters it and ended once its children are done).
// Each run has a cursor over the line table, so a line costs a step, not
// two binary searches: a large blueprint has tens of thousands of folds.
type folder struct {
	starts, ends *source.LineCursor
	folds        []Fold
}

func (fl *folder) add(start, end int, kind FoldKind) {
	if end > start {
		fl.folds = append(fl.folds, Fold{start, end, kind})
	}
}

// open adds the fold of a collection whose entry's key is on line from
// (none when from < 0), its end to be set by end; it returns its index.
func (fl *folder) open(from int) int {
	if from < 0 {
		return -1
	}
	fl.folds = append(fl.folds, Fold{StartLine: from, EndLine: from})
	return len(fl.folds) - 1
}

// end ends fold k (open), n's, n starting on line first.
func (fl *folder) end(k int, n schema.Node, first int) {
	if k >= 0 {
		fl.folds[k].EndLine = fl.lastLine(n, first)
	}
}

// lastLine is the line of a node's last character, the node starting on
// line first; a closing bracket stays visible, so a flow collection
// folds up to the line before it.
func (fl *folder) lastLine(n schema.Node, first int) int {
	r := n.Range()
	end := r.End
	if end > r.Start {
		end--
	}
	l := fl.ends.Line(end)
	if isFlow(n) && l > first {
		l--
	}
	return l
}

// walk adds the folds of n, whose entry's key is on line from (-1: n is
// not an entry's value).
func (fl *folder) walk(n schema.Node, from int) {
	if n == nil {
		return
	}
	first := fl.starts.Line(n.Range().Start)
	switch n := n.(type) {
	case *schema.Mapping:
		k := fl.open(from)
		for _, e := range n.Entries {
			keyLine := -1
			if e.Key != nil {
				keyLine = fl.starts.Line(e.Key.Range().Start)
			}
			fl.walk(e.Value, keyLine)
		}
		fl.end(k, n, first)
	case *schema.Sequence:
		k := fl.open(from)
		for _, it := range n.Items {
			if it != nil {
				fl.walk(it, fl.starts.Line(it.Range().Start))
			}
		}
		fl.end(k, n, first)
	case *schema.Scalar:
		multiline := n.IsString() && first != fl.ends.Line(n.Range().End)
		if multiline {
			fl.folds = append(fl.folds, substitutionFolds(n, fl.starts)...)
		}
		if n.Style == schema.Literal || n.Style == schema.Folded {
			start := from
			if start < 0 {
				start = first
			}
			fl.add(start, fl.lastLine(n, first), FoldPlain)
		}
	}
}

func isFlow(n schema.Node) bool {
	switch n := n.(type) {
	case *schema.Mapping:
		return n.Flow
	case *schema.Sequence:
		return n.Flow
	}
	return false
}

// substitutionFolds finds the ${..} of a string scalar that span several
// lines. It scans the decoded value (so quoting and escapes cannot confuse
// it) and maps back to the source through the scalar's offset map. Braces
// nest; quoted strings inside may hold braces.
func substitutionFolds(n *schema.Scalar, lines *source.LineCursor) []Fold {
	text := n.Value
	var folds []Fold
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '$' || text[i+1] != '{' {
			continue
		}
		depth, j := 0, i+1
		var quote byte
	scan:
		for ; j < len(text); j++ {
			c := text[j]
			switch {
			case quote != 0:
				if c == '\\' {
					j++
				} else if c == quote {
					quote = 0
				}
			case c == '"':
				quote = c
			case c == '{':
				depth++
			case c == '}':
				depth--
				if depth == 0 {
					break scan
				}
			}
		}
		if j >= len(text) {
			break // unterminated: nothing more to fold
		}
		start, end := lines.Line(n.OffsetMap().Source(i)), lines.Line(n.OffsetMap().Source(j))
		if end > start {
			folds = append(folds, Fold{start, end, FoldRegion})
		}
		i = j
	}
	return folds
}

// commentFolds folds runs of two or more whole-line comments (a line
// whose first byte after blanks is '#' or "//"). It looks only at the
// lines holding a '#' or a '/', found a piece of the text at a time, so
// it neither joins the text nor visits every line.
func commentFolds(m *source.Mapper, lines *source.LineCursor) []Fold {
	text := m.Text()
	var comments []int // the comment lines, rising
	for _, c := range [...]byte{'#', '/'} {
		from := len(comments)
		text.Pieces(0, text.Len(), func(at int, p []byte) bool {
			for i := 0; ; {
				k := bytes.IndexByte(p[i:], c)
				if k < 0 {
					return true
				}
				o := at + i + k
				i += k + 1
				if c == '/' && (o+1 >= text.Len() || text.At(o+1) != '/') {
					continue
				}
				l := lines.Line(o)
				if n := len(comments); n > from && comments[n-1] == l {
					continue
				}
				if len(bytes.Trim(text.Slice(m.LineStart(l), o), " \t")) == 0 {
					comments = append(comments, l)
				}
			}
		})
		if from > 0 {
			comments = mergeRising(comments[:from], comments[from:])
		}
	}
	var folds []Fold
	for i := 0; i < len(comments); {
		j := i + 1
		for j < len(comments) && comments[j] == comments[j-1]+1 {
			j++
		}
		if j-i >= 2 {
			folds = append(folds, Fold{comments[i], comments[j-1], FoldComment})
		}
		i = j
	}
	return folds
}

// mergeRising merges two rising lists of lines into one.
func mergeRising(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}
