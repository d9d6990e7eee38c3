package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Columns in check output count Unicode code points (UTF-32), 1-based, so
// they match what most editors show as the column whatever the bytes.
const outputEncoding = source.UTF32

// writeText prints one line per diagnostic:
//
//	path:line:col: severity[code]: message
//
// followed by indented lines for related locations and suggestions.
func writeText(w io.Writer, results []fileResult) error {
	bw := bufio.NewWriter(w)
	for _, r := range results {
		if r.err != nil {
			continue // reported on stderr
		}
		for _, d := range r.diags {
			line, col := r.mapper.LineCol(d.Range.Start, outputEncoding)
			fmt.Fprintf(bw, "%s:%d:%d: %s[%s]: %s\n", r.path, line, col, d.Severity, d.Code, d.Message)
			for _, rel := range d.Related {
				if rel.URI != "" {
					fmt.Fprintf(bw, "    %s: %s\n", rel.URI, rel.Message)
					continue
				}
				l, c := r.mapper.LineCol(rel.Range.Start, outputEncoding)
				fmt.Fprintf(bw, "    %s:%d:%d: %s\n", r.path, l, c, rel.Message)
			}
		}
	}
	return bw.Flush()
}

// The JSON output shape (documented in docs/cli.md).
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

func writeJSON(w io.Writer, results []fileResult) error {
	rep := jsonReport{Files: []jsonFile{}}
	for _, r := range results {
		f := jsonFile{Path: r.path, Diagnostics: []jsonDiagnostic{}}
		rep.Summary.Files++
		if r.err != nil {
			f.Error = r.err.Error()
			rep.Files = append(rep.Files, f)
			continue
		}
		rng := func(x source.Range) jsonRange {
			pos := func(off int) jsonPos {
				l, c := r.mapper.LineCol(off, outputEncoding)
				return jsonPos{Line: l, Column: c, Offset: off}
			}
			return jsonRange{Start: pos(x.Start), End: pos(x.End)}
		}
		for _, d := range r.diags {
			jd := jsonDiagnostic{Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Range: rng(d.Range)}
			for _, rel := range d.Related {
				jr := jsonRelated{URI: rel.URI, Message: rel.Message}
				if rel.URI == "" {
					jr.Range = rng(rel.Range)
				}
				jd.Related = append(jd.Related, jr)
			}
			for _, s := range d.Suggestions {
				js := jsonSuggestion{Title: s.Title, Edits: []jsonEdit{}}
				for _, e := range s.Edits {
					js.Edits = append(js.Edits, jsonEdit{Range: rng(e.Range), NewText: e.NewText})
				}
				jd.Suggestions = append(jd.Suggestions, js)
			}
			switch d.Severity {
			case source.Error:
				rep.Summary.Errors++
			case source.Warning:
				rep.Summary.Warnings++
			case source.Information:
				rep.Summary.Infos++
			default:
				rep.Summary.Hints++
			}
			f.Diagnostics = append(f.Diagnostics, jd)
		}
		rep.Files = append(rep.Files, f)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
