package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/sourcegraph/conc/panics"
	"github.com/sourcegraph/conc/pool"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/landscaper"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/providers/resschema"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

func init() {
	register(command{name: "check", summary: "check blueprint files and report problems", run: runCheck})
}

// checkFunc checks one file. A Go error is an I/O failure, not a problem in
// the blueprint.
type checkFunc func(path string) ([]source.Diagnostic, *source.Mapper, error)

// newChecker returns the function that checks one file against reg (nil:
// the built-in providers): parse, structural rules and analysis, with one
// child loader shared by the whole run so a child included by many files
// is analysed once. Includes stay inside roots; every file read is
// bounded by limits.
//
// rs (nil: none) runs the best-practice rules over the evaluated
// blueprint after the analysis (check_rules.go). tr (nil: none) runs
// the transformer plugins: a blueprint whose transform one implements is
// also checked as transformed, the problems of the resources it made
// reported on the abstract resources they came from.
func newChecker(reg *registry.Registry, roots *safefs.Roots, limits safefs.Limits, rs *ruleSettings, tr analysis.Transformer) checkFunc {
	if reg == nil {
		reg = analysis.BuiltinRegistry()
	}
	// Repair: a YAML blueprint with syntax errors is analysed with its
	// broken entries left out, as the editor does (docs/cli.md): CI
	// reports what the editor shows.
	opts := analysis.Options{Registry: reg, Funcs: analysis.DefaultTable(reg), Roots: roots, Repair: true}
	loader := analysis.NewLoader(nil, opts)
	loader.Limit = limits.DocumentLimit()
	wd, wdErr := os.Getwd()
	return func(path string) ([]source.Diagnostic, *source.Mapper, error) {
		content, err := safefs.ReadFile(path, limits.DocumentLimit())
		if err != nil {
			return nil, nil, err
		}
		gcPacing.Load().want(len(content))
		k, _ := dialect.Detect(path, "", content)
		abs := path
		if wdErr == nil || filepath.IsAbs(path) {
			abs = absIn(wd, path)
		}
		if k == dialect.Landscaper {
			f := syntax.Parse(path, content)
			res := landscaper.Check(f, landscaper.Options{Dir: filepath.Dir(abs), Limit: limits.DocumentLimit()})
			return res.Diagnostics, f.Mapper, nil
		}
		if k == dialect.ProviderSchema {
			// Named explicitly (or loaded from a providers directory,
			// where the registry reports it): the meta-schema's check.
			f := syntax.ParseJSON(content, false)
			return append(slices.Clone(f.Diagnostics), resschema.Check(f, resschema.Options{})...), f.Mapper, nil
		}
		if k != dialect.Bluelink {
			return nil, nil, notBlueprint(path, k)
		}
		f := schema.Parse(path, content)
		o := opts
		o.Path, o.Loader = abs, loader
		res := analysis.Analyze(context.Background(), f, o)
		diags := res.Diagnostics
		if t := analysis.AnalyzeTransformed(context.Background(), res, o, tr); t != nil {
			diags = append(slices.Clone(diags), t.Diagnostics...)
			source.SortDiagnostics(diags)
		}
		return rs.run(context.Background(), res, reg, diags), f.Mapper, nil
	}
}

// absIn is filepath.Abs(path) in a process whose working directory is
// wd and stays so, without the two stat calls Abs makes to find the
// working directory each time (a monorepo's check made five per file).
func absIn(wd, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(wd, path)
}

// notBlueprint is the error for a file named explicitly that is of
// another dialect (discovery finds only blueprint names, which are
// blueprints by name).
func notBlueprint(path string, k dialect.Kind) error {
	switch k {
	case dialect.Manifest, dialect.Config:
		return fmt.Errorf("%s: not a blueprint: it is %s", path, dialect.Of(k).Name)
	}
	return fmt.Errorf("%s: not a blueprint: its top level has no blueprint section and no blueprint version", path)
}

// fileResult is the outcome of checking one file, after the project's
// policy (strict types, suppressions, severity overrides) is applied.
type fileResult struct {
	path   string
	diags  []source.Diagnostic
	mapper *source.Mapper            // nil when diags is empty
	others map[string]*source.Mapper // other files named by related information
	err    error
}

// checkOptions are the flags of check.
type checkOptions struct {
	format      string
	threshold   source.Severity
	maxProblems int
	providers   []string
	strictTypes bool
	ignores     []string
	config      string
	showHints   bool
	color       string
	noSummary   bool
	rules       string    // --rules: all, none or rule sets, over the config's sets
	vars        *varFlags // --var and --vars: the inputs the rules evaluate with
	plugins     *pluginFlags
}

type severityFlag struct{ s *source.Severity }

func (f severityFlag) String() string {
	if f.s == nil {
		return ""
	}
	return f.s.String()
}

func (f severityFlag) Set(s string) error {
	sev, ok := source.ParseSeverity(s)
	if !ok {
		return fmt.Errorf("want error, warning, information or hint")
	}
	*f.s = sev
	return nil
}

var checkFormats = []string{"text", "json", "sarif", "github", "junit"}

func parseCheckFlags(args []string, stderr io.Writer) (checkOptions, []string, int, bool) {
	o := checkOptions{threshold: source.Error}
	flags := newFlagSet("check", stderr,
		"Usage: blueprint-ls check [flags] [paths...]",
		"\nChecks blueprint files; a directory is searched recursively for",
		"*.blueprint.{yaml,yml,json,jsonc}, blueprint.{yaml,yml,json,jsonc},",
		"*.bp and *.blueprint",
		"(skipping node_modules and .git). With no paths, checks \".\".",
		"Exit status: 0 nothing at or above the threshold, 1 problems at or",
		"above it, 2 usage, config or I/O failure.")
	flags.StringVar(&o.format, "format", "text", "output `format`: "+strings.Join(checkFormats, ", "))
	flags.Var(severityFlag{&o.threshold}, "severity-threshold", "lowest `severity` that fails the check (exit 1): error, warning, information or hint")
	flags.IntVar(&o.maxProblems, "max-problems", 0, "report at most `N` problems (0: all); the exit status still counts every problem")
	flags.Var((*listFlag)(&o.providers), "providers", "load provider schemas from `DIR` besides the built-in ones (repeatable)")
	flags.BoolVar(&o.strictTypes, "strict-types", false, "report values whose type could not be checked or was coerced as errors (see the documentation)")
	flags.Var((*listFlag)(&o.ignores), "ignore", "skip files whose path matches `GLOB` (repeatable; ** matches directories)")
	flags.StringVar(&o.config, "config", "", "use this config `file` instead of discovering "+configName+" upward from each file")
	flags.BoolVar(&o.showHints, "show-hints", false, "show hints in text and github output (always in json, sarif, junit)")
	flags.BoolVar(&o.noSummary, "no-summary", false, "do not print the summary line (\"2 errors, 1 warning in 3 files\") on standard error")
	flags.StringVar(&o.rules, "rules", "", "run these best-practice rule `sets`: all, none, or a comma-separated list of security, reliability, cost (default: the config's rules: section, else all)")
	o.vars = addVarFlags(flags)
	o.plugins = addPluginFlags(flags)
	flags.StringVar(&o.color, "color", "auto", "colour and source excerpts in text output: auto (on a terminal, unless NO_COLOR is set), always or never")
	if err := flags.Parse(args); err != nil {
		return o, nil, parseExit(err), false
	}
	fail := func(format string, args ...any) (checkOptions, []string, int, bool) {
		fmt.Fprintf(stderr, "blueprint-ls check: "+format+"\n", args...)
		return o, nil, exitUsage, false
	}
	if !slices.Contains(checkFormats, o.format) {
		return fail("unknown format %q (want %s)", o.format, strings.Join(checkFormats, ", "))
	}
	if o.color != "auto" && o.color != "always" && o.color != "never" {
		return fail("unknown --color %q (want auto, always or never)", o.color)
	}
	if _, err := parseRulesFlag(o.rules); err != nil {
		return fail("%v", err)
	}
	if o.maxProblems < 0 {
		return fail("--max-problems must not be negative")
	}
	for _, g := range o.ignores {
		if !validGlob(g) {
			return fail("bad --ignore glob %q", g)
		}
	}
	return o, flags.Args(), exitOK, true
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	o, paths, code, ok := parseCheckFlags(args, stderr)
	if !ok {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "blueprint-ls check: %v\n", plainFileError(err))
		return exitUsage
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	startGCPacing()
	wd, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	pl, err := newPlanner(o, wd)
	if err != nil {
		return fail(err)
	}
	files, refused, err := findBlueprints(paths, pl.ignoredDir)
	if err != nil {
		return fail(err)
	}
	if len(files) == 0 {
		return fail(fmt.Errorf("no blueprint files found in %s", strings.Join(paths, ", ")))
	}
	jobs, err := pl.plan(files)
	if err != nil {
		return fail(err)
	}
	for i := range jobs {
		if err := refused[jobs[i].path]; err != nil {
			jobs[i].check = func(string) ([]source.Diagnostic, *source.Mapper, error) { return nil, nil, err }
		}
	}
	if len(jobs) == 0 {
		fmt.Fprintf(stderr, "blueprint-ls check: every blueprint file in %s is ignored\n", strings.Join(paths, ", "))
		return exitOK
	}
	gcPacing.Load().jobs(len(jobs))
	prog := startProgress(stderr, len(jobs))
	results := runJobs(jobs, prog.tick)
	prog.stop()
	named := map[string]bool{}
	for _, j := range jobs {
		named[absIn(wd, j.path)] = true
	}
	for _, r := range pl.brokenProviderFiles() {
		if !named[absIn(wd, r.path)] {
			results = append(results, r) // a schema named too is reported once, as named
		}
	}
	results = append(results, pl.policyProblemFiles()...)
	results = append(results, deployConfigProblemFiles(jobs)...)
	results = append(results, o.plugins.problemFiles()...)

	rep := newReport(results, o, wd)
	color := o.format == "text" && colorFor(o.color, stdout)
	if err := writeReport(stdout, rep, o, color); err != nil {
		return fail(fmt.Errorf("writing output: %w", err))
	}
	if !o.noSummary && !color {
		// The coloured text output ends with the summary already; every
		// other output gets it on stderr, so a CI log shows it whatever
		// the format and wherever stdout goes.
		fmt.Fprintln(stderr, rep.summaryLine())
	}
	code = exitOK
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(stderr, "blueprint-ls check: %v\n", plainFileError(r.err))
			code = exitUsage
		} else if code == exitOK && failsThreshold(r.diags, o.threshold) {
			code = exitProblems
		}
	}
	return code
}

// failsThreshold reports whether any diagnostic is at or above threshold
// (severities are numbered most severe first).
func failsThreshold(ds []source.Diagnostic, threshold source.Severity) bool {
	for _, d := range ds {
		if d.Severity <= threshold {
			return true
		}
	}
	return false
}

// runJobs checks every job in parallel across the cores; results come
// back in the order of jobs. A panic while checking a file becomes an
// internal-error diagnostic for that file.
func runJobs(jobs []job, tick func()) []fileResult {
	results := make([]fileResult, len(jobs))
	others := &mapperCache{m: map[string]*source.Mapper{}}
	p := pool.New().WithMaxGoroutines(runtime.GOMAXPROCS(0))
	for i, j := range jobs {
		p.Go(func() {
			r := &results[i]
			r.path = j.path
			rec := panics.Try(func() {
				r.diags, r.mapper, r.err = j.check(j.path)
				if r.err == nil {
					r.diags = j.policy.apply(j.path, r.mapper, r.diags)
					r.others = others.related(r.path, r.diags)
				}
			})
			if rec != nil {
				r.diags = []source.Diagnostic{analysis.CodeInternal.New(source.Range{}, "internal error: %v", rec.Value)}
				r.err = nil
			}
			if len(r.diags) == 0 {
				r.mapper = nil // keep memory flat over thousands of clean files
			} else if r.mapper == nil {
				r.mapper = source.NewMapper(nil)
			}
			if tick != nil {
				tick()
			}
		})
	}
	p.Wait()
	return results
}

// mapperCache reads the other files related information points into (a
// child blueprint), once per run.
type mapperCache struct {
	mu sync.Mutex
	m  map[string]*source.Mapper
}

func (c *mapperCache) related(self string, ds []source.Diagnostic) map[string]*source.Mapper {
	var out map[string]*source.Mapper
	for _, d := range ds {
		for _, rel := range d.Related {
			if rel.URI == "" || rel.URI == self {
				continue
			}
			c.mu.Lock()
			m, ok := c.m[rel.URI]
			c.mu.Unlock()
			if !ok {
				if b, err := safefs.ReadFile(rel.URI, safefs.DefaultDocumentLimit); err == nil {
					m = source.NewMapper(b)
				}
				c.mu.Lock()
				c.m[rel.URI] = m
				c.mu.Unlock()
			}
			if m != nil {
				if out == nil {
					out = map[string]*source.Mapper{}
				}
				out[rel.URI] = m
			}
		}
	}
	return out
}
