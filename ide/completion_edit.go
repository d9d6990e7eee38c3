package ide

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Accepting an item in the middle of a word must leave exactly the chosen
// text, in every client: one that applies the item's range as it is (most
// do, Emacs and Vim among them) and one that offers insert or replace
// (lsp sends an InsertReplaceEdit then: insert up to the cursor, replace
// the whole range). So each item's ReplaceRange covers the whole word or
// reference segment under the cursor, not only the part typed before it,
// and the punctuation the item would add that the text already has after
// the word ("variables." before ".env", "name: " before ": x").

// fitEdits widens every item's ReplaceRange that ends at the cursor over
// the rest of the word after it (at the start of a word, the word: the
// word under the cursor is what an item replaces, as in gopls and
// rust-analyzer, and a client that reuses one list while the cursor moves
// inside the word, as eglot does, gets edits that hold anywhere in it),
// then over the punctuation its text repeats. Snippets keep their range,
// their text not being literal.
//
// It reads the text from the items' ranges to the end of the cursor's
// line, through a Text: a version an edit made is not joined for it.
func fitEdits(items []CompletionItem, text source.Text, off int) []CompletionItem {
	for i := range items {
		it := &items[i]
		r := it.ReplaceRange
		if r.Start > off || r.End < off {
			continue
		}
		if r.End == off {
			slash := strings.Contains(it.Label, "/")
			for r.End < text.Len() && isNameByte(text.At(r.End), slash) {
				r.End++
			}
		}
		if !it.Snippet {
			after := text.Slice(r.End, r.End+len(it.InsertText)) // all repeated reads
			n := repeated(it.InsertText, after)
			if t := strings.TrimRight(it.InsertText, " "); n == 0 && t != it.InsertText {
				n = repeated(t, after) // "name: " before "name:" at a line's end
			}
			r.End += n
		}
		it.ReplaceRange = withinLine(text, r)
	}
	return items
}

// isNameByte says whether c continues a name after the cursor: a key, a
// reference segment, a function or a keyword; with slash, a type
// ("aws/sqs/queue").
func isNameByte(c byte, slash bool) bool {
	return c == '_' || c == '-' || slash && c == '/' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// repeated is the length of the longest tail of insert made of
// punctuation and spaces that the text after the word already starts
// with: what accepting the item would otherwise write twice.
func repeated(insert string, after []byte) int {
	best := 0
	for n := 1; n <= len(insert) && n <= len(after); n++ {
		c := insert[len(insert)-n]
		if isNameByte(c, true) || c == '\n' {
			break
		}
		if string(after[:n]) == insert[len(insert)-n:] {
			best = n
		}
	}
	return best
}

// withinLine ends r at the end of its first line: a completion's range
// lies on one line.
func withinLine(text source.Text, r source.Range) source.Range {
	if i := text.IndexAny(r.Start, "\r\n"); i >= 0 && i < r.End {
		r.End = i
	}
	return r
}
