package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

func init() {
	register(command{name: "inspect", summary: "show how a parser reads its input (inspect subst '<text>')", run: runInspect})
}

// runInspect prints a parser's view of its argument as JSON: for debugging
// blueprints and the parsers themselves.
func runInspect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	field := fs.Bool("field", false, "parse as an export field (a plain reference) instead of a template")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: blueprint-ls inspect subst [-field] '<text>'")
		fmt.Fprintln(stderr, "\nPrints the parsed substitution template as JSON (parts, node kinds,\nranges as offsets and 1-based line:col); exits 1 when it does not parse.")
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "subst" {
		fs.Usage()
		return exitUsage
	}
	if err := fs.Parse(args[1:]); err != nil {
		return parseExit(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	text := fs.Arg(0)
	mapper := source.NewMapper([]byte(text))
	opts := subst.Options{Mapper: mapper}
	var out any
	var diags []source.Diagnostic
	if *field {
		e, ds := subst.ParseReferenceWith(text, nil, opts)
		diags = ds
		out = struct {
			Expr        *subst.DumpNode        `json:"expr"`
			Diagnostics []subst.DumpDiagnostic `json:"diagnostics,omitempty"`
		}{subst.DumpExpr(e, mapper), subst.DumpDiagnostics(ds, mapper)}
	} else {
		t := subst.ParseTemplateWith(text, nil, opts)
		diags = t.Diagnostics()
		out = subst.Dump(t, mapper)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls inspect: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s\n", b)
	source.SortDiagnostics(diags)
	failed := false
	for _, d := range diags {
		l, c := mapper.LineCol(d.Range.Start, source.UTF32)
		fmt.Fprintf(stderr, "%d:%d: %s[%s]: %s\n", l, c, d.Severity, d.Code, d.Message)
		if d.Severity == source.Error {
			failed = true
		}
	}
	if failed {
		return exitProblems
	}
	return exitOK
}
