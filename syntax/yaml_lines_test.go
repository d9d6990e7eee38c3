package syntax

import "testing"

// TestYAMLLineTables checks that plain scalars land exactly on their text
// whichever line table the builder uses: the mapper's (ASCII, or
// non-ASCII without Unicode breaks) or its own (a byte order mark, NEL,
// LS or PS, which yaml.v3 counts as line breaks and LSP does not).
func TestYAMLLineTables(t *testing.T) {
	docs := map[string]string{
		"ascii":     "a: x\nb:\n  - y\nc: z\n",
		"crlf":      "a: x\r\nb:\r\n  - y\r\nc: z\r\n",
		"non-ascii": "a: é\nb:\n  - ÿ\nc: z\n",
		"bom":       "\uFEFFa: x\nb:\n  - y\nc: z\n",
		"nel":       "a: x\u0085\nb:\n  - y\nc: z\n",
		"ls":        "a: \"x\u2028y\"\nb:\n  - y\nc: z\n",
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			f := ParseYAML([]byte(doc))
			if f.Root == nil {
				t.Fatalf("no tree: %v", f.Diagnostics)
			}
			n := 0
			var walk func(Node)
			walk = func(nd Node) {
				switch nd := nd.(type) {
				case *Mapping:
					for _, e := range nd.Entries {
						walk(e.Key)
						walk(e.Value)
					}
				case *Sequence:
					for _, it := range nd.Items {
						walk(it)
					}
				case *Scalar:
					if nd.Style != Plain {
						return
					}
					n++
					if got := doc[nd.ValueRange().Start:nd.ValueRange().End]; got != nd.Value {
						t.Errorf("scalar %q has range %v holding %q", nd.Value, nd.ValueRange(), got)
					}
				}
			}
			walk(f.Root)
			if n < 5 {
				t.Errorf("found %d plain scalars, want at least 5", n)
			}
		})
	}
}
