package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/deployconfig"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// deployFlag is --deploy-config: the deploy configuration named
// explicitly (an environment's file); empty finds it from the
// blueprint's folder up to the repository root.
type deployFlag struct {
	file string
	cfg  *deployconfig.Config // what apply found (usable), or nil
}

func addDeployFlag(fs *flag.FlagSet) *deployFlag {
	d := new(deployFlag)
	fs.StringVar(&d.file, "deploy-config", "", "the deploy configuration `file` whose blueprintVariables are inputs (default: bluelink.deploy.jsonc, app.deploy.jsonc or .celerity/deploy-config.json found from the blueprint's folder up to the repository root; a relative name such as app.deploy.staging.jsonc is looked for the same way)")
	return d
}

// apply puts the blueprint variables of the deploy configuration for the
// blueprint at path under in's (which win: --vars and --var are given
// after it). A configuration with errors prints them, at their lines,
// and fails; warnings are printed and the rest is used.
func (d *deployFlag) apply(path string, in *eval.Inputs, stderr io.Writer) error {
	if path == "" && d.file == "" {
		return nil
	}
	roots := cliRoots(path)
	o := deployconfig.Options{File: d.file, Roots: roots, Boundaries: []string{roots.Primary()}}
	dir := ""
	if path != "" {
		dir = filepath.Dir(path)
	}
	if d.file != "" && !filepath.IsAbs(d.file) {
		if abs, err := filepath.Abs(d.file); err == nil && isRegular(abs) {
			// A name relative to the working directory, as any other flag's.
			o.File = abs
		}
	}
	cfg, err := deployconfig.Resolve(dir, o)
	if err != nil || cfg == nil {
		return err
	}
	for _, dg := range cfg.Diagnostics {
		l, c := cfg.Mapper.LineCol(dg.Range.Start, source.UTF32)
		fmt.Fprintf(stderr, "%s:%d:%d: %s %s: %s\n", cfg.Path, l, c, dg.Severity, dg.Code, dg.Message)
	}
	if !cfg.Usable() {
		return fmt.Errorf("the deploy configuration %s has errors", cfg.Path)
	}
	d.cfg = cfg
	base := map[string]eval.Input{}
	for _, name := range cfg.BlueprintVariables.Names() {
		base[name] = eval.Input{Value: cfg.BlueprintVariables[name].Value, Origin: cfg.Path}
	}
	for name, v := range in.Vars {
		base[name] = v
	}
	in.Vars = base
	return nil
}

// isRegular reports whether path names a regular file.
func isRegular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// deployConfigProblemFiles returns, once for each deploy configuration
// the checked blueprints find (from each one's folder up to the
// repository root), the configuration's own mistakes as a file result
// of their own: a malformed configuration is one diagnostic at its line,
// beside the blueprints, which are checked as usual.
func deployConfigProblemFiles(jobs []job) []fileResult {
	var out []fileResult
	seenDir, seenFile := map[string]bool{}, map[string]bool{}
	for _, j := range jobs {
		dir := filepath.Dir(j.path)
		if seenDir[dir] {
			continue
		}
		seenDir[dir] = true
		roots := cliRoots(j.path)
		cfg, err := deployconfig.Resolve(dir, deployconfig.Options{Roots: roots, Boundaries: []string{roots.Primary()}})
		if err != nil || cfg == nil || seenFile[cfg.Path] {
			continue
		}
		seenFile[cfg.Path] = true
		if len(cfg.Diagnostics) > 0 {
			out = append(out, fileResult{path: cfg.Path, diags: cfg.Diagnostics, mapper: cfg.Mapper})
		}
	}
	return out
}
