package lsp

import (
	"os"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// PluginSettings turn on the Bluelink provider plugins installed on the
// plugin path (package pluginhost): off unless enabled.
type PluginSettings struct {
	Enabled *bool `json:"enabled,omitempty"`
	// PluginPath replaces $BLUELINK_DEPLOY_ENGINE_PLUGIN_PATH.
	PluginPath string `json:"pluginPath,omitempty"`
}

// pluginPath is the plugin path the settings ask for, or "" when plugins
// are off.
func (s *Settings) pluginPath() string {
	if s == nil || s.Plugins == nil || s.Plugins.Enabled == nil || !*s.Plugins.Enabled {
		return ""
	}
	if s.Plugins.PluginPath != "" {
		return s.Plugins.PluginPath
	}
	return os.Getenv(pluginhost.PathEnv)
}

// pluginState is the session's plugins: loaded in the background, once
// per plugin path (a plugin's answers are then cached on disk per
// version), and added to every workspace's registry once loaded. Until
// then the plugins' types are unknown, as without plugins: the server
// never waits for a plugin.
type pluginState struct {
	mu      sync.Mutex
	path    string // "" when off
	res     *pluginhost.Result
	runner  *pluginhost.Runner // res's transformers; nil: none
	loading bool
}

// want records the plugin path of new settings and reports whether it
// changed (the workspaces must then be rebuilt).
func (p *pluginState) want(path string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.path == path {
		return false
	}
	p.path, p.res, p.runner, p.loading = path, nil, nil, false
	return true
}

// transformer returns the loaded transformer plugins' runner, or nil
// when there are none.
func (p *pluginState) transformer() *pluginhost.Runner {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.runner
}

// apply adds the loaded plugins' types to reg (a new built-in registry
// when reg is nil and there is something to add).
func (p *pluginState) apply(reg *registry.Registry) *registry.Registry {
	p.mu.Lock()
	res := p.res
	p.mu.Unlock()
	if res == nil || len(res.Plugins) == 0 {
		return reg
	}
	if reg == nil {
		reg = registry.NewBuiltin()
	}
	res.AddTo(reg)
	return reg
}

// startLoad returns the path to load when plugins are on, not loaded and
// not being loaded (the caller loads it); "" otherwise.
func (p *pluginState) startLoad() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.path == "" || p.res != nil || p.loading {
		return ""
	}
	p.loading = true
	return p.path
}

// loaded stores the result for path, unless the settings moved on.
func (p *pluginState) loaded(path string, res *pluginhost.Result) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.path != path {
		return false
	}
	p.res, p.loading = res, false
	p.runner = pluginhost.NewRunner(res, pluginhost.Options{})
	return true
}

// loadPlugins loads the plugins the settings turned on, off the caller's
// goroutine; when they are in, the workspaces are rebuilt with them and
// every open document is checked again. A plugin that could not be used
// is shown once, as a warning naming it.
func (s *server) loadPlugins() {
	path := s.session.plugins.startLoad()
	if path == "" {
		return
	}
	s.goSafe("loading plugins", func() {
		done := false
		defer func() {
			if !done { // a panic: no plugins, and no retry until the settings change
				s.session.plugins.loaded(path, &pluginhost.Result{})
			}
		}()
		res := pluginhost.Load(s.ctx, pluginhost.Options{Path: path, CacheDir: pluginhost.DefaultCacheDir(), Log: s.log})
		res.Problems = append(res.Problems, res.AddTo(registry.New())...)
		done = true
		if !s.session.plugins.loaded(path, res) {
			return
		}
		s.log.Info("plugins loaded", "path", path, "plugins", len(res.Plugins), "problems", len(res.Problems))
		var errs []error
		for _, p := range res.Problems {
			errs = append(errs, p)
		}
		s.reportPluginProblems(errs)
		fresh, perrs := s.session.reloadWorkspace()
		s.reportProviderProblems(append(perrs, s.session.takeProblems()...))
		s.diags.settingsChanged(fresh)
	})
}

// reportPluginProblems shows each plugin that could not be used: the
// user turned plugins on, so a silent log line would not do.
func (s *server) reportPluginProblems(errs []error) {
	for _, err := range errs {
		msg := "blueprint-ls: " + err.Error()
		s.log.Warn(msg)
		if s.client == nil {
			continue
		}
		if err := s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg}); err != nil {
			s.log.Debug("showMessage failed", "err", err)
		}
	}
}
