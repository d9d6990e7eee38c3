package pluginhost

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// AddTo adds every plugin's types to reg, over the built-in ones of the
// same names. A plugin whose answers the registry refuses is returned as
// a problem; the others are added.
func (r *Result) AddTo(reg *registry.Registry) []Problem {
	var problems []Problem
	for _, p := range r.Plugins {
		if err := reg.AddProvider(p.Provider); err != nil {
			problems = append(problems, Problem{ID: p.ID, Path: p.Path, Err: fmt.Errorf("its answers do not make a provider: %w", err)})
			continue
		}
		for _, t := range slices.Sorted(maps.Keys(p.Schemas)) {
			if err := reg.AddResourceSchema("plugin "+p.ID+" "+p.Version+" ("+t+")", p.Schemas[t]); err != nil {
				problems = append(problems, Problem{ID: p.ID, Path: p.Path, Err: err})
			}
		}
	}
	return problems
}

// CodePluginFailed is a plugin that could not be used, reported on its
// executable.
var CodePluginFailed = source.NewCode("plugin-failed", source.Error,
	"A Bluelink plugin on the plugin path could not be used (it crashed at start, did not register or answer in time, exited, or answered what is not a provider); its types stay unknown.",
	"")

// Diagnostic is the problem as the one diagnostic of its plugin, at the
// start of its executable.
func (p Problem) Diagnostic() source.Diagnostic {
	return CodePluginFailed.New(source.Range{}, "plugin %s: %v", p.ID, p.Err)
}

// DefaultCacheDir is where answers are cached: the user's cache
// directory, or none when it has none.
func DefaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "blueprint-ls", "plugins")
}
