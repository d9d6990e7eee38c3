package syntax

// A light structural scan of YAML text, run only after yaml.v3 has
// rejected a document, to find the construct a user left open. yaml.v3
// reports an unclosed '[' or quote where it noticed the end (or the next
// line), not where the mistake is; the scan knows where each quoted string
// and flow collection started. It is an approximation of the YAML grammar
// (block scalars by indentation, plain scalars up to ": " and " #"), so a
// finding is used only when yaml.v3's own problem agrees with it.

// scanKind says what the structural scan found.
type scanKind int

const (
	scanNone        scanKind = iota
	scanQuote                // a quoted string never closed; at is the quote
	scanFlow                 // a '[' or '{' never closed; at is the bracket
	scanMismatch             // a closer for another bracket; at is the closer, open the opener
	scanStray                // a ']' or '}' with nothing open; at is the closer
	scanTab                  // a tab in a line's indentation; at is the tab
	scanSubstInFlow          // "${" unquoted in a flow collection; at is the '$'
)

type scanFinding struct {
	kind scanKind
	at   int
	open int
}

// scanStructure returns the first unclosed, mismatched or stray bracket,
// unterminated quoted string or indentation tab in src, or kind scanNone.
func scanStructure(src []byte) scanFinding {
	s := &yamlScanner{src: src, blockIndent: -1}
	if len(src) >= len(utf8BOM) && string(src[:len(utf8BOM)]) == string(utf8BOM) {
		s.i = len(utf8BOM)
	}
	for s.i < len(src) {
		if f := s.line(); f.kind != scanNone {
			return f
		}
	}
	return scanFinding{}
}

type yamlScanner struct {
	src []byte
	i   int
	// blockIndent is the indentation of the line that opened a block
	// scalar while its content lines are skipped, -1 otherwise.
	blockIndent int
}

// line scans one line in block context from its start (and any flow
// collection or quoted string that continues past it).
func (s *yamlScanner) line() scanFinding {
	src := s.src
	ls := s.i
	j := ls
	for j < len(src) && src[j] == ' ' {
		j++
	}
	k := j
	for k < len(src) && isBlank(src[k]) {
		k++
	}
	if k >= len(src) || breakLen(src, k) > 0 || src[k] == '#' {
		s.skipLine(k) // blank or comment only
		return scanFinding{}
	}
	indent := j - ls
	if s.blockIndent >= 0 {
		if indent > s.blockIndent {
			s.skipLine(k)
			return scanFinding{}
		}
		s.blockIndent = -1
	}
	if k > j {
		return scanFinding{kind: scanTab, at: j}
	}
	if indent == 0 && k+3 <= len(src) && (string(src[k:k+3]) == "---" || string(src[k:k+3]) == "...") || src[k] == '%' && indent == 0 {
		s.skipLine(k)
		return scanFinding{}
	}
	s.i = k
	nodeStart := true
	for s.i < len(src) {
		i := s.i
		c := src[i]
		switch {
		case breakLen(src, i) > 0:
			s.i += breakLen(src, i)
			return scanFinding{}
		case isBlank(c):
			s.i++
		case c == '#' && (i == 0 || isBlank(src[i-1])):
			s.skipLine(i)
			return scanFinding{}
		case (c == '-' || c == '?' || c == ':') && s.separated(i+1):
			s.i++
			nodeStart = true
		case nodeStart && (c == '"' || c == '\''):
			if !s.quoted() {
				return scanFinding{kind: scanQuote, at: i}
			}
			nodeStart = false
		case nodeStart && (c == '[' || c == '{'):
			if f := s.flow(); f.kind != scanNone {
				return f
			}
			nodeStart = false
		case c == ']' || c == '}':
			return scanFinding{kind: scanStray, at: i}
		case nodeStart && (c == '|' || c == '>'):
			s.blockIndent = indent
			s.skipLine(i)
			return scanFinding{}
		case nodeStart && (c == '&' || c == '!' || c == '*'):
			for s.i < len(src) && !isBlank(src[s.i]) && breakLen(src, s.i) == 0 {
				s.i++
			}
		default:
			s.plain(false)
			nodeStart = false
		}
	}
	return scanFinding{}
}

// separated reports whether i is a blank, a line break or the end.
func (s *yamlScanner) separated(i int) bool {
	return i >= len(s.src) || isBlank(s.src[i]) || breakLen(s.src, i) > 0
}

// skipLine moves past the line break ending the line holding i.
func (s *yamlScanner) skipLine(i int) {
	for i < len(s.src) && breakLen(s.src, i) == 0 {
		i++
	}
	s.i = i + breakLen(s.src, i)
}

// quoted moves past the quoted string starting at s.i and reports whether
// it is closed.
func (s *yamlScanner) quoted() bool {
	src := s.src
	q := src[s.i]
	for i := s.i + 1; i < len(src); i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] == q && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++
		case src[i] == q:
			s.i = i + 1
			return true
		}
	}
	s.i = len(src)
	return false
}

// plain moves past a plain scalar: up to ": ", " #", a line break, and in
// flow context a flow indicator.
func (s *yamlScanner) plain(flow bool) {
	src := s.src
	i := s.i + 1
	for i < len(src) && breakLen(src, i) == 0 {
		c := src[i]
		if c == ':' && (s.separated(i+1) || flow && i+1 < len(src) && isFlowIndicator(src[i+1])) {
			break
		}
		if c == '#' && isBlank(src[i-1]) {
			break
		}
		if flow && isFlowIndicator(c) {
			break
		}
		i++
	}
	s.i = i
}

// flow moves past the flow collection opening at s.i, across lines.
func (s *yamlScanner) flow() scanFinding {
	src := s.src
	var stack []int // offsets of the open brackets
	for s.i < len(src) {
		i := s.i
		c := src[i]
		switch {
		case breakLen(src, i) > 0:
			s.i += breakLen(src, i)
		case isBlank(c) || c == ',':
			s.i++
		case c == '#' && (i == 0 || isBlank(src[i-1]) || breakLen(src, i-1) > 0):
			s.skipLine(i)
		case c == '{' && i > 0 && src[i-1] == '$':
			return scanFinding{kind: scanSubstInFlow, at: i - 1}
		case c == '[' || c == '{':
			stack = append(stack, i)
			s.i++
		case c == ']' || c == '}':
			open := stack[len(stack)-1]
			if want := closerOf(src[open]); c != want {
				return scanFinding{kind: scanMismatch, at: i, open: open}
			}
			stack = stack[:len(stack)-1]
			s.i++
			if len(stack) == 0 {
				return scanFinding{}
			}
		case c == '"' || c == '\'':
			if !s.quoted() {
				return scanFinding{kind: scanQuote, at: i}
			}
		case c == ':' || c == '?':
			s.i++
		default:
			s.plain(true)
		}
	}
	return scanFinding{kind: scanFlow, at: stack[len(stack)-1]}
}

func closerOf(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}
