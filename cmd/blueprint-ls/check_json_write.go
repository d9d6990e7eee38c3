package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
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
	w.fileOf(r.path, errText, len(r.diags), func(i int) *jsonDiagnostic {
		jsonDiagnosticOf(r, &r.diags[i], &jd, &edits)
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

func (w *jsonWriter) int(n int) { w.buf = strconv.AppendInt(w.buf, int64(n), 10) }

// str writes s as encoding/json does with HTML escaping off: printable
// ASCII other than '"' and '\\' as it is, anything else by
// encoding/json itself.
func (w *jsonWriter) str(s string) {
	for i := 0; i < len(s); i++ {
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
	w.open('{')
	w.key("code", true)
	w.str(d.Code)
	w.key("severity", false)
	w.str(d.Severity)
	w.key("message", false)
	w.str(d.Message)
	w.key("range", false)
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

func (w *jsonWriter) rng(r *jsonRange) {
	w.open('{')
	w.key("start", true)
	w.pos(&r.Start)
	w.key("end", false)
	w.pos(&r.End)
	w.close('}')
}

func (w *jsonWriter) pos(p *jsonPos) {
	w.open('{')
	w.key("line", true)
	w.int(p.Line)
	w.key("column", false)
	w.int(p.Column)
	w.key("offset", false)
	w.int(p.Offset)
	w.close('}')
}
