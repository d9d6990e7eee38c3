package deployconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
)

// DefaultNames are the file names probed in each directory of the walk,
// in preference order: the canonical Bluelink file first (a deliberate
// choice, needing no conversion), then Celerity's authoring file, then
// the file the Celerity CLI generates from it (present only after a CLI
// command ran, so it comes last).
var DefaultNames = []string{
	"bluelink.deploy.jsonc",
	"bluelink.deploy.json",
	"app.deploy.jsonc",
	"app.deploy.json",
	filepath.Join(".celerity", "deploy-config.json"),
}

// maxWalk bounds the walk when no boundary is found: a blueprint sits a
// few directories below its project root, and a walk longer than this
// has left the project.
const maxWalk = 8

// repositoryMarker names the directory that makes its parent a
// repository root, the boundary when the caller names no workspace.
const repositoryMarker = ".git"

// Options say where to look.
type Options struct {
	// File names the configuration explicitly (the deployConfigFile
	// setting, --deploy-config): an absolute path is used as is; a
	// relative one is probed in every directory of the walk, in place of
	// the candidate names.
	File string
	// Names replace DefaultNames (the deployConfigFileNames setting):
	// relative paths probed in each directory, in order.
	Names []string
	// Boundaries are the workspace roots: the walk searches a boundary
	// and never goes above it. Empty: a repository root is the boundary.
	Boundaries []string
	// Roots confine every read (nil: no confinement, tests and library
	// use). A candidate outside them is not read.
	Roots *safefs.Roots
}

// candidates returns the relative names probed in each directory.
func (o Options) candidates() []string {
	switch {
	case o.File != "":
		return []string{o.File}
	case len(o.Names) > 0:
		return o.Names
	}
	return DefaultNames
}

// Find returns the deploy configuration file that governs a blueprint in
// dir, or "" when there is none. An error is an explicitly named file
// that is missing or outside the project; a candidate of the walk that
// lies outside the project is passed over.
func Find(dir string, o Options) (string, error) {
	if filepath.IsAbs(o.File) {
		if err := o.Roots.Check(o.File); err != nil {
			return "", fmt.Errorf("deploy config %s: %w", o.File, err)
		}
		if _, err := os.Stat(o.File); err != nil {
			return "", fmt.Errorf("deploy config: %w", err)
		}
		return o.File, nil
	}
	if dir == "" {
		return "", nil
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for range maxWalk {
		for _, name := range o.candidates() {
			p := filepath.Join(dir, name)
			if o.Roots.Check(p) != nil {
				continue
			}
			if info, err := os.Stat(p); err == nil && !info.IsDir() {
				return p, nil
			}
		}
		if o.boundary(dir) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if o.File != "" {
		return "", fmt.Errorf("deploy config %s: %w (looked from the blueprint's folder up to the project root)", o.File, fs.ErrNotExist)
	}
	return "", nil
}

// boundary reports whether the walk stops after searching dir.
func (o Options) boundary(dir string) bool {
	if len(o.Boundaries) > 0 {
		for _, b := range o.Boundaries {
			if filepath.Clean(b) == dir {
				return true
			}
		}
		// A directory outside every workspace root has no boundary above
		// it; the repository root bounds it instead.
		inside := false
		for _, b := range o.Boundaries {
			inside = inside || safefs.Within(filepath.Clean(b), dir)
		}
		if inside {
			return false
		}
	}
	_, err := os.Stat(filepath.Join(dir, repositoryMarker))
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// Resolve finds and loads the deploy configuration for a blueprint in
// dir: nil when there is none. The error is Find's or the read's (the
// file's own mistakes are its diagnostics).
func Resolve(dir string, o Options) (*Config, error) {
	p, err := Find(dir, o)
	if err != nil || p == "" {
		return nil, err
	}
	return Load(p, o.Roots)
}
