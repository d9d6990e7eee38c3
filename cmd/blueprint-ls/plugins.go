package main

import (
	"context"
	"flag"
	"os"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/deployconfig"
	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// pluginFlags are --plugins and --plugin-path: the official Bluelink
// provider plugins, opt-in, loaded once per run (package pluginhost).
type pluginFlags struct {
	enabled bool
	path    string

	once sync.Once
	res  *pluginhost.Result

	runOnce sync.Once
	run     *pluginhost.Runner // nil: no transformer
}

func addPluginFlags(fs *flag.FlagSet) *pluginFlags {
	p := new(pluginFlags)
	fs.BoolVar(&p.enabled, "plugins", false, "load the Bluelink provider plugins installed on the plugin path (their resource types, data sources, links; launched once, answers cached per plugin version)")
	fs.StringVar(&p.path, "plugin-path", "", "the plugin `path` (roots separated by the list separator; default $"+pluginhost.PathEnv+")")
	return p
}

// result loads the plugins the first time it is asked.
func (p *pluginFlags) result() *pluginhost.Result {
	p.once.Do(func() {
		path := p.path
		if path == "" {
			path = os.Getenv(pluginhost.PathEnv)
		}
		p.res = pluginhost.Load(context.Background(), pluginhost.Options{Path: path, CacheDir: pluginhost.DefaultCacheDir()})
		// The registry may refuse what a plugin said: one more problem.
		p.res.Problems = append(p.res.Problems, p.res.AddTo(registry.New())...)
	})
	return p.res
}

// apply returns reg with the plugins' types added (a new built-in
// registry when reg is nil); reg itself when plugins are off: neither
// --plugins nor on (a project config's plugins: true).
func (p *pluginFlags) apply(reg *registry.Registry, on bool) *registry.Registry {
	if p == nil || !p.enabled && !on {
		return reg
	}
	res := p.result()
	if len(res.Plugins) == 0 {
		return reg
	}
	if reg == nil {
		reg = registry.NewBuiltin()
	}
	res.AddTo(reg)
	return reg
}

// transformer returns the runner of the loaded transformer plugins, run
// with the deploy configuration cfg's transformer configuration and
// context variables (cfg nil: none), or nil when plugins are off (as for
// apply) or no transformer is installed.
func (p *pluginFlags) transformer(on bool, cfg *deployconfig.Config) analysis.Transformer {
	if p == nil || !p.enabled && !on {
		return nil
	}
	p.runOnce.Do(func() { p.run = pluginhost.NewRunner(p.result(), pluginhost.Options{}) })
	if p.run == nil {
		return nil
	}
	transformers, vars := cfg.TransformerParams()
	return p.run.With(pluginhost.Params{Transformers: transformers, Context: vars})
}

// problemFiles reports each plugin that could not be used on its
// executable, one diagnostic each.
func (p *pluginFlags) problemFiles() []fileResult {
	if p == nil || p.res == nil { // never loaded: plugins were off everywhere
		return nil
	}
	var out []fileResult
	for _, pr := range p.result().Problems {
		out = append(out, fileResult{path: pr.Path, diags: []source.Diagnostic{pr.Diagnostic()}, mapper: source.NewMapper(nil)})
	}
	return out
}
