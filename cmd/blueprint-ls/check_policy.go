package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	regopolicy "github.com/blueprint-ls/blueprint-ls/rules/policy"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// job is one file to check, with the checker for its provider set and the
// policy of its project config.
type job struct {
	path   string
	check  checkFunc
	policy *policy
}

// policy turns analysis's diagnostics into what a project wants reported:
// its config's Apply (strict types, suppressions, severity overrides),
// then sorted. A nil cfg is the empty config.
type policy struct {
	cfg *projectConfig
}

// apply applies the policy to the diagnostics of the file at path, whose
// text m maps.
func (p *policy) apply(path string, m *source.Mapper, ds []source.Diagnostic) []source.Diagnostic {
	var content []byte
	if m != nil {
		content = m.Content()
	}
	if !p.cfg.Changes(path, content) && source.DiagnosticsSorted(ds) {
		return ds // what Apply and the sort would give, without the copy
	}
	ds = p.cfg.Apply(path, content, ds)
	source.SortDiagnostics(ds)
	return ds
}

// planner decides, per file, whether it is ignored, which config governs
// it and so which providers and policy apply.
type planner struct {
	o        checkOptions
	wd       string
	explicit *projectConfig // --config, if given
	finder   *configFinder
	checkers map[string]checkFunc
	policies map[*projectConfig]*policy
	// broken holds the provider files that could not be loaded, by
	// path: each is reported as a problem of its own file while the
	// directory's other files still serve the check.
	broken map[string]*registry.LoadError
	vars   *varFlags // --var and --vars, for the rules' evaluation
	// policyProblems holds the Rego policy files with mistakes, by path
	// (check_rules.go), each reported on itself.
	policyProblems map[string]regopolicy.File
}

func newPlanner(o checkOptions, wd string) (*planner, error) {
	pl := &planner{o: o, wd: wd, finder: newConfigFinder(), checkers: map[string]checkFunc{}, policies: map[*projectConfig]*policy{}, vars: o.vars}
	if o.config != "" {
		cfg, err := loadConfig(o.config)
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		pl.explicit = cfg
	}
	return pl, nil
}

func (pl *planner) configFor(path string) (*projectConfig, error) {
	if pl.explicit != nil {
		return pl.explicit, nil
	}
	cfg, err := pl.finder.find(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return cfg, nil
}

// ignored reports whether a file or directory is excluded by --ignore
// (matched against its path relative to the working directory, and as
// written) or by its config's ignore list (relative to the config's
// directory).
func (pl *planner) ignored(path string, cfg *projectConfig) bool {
	abs := absIn(pl.wd, path)
	rel := relSlash(pl.wd, abs)
	given := filepath.ToSlash(filepath.Clean(path))
	for _, g := range pl.o.ignores {
		if rel != "" && matchGlob(g, rel) || matchGlob(g, given) {
			return true
		}
	}
	if cfg != nil && len(cfg.Ignore) > 0 {
		if r := relSlash(cfg.Dir, abs); r != "" {
			for _, g := range cfg.Ignore {
				if matchGlob(g, r) {
					return true
				}
			}
		}
	}
	return false
}

// ignoredDir prunes the directory walk; config errors surface later, in
// plan, for the files themselves.
func (pl *planner) ignoredDir(dir string) bool {
	cfg, _ := pl.configFor(filepath.Join(dir, "x"))
	return pl.ignored(dir, cfg)
}

// plan builds the jobs for files, skipping ignored ones. Registries are
// built once per distinct set of provider directories.
func (pl *planner) plan(files []string) ([]job, error) {
	var jobs []job
	for _, f := range files {
		cfg, err := pl.configFor(f)
		if err != nil {
			return nil, err
		}
		if pl.ignored(f, cfg) {
			continue
		}
		check, err := pl.checker(cfg, f)
		if err != nil {
			return nil, err
		}
		pol := pl.policies[cfg]
		if pol == nil {
			eff := cfg
			if pl.o.strictTypes && !cfg.StrictTypes {
				c := *cfg
				c.StrictTypes = true // --strict-types wins over the config
				eff = &c
			}
			pol = &policy{cfg: eff}
			pl.policies[cfg] = pol
		}
		jobs = append(jobs, job{path: f, check: check, policy: pol})
	}
	return jobs, nil
}

// checker returns the checker of file under cfg: one per distinct set of
// provider directories, project roots and size limits.
func (pl *planner) checker(cfg *projectConfig, file string) (checkFunc, error) {
	var dirs []string
	for _, d := range pl.o.providers {
		if !filepath.IsAbs(d) {
			d = filepath.Join(pl.wd, d)
		}
		dirs = append(dirs, d)
	}
	dirs = append(dirs, cfg.Providers...)
	abs := absIn(pl.wd, file)
	rootDirs := append([]string{project.RootDir(cfg, filepath.Dir(abs), pl.wd)}, cfg.Roots...)
	rs, err := pl.ruleSettingsFor(cfg)
	if err != nil {
		return nil, err
	}
	key := providerKey(dirs) + "\x01" + providerKey(rootDirs) + fmt.Sprintf("\x01%d\x01%d", cfg.Limits.Document, cfg.Limits.Schema)
	if rs == nil {
		key += "\x01norules"
	} else if rs.key != "" {
		key += "\x01" + rs.key
	}
	if cfg.Plugins {
		key += "\x01plugins"
	}
	if c, ok := pl.checkers[key]; ok {
		return c, nil
	}
	var reg *registry.Registry
	if len(dirs) > 0 {
		reg = registry.NewBuiltin()
		for _, d := range dirs {
			if err := reg.LoadDirLimit(d, cfg.Limits.SchemaLimit()); err != nil {
				les, rest := registry.LoadErrors(err)
				if rest != nil {
					return nil, fmt.Errorf("providers %s: %w", d, rest)
				}
				if pl.broken == nil {
					pl.broken = map[string]*registry.LoadError{}
				}
				for _, le := range les {
					pl.broken[le.Path] = le
				}
			}
		}
		for _, le := range reg.CheckSchemaFiles() {
			if pl.broken == nil {
				pl.broken = map[string]*registry.LoadError{}
			}
			pl.broken[le.Path] = le
		}
	}
	reg = pl.o.plugins.apply(reg, cfg.Plugins)
	c := newChecker(reg, safefs.NewRoots(rootDirs...), cfg.Limits, rs, pl.o.plugins.transformer(cfg.Plugins, nil))
	pl.checkers[key] = c
	return c, nil
}

// brokenProviderFiles reports the provider files that could not be
// loaded, one result per file, sorted by path.
func (pl *planner) brokenProviderFiles() []fileResult {
	var out []fileResult
	for _, p := range slices.Sorted(maps.Keys(pl.broken)) {
		ds, m := pl.broken[p].Diagnostics()
		shown := p
		if rel := relSlash(pl.wd, p); rel != "" {
			shown = filepath.FromSlash(rel)
		}
		out = append(out, fileResult{path: shown, diags: ds, mapper: m})
	}
	return out
}
