package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/sourcegraph/conc/panics"
	"github.com/sourcegraph/conc/pool"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// codeInternal is analysis's internal-error code: a panic while checking
// one file becomes this diagnostic for that file.
var codeInternal = analysis.CodeInternal

func init() {
	register(command{name: "check", summary: "check blueprint files and report problems", run: runCheck})
}

// newChecker returns the function that checks one file: parse, structural
// rules and analysis, with one child loader shared by the whole run so a
// child included by many files is analysed once. A Go error is an I/O
// failure, not a problem in the blueprint.
func newChecker() func(path string) ([]source.Diagnostic, *source.Mapper, error) {
	loader := analysis.NewLoader(nil, analysis.Options{})
	return func(path string) ([]source.Diagnostic, *source.Mapper, error) {
		content, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		f := schema.Parse(path, content)
		res := analysis.Analyze(context.Background(), f, analysis.Options{Path: abs, Loader: loader})
		return res.Diagnostics, f.Mapper, nil
	}
}

func hasErrors(ds []source.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == source.Error {
			return true
		}
	}
	return false
}

// fileResult is the outcome of checking one file.
type fileResult struct {
	path   string
	diags  []source.Diagnostic
	mapper *source.Mapper
	err    error
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	format := flags.String("format", "text", "output `format`: text or json")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "Usage: blueprint-ls check [--format text|json] [paths...]")
		fmt.Fprintln(stderr, "\nChecks blueprint files; a directory is searched recursively for")
		fmt.Fprintln(stderr, "*.blueprint.{yaml,yml,json,jsonc} and blueprint.{yaml,yml,json,jsonc}")
		fmt.Fprintln(stderr, "(skipping node_modules and .git). With no paths, checks \".\".")
		fmt.Fprintln(stderr, "Exit status: 0 no errors, 1 errors found, 2 usage or I/O failure.")
		fmt.Fprintln(stderr, "\nFlags:")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "blueprint-ls check: unknown format %q (want text or json)\n", *format)
		return exitUsage
	}
	paths := flags.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := findBlueprints(paths)
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls check: %v\n", err)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "blueprint-ls check: no blueprint files found in %s\n", strings.Join(paths, ", "))
		return exitUsage
	}
	results := checkAll(files)

	if *format == "json" {
		err = writeJSON(stdout, results)
	} else {
		err = writeText(stdout, results)
	}
	if err != nil {
		fmt.Fprintf(stderr, "blueprint-ls check: writing output: %v\n", err)
		return exitUsage
	}
	code := exitOK
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(stderr, "blueprint-ls check: %v\n", r.err)
			code = exitUsage
		} else if code == exitOK && hasErrors(r.diags) {
			code = exitProblems
		}
	}
	return code
}

// checkAll checks files in parallel; results come back in the order of
// files. A panic while checking a file becomes an internal-error
// diagnostic for that file.
func checkAll(files []string) []fileResult { return checkAllWith(files, newChecker()) }

func checkAllWith(files []string, checkFile func(string) ([]source.Diagnostic, *source.Mapper, error)) []fileResult {
	results := make([]fileResult, len(files))
	p := pool.New().WithMaxGoroutines(runtime.GOMAXPROCS(0))
	for i, path := range files {
		p.Go(func() {
			r := &results[i]
			r.path = path
			rec := panics.Try(func() {
				r.diags, r.mapper, r.err = checkFile(path)
			})
			if rec != nil {
				r.diags = append(r.diags, codeInternal.New(source.Range{}, "internal error: %v", rec.Value))
				r.err = nil
			}
		})
	}
	p.Wait()
	return results
}

// findBlueprints expands the arguments into a sorted, de-duplicated list of
// files. A file named explicitly is checked whatever its name.
func findBlueprints(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(filepath.Clean(root))
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != root && (d.Name() == "node_modules" || d.Name() == ".git") {
					return filepath.SkipDir
				}
				return nil
			}
			if isBlueprintName(d.Name()) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// isBlueprintName reports whether a file name marks a blueprint:
// blueprint.<ext> or <name>.blueprint.<ext> with ext yaml, yml, json or
// jsonc.
func isBlueprintName(name string) bool {
	ext := filepath.Ext(name)
	switch ext {
	case ".yaml", ".yml", ".json", ".jsonc":
	default:
		return false
	}
	stem := strings.TrimSuffix(name, ext)
	return stem == "blueprint" || strings.HasSuffix(stem, ".blueprint")
}
