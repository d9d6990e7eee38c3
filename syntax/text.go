package syntax

import "unsafe"

// textString returns the bytes of a whole parse's text as a string
// without copying them: the values of the scalars that need no decoding
// are substrings of it. It is safe because the text is never written
// once parsed: the File keeps the same bytes as its Text (source.NewText
// keeps its argument, which must not change afterwards), and the
// server's texts are immutable (issue 36: the copy was 3.4 MB of the
// live heap with a 5,000-resource blueprint open).
func textString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Eight bytes at a time (SWAR): ones has 1 in every byte, highs the
// high bit of every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// TextString is textString for the front ends outside this package
// (bplang), under the same rule: the parse's input is never written
// afterwards.
func TextString(b []byte) string { return textString(b) }
