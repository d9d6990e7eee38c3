package project

import (
	"path/filepath"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// StrictTypeCodes are the diagnostics strict types (strictTypes: true in
// the config, or check --strict-types) report as errors: each marks a
// value whose type was not checked (an unknown provider, an undocumented
// filter field, a child that was not loaded) or was silently coerced (a
// number or boolean used as a string). Keep docs/cli.md in step.
var StrictTypeCodes = []string{
	"spec-scalar-not-string",
	"var-scalar-as-string",
	"resource-unknown-provider",
	"datasource-unknown-filter-field",
	"include-not-checked",
}

// Apply turns a file's diagnostics into what the project wants reported:
// nothing for a file the config ignores; otherwise strict-type codes
// promoted to errors, what inline comments in content suppress dropped
// (with unused and unknown suppressions reported), then the severity
// overrides, last so that a config can turn off suppress-unused too.
// Order is kept, added diagnostics come last; diags is not modified.
// path is the file's path (for the ignore globs); content its text.
func (c *Config) Apply(path string, content []byte, diags []source.Diagnostic) []source.Diagnostic {
	if c.Ignored(path) {
		return nil
	}
	ds := slices.Clone(diags)
	if c != nil && c.StrictTypes {
		for i := range ds {
			if slices.Contains(StrictTypeCodes, ds[i].Code) {
				ds[i].Severity = source.Error
			}
		}
	}
	ds = suppress(content, ds)
	if c == nil || len(c.Severity) == 0 {
		return ds
	}
	kept := ds[:0]
	for _, d := range ds {
		if sev, ok := c.Severity[d.Code]; ok {
			if sev == Off {
				continue
			}
			d.Severity = sev
		}
		kept = append(kept, d)
	}
	return kept
}

// Changes reports whether Apply can change the diagnostics of the file
// at path whose text is content; when not, Apply returns a copy of them.
func (c *Config) Changes(path string, content []byte) bool {
	if c.Ignored(path) || HasDirective(content) {
		return true
	}
	return c != nil && (c.StrictTypes || len(c.Severity) > 0)
}

// Ignored reports whether the config's ignore globs exclude path (a file
// or directory), matched relative to the config's directory.
func (c *Config) Ignored(path string) bool {
	if c == nil || len(c.Ignore) == 0 || path == "" {
		return false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	r := RelSlash(c.Dir, abs)
	if r == "" {
		return false
	}
	for _, g := range c.Ignore {
		if MatchGlob(g, r) {
			return true
		}
	}
	return false
}
