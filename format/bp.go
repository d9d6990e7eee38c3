package format

import (
	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// formatBP lays a blueprint-language document out canonically
// (bplang.Format) as one edit; format's check that the tree is unchanged
// guards it like every other layout.
func formatBP(f *schema.File) []kedit {
	out, err := bplang.Format(f.Content())
	if err != nil || string(out) == string(f.Content()) {
		return nil
	}
	e, ok := replace(f.Content(), 0, len(f.Content()), string(out), kindIndent)
	if !ok {
		return nil
	}
	return []kedit{e}
}
