package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Columns in text, json, github and junit output count Unicode code points
// (UTF-32), 1-based, so they match what most editors show as the column
// whatever the bytes. SARIF counts UTF-16 code units, as its spec says.
const outputEncoding = source.UTF32

// report is what a check found, ready for a format writer: results in
// path order, each file's diagnostics in position order.
type report struct {
	files     []fileResult
	summary   jsonSummary // counts every diagnostic found, shown or not
	omitted   int         // diagnostics cut by --max-problems
	hidden    int         // hints not shown (text and github without --show-hints)
	threshold source.Severity
	wd        string
}

// newReport counts results and applies what the options leave out: hints
// in text and github output unless asked for, and everything past
// --max-problems.
func newReport(results []fileResult, o checkOptions, wd string) *report {
	rep := &report{threshold: o.threshold, wd: wd}
	showHints := o.showHints || o.threshold == source.Hint || (o.format != "text" && o.format != "github")
	budget := o.maxProblems
	for _, r := range results {
		rep.summary.Files++
		if r.err != nil {
			rep.summary.Unreadable++
		}
		shown := r
		shown.diags = nil
		// The diagnostics shown, counted first, go to one slice (r's
		// own when all of them are).
		n, b := 0, budget
		for _, d := range r.diags {
			if d.Severity != source.Hint || showHints {
				if o.maxProblems > 0 && b == 0 {
					break
				}
				b--
				n++
			}
		}
		all := n == len(r.diags)
		if n > 0 {
			shown.diags = r.diags
			if !all {
				shown.diags = make([]source.Diagnostic, 0, n)
			}
		}
		for _, d := range r.diags {
			switch d.Severity {
			case source.Error:
				rep.summary.Errors++
			case source.Warning:
				rep.summary.Warnings++
			case source.Information:
				rep.summary.Infos++
			default:
				rep.summary.Hints++
			}
			switch {
			case d.Severity == source.Hint && !showHints:
				rep.hidden++
			case o.maxProblems > 0 && budget == 0:
				rep.omitted++
			default:
				budget--
				if !all {
					shown.diags = append(shown.diags, d)
				}
			}
		}
		rep.files = append(rep.files, shown)
	}
	rep.summary.Omitted = rep.omitted
	return rep
}

func writeReport(w io.Writer, rep *report, o checkOptions, color bool) error {
	bw := bufio.NewWriter(w)
	var err error
	switch o.format {
	case "json":
		err = writeJSON(bw, rep)
	case "sarif":
		err = writeSARIF(bw, rep)
	case "github":
		writeGitHub(bw, rep)
	case "junit":
		err = writeJUnit(bw, rep)
	default:
		if color {
			writePretty(bw, rep)
		} else {
			writeText(bw, rep)
		}
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// colorFor decides whether text output is coloured with source excerpts:
// always, never, or (auto) when stdout is a terminal and NO_COLOR is unset
// (https://no-color.org) and TERM is not dumb.
func colorFor(mode string, stdout io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := stdout.(*os.File)
	return ok && isTerminal(f)
}

// displayPath shows a path named by related information (absolute, from
// the loader) relative to the working directory when it is below it.
func (rep *report) displayPath(p string) string {
	if filepath.IsAbs(p) {
		if rel := relSlash(rep.wd, p); rel != "" {
			return filepath.FromSlash(rel)
		}
	}
	return p
}

// relatedPos returns where related information points: the file to show
// and its mapper (nil when the file could not be read).
func (r *fileResult) relatedMapper(rel source.Related) (string, *source.Mapper) {
	if rel.URI == "" || rel.URI == r.path {
		return r.path, r.mapper
	}
	return rel.URI, r.others[rel.URI]
}

// writeText prints one line per diagnostic:
//
//	path:line:col: severity[code]: message
//
// followed by indented lines for related locations.
func writeText(w io.Writer, rep *report) {
	for _, r := range rep.files {
		for _, d := range r.diags {
			line, col := r.mapper.LineCol(d.Range.Start, outputEncoding)
			fmt.Fprintf(w, "%s:%d:%d: %s[%s]: %s\n", r.path, line, col, d.Severity, d.Code, d.Message)
			for _, rel := range d.Related {
				fmt.Fprintf(w, "    %s: %s\n", rep.relatedLocation(&r, rel), rel.Message)
			}
		}
	}
}

func (rep *report) relatedLocation(r *fileResult, rel source.Related) string {
	p, m := r.relatedMapper(rel)
	if p != r.path {
		p = rep.displayPath(p)
	}
	if m == nil {
		return p
	}
	l, c := m.LineCol(rel.Range.Start, outputEncoding)
	return fmt.Sprintf("%s:%d:%d", p, l, c)
}

// ANSI styles of the pretty text output.
const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiBlue  = "\x1b[34m"
	ansiCyan  = "\x1b[36m"
)

func severityColor(s source.Severity) string {
	switch s {
	case source.Error:
		return "\x1b[1;31m"
	case source.Warning:
		return "\x1b[1;33m"
	case source.Information:
		return "\x1b[1;34m"
	}
	return "\x1b[1;36m"
}

// writePretty is the terminal form of the text output: coloured, with the
// source line and a caret line under the range, related locations and
// suggested fixes as notes, and a summary.
func writePretty(w io.Writer, rep *report) {
	for _, r := range rep.files {
		for _, d := range r.diags {
			sc := severityColor(d.Severity)
			line, col := r.mapper.LineCol(d.Range.Start, outputEncoding)
			fmt.Fprintf(w, "%s%s[%s]%s%s: %s%s\n", sc, d.Severity, d.Code, ansiReset, ansiBold, d.Message, ansiReset)
			fmt.Fprintf(w, "  %s-->%s %s:%d:%d\n", ansiBlue, ansiReset, r.path, line, col)
			writeExcerpt(w, r.mapper, d.Range, sc)
			for _, rel := range d.Related {
				fmt.Fprintf(w, "   %s=%s %snote%s: %s: %s\n", ansiBlue, ansiReset, ansiBold, ansiReset, rep.relatedLocation(&r, rel), rel.Message)
			}
			for _, s := range d.Suggestions {
				fmt.Fprintf(w, "   %s=%s %shelp%s: %s\n", ansiBlue, ansiReset, ansiBold, ansiReset, s.Title)
			}
			fmt.Fprintln(w)
		}
	}
	counts, files := rep.summaryParts()
	fmt.Fprintf(w, "%s%s%s %s\n", ansiBold, counts, ansiReset, files)
	if rep.hidden > 0 {
		fmt.Fprintf(w, "%s%d hints not shown (--show-hints shows them)%s\n", ansiDim, rep.hidden, ansiReset)
	}
	if rep.omitted > 0 {
		fmt.Fprintf(w, "%s%d more problems not shown (--max-problems)%s\n", ansiDim, rep.omitted, ansiReset)
	}
}

// summaryLine is the one-line summary of a run, counting every
// diagnostic found, shown or not: "2 errors, 1 warning in 3 files", with
// information and hints added when there are any.
func (rep *report) summaryLine() string {
	counts, files := rep.summaryParts()
	return counts + " " + files
}

func (rep *report) summaryParts() (counts, files string) {
	s := rep.summary
	plural := func(n int, what string) string {
		if n != 1 {
			what += "s"
		}
		return fmt.Sprintf("%d %s", n, what)
	}
	parts := []string{plural(s.Errors, "error"), plural(s.Warnings, "warning")}
	if s.Infos > 0 {
		parts = append(parts, fmt.Sprintf("%d information", s.Infos))
	}
	if s.Hints > 0 {
		parts = append(parts, plural(s.Hints, "hint"))
	}
	files = "in " + plural(s.Files, "file")
	if s.Unreadable > 0 {
		files += fmt.Sprintf(" (%d not read)", s.Unreadable)
	}
	return strings.Join(parts, ", "), files
}

// writeExcerpt prints the first line of rng with a gutter and an underline
// (^ under the first character, ~ under the rest) in colour sc.
func writeExcerpt(w io.Writer, m *source.Mapper, rng source.Range, sc string) {
	content := m.Content()
	if len(content) == 0 {
		return
	}
	ln := m.Line(rng.Start)
	start := m.LineStart(ln)
	end := len(content)
	if ln+1 < m.LineCount() {
		end = m.LineStart(ln + 1)
	}
	text := strings.TrimRight(string(content[start:end]), "\r\n")
	from := min(max(rng.Start-start, 0), len(text))
	to := min(max(rng.End-start, from), len(text))
	var pad strings.Builder
	for _, c := range text[:from] {
		if c == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	width := utf8.RuneCountInString(text[from:to])
	under := "^"
	if width > 1 {
		under += strings.Repeat("~", width-1)
	}
	num := fmt.Sprint(ln + 1)
	gutter := strings.Repeat(" ", len(num))
	fmt.Fprintf(w, "%s %s|%s\n", gutter, ansiBlue, ansiReset)
	fmt.Fprintf(w, "%s%s |%s %s\n", ansiBlue, num, ansiReset, text)
	fmt.Fprintf(w, "%s %s|%s %s%s%s%s\n", gutter, ansiBlue, ansiReset, pad.String(), sc, under, ansiReset)
}
