package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

func init() {
	register(command{name: "eval", summary: "evaluate a ${..} template, optionally against a blueprint", run: runEval})
}

// listFlag is a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// parseInterleaved parses flags that may come before, between or after
// the positional arguments, which it returns in order. "--" ends flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// formatDiag renders a diagnostic as path:line:col: severity[code]: message.
func formatDiag(path string, m *source.Mapper, d source.Diagnostic) string {
	line, col := m.LineCol(d.Range.Start, source.UTF32)
	return fmt.Sprintf("%s:%d:%d: %s[%s]: %s", path, line, col, d.Severity, d.Code, d.Message)
}

func runEval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var vars, varFiles listFlag
	fs.Var(&vars, "var", "set a variable: `name=value` (repeatable)")
	fs.Var(&varFiles, "vars", "read variables from a JSON or YAML `file` (repeatable; later files win, --var wins over files)")
	bpPath := fs.String("blueprint", "", "resolve references against this blueprint `file`")
	format := fs.String("format", "json", "output `format`: json or text")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: blueprint-ls eval '<text with ${..}>' [--var n=v]... [--vars file]... [--blueprint file] [--format json|text]")
		fmt.Fprintln(stderr, "\nEvaluates a template. A lone ${..} yields its value; text around it makes a string.")
		fmt.Fprintln(stderr, "Values only known after deployment print as {\"$unknown\": \"...\"} (json) or (known after deploy) (text);")
		fmt.Fprintln(stderr, "secrets as {\"$sensitive\": true} or (sensitive).")
		fmt.Fprintln(stderr, "Exit status: 0 evaluated, 1 parse, type or runtime error, 2 usage or I/O failure.")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	if *format != "json" && *format != "text" {
		fmt.Fprintf(stderr, "blueprint-ls eval: unknown format %q (want json or text)\n", *format)
		return exitUsage
	}
	var in eval.Inputs
	for _, f := range varFiles {
		if err := in.AddVarsFile(f); err != nil {
			fmt.Fprintf(stderr, "blueprint-ls eval: %v\n", err)
			return exitUsage
		}
	}
	for _, v := range vars {
		if err := in.AddVar(v); err != nil {
			fmt.Fprintf(stderr, "blueprint-ls eval: %v\n", err)
			return exitUsage
		}
	}
	ctx := context.Background()
	var res *analysis.Result
	if *bpPath != "" {
		content, err := os.ReadFile(*bpPath)
		if err != nil {
			fmt.Fprintf(stderr, "blueprint-ls eval: %v\n", err)
			return exitUsage
		}
		f := schema.Parse(*bpPath, content)
		res = analysis.Analyze(ctx, f, analysis.Options{Path: *bpPath, Loader: analysis.NewLoader(nil, analysis.Options{})})
	}
	scope, inputDiags := eval.NewScope(ctx, res, in, eval.Options{})
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
	text := pos[0]
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
