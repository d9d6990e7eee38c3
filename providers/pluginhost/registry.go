package pluginhost

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
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
		for _, t := range sortedKeys(p.Schemas) {
			if err := reg.AddResourceSchema("plugin "+p.ID+" "+p.Version+" ("+t+")", p.Schemas[t]); err != nil {
				problems = append(problems, Problem{ID: p.ID, Path: p.Path, Err: err})
			}
		}
	}
	return problems
}
