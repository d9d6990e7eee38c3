package landscaper

import (
	"regexp"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TokenKind classifies a part of a template for highlighting.
type TokenKind int

const (
	TokenKeyword  TokenKind = iota + 1 // if, range, end, ... and Spiff's ((, ))
	TokenFunction                      // a function called
	TokenImport                        // an import's name after .imports. / imports.
	TokenVariable                      // $x, or a field chain
	TokenString
	TokenNumber
)

// Token is one highlighted part of an inline template.
type Token struct {
	Range source.Range
	Kind  TokenKind
}

var (
	goAction  = regexp.MustCompile(`\{\{-?(?s:.*?)-?\}\}`)
	goToken   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `|\$[\w]*(?:\.[\w-]+)*|(?:\.[\w-]+)+|[A-Za-z_]\w*|-?\d+(?:\.\d+)?`)
	spiffExpr = regexp.MustCompile(`\(\((?s:.*?)\)\)`)
	spiffTok  = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|[A-Za-z_][\w-]*(?:\.[\w-]+)*|\d+(?:\.\d+)?`)
)

// goKeywords are text/template's own words.
var goKeywords = map[string]bool{"if": true, "else": true, "end": true, "range": true, "with": true, "define": true,
	"template": true, "block": true, "break": true, "continue": true, "nil": true, "true": true, "false": true}

// Tokens highlights the inline templates of a blueprint: in GoTemplate
// actions the keywords, functions, variables, strings, numbers and the
// imports named; in Spiff expressions the delimiters, functions,
// references (imports named apart), strings and numbers. Sorted by
// position.
func Tokens(f *syntax.File) []Token {
	m := blueprintRoot(f)
	if m == nil {
		return nil
	}
	var out []Token
	templateScalars(m, func(kind string, sc *syntax.Scalar) {
		add := func(a, b int, k TokenKind) {
			if r := sc.OffsetMap().Range(a, b); r.End > r.Start {
				out = append(out, Token{Range: r, Kind: k})
			}
		}
		if kind == "Spiff" {
			for _, x := range spiffExpr.FindAllStringIndex(sc.Value, -1) {
				add(x[0], x[0]+2, TokenKeyword)
				body := sc.Value[x[0]:x[1]]
				for _, t := range spiffTok.FindAllStringIndex(body[2:len(body)-2], -1) {
					a, b := x[0]+2+t[0], x[0]+2+t[1]
					add(a, b, spiffKind(sc.Value, a, b))
				}
				add(x[1]-2, x[1], TokenKeyword)
			}
			return
		}
		for _, x := range goAction.FindAllStringIndex(sc.Value, -1) {
			for _, t := range goToken.FindAllStringIndex(sc.Value[x[0]:x[1]], -1) {
				a, b := x[0]+t[0], x[0]+t[1]
				for _, tk := range goKind(sc.Value[a:b], a) {
					add(tk.Range.Start, tk.Range.End, tk.Kind)
				}
			}
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start < out[j].Range.Start })
	return out
}

// goKind classifies one GoTemplate token starting at decoded offset a;
// a field chain through .imports gives the import its own token.
func goKind(tok string, a int) []Token {
	switch c := tok[0]; {
	case c == '"' || c == '`':
		return []Token{{source.R(a, a+len(tok)), TokenString}}
	case c == '-' || c >= '0' && c <= '9':
		return []Token{{source.R(a, a+len(tok)), TokenNumber}}
	case c == '$' || c == '.':
		if g := goImportRef.FindStringSubmatchIndex(tok); g != nil && g[0] <= 1 {
			return []Token{{source.R(a, a+g[4]), TokenVariable}, {source.R(a+g[4], a+g[5]), TokenImport}, {source.R(a+g[5], a+len(tok)), TokenVariable}}
		}
		return []Token{{source.R(a, a+len(tok)), TokenVariable}}
	case goKeywords[tok]:
		return []Token{{source.R(a, a+len(tok)), TokenKeyword}}
	}
	return []Token{{source.R(a, a+len(tok)), TokenFunction}}
}

// spiffKind classifies one Spiff token: a name followed by ( is a
// function, imports.X names an import.
func spiffKind(v string, a, b int) TokenKind {
	tok := v[a:b]
	switch c := tok[0]; {
	case c == '"':
		return TokenString
	case c >= '0' && c <= '9':
		return TokenNumber
	case b < len(v) && v[b] == '(':
		return TokenFunction
	case len(tok) > len("imports.") && tok[:len("imports.")] == "imports.":
		return TokenImport
	}
	return TokenVariable
}
