package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// writeResult writes r as writeFile writes jsonFileOf(r), without
// making the whole jsonFile first: one jsonDiagnostic, filled for each
// diagnostic in turn (a large blueprint's report holds tens of
// thousands, issue 36). TestWriteResultSame holds it to writeFile.
func (w *jsonWriter) writeResult(r *fileResult) error {
	errText := ""
	if r.err != nil {
		errText = r.err.Error()
	}
	var jd jsonDiagnostic
	var edits []jsonEdit
	var cur *source.LineCursor
	if r.mapper != nil {
		cur = r.mapper.Cursor()
	}
	w.fileOf(r.path, errText, len(r.diags), func(i int) *jsonDiagnostic {
		jsonDiagnosticOf(r, &r.diags[i], &jd, &edits, cur)
		return &jd
	})
	w.flush()
	return w.err
}

// fileOf writes a file's object: its path, its error unless empty, and
// its n diagnostics, the i-th as diag(i) returns it.
func (w *jsonWriter) fileOf(path, errText string, n int, diag func(i int) *jsonDiagnostic) {
	w.open('{')
	w.key("path", true)
	w.str(path)
	if errText != "" {
		w.key("error", false)
		w.str(errText)
	}
	w.key("diagnostics", false)
	w.array(n, func(i int) {
		w.diagnostic(diag(i))
		if len(w.buf) >= 64<<10 {
			w.flush()
		}
	})
	w.close('}')
}

// jsonWriter writes indented JSON: two spaces per level after prefix.
type jsonWriter struct {
	buf    []byte
	prefix string
	indent string // "\n", prefix, then spaces: newline's text, sliced
	depth  int
	out    io.Writer
	err    error // the first error writing to out
	// texts[d] is the fixed text of the objects written at depth d
	// (fixedText), made on first use.
	texts []*fixedText
}

// fixedText is the text of the objects a report writes tens of
// thousands of, between their values, at one depth: a range's around
// its six numbers (open before the start's line, column and offset
// before theirs, mid between the start's offset and the end's line,
// close after the end's offset) and a diagnostic's before its code,
// severity, message and range. Each range is so seven appends and six
// numbers instead of some forty calls (issue 36).
type fixedText struct {
	open, column, offset, mid, close string
	code, severity, message, rng     string
}

// textAt returns the fixed text at depth d, made by writing the keys
// with a writer of w's prefix, so the two never differ.
func (w *jsonWriter) textAt(d int) *fixedText {
	for len(w.texts) <= d {
		w.texts = append(w.texts, nil)
	}
	if t := w.texts[d]; t != nil {
		return t
	}
	x := jsonWriter{prefix: w.prefix, depth: d}
	cut := func() string { s := string(x.buf); x.buf = x.buf[:0]; return s }
	t := &fixedText{}
	x.open('{')
	x.key("code", true)
	t.code = cut()
	x.key("severity", false)
	t.severity = cut()
	x.key("message", false)
	t.message = cut()
	x.key("range", false)
	t.rng = cut()
	x.depth = d
	x.open('{')
	x.key("start", true)
	x.open('{')
	x.key("line", true)
	t.open = cut()
	x.key("column", false)
	t.column = cut()
	x.key("offset", false)
	t.offset = cut()
	x.close('}')
	x.key("end", false)
	x.open('{')
	x.key("line", true)
	t.mid = cut()
	x.close('}')
	x.close('}')
	t.close = cut()
	w.texts[d] = t
	return t
}

// flush writes what buf holds to out.
func (w *jsonWriter) flush() {
	if w.err == nil {
		_, w.err = w.out.Write(w.buf)
	}
	w.buf = w.buf[:0]
}

func (w *jsonWriter) newline() {
	n := 1 + len(w.prefix) + 2*w.depth
	if len(w.indent) < n {
		// A line break, the prefix and room for a few levels more,
		// made once: each line takes its start as one slice.
		w.indent = "\n" + w.prefix + strings.Repeat("  ", w.depth+8)
	}
	w.buf = append(w.buf, w.indent[:n]...)
}

func (w *jsonWriter) open(c byte) {
	w.buf = append(w.buf, c)
	w.depth++
}

func (w *jsonWriter) close(c byte) {
	w.depth--
	w.newline()
	w.buf = append(w.buf, c)
}

// key starts a member; first says it is the object's first.
func (w *jsonWriter) key(k string, first bool) {
	if !first {
		w.buf = append(w.buf, ',')
	}
	w.newline()
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, k...)
	w.buf = append(w.buf, `": `...)
}

// str writes s as encoding/json does with HTML escaping off: printable
// ASCII other than '"' and '\\' as it is, anything else by
// encoding/json itself.
func (w *jsonWriter) str(s string) {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !jsonPlain8(s[i:]) {
			break
		}
	}
	for ; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			w.buf = append(w.buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
			return
		}
	}
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, '"')
}

// Eight bytes at a time (SWAR): ones has 1 in every byte, highs the
// high bit of every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// jsonPlain8 reports whether the first eight bytes of s are all bytes
// jsonPlain passes (a report's messages are megabytes of them). Once no
// byte has its high bit set, each test is exact per byte (no carry
// crosses a byte): b+0x60 has it set when b is at least 0x20, and x+0x7F
// when x is not zero, for x the byte xor '"' or '\\'.
func jsonPlain8(s string) bool {
	_ = s[7] // one bounds check for the eight
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	if w&highs != 0 {
		return false
	}
	printable := w + 0x60*ones
	quote := (w ^ '"'*ones) + 0x7F*ones
	backslash := (w ^ '\\'*ones) + 0x7F*ones
	return printable&quote&backslash&highs == highs
}

// jsonPlain[c] says str writes byte c as it is: printable ASCII other
// than '"' and '\\' (one load per byte instead of four tests).
var jsonPlain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// array writes n elements, each by elem; an empty array is [].
func (w *jsonWriter) array(n int, elem func(i int)) {
	if n == 0 {
		w.buf = append(w.buf, "[]"...)
		return
	}
	w.open('[')
	for i := range n {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.newline()
		elem(i)
	}
	w.close(']')
}

func (w *jsonWriter) diagnostic(d *jsonDiagnostic) {
	t := w.textAt(w.depth)
	w.buf = append(w.buf, t.code...)
	w.str(d.Code)
	w.buf = append(w.buf, t.severity...)
	w.str(d.Severity)
	w.buf = append(w.buf, t.message...)
	w.str(d.Message)
	w.buf = append(w.buf, t.rng...)
	w.depth++ // inside the object, as open leaves it
	w.rng(&d.Range)
	if len(d.Related) > 0 {
		w.key("related", false)
		w.array(len(d.Related), func(i int) {
			r := &d.Related[i]
			w.open('{')
			first := true
			if r.URI != "" {
				w.key("uri", true)
				w.str(r.URI)
				first = false
			}
			w.key("range", first)
			w.rng(&r.Range)
			w.key("message", false)
			w.str(r.Message)
			w.close('}')
		})
	}
	if len(d.Suggestions) > 0 {
		w.key("suggestions", false)
		w.array(len(d.Suggestions), func(i int) {
			s := &d.Suggestions[i]
			w.open('{')
			w.key("title", true)
			w.str(s.Title)
			w.key("edits", false)
			if s.Edits == nil {
				w.buf = append(w.buf, "null"...)
			} else {
				w.array(len(s.Edits), func(j int) {
					e := &s.Edits[j]
					w.open('{')
					w.key("range", true)
					w.rng(&e.Range)
					w.key("newText", false)
					w.str(e.NewText)
					w.close('}')
				})
			}
			w.close('}')
		})
	}
	w.close('}')
}

// rng writes a range: {"start": {line, column, offset}, "end": {...}}.
func (w *jsonWriter) rng(r *jsonRange) {
	t := w.textAt(w.depth)
	b := append(w.buf, t.open...)
	b = strconv.AppendInt(b, int64(r.Start.Line), 10)
	b = append(b, t.column...)
	b = strconv.AppendInt(b, int64(r.Start.Column), 10)
	b = append(b, t.offset...)
	b = strconv.AppendInt(b, int64(r.Start.Offset), 10)
	b = append(b, t.mid...)
	b = strconv.AppendInt(b, int64(r.End.Line), 10)
	b = append(b, t.column...)
	b = strconv.AppendInt(b, int64(r.End.Column), 10)
	b = append(b, t.offset...)
	b = strconv.AppendInt(b, int64(r.End.Offset), 10)
	w.buf = append(b, t.close...)
}
