package bplang

// PadPoints is syntax.PadPoints for the blueprint language: where the
// first line of every declaration (resource, data, value, variable,
// export, include) that DefinitionAt finds Open ends, before its line
// break, in order. That is a declaration whose keyword starts its line,
// whose first line ends in its block's '{' (then spaces), the '{' after
// the type (or an include's path) with only spaces and tabs between,
// and whose next statement, if any, starts a line too.
//
// It lexes the text as the parser does, one token at a time, so nothing
// inside a string, a """ string or a comment is taken for a statement,
// and follows the top level's statements: a declaration's block to the
// '}' that closes it, a transform's expression across the line breaks an
// operator before or after them spans. The padding sits between the
// '{' and the line break, where the lexer skips blanks, so it means
// nothing. Where a statement is not one the parser would take clean, or
// the lexer meets an error, it returns nil; what it returns for a text
// that does not parse clean means nothing.
func PadPoints(content []byte) []int {
	s := bpScan{l: lexer{src: content, quiet: true}, pending: -1}
	s.l.skipBOM()
	if !s.run() {
		return nil
	}
	return s.out
}

// bpScan reads the top level's statements; tok is the token it is at.
type bpScan struct {
	l          lexer
	kind       tokKind
	start, end int
	// pending is where the first line of the last declaration ends, when
	// it is Open but for the next statement's place.
	pending int
	out     []int
}

// next moves to the next token.
func (s *bpScan) next() {
	s.kind, s.start = s.l.scan()
	s.end = s.l.pos
}

// is reports whether the token is the punctuation or identifier text.
func (s *bpScan) is(text string) bool {
	return (s.kind == tPunct || s.kind == tIdent) && string(s.l.src[s.start:s.end]) == text
}

func (s *bpScan) run() bool {
	src := s.l.src
	s.next()
	for {
		for s.kind == tNewline || s.is(",") {
			s.next()
		}
		if s.pending >= 0 && (s.kind == tEOF || s.start > 0 && src[s.start-1] == '\n') {
			s.out = append(s.out, s.pending)
		}
		s.pending = -1
		if s.kind == tEOF {
			return !s.l.failed // an unterminated string does not parse
		}
		if s.kind != tIdent || !topKeywords[string(src[s.start:s.end])] {
			return false
		}
		if !s.statement() {
			return false
		}
		if s.kind != tNewline && s.kind != tEOF {
			return false
		}
	}
}

// statement moves past the statement whose keyword is the token, to the
// token after it.
func (s *bpScan) statement() bool {
	src := s.l.src
	kw, start := string(src[s.start:s.end]), s.start
	s.next()
	switch kw {
	case "version":
		if s.kind != tString {
			return false
		}
		s.next()
		return true
	case "transform":
		return s.expression()
	case "metadata":
		return s.is("{") && s.block()
	case "include":
		if !s.name() || s.kind != tString {
			return false
		}
	default:
		if !s.name() || !s.is(":") {
			return false
		}
		s.next()
		if s.kind != tIdent {
			return false
		}
		// The type: words joined by '/', nothing between.
		typeEnd := s.end
		for {
			s.next()
			if !s.is("/") || s.start != typeEnd {
				break
			}
			s.next()
			if s.kind != tIdent || s.start != typeEnd+1 {
				return false
			}
			typeEnd = s.end
		}
		if !s.is("{") {
			return true // no block
		}
		s.open(start, typeEnd)
		return s.block()
	}
	// include: the path is the token.
	head := s.end
	s.next()
	if !s.is("{") {
		return true
	}
	s.open(start, head)
	return s.block()
}

// name moves past a declaration's name, an identifier or a string.
func (s *bpScan) name() bool {
	if s.kind != tIdent && s.kind != tString {
		return false
	}
	s.next()
	return true
}

// open notes the declaration starting at start Open when it starts a
// line and its first line ends in the '{' the token is, after head (the
// type's end or the path's) and only blanks.
func (s *bpScan) open(start, head int) {
	src := s.l.src
	if start > 0 && src[start-1] != '\n' {
		return
	}
	for _, c := range src[head:s.start] {
		if c != ' ' && c != '\t' {
			return
		}
	}
	for _, c := range src[start:head] {
		if c == '\n' {
			return
		}
	}
	j := s.end
	for j < len(src) && src[j] == ' ' {
		j++
	}
	switch {
	case j < len(src) && src[j] == '\n', j+1 < len(src) && src[j] == '\r' && src[j+1] == '\n':
		s.pending = j
	}
}

// block moves past the block whose '{' is the token, to the token after
// its '}'.
func (s *bpScan) block() bool {
	depth := 0
	for {
		switch s.bracket() {
		case 0:
			if s.kind == tEOF {
				return false
			}
		case '{', '[', '(':
			depth++
		default:
			depth--
		}
		s.next()
		if depth == 0 {
			return true
		}
	}
}

// bracket returns the token when it is a bracket, or 0.
func (s *bpScan) bracket() byte {
	if s.kind != tPunct || s.end != s.start+1 {
		return 0
	}
	switch c := s.l.src[s.start]; c {
	case '{', '[', '(', '}', ']', ')':
		return c
	}
	return 0
}

// expression moves past a transform's expression: brackets whole, and at
// the top across a line break only when a binary operator ends the line
// or starts the next.
func (s *bpScan) expression() bool {
	depth, operator := 0, false
	for {
		switch {
		case s.kind == tEOF:
			return depth == 0
		case s.kind == tNewline && depth == 0:
			if !operator {
				// The statement ends here unless an operator starts the
				// next line (past empty ones).
				l := s.l
				k, start := l.scan()
				for k == tNewline {
					k, start = l.scan()
				}
				if k != tPunct || !binaryOperator(string(s.l.src[start:l.pos])) {
					return true
				}
			}
		}
		switch s.bracket() {
		case 0:
		case '{', '[', '(':
			depth++
		default:
			depth--
		}
		if s.kind != tNewline {
			operator = s.kind == tPunct && binaryOperator(string(s.l.src[s.start:s.end]))
		}
		s.next()
	}
}

// binaryOperator reports whether op is one of the binary operators.
func binaryOperator(op string) bool {
	for _, level := range precedence {
		for _, o := range level {
			if o == op {
				return true
			}
		}
	}
	return false
}
