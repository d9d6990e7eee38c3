package format

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

func syntaxErrors(ds []source.Diagnostic) []source.Diagnostic {
	var out []source.Diagnostic
	for _, d := range ds {
		if strings.HasSuffix(d.Code, "-syntax") {
			out = append(out, d)
		}
	}
	return out
}
