package bpref

import (
	"bytes"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// builder accumulates a decoded text and its decoded→source map: runs
// copied from the source map byte for byte; text the source does not hold
// as such (an escape's character, the `${` around a bare expression, the
// function call an operator stands for) is an atomic run mapped to the
// source that produced it.
type builder struct {
	buf  []byte
	segs []source.Segment
	base int
	// synthLast: the last segment is synthesised text whose length
	// happens to equal its source's (')' for '}'), which verbatim text
	// after it must not extend.
	synthLast bool
}

// copy appends src[start:end] verbatim.
func (b *builder) copy(src []byte, start, end int) {
	if end > start {
		verbatim(b, src[start:end], start)
	}
}

// verbatim appends text that stands as it is at source offset at.
func (b *builder) verbatim(text string, at int) { verbatim(b, text, at) }

func verbatim[T string | []byte](b *builder, text T, at int) {
	n := len(text)
	dec := len(b.buf)
	b.buf = append(b.buf, text...)
	synth := b.synthLast
	b.synthLast = false
	if k := len(b.segs); k > 0 && !synth {
		last := &b.segs[k-1]
		if last.DecLen == last.SrcLen && last.Src+last.SrcLen == at && last.Dec+last.DecLen == dec {
			last.DecLen += n
			last.SrcLen += n
			return
		}
	}
	b.segs = append(b.segs, source.Segment{Dec: dec, DecLen: n, Src: at, SrcLen: n})
}

// synth appends text produced by the source run r. Equal lengths would
// read as verbatim, so such a run is split into two unequal ones.
func (b *builder) synth(text string, r source.Range) {
	if text == "" {
		return
	}
	dec := len(b.buf)
	b.buf = append(b.buf, text...)
	b.synthLast = true
	n, srcLen := len(text), r.End-r.Start
	if n == srcLen && n > 1 {
		b.segs = append(b.segs,
			source.Segment{Dec: dec, DecLen: n - 1, Src: r.Start, SrcLen: srcLen},
			source.Segment{Dec: dec + n - 1, DecLen: 1, Src: r.End, SrcLen: 0})
		return
	}
	b.segs = append(b.segs, source.Segment{Dec: dec, DecLen: n, Src: r.Start, SrcLen: srcLen})
}

func (b *builder) offsetMap() source.OffsetMap {
	if len(b.segs) == 0 {
		return source.OffsetMap{Base: b.base}
	}
	return source.Relative(b.base, append([]source.Segment(nil), b.segs...))
}

// plainString is decodeString of a string token with no escape: the text
// between its quotes, a part of the token's own text (nothing copied).
func plainString(src []byte, t token) (string, source.Range, bool) {
	start, end := t.start+1, t.end
	if end > start && src[end-1] == '"' && end-1 >= start {
		end--
	}
	if start > end || bytes.IndexByte(src[start:end], '\\') >= 0 {
		return "", source.Range{}, false
	}
	return t.text[start-t.start : end-t.start], source.R(start, end), true
}

// decodeString decodes a one-line string token: the text between the
// quotes with \" read as a quote (the language's only escape); a ${..}
// interpolation stays as written, for the substitution parser.
func decodeString(src []byte, t token) (string, source.OffsetMap, source.Range) {
	start, end := t.start+1, t.end
	if end > start && src[end-1] == '"' && end-1 >= start {
		end--
	}
	b := builder{base: start}
	run := start
	for i := start; i < end; i++ {
		if src[i] == '\\' && i+1 < end && src[i+1] == '"' {
			b.copy(src, run, i)
			b.synth(`"`, source.R(i, i+2))
			i++
			run = i + 1
		}
	}
	b.copy(src, run, end)
	return string(b.buf), b.offsetMap(), source.R(start, end)
}

// decodeMultiline decodes a """ string: the lines between the opener's
// line and the closer's, each stripped of the closer's indentation (a
// shorter blank line is allowed), the line break before the closer left
// out. A content line indented less than the closer is an error; its
// text is kept as written.
func decodeMultiline(src []byte, t token) (string, source.OffsetMap, source.Range, *lexError) {
	body := t.start + 3
	for body < t.end && src[body] != '\n' {
		body++
	}
	if body < t.end {
		body++
	}
	closer := t.end
	if closer-3 >= body && string(src[closer-3:closer]) == `"""` {
		closer -= 3
	}
	lineStart := closer
	for lineStart > body && src[lineStart-1] != '\n' {
		lineStart--
	}
	indent := src[lineStart:closer]
	var bad *lexError
	for _, c := range indent {
		if c != ' ' && c != '\t' {
			bad = &lexError{source.R(t.end-3, t.end), `a closing """ must stand on its own line`}
			indent = nil
			break
		}
	}
	contentEnd := lineStart
	if contentEnd > body && src[contentEnd-1] == '\n' {
		contentEnd--
		if contentEnd > body && src[contentEnd-1] == '\r' {
			contentEnd--
		}
	}
	if bad != nil {
		contentEnd = closer
	}
	b := builder{base: body}
	for pos := body; pos < contentEnd; {
		// Strip the indentation at the start of each line.
		n := 0
		for n < len(indent) && pos+n < contentEnd && src[pos+n] == indent[n] {
			n++
		}
		if n < len(indent) && pos+n < contentEnd && src[pos+n] != '\n' && src[pos+n] != '\r' && bad == nil {
			// The range ends after the whole character past the
			// indentation, never inside it.
			_, size := utf8.DecodeRune(src[pos+n : contentEnd])
			bad = &lexError{source.R(pos, pos+n+size), "a line of a multi-line string is indented less than its closing \"\"\""}
		}
		pos += n
		eol := pos
		for eol < contentEnd && src[eol] != '\n' {
			eol++
		}
		if eol < contentEnd {
			eol++ // the line break is content
		}
		b.copy(src, pos, eol)
		pos = eol
	}
	return string(b.buf), b.offsetMap(), source.R(body, max(body, contentEnd)), bad
}
