package source

import "sort"

// Slack is padding that a server keeps in its copy of a document and
// the client's copy lacks: Len spaces at byte offset At, just before a
// line break. Padding a definition's first line lets an edit inside the
// definition take or give back spaces there, so that the text after the
// definition keeps its offsets and everything parsed from it can be kept
// as it is (see package lsp, slack.go).
type Slack struct {
	At, Len int
}

// WithSlack returns a copy of m whose positions ignore the padding in
// slack (sorted by At, each run of spaces ending at a line break): a
// padded line ends, for positions, where its padding begins, so an
// offset in the padding maps to the line's end in the client's text and
// a character past that end maps back to the padding's start.
func (m *Mapper) WithSlack(slack []Slack) *Mapper {
	c := *m
	c.slack = slack
	return &c
}

// Slack returns the padding m ignores (WithSlack); it must not be
// modified.
func (m *Mapper) Slack() []Slack { return m.slack }

// unpadded returns end, the end of a line's content, moved back over
// padding that ends there.
func (m *Mapper) unpadded(end int) int {
	if len(m.slack) == 0 {
		return end
	}
	i := sort.Search(len(m.slack), func(i int) bool { return m.slack[i].At+m.slack[i].Len >= end })
	if i < len(m.slack) && m.slack[i].At+m.slack[i].Len == end && m.slack[i].Len > 0 {
		return m.slack[i].At
	}
	return end
}
