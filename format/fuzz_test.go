package format

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

var fuzzURIs = [...]string{"fuzz.yaml", "fuzz.json", "fuzz.jsonc"}

// FuzzFormat checks the formatter's promises on arbitrary documents:
// formatting keeps the parsed document and is idempotent. Inputs with
// syntax errors are refused, which is all they are checked for. The seed
// corpus under testdata/fuzz/FuzzFormat holds the example blueprints and
// this package's cases.
func FuzzFormat(f *testing.F) {
	f.Add([]byte("a:\n    b: ${ x }\n"), uint8(0))
	f.Add([]byte("{\"a\":[1,2,{}]} // c\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		uri := fuzzURIs[int(kind)%len(fuzzURIs)]
		if len(syntaxErrors(schema.Parse(uri, data).Diagnostics)) > 0 {
			if edits, err := Format(uri, data, DefaultOptions()); err == nil || len(edits) > 0 {
				t.Fatalf("a document with syntax errors was formatted: %v %v", edits, err)
			}
			return
		}
		opts := DefaultOptions()
		if kind&4 != 0 {
			opts.IndentWidth = 4
		}
		if kind&8 != 0 {
			opts.UseTabs = true
		}
		checkProperties(t, uri, data, opts)
	})
}
