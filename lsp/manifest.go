package lsp

import (
	"github.com/blueprint-ls/blueprint-ls/assembly"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// An open JSON document whose top-level "schema" member starts with
// "cloud-assembly/" is a Cloud Assembly manifest, whatever its name
// (dialect.Manifest): it is checked with assembly.CheckManifest instead of
// blueprint analysis, and gets only the features the syntax tree supports
// (folding, document symbols, formatting).

// manifestSource is the "source" of a manifest's diagnostics.
var manifestSource = dialect.ManifestDialect.Source

// manifestCheck is a manifest's checked form: the Manifest (nil when the
// content is not a JSON object) and its problems as diagnostics.
type manifestCheck struct {
	manifest    *assembly.Manifest
	diagnostics []source.Diagnostic
}

// checkManifest runs assembly.CheckManifest; every problem it finds is in
// the manifest itself, so its range is an offset into content.
func checkManifest(content []byte) *manifestCheck {
	m, problems := assembly.CheckManifest(content)
	ds := make([]source.Diagnostic, len(problems))
	for i, p := range problems {
		ds[i] = p.Diagnostic
	}
	return &manifestCheck{manifest: m, diagnostics: ds}
}
