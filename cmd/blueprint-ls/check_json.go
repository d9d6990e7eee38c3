package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// The JSON output shape (documented in docs/cli.md). It is stable: fields
// may be added, never renamed or removed.
type jsonReport struct {
	Files   []jsonFile  `json:"files"`
	Summary jsonSummary `json:"summary"`
}

type jsonSummary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Hints    int `json:"hints"`
	Omitted  int `json:"omitted,omitempty"` // diagnostics cut by --max-problems
	// Unreadable counts the files (among Files) that could not be read or
	// were refused (too large, not a regular file, outside the project).
	Unreadable int `json:"unreadable,omitempty"`
}

type jsonFile struct {
	Path        string           `json:"path"`
	Error       string           `json:"error,omitempty"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
}

type jsonPos struct {
	Line   int `json:"line"`   // 1-based
	Column int `json:"column"` // 1-based, in code points
	Offset int `json:"offset"` // 0-based byte offset
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonRelated struct {
	URI     string    `json:"uri,omitempty"`
	Range   jsonRange `json:"range"`
	Message string    `json:"message"`
}

type jsonEdit struct {
	Range   jsonRange `json:"range"`
	NewText string    `json:"newText"`
}

type jsonSuggestion struct {
	Title string     `json:"title"`
	Edits []jsonEdit `json:"edits"`
}

type jsonDiagnostic struct {
	Code        string           `json:"code"`
	Severity    string           `json:"severity"`
	Message     string           `json:"message"`
	Range       jsonRange        `json:"range"`
	Related     []jsonRelated    `json:"related,omitempty"`
	Suggestions []jsonSuggestion `json:"suggestions,omitempty"`
}

func jsonRangeOf(m *source.Mapper, x source.Range) jsonRange {
	pos := func(off int) jsonPos {
		l, c := m.LineCol(off, outputEncoding)
		return jsonPos{Line: l, Column: c, Offset: off}
	}
	return jsonRange{Start: pos(x.Start), End: pos(x.End)}
}

// jsonRangeAt is jsonRangeOf through a cursor over the mapper: the
// ranges of a file's sorted diagnostics follow each other down the text.
func jsonRangeAt(c *source.LineCursor, x source.Range) jsonRange {
	sl, sc := c.LineCol(x.Start, outputEncoding)
	el, ec := c.LineCol(x.End, outputEncoding)
	return jsonRange{Start: jsonPos{Line: sl, Column: sc, Offset: x.Start}, End: jsonPos{Line: el, Column: ec, Offset: x.End}}
}

// writeJSON streams the report one file at a time, so a monorepo's
// report never sits in memory twice; the bytes are those of encoding the
// whole jsonReport with two-space indentation.
func writeJSON(w io.Writer, rep *report) error {
	if _, err := io.WriteString(w, "{\n  \"files\": ["); err != nil {
		return err
	}
	jw := jsonWriter{prefix: "    ", out: w}
	for i := range rep.files {
		sep := ",\n    "
		if i == 0 {
			sep = "\n    "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if err := jw.writeResult(&rep.files[i]); err != nil {
			return err
		}
	}
	if len(rep.files) > 0 {
		if _, err := io.WriteString(w, "\n  "); err != nil {
			return err
		}
	}
	b, err := marshalIndent(rep.summary, "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "],\n  \"summary\": %s\n}\n", b)
	return err
}

func marshalIndent(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// jsonDiagnosticOf sets *jd to d as the report shows it. Its related
// places and suggestions reuse jd's room, and the suggestions' edits are
// carved from *edits (made when nil, so that a suggestion without edits
// still has an empty list, as the report writes it): writeResult fills
// one jsonDiagnostic per diagnostic in turn. cur is a cursor over
// r.mapper, which converts the file's own offsets.
func jsonDiagnosticOf(r *fileResult, d *source.Diagnostic, jd *jsonDiagnostic, edits *[]jsonEdit, cur *source.LineCursor) {
	*jd = jsonDiagnostic{Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Range: jsonRangeAt(cur, d.Range),
		Related: jd.Related[:0], Suggestions: jd.Suggestions[:0]}
	for _, rel := range d.Related {
		jr := jsonRelated{Message: rel.Message}
		p, m := r.relatedMapper(rel)
		if p != r.path {
			jr.URI = rel.URI
		}
		if m != nil {
			jr.Range = jsonRangeOf(m, rel.Range)
		}
		jd.Related = append(jd.Related, jr)
	}
	if len(jd.Related) == 0 {
		jd.Related = nil
	}
	if *edits == nil {
		*edits = make([]jsonEdit, 0, 4)
	}
	es := (*edits)[:0]
	for _, s := range d.Suggestions {
		start := len(es)
		for _, e := range s.Edits {
			es = append(es, jsonEdit{Range: jsonRangeAt(cur, e.Range), NewText: e.NewText})
		}
		jd.Suggestions = append(jd.Suggestions, jsonSuggestion{Title: s.Title, Edits: es[start:len(es):len(es)]})
	}
	*edits = es
	if len(jd.Suggestions) == 0 {
		jd.Suggestions = nil
	}
}
