package pluginhost

import (
	"encoding/json"
	"fmt"
	"time"
)

// PathEnv is the environment variable naming the plugin roots, the one
// the deploy engine reads.
const PathEnv = "BLUELINK_DEPLOY_ENGINE_PLUGIN_PATH"

// Default budgets.
const (
	DefaultLaunchTimeout = 5 * time.Second
	DefaultCallTimeout   = 3 * time.Second
)

// Target is a plugin executable found on the plugin path.
type Target struct {
	Path    string `json:"path"`
	ID      string `json:"id"` // {namespace}/{name}, or {host}/{namespace}/{name}
	Version string `json:"version"`
}

// Described is the helper's answer for one target: what the plugin
// offers in the registry's formats, or why it could not say.
type Described struct {
	Target
	Namespace string `json:"namespace,omitempty"`
	// Provider is a provider file (docs/providers.md).
	Provider json.RawMessage `json:"provider,omitempty"`
	// Schemas are resource schemas by type name.
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"`
	Error   string                     `json:"error,omitempty"`
}

// Plugin is what one provider plugin offers.
type Plugin struct {
	Described
	// Cached says the answers came from the cache, without a launch.
	Cached bool
}

// Problem is a plugin that could not be used, and why.
type Problem struct {
	ID, Path string
	Err      error
}

func (p Problem) Error() string { return fmt.Sprintf("plugin %s (%s): %v", p.ID, p.Path, p.Err) }

// Result is what Load found.
type Result struct {
	Plugins  []*Plugin
	Problems []Problem
}
