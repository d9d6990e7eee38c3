package project

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

// Find returns the config file governing the files of dir: the nearest
// FileName in dir or any parent directory.
func Find(dir string) (path string, ok bool) {
	for {
		p := filepath.Join(dir, FileName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Suppressions finds the ignore comments of a YAML or JSONC document. A
// comment after other text on a line applies to that line; a comment
// alone on its line applies to the next line. After the directive come
// codes separated by commas or spaces, optionally followed by " -- reason".
// The scan is textual: a directive inside a string that looks like a
// comment (`"x # blueprint-ls:ignore"`) also counts, which is harmless.
func Suppressions(content []byte) []Suppression {
	if !bytes.Contains(content, []byte(ignoreDirective)) {
		return nil
	}
	return suppressions(source.NewMapper(content))
}
