package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/landscaper"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

func init() {
	register(command{name: "render", summary: "show what a Landscaper blueprint deploys for given import values", run: runRender})
}

func runRender(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("render", stderr,
		"Usage: blueprint-ls render BLUEPRINT [--imports file] [--format yaml|json] [--timeout d]",
		"\nValidates the import values against the Landscaper blueprint's imports, runs its",
		"import, deploy, export and subinstallation executions and prints the deploy items,",
		"exports and subinstallations. What is not evaluated (component descriptors, clusters,",
		"Spiff beyond literals and paths) is listed under unknown.",
		"Exit status: 0 success, 1 the blueprint has errors or the imports or an execution",
		"fail, 2 usage or I/O failure.")
	importsFile := fs.String("imports", "", "import values: a YAML or JSON `file` mapping import names to values")
	format := fs.String("format", "yaml", "output `format`: yaml or json")
	timeout := fs.Duration("timeout", 5*time.Second, "time budget of one GoTemplate execution")
	path, exit, ok := parseOneArg(fs, args)
	if !ok {
		return exit
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "blueprint-ls render: %v\n", plainFileError(err))
		return exitUsage
	}
	if *format != "yaml" && *format != "json" {
		return fail(fmt.Errorf("unknown format %q (want yaml or json)", *format))
	}
	content, err := safefs.ReadFile(path, safefs.DefaultDocumentLimit)
	if err != nil {
		return fail(err)
	}
	if k, _ := dialect.Detect(path, "", content); k != dialect.Landscaper {
		return fail(fmt.Errorf("%s is not a Landscaper blueprint (apiVersion landscaper.gardener.cloud/..., kind Blueprint); for a Bluelink blueprint use plan", path))
	}
	values, err := readImportValues(*importsFile)
	if err != nil {
		return fail(err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail(err)
	}
	out, diags, problems := landscaper.Render(syntax.Parse(path, content), values,
		landscaper.RenderOptions{Options: landscaper.Options{Dir: filepath.Dir(abs)}, Timeout: *timeout})
	errs := writeErrors(stderr, path, content, diags)
	for _, p := range problems {
		fmt.Fprintf(stderr, "blueprint-ls render: %s\n", p)
	}
	if errs || len(problems) > 0 || out == nil {
		return exitProblems
	}
	for _, w := range out.Warnings {
		fmt.Fprintf(stderr, "blueprint-ls render: warning: %s\n", w)
	}
	var data []byte
	if *format == "json" {
		data, err = out.JSON()
	} else {
		data, err = out.YAML()
	}
	if err == nil {
		_, err = stdout.Write(data)
	}
	if err != nil {
		return fail(err)
	}
	return exitOK
}

// readImportValues reads the --imports file: a mapping of import name
// to value (none without the flag).
func readImportValues(path string) (map[string]any, error) {
	if path == "" {
		return map[string]any{}, nil
	}
	data, err := safefs.ReadFile(path, safefs.DefaultDocumentLimit)
	if err != nil {
		return nil, err
	}
	f := syntax.Parse(path, data)
	if errs := f.SyntaxErrors(); len(errs) > 0 {
		pos := f.Mapper.OffsetPosition(errs[0].Range.Start, source.UTF32)
		return nil, fmt.Errorf("%s:%d:%d: %s", path, pos.Line+1, pos.Character+1, errs[0].Message)
	}
	v, ok := landscaper.Value(f.Root).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: the import values are a mapping of import name to value", path)
	}
	return v, nil
}
