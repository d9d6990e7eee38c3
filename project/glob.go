package project

import (
	"path"
	"path/filepath"
	"strings"
)

// ValidGlob reports whether every segment of g is a well-formed
// path.Match pattern.
func ValidGlob(g string) bool {
	for _, seg := range strings.Split(strings.Trim(g, "/"), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}

// MatchGlob reports whether the slash-separated relative path rel is
// ignored by glob g (docs/cli.md, "Ignoring files"):
//
//   - a glob without "/" matches a file or directory name at any depth
//     ("*.gen.blueprint.yaml", "vendor");
//   - a glob with "/" matches the path from its start ("infra/legacy/**",
//     "apps/*/generated"); a leading "/" is allowed and means the same;
//   - "**" matches any number of path segments, "*", "?" and "[..]" work as
//     in path.Match within one segment;
//   - a glob that matches a directory ignores everything below it.
func MatchGlob(g, rel string) bool {
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

// RelSlash returns p relative to base in slash form, or "" when p is not
// below base.
func RelSlash(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}
