package project

import (
	"bytes"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

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
