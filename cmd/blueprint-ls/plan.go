package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func init() {
	register(command{name: "plan", summary: "show what deploying a blueprint would change", run: runPlan})
}

// exitChanges is plan's status with --detailed-exitcode when the plan
// changes something (Terraform's convention: 0 no changes, 1 error, 2
// changes).
const exitChanges = 2

func runPlan(args []string, stdout, stderr io.Writer) int {
	var detailed, changed bool
	code := planCommand(args, stdout, stderr, &detailed, &changed)
	if code == exitUsage && !detailed {
		// A usage error may stop the flag parse before the flag is seen.
		detailed = slices.ContainsFunc(args, func(a string) bool {
			a = strings.TrimLeft(a, "-")
			return a == "detailed-exitcode" || a == "detailed-exitcode=true"
		})
	}
	switch {
	case !detailed:
		return code
	case code != exitOK:
		return exitProblems // every failure, usage and I/O included, is 1
	case changed:
		return exitChanges
	}
	return exitOK
}

// planCommand is plan without --detailed-exitcode's mapping: it sets
// *detailed from the flag and *changed when the plan changes something.
func planCommand(args []string, stdout, stderr io.Writer, detailed, changed *bool) int {
	fs := newFlagSet("plan", stderr,
		"Usage: blueprint-ls plan FILE [--vars file]... [--var n=v]... [--deploy-config file] [--plugins] [--data file] [--state file] [--format text|json|markdown] [--color auto|always|never] [--detailed-exitcode]",
		"\nEvaluates the blueprint with the inputs and shows what deploying it would do",
		"compared with the prior state. Secrets print as (sensitive).",
		"Exit status: 0 success, 1 the blueprint has errors or the inputs are invalid,",
		"2 usage or I/O failure. With --detailed-exitcode (Terraform's convention):",
		"0 success with no changes, 1 any failure, 2 success with changes.")
	vars := addVarFlags(fs)
	deploy := addDeployFlag(fs)
	plugins := addPluginFlags(fs)
	dataFile := fs.String("data", "", "data source fixtures: a JSON or YAML `file` mapping data source names (include/name for a child's) to exported fields")
	stateFile := fs.String("state", "", "the prior state: a JSON `file` (format in the documentation); without it nothing is deployed")
	format := fs.String("format", "text", "output `format`: text, json or markdown")
	color := fs.String("color", "auto", "colour text output by action: auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(detailed, "detailed-exitcode", false, "exit 0 when nothing changes, 2 when something does and 1 on any failure")
	out := addPlanOutFlags(fs)
	path, exit, ok := parseOneArg(fs, args)
	if !ok {
		return exit
	}
	switch *format {
	case "text", "json", "markdown":
	default:
		fmt.Fprintf(stderr, "blueprint-ls plan: unknown format %q (want text, json or markdown)\n", *format)
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "blueprint-ls plan: %v\n", plainFileError(err))
		return exitUsage
	}
	if err := checkColorMode(*color); err != nil {
		return fail(err)
	}
	in, err := vars.inputs()
	if err != nil {
		return fail(err)
	}
	if err := deploy.apply(path, &in, stderr); err != nil {
		return fail(err)
	}
	if *dataFile != "" {
		if err := in.AddDataFile(*dataFile); err != nil {
			return fail(err)
		}
	}
	if *stateFile != "" {
		st, err := eval.LoadState(*stateFile)
		if err != nil {
			return fail(err)
		}
		in.State = st
	}
	content, err := safefs.ReadFile(path, safefs.DefaultDocumentLimit)
	if err != nil {
		return fail(err)
	}
	p, diags, err := engine.PlanFile(context.Background(), path, content, in, engine.Options{Roots: cliRoots(path), Registry: plugins.apply(nil, false), Transformer: plugins.transformer(false, deploy.cfg)})
	if err != nil {
		return fail(err)
	}
	diags = out.absorb(diags)
	if writeErrors(stderr, path, content, diags) || p == nil {
		return exitProblems
	}
	if writePlanChildProblems(stderr, p) {
		return exitProblems
	}
	if err := out.write(path, content, in, p); err != nil {
		return fail(err)
	}
	switch *format {
	case "json":
		_, err = stdout.Write(engine.JSON(p))
	case "markdown":
		_, err = io.WriteString(stdout, engine.Markdown(p))
	default:
		var style engine.Styler
		if colorFor(*color, stdout) {
			style = planStyler
		}
		_, err = io.WriteString(stdout, engine.TextStyled(p, style))
	}
	if err != nil {
		return fail(err)
	}
	*changed = p.HasChanges()
	return exitOK
}

// writePlanChildProblems prints the errors found evaluating child
// blueprints (their own files' positions) and reports whether there were
// any.
func writePlanChildProblems(w io.Writer, p *engine.Plan) bool {
	found := false
	for _, c := range p.Children {
		if c.Plan == nil {
			continue
		}
		var m *source.Mapper
		for _, d := range c.Plan.Diagnostics {
			if d.Severity != source.Error {
				continue
			}
			if m == nil {
				content, _ := safefs.ReadFile(c.Path, safefs.DefaultDocumentLimit)
				m = source.NewMapper(content)
			}
			fmt.Fprintln(w, formatDiag(c.Path, m, d))
			found = true
		}
		if writePlanChildProblems(w, c.Plan) {
			found = true
		}
	}
	return found
}
