package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// workspace is what analysis reads besides the document itself: the
// provider registry built from the settings and the child-blueprint
// loader, whose reads see open buffers before the disk. A workspace is
// replaced only when the provider directories change; between
// replacements its loader's cache is invalidated file by file.
type workspace struct {
	// dirs are the provider directories the registry was built from.
	dirs []string
	// limits are the size budgets of a project config (zero: the
	// defaults) for provider schemas and children read from disk.
	limits safefs.Limits
	// registry is nil for the built-in providers (analysis's default).
	registry *registry.Registry
	loader   *analysis.Loader
	// transformer runs the transformer plugins (nil: none, or plugins
	// off).
	transformer *pluginhost.Runner
}

// newWorkspace builds a registry from dirs (nil when there are none) and a
// loader reading through s (open buffers first), both within limits. Each
// directory that fails to load is reported in problems; the others still
// apply.
func (s *session) newWorkspace(dirs []string, limits safefs.Limits) (ws *workspace, problems []error) {
	ws = &workspace{dirs: slices.Clone(dirs), limits: limits}
	if len(dirs) > 0 {
		ws.registry = registry.NewBuiltin()
		for _, d := range dirs {
			if err := ws.registry.LoadDirLimit(d, limits.SchemaLimit()); err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", d, err))
			}
		}
	}
	ws.registry = s.plugins.apply(ws.registry)
	ws.transformer = s.plugins.transformer()
	limit := limits.DocumentLimit()
	ws.loader = analysis.NewLoader(func(path string) ([]byte, error) { return s.readFile(path, limit) }, analysis.Options{Registry: ws.registry})
	return ws, problems
}

// readFile is the loaders' ReadFile: an open document's buffer wins over
// the file on disk, which is read within limit. An open buffer is read
// in its parse's coordinates (padding.go: its text with the padding,
// which means what the client's does), so that what a parent's analysis
// finds in it names the same offsets as the document's own Result.
func (s *session) readFile(path string, limit int64) ([]byte, error) {
	if snap := s.current().byPath(filepath.Clean(path)); snap != nil {
		return snap.Mapper().Content(), nil
	}
	return safefs.ReadFile(path, limit)
}

// includeIndex records which blueprint includes which, by file path, from
// the Results of open documents (children of children included). It
// answers "who must be re-checked when this file changes".
type includeIndex struct {
	mu       sync.Mutex
	children map[string][]string        // parent path → child paths
	parents  map[string]map[string]bool // child path → parent paths
}

func newIncludeIndex() *includeIndex {
	return &includeIndex{children: map[string][]string{}, parents: map[string]map[string]bool{}}
}

// record replaces the edges of res's document and of every child Result
// reachable from it.
func (x *includeIndex) record(res *analysis.Result) {
	if res == nil || res.Path == "" {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	seen := map[string]bool{}
	var walk func(r *analysis.Result)
	walk = func(r *analysis.Result) {
		parent := filepath.Clean(r.Path)
		if seen[parent] {
			return
		}
		seen[parent] = true
		for _, old := range x.children[parent] {
			delete(x.parents[old], parent)
		}
		var kids []string
		for _, c := range r.Children {
			if c.Path == "" {
				continue
			}
			p := filepath.Clean(c.Path)
			kids = append(kids, p)
			if x.parents[p] == nil {
				x.parents[p] = map[string]bool{}
			}
			x.parents[p][parent] = true
			if c.Result != nil && c.Result.Path != "" {
				walk(c.Result)
			}
		}
		x.children[parent] = kids
	}
	walk(res)
}

// ancestors returns every file that includes path, directly or through
// other files, path excluded.
func (x *includeIndex) ancestors(path string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	path = filepath.Clean(path)
	seen := map[string]bool{path: true}
	var out []string
	queue := []string{path}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for parent := range x.parents[p] {
			if !seen[parent] {
				seen[parent] = true
				out = append(out, parent)
				queue = append(queue, parent)
			}
		}
	}
	slices.Sort(out)
	return out
}
