package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// findBlueprints expands the arguments into a sorted, de-duplicated list of
// files. A file named explicitly is checked whatever its name. skipDir
// prunes ignored directories during the walk.
func findBlueprints(paths []string, skipDir func(dir string) bool) ([]string, error) {
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
			return nil, err
		}
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
			if isBlueprintName(d.Name()) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// isBlueprintName reports whether a file name marks a blueprint:
// blueprint.<ext> or <name>.blueprint.<ext> with ext yaml, yml, json or
// jsonc.
func isBlueprintName(name string) bool {
	ext := filepath.Ext(name)
	switch ext {
	case ".yaml", ".yml", ".json", ".jsonc":
	default:
		return false
	}
	stem := strings.TrimSuffix(name, ext)
	return stem == "blueprint" || strings.HasSuffix(stem, ".blueprint")
}

// validGlob reports whether every segment of g is a well-formed
// path.Match pattern.
func validGlob(g string) bool {
	for _, seg := range strings.Split(strings.Trim(g, "/"), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}

// matchGlob reports whether the slash-separated relative path rel is
// ignored by glob g:
//
//   - a glob without "/" matches a file or directory name at any depth
//     ("*.gen.blueprint.yaml", "vendor");
//   - a glob with "/" matches the path from its start ("infra/legacy/**",
//     "apps/*/generated"); a leading "/" is allowed and means the same;
//   - "**" matches any number of path segments, "*", "?" and "[..]" work as
//     in path.Match within one segment;
//   - a glob that matches a directory ignores everything below it.
func matchGlob(g, rel string) bool {
	segs := strings.Split(rel, "/")
	g = strings.TrimPrefix(g, "/")
	pat := strings.Split(strings.TrimSuffix(g, "/"), "/")
	if !strings.Contains(g, "/") {
		pat = append([]string{"**"}, pat...)
	}
	// A match of any leading part of the path (a directory) counts.
	for n := 1; n <= len(segs); n++ {
		if matchSegs(pat, segs[:n]) {
			return true
		}
	}
	return false
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// relSlash returns p relative to base in slash form, or "" when p is not
// below base.
func relSlash(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}
