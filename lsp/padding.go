package lsp

import (
	"bytes"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// padding is a document's padding (slack.go) as the server keeps it: the
// runs sorted by offset in a vector that versions share by chunks, so
// that an edit which keeps the text's length (the padding takes up what
// it adds) copies one chunk of the list, not every run. A document padded
// whole has a run per definition (padWhole).
type padding struct {
	v chunked.Vec[source.Slack]
	// deepest bounds the indentation of the padded lines: none is
	// indented more (captured need not look at the runs otherwise).
	deepest int
	// format is the text's: YAML (the zero value), JSON or JSONC, or the
	// blueprint language (which edits check differently: apply).
	format schema.Format
}

// Len and At make a padding a source.Slacks; a nil one has no runs.
func (p *padding) Len() int {
	if p == nil {
		return 0
	}
	return p.v.Len()
}

func (p *padding) At(i int) source.Slack { return p.v.At(i) }

// newPadding returns the padding of runs (sorted, apart), which are
// indented deepest at most; nil when there are none.
func newPadding(runs []source.Slack, deepest int, format schema.Format) *padding {
	if len(runs) == 0 {
		return nil
	}
	v := chunked.Make[source.Slack](len(runs))
	for i, s := range runs {
		v.Set(i, s)
	}
	return &padding{v: v, deepest: deepest, format: format}
}

// paddingOf returns the padding of m, whose text it is in.
func paddingOf(m *source.Mapper) *padding {
	if m == nil {
		return nil
	}
	switch s := m.Slack().(type) {
	case *padding:
		return s
	default:
		runs := source.SlackOf(s)
		deepest := 0
		for _, r := range runs {
			deepest = max(deepest, indentOf(m.Text(), r.At))
		}
		return newPadding(runs, deepest, schema.YAML)
	}
}

// search returns the index of the first run for which f holds (f
// false, then true, over the runs in order), or Len.
func (p *padding) search(f func(s source.Slack) bool) int {
	return sort.Search(p.Len(), func(i int) bool { return f(p.At(i)) })
}

// withMapper returns m knowing p.
func (p *padding) withMapper(m *source.Mapper) *source.Mapper {
	if p == nil {
		return m.WithSlack(nil)
	}
	return m.WithSlack(p)
}

// padAt returns text with slackSize spaces put at each of points (sorted
// offsets, each the end of a definition's key line: schema.PadPoints),
// and that padding; format is the text's.
func padAt(text []byte, points []int, format schema.Format) ([]byte, *padding) {
	return padSized(text, points, func(int) int { return slackSize }, format)
}

// padSized is padAt putting size(i) spaces at points[i].
func padSized(text []byte, points []int, size func(i int) int, format schema.Format) ([]byte, *padding) {
	if len(points) == 0 {
		return text, nil
	}
	total := 0
	for i := range points {
		total += size(i)
	}
	out := make([]byte, 0, len(text)+total)
	runs := make([]source.Slack, 0, len(points))
	deepest, prev := 0, 0
	whole := source.NewText(text)
	for i, p := range points {
		out = append(out, text[prev:p]...)
		runs = append(runs, source.Slack{At: len(out), Len: size(i)})
		deepest = max(deepest, indentOf(whole, p))
		out = append(out, spaces[:size(i)]...)
		prev = p
	}
	return append(out, text[prev:]...), newPadding(runs, deepest, format)
}

// spaces is what padding is made of.
var spaces = bytes.Repeat([]byte{' '}, slackMax)
