package schema

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var yamlErrRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// syntaxError turns a yaml.v3 error into a diagnostic at the real position.
func (b *yamlBuilder) syntaxError(err error) source.Diagnostic {
	line, problem := splitYAMLError(err)
	var off int
	if strings.Contains(problem, "escape") || strings.Contains(problem, "hexdecimal") {
		// Truncating inside a string makes every prefix ending in a
		// backslash fail alike; find the escape itself instead.
		off = b.badEscape(line)
	} else {
		off = b.locate(problem, line)
	}
	return codeYAMLSyntax.New(b.tokenAt(off), "%s", problem)
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
// the offending token's first character. hint (1-based, 0 when absent)
// bounds the search: the problem is never before the line above it.
func (b *yamlBuilder) locate(problem string, hint int) int {
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
	// Within the line: the shortest failing prefix.
	x, y := b.lines[hi], lineEnd(hi)
	for x < y && probes < 96 {
		mid := (x + y) / 2
		if fails(mid) {
			y = mid
		} else {
			x = mid + 1
		}
	}
	if y > b.lines[hi] {
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
