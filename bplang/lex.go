package bplang

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// tokKind is the lexical class of a token.
type tokKind uint8

const (
	tEOF       tokKind = iota
	tNewline           // a line break: separates statements outside brackets
	tIdent             // letters, digits, '_' and '-', starting with a letter or '_'
	tInt               // -?digits
	tFloat             // -?digits.digits
	tString            // "..." (may hold ${..} interpolations)
	tMultiline         // """ ... """
	tPunct             // one of { } [ ] ( ) : = , . / * and the operators
	tBad               // a byte that starts no token
)

// token is one lexeme: its class and its byte range, nothing more (no
// pointer, so a buffer of them costs the collector nothing). Its text is
// the source's at that range (for strings, with the quotes): the
// parser's text(t).
type token struct {
	start, end int
	kind       tokKind
}

func (t token) rng() source.Range { return source.R(t.start, t.end) }

// describe words t for a message; text is the whole source text.
func (t token) describe(text string) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tNewline:
		return "end of line"
	case tIdent:
		return fmt.Sprintf("%q", text[t.start:t.end])
	case tInt, tFloat:
		return "number " + text[t.start:t.end]
	case tString, tMultiline:
		return "a string"
	case tBad:
		return fmt.Sprintf("unexpected character %q", text[t.start:t.end])
	}
	return fmt.Sprintf("'%s'", text[t.start:t.end])
}

// comment is a # comment: its range, the '#' included.
type comment struct {
	start, end int
}

// lexer reads the text one token at a time (scan). The parser pulls
// tokens as it goes and keeps only the few it looks ahead at (parser.la);
// lex reads the whole text at once for the readers that want every
// token (the cursor, the statements, the comments). The parser keeps
// no comments (keepComments).
type lexer struct {
	src          []byte
	pos          int
	keepComments bool
	toks         []token
	comments     []comment
	errs         []lexError
}

type lexError struct {
	r   source.Range
	msg string
}

// lex reads all of src: every token (the last one tEOF), comment and
// error.
func lex(src []byte) *lexer {
	l := &lexer{src: src, keepComments: true, toks: make([]token, 0, len(src)/6+16)} // about 7 bytes a token in real blueprints
	l.skipBOM()
	for {
		k, start := l.scan()
		l.toks = append(l.toks, token{kind: k, start: start, end: l.pos})
		if k == tEOF {
			return l
		}
	}
}

// skipBOM starts the lexer past a UTF-8 byte order mark.
func (l *lexer) skipBOM() {
	if src := l.src; len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.pos = 3
	}
}

func (l *lexer) errorf(start, end int, format string, args ...any) {
	l.errs = append(l.errs, lexError{source.R(start, end), fmt.Sprintf(format, args...)})
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentByte(c byte) bool { return identByte[c] }

// identByte and strPlain classify bytes with one load each, for the
// loops over a word and over a string's text.
var identByte, strPlain = func() (ident, plain [256]bool) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		ident[c] = isIdentStart(b) || isDigit(b) || b == '-'
		plain[c] = b != '\n' && b != '\\' && b != '"' && b != '$'
	}
	return
}()

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scan reads the next token, past blanks and comments: its kind and
// where it starts; it ends at l.pos.
func (l *lexer) scan() (tokKind, int) {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
		case c == '#':
			start := l.pos
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
			if l.keepComments {
				l.comments = append(l.comments, comment{start, l.pos})
			}
		default:
			return l.token()
		}
	}
	return tEOF, len(l.src)
}

func (l *lexer) token() (tokKind, int) {
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == '\n':
		l.pos++
		return tNewline, start
	case isIdentStart(c):
		src := l.src
		i := l.pos + 1
		for i < len(src) && identByte[src[i]] {
			i++
		}
		l.pos = i
		return tIdent, start
	case isDigit(c) || c == '-' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		return l.number()
	case c == '"':
		if l.pos+2 < len(l.src) && l.src[l.pos+1] == '"' && l.src[l.pos+2] == '"' {
			return l.multiline()
		}
		return l.str()
	}
	if l.pos+1 < len(l.src) {
		// The operators of two bytes (== != <= >= && ||); a lone '&'
		// or '|' is no token. Byte by byte: this runs for every
		// punctuation.
		switch d := l.src[l.pos+1]; c {
		case '=', '!', '<', '>':
			if d == '=' {
				l.pos += 2
				return tPunct, start
			}
		case '&', '|':
			if d == c {
				l.pos += 2
				return tPunct, start
			}
		}
	}
	switch c {
	case '{', '}', '[', ']', '(', ')', ':', '=', ',', '.', '/', '*', '<', '>', '!':
		l.pos++
		return tPunct, start
	}
	// One whole character, so the message shows it and the range covers it.
	l.pos++
	for l.pos < len(l.src) && l.src[l.pos]&0xC0 == 0x80 {
		l.pos++
	}
	return tBad, start
}

func (l *lexer) hasPrefix(s string) bool {
	return len(l.src)-l.pos >= len(s) && string(l.src[l.pos:l.pos+len(s)]) == s
}

func (l *lexer) number() (tokKind, int) {
	start := l.pos
	if l.src[l.pos] == '-' {
		l.pos++
	}
	for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
		l.pos++
	}
	if l.pos+1 < len(l.src) && l.src[l.pos] == '.' && isDigit(l.src[l.pos+1]) {
		l.pos++
		for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
			l.pos++
		}
		return tFloat, start
	}
	return tInt, start
}

// str lexes a one-line string. Inside a ${..} interpolation braces nest
// and quotes open strings of the substitution language, so a '"' there
// does not end the string.
func (l *lexer) str() (tokKind, int) {
	start := l.pos
	l.pos++
	for l.pos < len(l.src) {
		if strPlain[l.src[l.pos]] {
			l.pos++
			continue
		}
		switch c := l.src[l.pos]; {
		case c == '\n':
			// The string ends where its line's text does: blanks before
			// the line break are not in it (nor in a message quoting it),
			// as they would not be were they padding (lsp/padding.go).
			for l.pos > start+1 && (l.src[l.pos-1] == ' ' || l.src[l.pos-1] == '\t' || l.src[l.pos-1] == '\r') {
				l.pos--
			}
			l.errorf(start, l.pos, "unterminated string: a line break before the closing '\"'")
			return tString, start
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '"':
			l.pos += 2
		case c == '"':
			l.pos++
			return tString, start
		case c == '$' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '{':
			l.interpolation(start)
		default:
			l.pos++
		}
	}
	l.errorf(start, l.pos, "unterminated string: the input ends before the closing '\"'")
	return tString, start
}

// interpolation skips a ${..} inside a string: to its matching '}', over
// nested braces and quoted strings, but never past the end of the line.
func (l *lexer) interpolation(strStart int) {
	l.pos += 2
	depth := 1
	for l.pos < len(l.src) && l.src[l.pos] != '\n' {
		switch c := l.src[l.pos]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				l.pos++
				return
			}
		case '"', '\'':
			l.pos++
			for l.pos < len(l.src) && l.src[l.pos] != c && l.src[l.pos] != '\n' {
				if l.src[l.pos] == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] != '\n' {
					l.pos++
				}
				l.pos++
			}
		}
		if l.pos < len(l.src) && l.src[l.pos] != '\n' {
			l.pos++
		}
	}
}

// multiline lexes a """ string: the opener ends its line, the closer
// stands alone on its line, and its indentation is what every content
// line is stripped of (decodeMultiline).
func (l *lexer) multiline() (tokKind, int) {
	start := l.pos
	l.pos += 3
	rest := l.pos
	for rest < len(l.src) && (l.src[rest] == ' ' || l.src[rest] == '\t' || l.src[rest] == '\r') {
		rest++
	}
	if rest < len(l.src) && l.src[rest] != '\n' {
		l.errorf(start, start+3, `an opening """ must end its line`)
	}
	for l.pos < len(l.src) {
		if l.hasPrefix(`"""`) {
			l.pos += 3
			return tMultiline, start
		}
		l.pos++
	}
	l.errorf(start, start+3, `unterminated multi-line string: no closing """`)
	return tMultiline, start
}
