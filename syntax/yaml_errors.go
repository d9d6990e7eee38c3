package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var yamlErrRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// syntaxError turns a yaml.v3 error into a diagnostic at the real position
// with a message in the blueprint's words. Constructs left open (a quoted
// string, a flow collection) are reported where they start; anything else
// is located by bisection (see locate) and worded by explainYAML.
func (b *yamlBuilder) syntaxError(err error) source.Diagnostic {
	line, problem := splitYAMLError(err)
	if d, ok := b.structuralError(problem); ok {
		return d
	}
	var off int
	if strings.Contains(problem, "escape") || strings.Contains(problem, "hexdecimal") {
		// Truncating inside a string makes every prefix ending in a
		// backslash fail alike; find the escape itself instead.
		off = b.badEscape(line)
	} else {
		off = b.locate(problem, line)
	}
	return b.explain(problem, off)
}

// structuralError reports the construct scanStructure finds left open,
// mismatched or indented with a tab, when yaml.v3's problem is one that
// construct causes and it is where the document first fails.
func (b *yamlBuilder) structuralError(problem string) (source.Diagnostic, bool) {
	var want []scanKind
	switch problem {
	case "found unexpected end of stream":
		want = []scanKind{scanQuote}
	case "did not find expected ',' or ']'", "did not find expected ',' or '}'", "did not find expected node content",
		"did not find expected key", "could not find expected ':'":
		want = []scanKind{scanFlow, scanMismatch, scanStray, scanQuote, scanSubstInFlow}
	case "found character that cannot start any token", "found a tab character that violates indentation",
		"found a tab character where an indentation space is expected":
		want = []scanKind{scanTab}
	default:
		return source.Diagnostic{}, false
	}
	f := scanStructure(b.src)
	if f.kind == scanNone || !slices.Contains(want, f.kind) {
		return source.Diagnostic{}, false
	}
	// The finding is yaml.v3's problem only if nothing before its line
	// fails, and (unless the problem shows at the end of input) the
	// prefix through its line fails the same way.
	line := b.lineOf(f.at)
	if yamlProblem(b.src[:b.lines[line]]) != "" {
		return source.Diagnostic{}, false
	}
	if f.kind == scanStray || f.kind == scanMismatch || f.kind == scanTab {
		end := len(b.src)
		if line+1 < len(b.lines) {
			end = b.lines[line+1]
		}
		if yamlProblem(b.src[:end]) != problem {
			return source.Diagnostic{}, false
		}
	}
	end := source.R(len(b.src), len(b.src))
	at := source.R(f.at, f.at+1)
	var d source.Diagnostic
	switch f.kind {
	case scanQuote:
		kind, q := "double", `"`
		if b.src[f.at] == '\'' {
			kind, q = "single", "'"
		}
		d = codeYAMLSyntax.New(at, "unterminated %s-quoted string started here: add the closing %s", kind, q)
		d.Related = []source.Related{{Range: end, Message: "the document ends here, inside the string"}}
	case scanFlow:
		open := b.src[f.at]
		d = codeYAMLSyntax.New(at, "'%c' is never closed: add '%c' after its last item", open, closerOf(open))
		d.Related = []source.Related{{Range: end, Message: fmt.Sprintf("the document ends here without a '%c'", closerOf(open))}}
	case scanMismatch:
		open := b.src[f.open]
		d = codeYAMLSyntax.New(at, "'%c' cannot close the '%c' opened before it: expected '%c'", b.src[f.at], open, closerOf(open))
		d.Related = []source.Related{{Range: source.R(f.open, f.open+1), Message: fmt.Sprintf("'%c' opened here", open)}}
	case scanStray:
		d = codeYAMLSyntax.New(at, "'%c' closes nothing: no '%c' is open here", b.src[f.at], openerOf(b.src[f.at]))
		d.Suggestions = []source.Suggestion{{Title: fmt.Sprintf("Remove '%c'", b.src[f.at]), Edits: []source.Edit{{Range: at}}}}
	case scanTab:
		d = codeYAMLSyntax.New(at, "tabs are not allowed for indentation: indent with spaces")
	case scanSubstInFlow:
		d = codeYAMLSyntax.New(source.R(f.at, f.at+2), "a ${..} inside [..] or {..} must be quoted: there YAML reads '{' as the start of a mapping (write \"${..}\")")
	}
	return d, true
}

func openerOf(closer byte) byte {
	if closer == ']' {
		return '['
	}
	return '{'
}

// lineOf returns the 0-based line holding off.
func (b *yamlBuilder) lineOf(off int) int {
	return max(0, sort.Search(len(b.lines), func(i int) bool { return b.lines[i] > off })-1)
}

// yamlMessages words yaml.v3's common problems for blueprint authors.
var yamlMessages = map[string]string{
	"did not find expected key":                                    "unexpected text: expected a new 'key: value' entry, a '- ' item or the end of the block here",
	"could not find expected ':'":                                  "expected ':' after this key ('key: value')",
	"did not find expected node content":                           "expected a value here",
	"did not find expected ',' or ']'":                             "expected ',' or ']' here, inside a [..] list",
	"did not find expected ',' or '}'":                             "expected ',' or '}' here, inside a {..} mapping",
	"did not find expected '-' indicator":                          "expected a '- ' list item here, at the indentation of the items above",
	"found character that cannot start any token":                  "this character cannot start a YAML value: quote the value",
	"found unknown escape character":                               "unknown escape sequence in a double-quoted string: write \\\\ for a backslash, or use single quotes",
	"did not find expected hexdecimal number":                      "\\x, \\u and \\U escapes need 2, 4 and 8 hexadecimal digits",
	"found invalid Unicode character escape code":                  "this escape is not a valid Unicode character",
	"found unexpected end of stream":                               "unterminated quoted string",
	"did not find expected alphabetic or numeric character":        "'&' and '*' need a name after them (and blueprints do not allow anchors or aliases)",
	"found a tab character that violates indentation":              "tabs are not allowed for indentation: indent with spaces",
	"found a tab character where an indentation space is expected": "tabs are not allowed for indentation: indent with spaces",
	"block sequence entries are not allowed in this context":       "a '- ' list item cannot start here: put the list on the lines below its key, indented",
	"mapping values are not allowed in this context":               "unexpected ':' here: quote a value that contains ': '",
	"found unexpected document indicator":                          "'---' or '...' at the start of a line ends the document: indent it or quote it",
	"did not find expected comment or line break":                  "unexpected text after '|' or '>': the block's text starts on the next line",
}

// explain builds the diagnostic for problem located at off. Indentation
// mistakes are reported at the start of their line.
func (b *yamlBuilder) explain(problem string, off int) source.Diagnostic {
	line := b.lineOf(off)
	first := b.firstToken(line)
	switch problem {
	case "did not find expected key", "did not find expected '-' indicator":
		if off == first {
			if msg, ok := b.dedentMessage(line); ok {
				return codeYAMLSyntax.New(b.tokenAt(off), "%s", msg)
			}
		}
	case "mapping values are not allowed in this context":
		if d, ok := b.mappingValueError(off, line, first); ok {
			return d
		}
	}
	msg, ok := yamlMessages[problem]
	if !ok {
		msg = problem
	}
	return codeYAMLSyntax.New(b.tokenAt(off), "%s", msg)
}

// indentOf returns the indentation (spaces) of line and whether the line
// holds anything but blanks and a comment.
func (b *yamlBuilder) indentOf(line int) (int, bool) {
	start := b.lines[line]
	i := start
	for i < len(b.src) && b.src[i] == ' ' {
		i++
	}
	j := i
	for j < len(b.src) && isBlank(b.src[j]) {
		j++
	}
	return i - start, j < len(b.src) && breakLen(b.src, j) == 0 && b.src[j] != '#'
}

// dedentMessage explains a line whose indentation matches none of the
// blocks it could belong to: the indentations in use above it are the
// nearest line's and each smaller one on the way up.
func (b *yamlBuilder) dedentMessage(line int) (string, bool) {
	ind, ok := b.indentOf(line)
	if !ok {
		return "", false
	}
	var levels []string
	last := -1
	for l := line - 1; l >= 0 && len(levels) < 3; l-- {
		in, ok := b.indentOf(l)
		if !ok || last >= 0 && in >= last {
			continue
		}
		last = in
		levels = append(levels, strconv.Itoa(in))
		if in == 0 {
			break
		}
	}
	if len(levels) == 0 || slices.Contains(levels, strconv.Itoa(ind)) {
		return "", false
	}
	return fmt.Sprintf("bad indentation: this line is indented by %s, which matches no block above it (they are indented by %s)",
		plural(ind, "space"), strings.Join(levels, " or ")), true
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// mappingValueError explains a ':' yaml.v3 does not accept at off. On a
// line whose first ': ' it is, the line continues the value of the line
// above (indented deeper under a key that already has a value); otherwise
// the value before it holds ': ' and needs quotes.
func (b *yamlBuilder) mappingValueError(off, line, first int) (source.Diagnostic, bool) {
	if off >= len(b.src) || b.src[off] != ':' {
		return source.Diagnostic{}, false
	}
	text := b.src[first:off]
	if !bytes.Contains(text, []byte(": ")) && !bytes.Contains(text, []byte(":\t")) && !bytes.HasPrefix(text, []byte("- ")) {
		prev := line - 1
		for prev >= 0 {
			if _, ok := b.indentOf(prev); ok {
				break
			}
			prev--
		}
		if prev < 0 {
			return source.Diagnostic{}, false
		}
		pin, _ := b.indentOf(prev)
		in, _ := b.indentOf(line)
		if in <= pin {
			return source.Diagnostic{}, false
		}
		return codeYAMLSyntax.New(b.tokenAt(first),
			"bad indentation: this key is indented deeper than the line above, which already has a value: indent it by %s like that line, or move that value to its own lines",
			plural(pin, "space")), true
	}
	d := codeYAMLSyntax.New(source.R(off, off+1), "a plain value cannot contain ': ': quote the value, or start a nested mapping on the next line")
	// The value is what follows the line's first ": ", up to a comment.
	vs := first + bytes.Index(text, []byte(": ")) + 2
	for vs < off && isBlank(b.src[vs]) {
		vs++
	}
	ve := vs
	for ve < len(b.src) && breakLen(b.src, ve) == 0 && !(b.src[ve] == '#' && isBlank(b.src[ve-1])) {
		ve++
	}
	for ve > vs && isBlank(b.src[ve-1]) {
		ve--
	}
	if v := b.src[vs:ve]; len(v) > 0 && !bytes.ContainsAny(v, "\"\\") && !strings.ContainsRune("'\"[{|>&*!%@`-?", rune(v[0])) {
		d.Suggestions = []source.Suggestion{{Title: "Quote the value", Edits: []source.Edit{{Range: source.R(vs, ve), NewText: `"` + string(v) + `"`}}}}
	}
	return d, true
}

// splitYAMLError separates yaml.v3's "yaml: line N: problem".
func splitYAMLError(err error) (line int, problem string) {
	msg := err.Error()
	if m := yamlErrRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	return line, msg
}

// yamlProblem returns the problem yaml.v3 reports for content, or "".
func yamlProblem(content []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(content))
	for range 1000 {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			_, p := splitYAMLError(err)
			return p
		}
	}
	return ""
}

// locate finds where problem arises. yaml.v3 names only a line, and for
// many errors the line of the enclosing construct rather than the
// offending token, so the position is found by bisection: the shortest
// prefix of the document that fails with the same problem ends just after
// the offending token's first character.
//
// Each probe decodes a prefix, so on a large document the probes are
// confined to a window: how far yaml.v3 read before failing bounds the
// error from above, and the block enclosing that point (a line indented
// less than every line after it) is decoded on its own. The result is
// checked against the whole document; when the window misleads, the
// search runs on whole prefixes from hint (1-based, 0 when absent), the
// line above which the problem never is.
func (b *yamlBuilder) locate(problem string, hint int) int {
	if off, ok := b.locateInWindow(problem); ok {
		return off
	}
	return b.locateFrom(problem, hint)
}

// readReach returns how many bytes of src yaml.v3 reads before it fails
// to decode the first document; decoding src[:n] fails the same way.
func readReach(src []byte) int {
	r := &countingReader{r: bytes.NewReader(src)}
	var n yaml.Node
	if err := yaml.NewDecoder(r).Decode(&n); err == nil || errors.Is(err, io.EOF) {
		return len(src)
	}
	return r.n
}

type countingReader struct {
	r *bytes.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += k
	return k, err
}

// minWindow is the size below which probing whole prefixes is cheap.
const minWindow = 64 << 10

// locateInWindow bisects inside a block enclosing the point where
// yaml.v3 stopped reading (less its look-ahead); ok is false when no
// window reproduces the problem at the line the whole document gives, or
// the document is small.
func (b *yamlBuilder) locateInWindow(problem string) (int, bool) {
	src := b.src
	if len(src) < minWindow {
		return 0, false
	}
	reach := b.reach
	if reach <= 0 {
		reach = readReach(src)
	}
	last := b.lineOf(max(0, reach-1))
	lineEnd := func(k int) int {
		if k+1 < len(b.lines) {
			return b.lines[k+1]
		}
		return len(src)
	}
	fails := func(start, n int) bool { return yamlProblem(src[start:n]) == problem }
	from := b.lineOf(max(0, reach-lookAhead))
	for _, ws := range b.windowStarts(from) {
		base := b.lines[ws]
		if !fails(base, lineEnd(last)) {
			continue
		}
		lo, hi := ws, last
		for lo < hi {
			mid := (lo + hi) / 2
			if fails(base, lineEnd(mid)) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		// The window must agree with the whole document about the line.
		if !fails(0, lineEnd(hi)) || hi > 0 && fails(0, lineEnd(hi-1)) {
			return 0, false
		}
		return b.bisectLine(hi, func(n int) bool { return fails(base, n) }), true
	}
	return 0, false
}

// lookAhead bounds how far past a problem yaml.v3 reads before reporting
// it (its raw and decoded buffers, with room to spare).
const lookAhead = 4 << 10

// windowStarts returns up to three lines above from, nearest first, each
// starting a block that holds every line from it down to from: key lines
// indented less than all the lines after them, each less than the last.
// Top-level keys are left out: their block is most of the document.
func (b *yamlBuilder) windowStarts(from int) []int {
	var out []int
	m := -1
	for l := from; l >= 0 && l > from-4096 && len(out) < 3; l-- {
		in, ok := b.indentOf(l)
		if !ok {
			continue
		}
		if in == 0 && m >= 0 {
			break
		}
		if l < from && (m < 0 || in < m) && b.keyLine(l) {
			out = append(out, l)
		}
		if m < 0 || in < m {
			m = in
		}
	}
	return out
}

// keyLine reports whether line holds a plain key and its ':' ("name:").
func (b *yamlBuilder) keyLine(line int) bool {
	i := b.firstToken(line)
	if i >= len(b.src) || !(isASCIILetter(b.src[i]) || b.src[i] == '_') {
		return false
	}
	for ; i < len(b.src) && breakLen(b.src, i) == 0; i++ {
		c := b.src[i]
		if c == ':' {
			return i+1 >= len(b.src) || isBlank(b.src[i+1]) || breakLen(b.src, i+1) > 0
		}
		if !(isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// locateFrom bisects whole prefixes of the document, from the line above
// hint (1-based, 0 when absent) down.
func (b *yamlBuilder) locateFrom(problem string, hint int) int {
	src := b.src
	probes := 0
	fails := func(n int) bool {
		probes++
		return yamlProblem(src[:n]) == problem
	}
	lineEnd := func(k int) int { // the prefix holding lines 0..k
		if k+1 < len(b.lines) {
			return b.lines[k+1]
		}
		return len(src)
	}
	last := len(b.lines) - 1
	lo := max(0, min(hint-2, last))
	hi := max(lo, min(hint, last))
	if !fails(lineEnd(hi)) {
		step := 1
		for {
			lo = hi + 1
			if lo > last {
				return b.firstToken(min(max(hint-1, 0), last))
			}
			hi = min(hi+step, last)
			step *= 2
			if fails(lineEnd(hi)) {
				break
			}
		}
	}
	for lo < hi && probes < 64 {
		mid := (lo + hi) / 2
		if fails(lineEnd(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return b.bisectLine(hi, func(n int) bool { return probes < 96 && fails(n) })
}

// bisectLine returns the start of the offending character on line: the
// end of the shortest failing prefix ending on it, less one character.
func (b *yamlBuilder) bisectLine(line int, fails func(n int) bool) int {
	src := b.src
	x, y := b.lines[line], len(src)
	if line+1 < len(b.lines) {
		y = b.lines[line+1]
	}
	// Spaces before the line break change no prefix's problem, and the
	// language server's parse pads key lines with them (lsp/padding.go): bisect
	// up to the character after the last that is neither a space nor
	// the line break, so that the same line with and without its
	// padding (before "\n" or "\r\n") probes the same prefixes.
	end := y
	for end > x && (src[end-1] == '\n' || src[end-1] == '\r') {
		end--
	}
	y = min(y, x+len(bytes.TrimRight(src[x:end], " "))+1)
	for x < y {
		mid := (x + y) / 2
		if fails(mid) {
			y = mid
		} else {
			x = mid + 1
		}
	}
	if y > b.lines[line] {
		y--
	}
	for y > 0 && y < len(src) && !utf8RuneStart(src[y]) {
		y--
	}
	return y
}

func utf8RuneStart(c byte) bool { return c&0xC0 != 0x80 }

// firstToken returns the offset of the first non-blank character of line.
func (b *yamlBuilder) firstToken(line int) int {
	i := b.lines[line]
	for i < len(b.src) && isBlank(b.src[i]) {
		i++
	}
	return i
}

// tokenAt returns the range of the token at off: a run of word characters,
// or one character; empty at the end of the document or of a line.
func (b *yamlBuilder) tokenAt(off int) source.Range {
	src := b.src
	if off >= len(src) || breakLen(src, off) > 0 {
		return source.R(off, off)
	}
	end := off
	if src[off] == '\\' && off+1 < len(src) && src[off+1] < utf8.RuneSelf {
		return source.R(off, off+2) // an escape sequence
	}
	for end < len(src) && !isBlank(src[end]) && breakLen(src, end) == 0 && !strings.ContainsRune(":,[]{}#\"'&*!|>", rune(src[end])) {
		end++
	}
	if end == off {
		end++
		for end < len(src) && !utf8RuneStart(src[end]) {
			end++
		}
	}
	return source.R(off, end)
}

// badEscape returns the first escape sequence yaml.v3 rejects in a
// double-quoted scalar starting on line (1-based) or later.
func (b *yamlBuilder) badEscape(line int) int {
	src := b.src
	start := b.lines[max(0, min(line-1, len(b.lines)-1))]
	i := bytes.IndexByte(src[start:], '"')
	if i < 0 {
		return start
	}
	for i = start + i + 1; i < len(src) && src[i] != '"'; i++ {
		if src[i] != '\\' {
			continue
		}
		if i+1 >= len(src) {
			return i
		}
		digits := 0
		switch c := src[i+1]; {
		case c == 'x':
			digits = 2
		case c == 'u':
			digits = 4
		case c == 'U':
			digits = 8
		case strings.IndexByte("0abt\tnvfre \"'\\N_LP", c) >= 0 || breakLen(src, i+1) > 0:
		default:
			return i
		}
		for k := 0; k < digits; k++ {
			if i+2+k >= len(src) || hexVal(src[i+2+k]) < 0 {
				return i
			}
		}
		i += 1 + digits
	}
	return start
}
