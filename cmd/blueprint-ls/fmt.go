package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/format"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func init() {
	register(command{name: "fmt", summary: "format blueprint files", run: runFmt})
}

// fmtFlags are the modes of `blueprint-ls fmt`, following gofmt: print by
// default, -w to write, --check (gofmt -l) to list, --diff to show.
type fmtFlags struct {
	write, check, diff bool
	opts               format.Options
}

func runFmt(args []string, stdout, stderr io.Writer) int {
	flags := newFlagSet("fmt", stderr,
		"Usage: blueprint-ls fmt [-w] [--check] [--diff] [--indent n] [--tabs] paths...",
		"\nFormats blueprint files. Without -w, --check or --diff the formatted text",
		"is printed. A directory is searched recursively for *.bp, *.blueprint,",
		"*.blueprint.{yaml,yml,json,jsonc} and blueprint.{yaml,yml,json,jsonc}.",
		"Exit status: 0 success, 1 --check found unformatted files,",
		"2 usage, I/O or syntax errors.")
	var ff fmtFlags
	ff.opts = format.DefaultOptions()
	flags.BoolVar(&ff.write, "w", false, "write the formatted text back to each file that changes")
	flags.BoolVar(&ff.check, "check", false, "list the files whose formatting differs; exit 1 if any")
	flags.BoolVar(&ff.diff, "diff", false, "print a unified diff of the changes")
	flags.IntVar(&ff.opts.IndentWidth, "indent", 2, "spaces per indentation `level`")
	flags.BoolVar(&ff.opts.UseTabs, "tabs", false, "indent JSON and JSONC with tabs (YAML always uses spaces)")
	if err := flags.Parse(args); err != nil {
		return parseExit(err)
	}
	if ff.opts.IndentWidth < 1 || ff.opts.IndentWidth > 16 {
		fmt.Fprintf(stderr, "blueprint-ls fmt: --indent must be between 1 and 16\n")
		return exitUsage
	}
	if flags.NArg() == 0 {
		flags.Usage()
		return exitUsage
	}
	files, refused, err := findBlueprints(flags.Args(), nil)
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls fmt: %v\n", err)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "blueprint-ls fmt: no blueprint files found in %s\n", strings.Join(flags.Args(), ", "))
		return exitUsage
	}
	code := exitOK
	for _, path := range files {
		if err := refused[path]; err != nil {
			fmt.Fprintf(stderr, "blueprint-ls fmt: %v\n", err)
			code = exitUsage
			continue
		}
		changed, err := fmtFile(path, ff, stdout)
		switch {
		case err != nil:
			fmt.Fprintln(stderr, err)
			code = exitUsage
		case changed && ff.check && code == exitOK:
			code = exitProblems
		}
	}
	return code
}

// fmtFile formats one file in the modes ff selects and reports whether its
// formatting differs. Errors name the file (and position, for syntax).
func fmtFile(path string, ff fmtFlags, stdout io.Writer) (bool, error) {
	content, err := safefs.ReadFile(path, safefs.DefaultDocumentLimit)
	if err != nil {
		return false, err
	}
	edits, err := format.Format(path, content, ff.opts)
	if err != nil {
		var se *format.SyntaxError
		if errors.As(err, &se) {
			return false, fmt.Errorf("%s:%s", path, se.Error())
		}
		return false, fmt.Errorf("%s: %w", path, err)
	}
	changed := len(edits) > 0
	out := format.Apply(content, edits)
	if ff.check && changed {
		fmt.Fprintln(stdout, path)
	}
	if ff.diff && changed {
		writeDiff(stdout, path, content, edits)
	}
	if ff.write && changed {
		if err := writeAtomic(path, out); err != nil {
			return changed, err
		}
	}
	if !ff.write && !ff.check && !ff.diff {
		if _, err := stdout.Write(out); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// writeDiff prints a unified diff built from the edits themselves: the
// lines each group of edits touches, before and after, with three lines of
// context.
func writeDiff(w io.Writer, path string, content []byte, edits []source.Edit) {
	const context = 3
	m := source.NewMapper(content)
	n := m.LineCount()
	if n > 0 && m.LineStart(n-1) == len(content) {
		n-- // a final line break does not start a line of its own
	}
	// Group the edits by the lines they touch; groups closer than twice
	// the context share a hunk.
	type group struct {
		first, last int // old lines
		edits       []source.Edit
	}
	var groups []group
	for _, e := range edits {
		first, last := m.Line(e.Range.Start), m.Line(e.Range.End)
		if last > first && m.LineStart(last) == e.Range.End {
			last-- // ends at a line start: that line is untouched
		}
		if last >= n {
			last = n - 1
		}
		if k := len(groups) - 1; k >= 0 && first <= groups[k].last+1 {
			groups[k].last = max(groups[k].last, last)
			groups[k].edits = append(groups[k].edits, e)
			continue
		}
		groups = append(groups, group{first, last, []source.Edit{e}})
	}
	lineText := func(l int) string {
		end := len(content)
		if l+1 < m.LineCount() {
			end = m.LineStart(l + 1)
		}
		return string(content[m.LineStart(l):end])
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", path, path)
	shift := 0 // new line number minus old line number so far
	for i := 0; i < len(groups); {
		// A hunk: groups i..j-1.
		j := i + 1
		for j < len(groups) && groups[j].first-groups[j-1].last-1 <= 2*context {
			j++
		}
		start := max(groups[i].first-context, 0)
		end := min(groups[j-1].last+context, n-1)
		var body bytes.Buffer
		oldCount, newCount := 0, 0
		emit := func(prefix string, text string) {
			for text != "" {
				k := strings.IndexByte(text, '\n')
				line := text
				if k >= 0 {
					line, text = text[:k+1], text[k+1:]
				} else {
					text = ""
				}
				body.WriteString(prefix + line)
				if !strings.HasSuffix(line, "\n") {
					body.WriteString("\n\\ No newline at end of file\n")
				}
				if prefix == "-" || prefix == " " {
					oldCount++
				}
				if prefix == "+" || prefix == " " {
					newCount++
				}
			}
		}
		l := start
		for _, g := range groups[i:j] {
			for ; l < g.first; l++ {
				emit(" ", lineText(l))
			}
			from := m.LineStart(g.first)
			to := len(content)
			if g.last+1 < m.LineCount() {
				to = m.LineStart(g.last + 1)
			}
			old := content[from:to]
			shifted := make([]source.Edit, len(g.edits))
			for k, e := range g.edits {
				shifted[k] = source.Edit{Range: source.R(e.Range.Start-from, e.Range.End-from), NewText: e.NewText}
			}
			emit("-", string(old))
			emit("+", string(format.Apply(old, shifted)))
			l = g.last + 1
		}
		for ; l <= end; l++ {
			emit(" ", lineText(l))
		}
		fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", start+1, oldCount, start+1+shift, newCount)
		w.Write(body.Bytes())
		shift += newCount - oldCount
		i = j
	}
}
