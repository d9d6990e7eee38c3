package registry

import (
	"embed"
	"fmt"
)

//go:embed builtin
var builtinFS embed.FS

// NewBuiltin returns a registry holding the embedded built-in providers
// (indexing them parses only the provider files; resource schemas are
// parsed on first use). Each call returns a fresh registry, so a caller
// may load more directories into it without affecting others.
func NewBuiltin() *Registry {
	r := New()
	if err := r.LoadFS(builtinFS, "builtin"); err != nil {
		// The files are compiled in and tested; failing here is a bug.
		panic(fmt.Sprintf("registry: built-in providers: %v", err))
	}
	return r
}
