package bplang

import (
	"bytes"
	"runtime"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// A large blueprint is a long run of top-level declarations, each
// starting a line with its keyword. parseSplit reads such a text on two
// cores (issue 36): the text up to a declaration's line near its middle,
// and the rest from that line on, each by a parser of its own over the
// same bytes (so every offset is the document's), then joins the trees:
// the declarations of a section both halves hold go into the first
// half's section, in order, and the second half's other top-level
// entries follow the first half's. A line that starts with a keyword is
// a statement's start unless it lies inside a string, a comment or a
// block, and then the first half does not parse clean (the string,
// comment or block runs to its end); any diagnostic in either half
// gives up on the split (the caller parses whole).
// TestParseSplitEqualsWhole holds the joined tree to the whole parse.

// splitMin is the smallest text parsed in two halves.
const splitMin = 256 << 10

// parseSplit parses content in two halves when it is at least min bytes
// and a split is found; nil otherwise.
func parseSplit(uri string, content []byte, mapper *source.Mapper, min int) *syntax.File {
	if len(content) < min || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	at := splitAt(content)
	if at <= 0 {
		return nil
	}
	text := syntax.TextString(content)
	half := func(src []byte, from int) (*parser, *syntax.Mapping) {
		p := &parser{src: src, text: text[:len(src)], mapper: mapper}
		p.lx = lexer{src: src, pos: from}
		if from == 0 {
			p.lx.skipBOM()
		}
		root := p.run()
		p.diags = p.withLexErrors()
		return p, root
	}
	type result struct {
		p    *parser
		root *syntax.Mapping
	}
	second := make(chan result, 1)
	go func() {
		p, root := half(content, at)
		second <- result{p, root}
	}()
	p1, root := half(content[:at], 0)
	r2 := <-second
	if len(p1.diags) > 0 || len(r2.p.diags) > 0 || len(r2.root.Entries) == 0 {
		return nil
	}
	root.Rng = source.R(0, len(content))
	for _, e := range r2.root.Entries {
		sec, isSection := e.Value.(*syntax.Mapping)
		first := p1.sections[e.Key.Value]
		if !isSection || r2.p.sections[e.Key.Value] != sec || first == nil {
			root.Entries = append(root.Entries[:len(root.Entries):len(root.Entries)], e)
			continue
		}
		first.Entries = append(first.Entries[:len(first.Entries):len(first.Entries)], sec.Entries...)
		first.Rng.End = max(first.Rng.End, sec.Rng.End)
	}
	return syntax.Assemble(uri, syntax.BP, mapper.Text(), mapper, root, nil, nil)
}

// declKeywords start the declarations a split may fall before.
var declKeywords = [][]byte{[]byte("resource "), []byte("variable "), []byte("value "),
	[]byte("data "), []byte("export "), []byte("include ")}

// splitAt returns the start of the first line at or after the middle of
// content that starts with a declaration's keyword, or 0.
func splitAt(content []byte) int {
	at := bytes.LastIndexByte(content[:len(content)/2], '\n') + 1
	for at < len(content) {
		for _, kw := range declKeywords {
			if bytes.HasPrefix(content[at:], kw) {
				return at
			}
		}
		next := bytes.IndexByte(content[at:], '\n')
		if next < 0 {
			return 0
		}
		at += next + 1
	}
	return 0
}
