package lsp

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// Limits of the workspace scan, so a huge folder costs a bounded time.
const (
	maxScannedFiles = 5000
	maxScannedSize  = 4 << 20
)

// fileIndex holds the blueprints of the workspace folders for
// workspace/symbol: the folders are walked once, on the first query;
// each file is analysed (without children) when first needed and again
// after a watched-file change names it.
type fileIndex struct {
	mu      sync.Mutex
	folders []string
	scanned bool
	files   map[string]*analysis.Result // nil value: not analysed yet
	// outlines are the Landscaper blueprints found among files (read
	// once, taken out of files).
	outlines map[string]ide.OutlineDoc
}

func newFileIndex() *fileIndex {
	return &fileIndex{files: map[string]*analysis.Result{}, outlines: map[string]ide.OutlineDoc{}}
}

// setFolders records the workspace folders (from initialize, and when
// the client changes them): what was indexed is dropped and the folders
// walked again on the next query.
func (x *fileIndex) setFolders(folders []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.folders = folders
	x.scanned = false
	clear(x.files)
	clear(x.outlines)
}

// changed records a watched-file event for path.
func (x *fileIndex) changed(path string, deleted bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.scanned || !isBlueprintName(path) {
		return
	}
	delete(x.outlines, path)
	if deleted {
		delete(x.files, path)
		return
	}
	x.files[path] = nil
}

// isBlueprintName says whether a file may hold a blueprint.
func isBlueprintName(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json", ".jsonc", ".bp", ".blueprint":
		return true
	}
	return false
}

// looksLikeBlueprint keeps other YAML and JSON files (CI configs,
// package.json, manifests) out of the index: a blueprint is of the
// Bluelink dialect and names its spec version.
func looksLikeBlueprint(path string, data []byte) bool {
	if k, _ := dialect.Detect(path, "", data); k != dialect.Bluelink {
		return false
	}
	return bytes.Contains(data, []byte("2023-04-20")) || bytes.Contains(data, []byte("2025-11-02"))
}

// results returns the Results of the indexed files, except those in skip
// (open documents, which the caller supplies itself), and the outlines
// of the Landscaper blueprints among them.
func (x *fileIndex) results(ctx context.Context, skip map[string]bool) ([]*analysis.Result, []ide.OutlineDoc) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.scanned {
		x.scan(ctx)
	}
	var out []*analysis.Result
	for path, res := range x.files {
		if ctx.Err() != nil {
			return nil, nil
		}
		if skip[path] {
			continue
		}
		if res == nil {
			data, err := safefs.ReadFile(path, maxScannedSize)
			if err != nil || !looksLikeBlueprint(path, data) {
				if k, _ := dialect.Detect(path, "", data); err == nil && k == dialect.Landscaper {
					f := schema.Parse(path, data)
					x.outlines[path] = ide.OutlineDoc{Path: path, Mapper: f.Mapper, Symbols: ide.Outline(dialect.Of(k), f, nil)}
				}
				delete(x.files, path)
				continue
			}
			res = analysis.Analyze(ctx, schema.Parse(path, data), analysis.Options{Path: path})
			if ctx.Err() != nil {
				return nil, nil // possibly partial; analyse again next time
			}
			x.files[path] = res
		}
		out = append(out, res)
	}
	var outlines []ide.OutlineDoc
	for path, o := range x.outlines {
		if !skip[path] {
			outlines = append(outlines, o)
		}
	}
	return out, outlines
}

// scan walks the folders for candidate files; callers hold mu.
func (x *fileIndex) scan(ctx context.Context) {
	n := 0
	for _, root := range x.folders {
		if filepath.Dir(root) == root {
			continue // a file-system root is no project: never walk it
		}
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || ctx.Err() != nil {
				return filepath.SkipDir
			}
			if d.IsDir() {
				name := d.Name()
				if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") {
					return filepath.SkipDir
				}
				return nil
			}
			if !isBlueprintName(path) || !d.Type().IsRegular() {
				return nil // a symbolic link may lead anywhere: only real files
			}
			if n++; n > maxScannedFiles {
				return filepath.SkipAll
			}
			x.files[filepath.Clean(path)] = nil
			return nil
		})
	}
	x.scanned = ctx.Err() == nil
}

// workspaceResults are the Results workspace/symbol searches: every open
// document's, then the workspace folders' blueprints that are not open;
// and the outlines of the Landscaper blueprints, open or not.
func (s *server) workspaceResults(ctx context.Context) ([]*analysis.Result, []ide.OutlineDoc) {
	v := s.session.current()
	open := map[string]bool{}
	var out []*analysis.Result
	var outlines []ide.OutlineDoc
	for _, snap := range v.snaps {
		if snap.Path != "" {
			open[snap.Path] = true
		}
		if d := snap.Dialect(); d.Kind == dialect.Landscaper {
			outlines = append(outlines, ide.OutlineDoc{URI: snap.URI, Path: snap.Path, Mapper: snap.Mapper(), Symbols: ide.Outline(d, snap.File(), nil)})
		}
		if res, _ := snap.Result(); res != nil && res.File != nil {
			out = append(out, res)
		}
	}
	more, others := s.files.results(ctx, open)
	return append(out, more...), append(outlines, others...)
}
