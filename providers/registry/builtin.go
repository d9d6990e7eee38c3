package registry

import (
	"embed"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/providers/registry/internal/catalog"
)

//go:generate go run ./internal/catalog/gen -src ../../../shared/cfn-schemas/us-east-1-all.tar.gz -spec $BLUEPRINT_SERVICE_SPEC -out builtin/catalog

// builtinFS holds the built-in provider files (data sources, custom
// variable types, functions, links, transforms, aliases).
//
//go:embed builtin/*/*.json
var builtinFS embed.FS

// The resource type catalog (builtin/catalog/README.md): strings, so the
// embedded bytes are read in place and never copied.
var (
	//go:embed builtin/catalog/index.tsv
	catalogIndex string
	//go:embed builtin/catalog/dict.bin
	catalogDict string
	//go:embed builtin/catalog/data.bin
	catalogData string
)

// builtinTypes is the catalog's resource types, opened on first use and
// shared by every registry: a type's schema is decompressed and compiled
// once per process, whichever registry asks first.
var builtinTypes = sync.OnceValue(func() *typeSet {
	c, err := catalog.Open(catalogIndex, catalogDict, catalogData)
	if err != nil {
		// The files are compiled in and tested; failing here is a bug.
		panic(fmt.Sprintf("registry: built-in catalog: %v", err))
	}
	return newCatalogTypes(c, "built-in catalog")
})

// builtinFiles is the provider files and the schemas beside them, loaded
// once per process; NewBuiltin copies its tables (the parsed definitions
// themselves are never changed, so registries share them).
var builtinFiles = sync.OnceValue(func() *Registry {
	r := New()
	if err := r.LoadFS(builtinFS, "builtin"); err != nil {
		// The files are compiled in and tested; failing here is a bug.
		panic(fmt.Sprintf("registry: built-in providers: %v", err))
	}
	return r
})

// NewBuiltin returns a registry holding the built-in providers: every
// resource type of the catalog (indexed, not parsed) and the provider
// files. Each call returns a fresh registry, so a caller may load more
// directories into it without affecting others; their resource types
// replace built-in ones of the same name.
func NewBuiltin() *Registry {
	base := builtinFiles()
	r := New()
	r.builtin = builtinTypes()
	maps.Copy(r.resources, base.resources)
	maps.Copy(r.dataSources, base.dataSources)
	maps.Copy(r.customTypes, base.customTypes)
	maps.Copy(r.functions, base.functions)
	maps.Copy(r.links, base.links)
	maps.Copy(r.transforms, base.transforms)
	maps.Copy(r.typeAliases, base.typeAliases)
	maps.Copy(r.overlays, base.overlays)
	return r
}

// typeSet is an immutable, sorted set of resource types backed by a
// catalog.
type typeSet struct {
	cat       *catalog.Catalog
	entries   []resourceEntry // parallel to the catalog's entries
	names     []string        // sorted
	providers []string        // first segments of names, sorted
}

func newCatalogTypes(c *catalog.Catalog, origin string) *typeSet {
	ts := &typeSet{cat: c, entries: make([]resourceEntry, c.Len()), names: make([]string, c.Len())}
	seen := map[string]bool{}
	for i := range ts.entries {
		ce := c.Entry(i)
		ts.names[i] = ce.Name
		if p, _, _ := strings.Cut(ce.Name, "/"); !seen[p] {
			seen[p] = true
			ts.providers = append(ts.providers, p)
		}
		ts.entries[i] = resourceEntry{
			name:     ce.Name,
			original: ce.TypeName,
			origin:   origin + " " + ce.TypeName,
			read:     func() ([]byte, error) { return c.Schema(i) },
			readDoc:  func() ([]byte, error) { return c.Doc(i) },
		}
	}
	return ts
}

func (ts *typeSet) lookup(name string) *resourceEntry {
	if ts == nil {
		return nil
	}
	i, ok := ts.cat.Find(name)
	if !ok {
		return nil
	}
	return &ts.entries[i]
}
