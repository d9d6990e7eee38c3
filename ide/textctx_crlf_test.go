package ide

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestYAMLContextCRLF: the keys around a cursor in a key context are
// read the same from CRLF text as from LF text (reading down, each line's
// bounds end before its "\r": the next line starts past the "\n").
func TestYAMLContextCRLF(t *testing.T) {
	lf := "resources:\n  a:\n    type: aws/s3/bucket\n    \n    spec:\n      bucketName: x\n    metadata:\n      displayName: A\n  b:\n    type: aws/s3/bucket\n"
	for _, text := range []string{lf, strings.ReplaceAll(lf, "\n", "\r\n")} {
		off := strings.Index(text, "bucket\r\n    \r\n") + len("bucket\r\n    ")
		if !strings.Contains(text, "\r") {
			off = strings.Index(text, "bucket\n    \n") + len("bucket\n    ")
		}
		c := yamlContext(source.NewText([]byte(text)), off, yamlHop{})
		if got := slices.Sorted(maps.Keys(c.present)); !c.key || !slices.Equal(got, []string{"metadata", "spec", "type"}) || !slices.Equal(c.path, []string{"resources", "a"}) {
			t.Errorf("%q: key %v, path %v, present %v; want a key in resources.a beside metadata, spec and type", text[:12], c.key, c.path, got)
		}
	}
}
