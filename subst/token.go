package subst

import (
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TokenKind is the lexical class of a token inside a substitution.
type TokenKind uint8

const (
	TokOpen    TokenKind = iota + 1 // ${
	TokClose                        // }
	TokIdent                        // name, keyword, function name
	TokString                       // "..." (or '...': a name in an accessor)
	TokInt                          // 12, -3
	TokFloat                        // 1.5, -0.25
	TokDot                          // .
	TokComma                        // ,
	TokLParen                       // (
	TokRParen                       // )
	TokLBrack                       // [
	TokRBrack                       // ]
	TokEquals                       // =
	TokInvalid                      // any other character
	tokEOF
)

var tokenNames = [...]string{
	TokOpen: "${", TokClose: "}", TokIdent: "name", TokString: "string",
	TokInt: "integer", TokFloat: "float", TokDot: ".", TokComma: ",",
	TokLParen: "(", TokRParen: ")", TokLBrack: "[", TokRBrack: "]",
	TokEquals: "=", TokInvalid: "invalid", tokEOF: "end of input",
}

func (k TokenKind) String() string {
	if k > 0 && int(k) < len(tokenNames) {
		return tokenNames[k]
	}
	return "?"
}

// Token is one lexical token with its document range; Template.Tokens
// keeps them in order for semantic highlighting.
type Token struct {
	Kind  TokenKind
	Range source.Range
}

// tok is a token in decoded offsets, as the lexer produces it.
type tok struct {
	kind       TokenKind
	start, end int
	bad        bool // string: unterminated; number: malformed
	single     bool // string: written in single quotes
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameChar(c byte) bool {
	return isNameStart(c) || c == '-' || (c >= '0' && c <= '9')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lexSub lexes the inside of a substitution starting at pos (just after
// `${`) up to and including the closing `}`, or to the end of s. It
// appends to toks and returns it with the offset after the last token;
// closed reports whether a `}` ended it.
//
// A `${` inside is lexed as TokOpen and its `}` does not end the outer
// substitution, so the parser can report the nesting precisely.
func lexSub(s string, pos int, toks []tok) ([]tok, int, bool) {
	depth := 0
	for {
		for pos < len(s) && isSpace(s[pos]) {
			pos++
		}
		if pos >= len(s) {
			return toks, pos, false
		}
		start := pos
		c := s[pos]
		var k TokenKind
		bad := false
		switch {
		case c == '}':
			toks = append(toks, tok{kind: TokClose, start: pos, end: pos + 1})
			if depth == 0 {
				return toks, pos + 1, true
			}
			depth--
			pos++
			continue
		case c == '$' && pos+1 < len(s) && s[pos+1] == '{':
			depth++
			k, pos = TokOpen, pos+2
		case isNameStart(c):
			pos++
			for pos < len(s) && isNameChar(s[pos]) {
				pos++
			}
			k = TokIdent
		case isDigit(c) || (c == '-' && pos+1 < len(s) && isDigit(s[pos+1])):
			pos++
			for pos < len(s) && isDigit(s[pos]) {
				pos++
			}
			k = TokInt
			if pos+1 < len(s) && s[pos] == '.' && isDigit(s[pos+1]) {
				pos++
				for pos < len(s) && isDigit(s[pos]) {
					pos++
				}
				k = TokFloat
			}
		case c == '"' || c == '\'':
			pos++
			k, bad = TokString, true
			for pos < len(s) {
				if s[pos] == '\\' && pos+1 < len(s) {
					pos += 2
					continue
				}
				if s[pos] == c {
					pos++
					bad = false
					break
				}
				pos++
			}
			if pos > len(s) {
				pos = len(s)
			}
		case c == '.':
			k, pos = TokDot, pos+1
		case c == ',':
			k, pos = TokComma, pos+1
		case c == '(':
			k, pos = TokLParen, pos+1
		case c == ')':
			k, pos = TokRParen, pos+1
		case c == '[':
			k, pos = TokLBrack, pos+1
		case c == ']':
			k, pos = TokRBrack, pos+1
		case c == '=':
			k, pos = TokEquals, pos+1
		default:
			_, size := utf8.DecodeRuneInString(s[pos:])
			k, pos = TokInvalid, pos+size
		}
		toks = append(toks, tok{kind: k, start: start, end: pos, bad: bad, single: k == TokString && c == '\''})
	}
}

// unquote decodes a string token's text (with its quotes, double or
// single): a backslash before the quote character or a backslash is an
// escape, any other backslash stays as written.
func unquote(text string) string {
	q := text[0]
	if len(text) >= 2 && text[len(text)-1] == q && (len(text) < 3 || !escapedAt(text, len(text)-1)) {
		text = text[1 : len(text)-1]
	} else {
		text = text[1:] // unterminated
	}
	simple := true
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' {
			simple = false
			break
		}
	}
	if simple {
		return text
	}
	b := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+1 < len(text) && (text[i+1] == q || text[i+1] == '\\') {
			i++
		}
		b = append(b, text[i])
	}
	return string(b)
}

// escapedAt reports whether the byte at i is preceded by an odd number of
// backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// quote renders v as a string literal that unquote reads back as v.
func quote(v string) string { return quoteWith(v, '"') }

// quoteWith renders v between q quotes, escaping q and backslashes.
func quoteWith(v string, q byte) string {
	b := make([]byte, 0, len(v)+2)
	b = append(b, q)
	for i := 0; i < len(v); i++ {
		if v[i] == q || v[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, v[i])
	}
	return string(append(b, q))
}
