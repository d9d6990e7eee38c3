package analysis

import (
	"bytes"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Half-typed lines. The two ways a YAML line is most often left while
// being typed break far more than the line: a quote opened and not yet
// closed makes the rest of the document one string (the parser fails at
// its end, or at the next quote, lines below), and a key whose colon is
// not typed yet breaks the mapping it is in. Blanking the entries holding
// the broken regions would leave out the whole definition (a variable
// whose description is being typed is then offered nowhere). So the
// repair first patches those lines alone, every offset kept:
//
//   - a quote opened on a line and not closed there, where the next line
//     is indented no deeper than the line (a quoted scalar may go on over
//     lines indented deeper; one that would swallow the keys after it is
//     being typed), is read as ending at the line's end: the quote becomes
//     a space when the rest reads as the same plain string, otherwise the
//     line's last character becomes the closing quote;
//   - a line holding a single plain word with no colon, indented as a key
//     of the mapping around it, is blanked: the key is being typed.
//
// The patched lines are the regions left out (their diagnostics, as for a
// blanked entry, are the syntax errors alone).

// patchTyping returns text with its half-typed lines patched and those
// lines; nil when it has none.
func patchTyping(text []byte) ([]byte, []source.Range) {
	starts := splitLines(text)
	var out []byte
	var cut []source.Range
	block := -1 // the indentation a block scalar's lines are deeper than
	for l := range starts {
		s, e := starts[l], lineEnd(starts, len(text), l)
		line := bytes.TrimRight(text[s:e], "\r\n")
		in := indentOf(starts, text, l)
		if in < 0 || bytes.IndexByte(line, '\r') >= 0 {
			continue // a lone CR breaks the line for YAML: left as it is
		}
		if block >= 0 && in > block {
			continue
		}
		block = -1
		v := valueStart(line, in)
		if v < len(line) && (line[v] == '|' || line[v] == '>') {
			block = in
			continue
		}
		next := nextIndent(starts, text, l)
		var patched []byte
		switch {
		case v < len(line) && (line[v] == '"' || line[v] == '\'') && !closes(line, v) && next <= in:
			patched = closeQuote(line, v)
		case v == in && keyBeingTyped(line[in:]) && next <= in && keyAbove(starts, text, l, in):
			patched = bytes.Repeat([]byte{' '}, len(line))
		default:
			continue
		}
		if bytes.Equal(patched, line) {
			continue // its last character is the quote that would close it, escaped
		}
		if out == nil {
			out = bytes.Clone(text)
		}
		copy(out[s:], patched)
		cut = append(cut, source.R(s, e))
	}
	return out, cut
}

// valueStart is where the value of a line indented in starts: after its
// "- " items and its "key: ", or in itself when it has neither.
func valueStart(line []byte, in int) int {
	i := in
	for i+1 < len(line) && line[i] == '-' && line[i+1] == ' ' {
		i += 2
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		return i // a quoted value (or a quoted key: closes says)
	}
	for j := i; j+1 < len(line); j++ {
		if line[j] == ' ' && line[j+1] == '#' {
			return i
		}
		if line[j] == ':' && line[j+1] == ' ' {
			j += 2
			for j < len(line) && line[j] == ' ' {
				j++
			}
			return j
		}
	}
	return i
}

// closes reports whether the quote at v closes on its line.
func closes(line []byte, v int) bool {
	q := line[v]
	for i := v + 1; i < len(line); i++ {
		switch {
		case q == '"' && line[i] == '\\':
			i++
		case line[i] == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case line[i] == q:
			return true
		}
	}
	return false
}

// closeQuote returns line with the quote opened at v ended at the line's
// end, the line's length kept.
func closeQuote(line []byte, v int) []byte {
	out := bytes.Clone(line)
	rest := line[v+1:]
	if plainString(rest) {
		out[v] = ' '
		return out
	}
	if len(rest) == 0 {
		out[v] = ' '
		return out
	}
	_, n := utf8.DecodeLastRune(out)
	out[len(out)-n] = line[v]
	for i := len(out) - n + 1; i < len(out); i++ {
		out[i] = ' '
	}
	return out
}

// plainString reports whether s, written unquoted, is a plain YAML
// scalar with the same string value.
func plainString(s []byte) bool {
	if len(s) == 0 || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if bytes.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`0123456789.+~") || bytes.ContainsAny(s, "\\\t") {
		return false
	}
	if bytes.Contains(s, []byte(": ")) || bytes.Contains(s, []byte(" #")) {
		return false
	}
	switch string(bytes.ToLower(s)) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return false
	}
	return true
}

// keyBeingTyped reports whether s (a line from its first character) is a
// single plain word: a key whose colon is not typed yet.
func keyBeingTyped(s []byte) bool {
	if len(s) == 0 || bytes.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") {
		return false
	}
	for _, c := range s {
		if c == ' ' || c == '\t' || c == ':' || c == '#' {
			return false
		}
	}
	return true
}

// keyAbove reports whether line l, indented in, is where a key of a
// block mapping goes: the nearest line above indented no deeper is a key
// of that mapping ("key: value" or "key:" at in) or the key holding it
// ("key:" with no value, indented less). A line under "key: value"
// indented deeper goes on with that value.
func keyAbove(starts []int, text []byte, l, in int) bool {
	for k := l - 1; k >= 0; k-- {
		kin := indentOf(starts, text, k)
		if kin < 0 || kin > in {
			continue
		}
		line := bytes.TrimRight(text[starts[k]:lineEnd(starts, len(text), k)], "\r\n")
		key, value := keyOf(line[kin:])
		return key && (kin == in || !value)
	}
	return false
}

// keyOf reports whether s (a line from its first character) is a plain
// key with its colon, and whether a value follows it on the line.
func keyOf(s []byte) (key, value bool) {
	if len(s) == 0 || bytes.ContainsAny(s[:1], "-?[]{}#&*!|>%@`") {
		return false, false
	}
	for j := 0; j < len(s); j++ {
		switch {
		case s[j] == ' ' && j+1 < len(s) && s[j+1] == '#':
			return false, false
		case s[j] == ':' && j+1 == len(s):
			return true, false
		case s[j] == ':' && s[j+1] == ' ':
			rest := bytes.TrimSpace(s[j+1:])
			return true, len(rest) > 0 && rest[0] != '#'
		}
	}
	return false, false
}

// nextIndent is the indentation of the next line after l that is not
// blank or a comment; -1 at the end.
func nextIndent(starts []int, text []byte, l int) int {
	for k := l + 1; k < len(starts); k++ {
		if in := indentOf(starts, text, k); in >= 0 {
			return in
		}
	}
	return -1
}

// repairTyping parses f's text with its half-typed lines patched, and
// then, if it still does not parse, with the entries holding what is
// still broken blanked too: the repaired file and the regions left out;
// nil when it has no half-typed line or does not parse either way.
func repairTyping(f *schema.File) (*schema.File, []source.Range) {
	text, cut := patchTyping(f.Content())
	if text == nil {
		return nil, nil
	}
	pf := schema.Parse(f.URI, text)
	if !pf.HasSyntaxErrors() && pf.Root != nil {
		return pf, cut
	}
	rf, more := repairYAML(pf)
	if rf == nil {
		return nil, nil
	}
	return rf, source.MergeRanges(append(cut, more...))
}
