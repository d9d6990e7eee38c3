package source

import "sort"

// Slack is padding that a parse's coordinates hold and the client's text
// lacks: Len spaces at byte offset At, just before a line break. Padding
// a definition's first line lets an edit inside the definition take or
// give back spaces there, so that the text after the definition keeps
// its offsets and everything parsed from it can be kept as it is (see
// package lsp, padding.go).
type Slack struct {
	At, Len int
}

// Slacks is a list of padding sorted by At, runs apart. The server keeps
// it in a form that versions share (a keystroke changes one run of
// thousands); SlackSlice is the plain one.
type Slacks interface {
	Len() int
	At(i int) Slack
}

// SlackSlice is a Slacks held in a slice.
type SlackSlice []Slack

func (s SlackSlice) Len() int       { return len(s) }
func (s SlackSlice) At(i int) Slack { return s[i] }

// SlackOf returns the runs of s in a new slice (nil when there are none).
func SlackOf(s Slacks) []Slack {
	if s == nil || s.Len() == 0 {
		return nil
	}
	out := make([]Slack, s.Len())
	for i := range out {
		out[i] = s.At(i)
	}
	return out
}

// WithSlack returns a copy of m whose positions ignore the padding in
// slack (each run of spaces ending at a line break): a padded line ends,
// for positions, where its padding begins, so an offset in the padding
// maps to the line's end in the client's text and a character past that
// end maps back to the padding's start.
func (m *Mapper) WithSlack(slack Slacks) *Mapper {
	c := *m
	c.slack = slack
	if slack != nil && slack.Len() == 0 {
		c.slack = nil
	}
	return &c
}

// Slack returns the padding m ignores (WithSlack), never nil; it must
// not be modified.
func (m *Mapper) Slack() Slacks {
	if m.slack == nil {
		return SlackSlice(nil)
	}
	return m.slack
}

// unpadded returns end, the end of a line's content, moved back over
// padding that ends there.
func (m *Mapper) unpadded(end int) int {
	if m.slack == nil {
		return end
	}
	n := m.slack.Len()
	i := sort.Search(n, func(i int) bool { s := m.slack.At(i); return s.At+s.Len >= end })
	if i < n {
		if s := m.slack.At(i); s.At+s.Len == end && s.Len > 0 {
			return s.At
		}
	}
	return end
}
