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
	Kind    Kind   `json:"kind,omitempty"`
}

// Kind is what a plugin is: a provider or a transformer.
type Kind string

// The kinds of plugin, as the plugin path's directories name them.
const (
	KindProvider    Kind = ""
	KindTransformer Kind = "transformer"
)

// Described is the helper's answer for one target: what the plugin
// offers in the registry's formats, or why it could not say.
type Described struct {
	Target
	Namespace string `json:"namespace,omitempty"`
	// Provider is a provider file (docs/providers.md).
	Provider json.RawMessage `json:"provider,omitempty"`
	// Schemas are resource schemas by type name (a transformer's:
	// its abstract types).
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"`
	// Transform is the transform name a transformer implements (the
	// value of a blueprint's transform field that selects it).
	Transform string `json:"transform,omitempty"`
	Error     string `json:"error,omitempty"`
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

// TransformRequest asks the helper to run one transformer over one
// blueprint.
type TransformRequest struct {
	Target Target `json:"target"`
	// Format is how Blueprint is written: "yaml", "jwcc" (JSON, JSON
	// with comments) or "bplang" (the official loader's names).
	Format    string `json:"format"`
	Blueprint string `json:"blueprint"`
	// Namespace is the transformer's (its abstract types'): the key of
	// its own configuration in Params.
	Namespace string `json:"namespace,omitempty"`
	Params    Params `json:"params,omitzero"`
}

// Params are what a transform runs with from the deploy configuration:
// each transformer's configuration by namespace and the deployment's
// context variables (deployTarget, ...), as strings, integers, floats
// or booleans.
type Params struct {
	Transformers map[string]map[string]any `json:"transformers,omitempty"`
	Context      map[string]any            `json:"context,omitempty"`
}

// Transformed is a transformer's answer: the blueprint it made, as JSON
// (without its transform field), which resource came from which abstract
// one, and what the transformer said; or why there is none.
type Transformed struct {
	Blueprint json.RawMessage `json:"blueprint,omitempty"`
	// Origins maps a concrete resource to the abstract resource of the
	// input it was made from (the framework's source annotation).
	Origins     map[string]string `json:"origins,omitempty"`
	Diagnostics []TransformNote   `json:"diagnostics,omitempty"`
	Error       string            `json:"error,omitempty"`
}

// TransformNote is a diagnostic the transformer reported.
type TransformNote struct {
	Error   bool   `json:"error,omitempty"` // else a warning
	Message string `json:"message"`
}
