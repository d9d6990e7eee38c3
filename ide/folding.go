package ide

import (
	"sort"

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
				folds = append(folds, substitutionFolds(n, m)...)
			}
		}
	}
	if f != nil {
		root, _ := f.Tree() // the well-formed parts of a broken text
		walk(root, -1)
	}
	folds = append(folds, commentFolds(m)...)

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
func substitutionFolds(n *schema.Scalar, m *source.Mapper) []Fold {
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
		start, end := m.Line(n.OffsetMap().Source(i)), m.Line(n.OffsetMap().Source(j))
		if end > start {
			folds = append(folds, Fold{start, end, FoldRegion})
		}
		i = j
	}
	return folds
}

// commentFolds folds runs of two or more whole-line comments.
func commentFolds(m *source.Mapper) []Fold {
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
