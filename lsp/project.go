package lsp

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The project config (.blueprint-ls.yaml) and inline suppressions, as
// package project defines them for check, so that the editor and CI agree:
//
//   - each document is governed by the config found upward from its file
//     on disk (cached per directory, forgotten when a watched config file
//     changes); its providers join the settings' provider directories;
//   - published diagnostics (push and pull) and code actions see the
//     config applied (strict types, suppressions, severity overrides);
//     the client's severity setting applies on top and wins: a code it
//     names is left to it;
//   - an open .blueprint-ls.yaml is not a blueprint: its diagnostics are
//     the config's own mistakes.

// isConfigFile reports whether path names a project config.
func isConfigFile(path string) bool {
	return path != "" && filepath.Base(path) == dialect.ConfigFileName
}

// workspaceKey identifies a list of provider directories (in load order)
// and the size budgets they are read with.
func workspaceKey(dirs []string, limits safefs.Limits) string {
	return strings.Join(dirs, "\x00") + fmt.Sprintf("\x01%d\x01%d", limits.Document, limits.Schema)
}

func (ws *workspace) key() string { return workspaceKey(ws.dirs, ws.limits) }

// place sets in's project config and workspace: the config governing the
// document's file (none for other URIs and for a config itself), and the
// workspace of the settings' provider directories followed by the
// config's, added to wss when new. Callers hold mu.
func (s *session) place(in *snapshotInit, wss map[string]*workspace) {
	in.project, in.roots = nil, nil
	var dirs []string
	var limits safefs.Limits
	if in.settings != nil {
		dirs = in.settings.ProviderDirs
	}
	if path := uriPath(in.clientURI); path != "" && !isConfigFile(path) {
		cfg, _, err := s.configs.Lookup(path)
		switch {
		case err != nil:
			s.log.Warn("reading the project config", "path", path, "err", err)
		case cfg.Path != "":
			// A config with mistakes still governs with what is valid,
			// while its own diagnostics show what is not.
			in.project = cfg
			dirs = append(slices.Clone(dirs), cfg.Providers...)
			limits = cfg.Limits
		}
		in.roots = project.ProjectRoots(in.project, filepath.Dir(path), s.folderOf(path))
	}
	key := workspaceKey(dirs, limits)
	ws := wss[key]
	if ws == nil {
		var problems []error
		ws, problems = s.newWorkspace(dirs, limits)
		s.problems = append(s.problems, problems...)
		wss[key] = ws
	}
	in.ws = ws
}

// folderOf returns the workspace folder holding path, else path's
// directory. Callers hold mu.
func (s *session) folderOf(path string) string {
	best := ""
	for _, f := range s.folders {
		if safefs.Within(f, path) && len(f) > len(best) {
			best = f
		}
	}
	if best == "" {
		best = filepath.Dir(path)
	}
	return best
}

// takeProblems returns, and forgets, the provider directories of project
// configs that failed to load.
func (s *session) takeProblems() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.problems
	s.problems = nil
	return p
}

// policyFor is the config a snapshot applies: cfg without the severity
// overrides of the codes the client's settings name, since those apply
// at conversion and win.
func policyFor(cfg *project.Config, settings *Settings) *project.Config {
	if cfg == nil || settings == nil || len(settings.Severity) == 0 {
		return cfg
	}
	overlap := false
	for code := range settings.Severity {
		if _, ok := cfg.Severity[code]; ok {
			overlap = true
		}
	}
	if !overlap {
		return cfg
	}
	c := *cfg
	c.Severity = maps.Clone(cfg.Severity)
	for code := range settings.Severity {
		delete(c.Severity, code)
	}
	return &c
}

// projectDiagnostics applies the document's project config to ds, the
// diagnostics of one phase: a config document gets its own mistakes
// instead, a manifest is left alone. The syntax phase drops the
// suppression hints: without the analysis every comment would look
// unused.
func (s *Snapshot) projectDiagnostics(ds []source.Diagnostic, full bool) []source.Diagnostic {
	return s.kind().project(s, ds, full)
}

// applyPolicy applies a blueprint's project config to ds.
func (s *Snapshot) applyPolicy(ds []source.Diagnostic, full bool) []source.Diagnostic {
	var content []byte // nothing to suppress: spare Apply its scan of the text
	if s.hasDirective() {
		content = s.Mapper().Content() // the text the diagnostics' offsets are in
	}
	out := s.policy.Apply(s.Path, content, ds)
	if !full {
		out = slices.DeleteFunc(out, func(d source.Diagnostic) bool {
			return d.Code == project.CodeSuppressUnused.ID || d.Code == project.CodeSuppressUnknown.ID
		})
	}
	return out
}

// configDiagnostics are a config document's mistakes, from its text.
func (s *Snapshot) configDiagnostics() []source.Diagnostic {
	s.configOnce.Do(func() {
		_, s.configDiags = project.Parse(s.Path, s.Content())
	})
	return s.configDiags
}
