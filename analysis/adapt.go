package analysis

import (
	"sync"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

var (
	builtinOnce sync.Once
	builtin     *registry.Registry
)

// builtinRegistry returns the embedded providers, loaded once per process.
func builtinRegistry() *registry.Registry {
	builtinOnce.Do(func() { builtin = registry.NewBuiltin() })
	return builtin
}

// BuiltinRegistry returns the shared registry of embedded providers.
func BuiltinRegistry() *registry.Registry { return builtinRegistry() }
