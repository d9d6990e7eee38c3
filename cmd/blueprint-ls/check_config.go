package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// configName is the project config file discovered upward from each
// checked file (docs/cli.md, "Project config").
const configName = project.FileName

// projectConfig is a parsed .blueprint-ls.yaml (package project owns it,
// so the language server reads the same config).
type projectConfig = project.Config

// configError is a problem in a config file, at its exact position.
type configError struct {
	path      string
	line, col int
	msg       string
}

func (e *configError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.path, e.line, e.col, e.msg)
}

// loadConfig reads and validates one config file. A mistake in it is an
// error: a CI run must not silently check with half a config.
func loadConfig(path string) (*projectConfig, error) {
	return refuseMistakes(project.Load(path))
}

// refuseMistakes turns the first mistake in a config into an error.
func refuseMistakes(cfg *projectConfig, diags []source.Diagnostic, err error) (*projectConfig, error) {
	if err != nil {
		return nil, err
	}
	if len(diags) == 0 && cfg != nil && cfg.Rules != nil {
		_, diags = rules.Configure(cfg.Rules) // the rule ids and parameters
	}
	if len(diags) > 0 {
		line, col := cfg.Mapper().LineCol(diags[0].Range.Start, outputEncoding)
		return nil, &configError{path: cfg.Path, line: line, col: col, msg: diags[0].Message}
	}
	return cfg, nil
}

// configFinder discovers the nearest .blueprint-ls.yaml above a file,
// caching per directory so a monorepo walks each directory once.
type configFinder struct{ f *project.Finder }

func newConfigFinder() *configFinder { return &configFinder{f: project.NewFinder()} }

// find returns the config governing file: the nearest config file in its
// directory or any parent, or the empty config when there is none.
func (cf *configFinder) find(file string) (*projectConfig, error) {
	return refuseMistakes(cf.f.Lookup(file))
}

// cliRoots returns the project roots of the blueprint at path for eval
// and plan: its config's directory and extra roots, else the repository,
// else the working directory (docs/security.md). A config with mistakes
// still confines.
func cliRoots(path string) *safefs.Roots {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	wd, _ := os.Getwd()
	var cfg *projectConfig
	if p, ok := project.Find(filepath.Dir(abs)); ok {
		cfg, _, _ = project.Load(p)
	}
	return project.ProjectRoots(cfg, filepath.Dir(abs), wd)
}

// providerKey identifies a list of provider directories (in load order:
// later ones override earlier ones), so files sharing one list share a
// registry and a child loader.
func providerKey(dirs []string) string { return strings.Join(dirs, "\x00") }
