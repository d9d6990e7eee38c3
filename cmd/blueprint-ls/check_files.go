package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/project"
)

// findBlueprints expands the arguments into a sorted, de-duplicated list of
// files. A file named explicitly is checked whatever its name. skipDir
// prunes ignored directories during the walk. The walk never follows a
// symbolic link to a directory; a symbolic link to a file that leads out
// of the directory walked is listed with an error in refused, so that it
// is reported and never read or written.
func findBlueprints(paths []string, skipDir func(dir string) bool) (files []string, refused map[string]error, err error) {
	refused = map[string]error{}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			return nil, nil, err
		}
		walked := safefs.NewRoots(root)
		if !info.IsDir() {
			add(filepath.Clean(root))
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != root && (d.Name() == "node_modules" || d.Name() == ".git" || skipDir != nil && skipDir(p)) {
					return filepath.SkipDir
				}
				return nil
			}
			if dialect.IsBlueprintName(d.Name()) {
				add(p)
				if d.Type()&fs.ModeSymlink != 0 {
					if err := walked.Check(p); err != nil {
						refused[p] = fmt.Errorf("%s is a symbolic link leading outside %s: not followed", p, root)
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	sort.Strings(out)
	return out, refused, nil
}

// validGlob reports whether every segment of g is a well-formed
// path.Match pattern.
func validGlob(g string) bool { return project.ValidGlob(g) }

// matchGlob reports whether the slash-separated relative path rel is
// ignored by glob g (project.MatchGlob: the config's ignore list and
// --ignore share one syntax).
func matchGlob(g, rel string) bool { return project.MatchGlob(g, rel) }

// relSlash returns p relative to base in slash form, or "" when p is not
// below base.
func relSlash(base, p string) string { return project.RelSlash(base, p) }
