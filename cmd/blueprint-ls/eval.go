package main

import (
	"context"
	"fmt"
	"io"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

func init() {
	register(command{name: "eval", summary: "evaluate a ${..} template, optionally against a blueprint", run: runEval})
}

// formatDiag renders a diagnostic as path:line:col: severity[code]: message.
func formatDiag(path string, m *source.Mapper, d source.Diagnostic) string {
	line, col := m.LineCol(d.Range.Start, source.UTF32)
	return fmt.Sprintf("%s:%d:%d: %s[%s]: %s", path, line, col, d.Severity, d.Code, d.Message)
}

// writeErrors writes the error diagnostics of the document at path to w
// and reports whether there were any.
func writeErrors(w io.Writer, path string, content []byte, diags []source.Diagnostic) bool {
	var m *source.Mapper
	for _, d := range diags {
		if d.Severity == source.Error {
			if m == nil {
				m = source.NewMapper(content)
			}
			fmt.Fprintln(w, formatDiag(path, m, d))
		}
	}
	return m != nil
}

func runEval(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("eval", stderr,
		"Usage: blueprint-ls eval '<text with ${..}>' [--var n=v]... [--vars file]... [--deploy-config file] [--plugins] [--blueprint file] [--format json|text]",
		"\nEvaluates a template. A lone ${..} yields its value; text around it makes a string.",
		"Values only known after deployment print as {\"$unknown\": \"...\"} (json) or (known after deploy) (text);",
		"secrets as {\"$sensitive\": true} or (sensitive).",
		"Exit status: 0 evaluated, 1 parse, type or runtime error, 2 usage or I/O failure.")
	vars := addVarFlags(fs)
	deploy := addDeployFlag(fs)
	plugins := addPluginFlags(fs)
	bpPath := fs.String("blueprint", "", "resolve references against this blueprint `file`")
	format := fs.String("format", "json", "output `format`: json or text")
	text, exit, ok := parseOneArg(fs, args)
	if !ok {
		return exit
	}
	if *format != "json" && *format != "text" {
		fmt.Fprintf(stderr, "blueprint-ls eval: unknown format %q (want json or text)\n", *format)
		return exitUsage
	}
	in, err := vars.inputs()
	if err == nil {
		err = deploy.apply(*bpPath, &in, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls eval: %v\n", plainFileError(err))
		return exitUsage
	}
	ctx := context.Background()
	// Plugins add their functions (known after deploy: never called).
	reg := plugins.apply(nil, false)
	var res *analysis.Result
	if *bpPath != "" {
		content, err := safefs.ReadFile(*bpPath, safefs.DefaultDocumentLimit)
		if err != nil {
			fmt.Fprintf(stderr, "blueprint-ls eval: %v\n", plainFileError(err))
			return exitUsage
		}
		f := schema.Parse(*bpPath, content)
		res = analysis.Analyze(ctx, f, analysis.Options{Path: *bpPath, Registry: reg, Loader: analysis.NewLoader(nil, analysis.Options{Registry: reg}), Roots: cliRoots(*bpPath)})
	}
	scope, inputDiags := eval.NewScope(ctx, res, in, eval.Options{Registry: reg})
	code := exitOK
	for _, d := range inputDiags {
		// A variable without a value evaluates as unknown; a value of
		// the wrong type or outside allowedValues is an error.
		if d.Code == eval.CodeMissingVariable.ID || d.Severity != source.Error {
			continue
		}
		fmt.Fprintln(stderr, formatDiag(*bpPath, res.File.Mapper, d))
		code = exitProblems
	}
	if code != exitOK {
		return code
	}
	t := subst.ParseTemplate(text, nil)
	v, diags := scope.Template(t)
	m := source.NewMapper([]byte(text))
	for _, d := range diags {
		fmt.Fprintln(stderr, formatDiag("<template>", m, d))
		if d.Severity == source.Error {
			code = exitProblems
		}
	}
	for _, d := range scope.BlueprintDiagnostics() {
		fmt.Fprintln(stderr, formatDiag(*bpPath, res.File.Mapper, d))
		if d.Severity == source.Error {
			code = exitProblems
		}
	}
	if code != exitOK {
		return code
	}
	if *format == "text" {
		fmt.Fprintln(stdout, eval.Plain(v))
	} else {
		fmt.Fprintln(stdout, string(eval.JSON(v)))
	}
	return exitOK
}
