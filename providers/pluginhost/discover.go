package pluginhost

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// executableName is the file name of every plugin executable.
const executableName = "plugin"

// Discover finds the plugins under each root of path (roots separated
// by os.PathListSeparator), laid out as the deploy engine installs them:
// {root}/providers/{namespace}/{name}/{version}/plugin, or with a
// registry host before the namespace; transformers the same way under
// {root}/transformers. A root that cannot be read is a problem.
func Discover(path string) (targets []Target, problems []Problem) {
	for _, root := range filepath.SplitList(path) {
		if strings.TrimSpace(root) == "" {
			continue
		}
		root = filepath.Clean(root)
		if _, err := os.Stat(root); err != nil {
			problems = append(problems, Problem{ID: "(plugin path)", Path: root, Err: err})
			continue
		}
		for _, dir := range []struct {
			name string
			kind Kind
		}{{"providers", KindProvider}, {"transformers", KindTransformer}} {
			targets = append(targets, discoverIn(filepath.Join(root, dir.name), dir.kind)...)
		}
	}
	slices.SortFunc(targets, func(a, b Target) int { return strings.Compare(a.Path, b.Path) })
	return targets, problems
}

// discoverIn finds the plugin executables of one kind under base.
func discoverIn(base string, kind Kind) (targets []Target) {
	_ = filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner is skipped
		}
		rel, _ := filepath.Rel(base, p)
		depth := len(strings.Split(rel, string(filepath.Separator)))
		if d.IsDir() {
			if depth > 4 && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != executableName || (depth != 4 && depth != 5) {
			return nil
		}
		parts := strings.Split(filepath.Dir(rel), string(filepath.Separator))
		targets = append(targets, Target{Path: p, ID: strings.Join(parts[:len(parts)-1], "/"), Version: parts[len(parts)-1], Kind: kind})
		return nil
	})
	return targets
}
