package syntax_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Reparse is Splice, or when it gives nil the whole parse; spliced says
// which.
func Reparse(prev *syntax.File, content []byte) (f *syntax.File, spliced bool) {
	if f = syntax.Splice(prev, content); f != nil {
		return f, true
	}
	return syntax.Parse(prev.URI, content), false
}

// reparseDocs are the YAML documents the random edits start from: a
// generated blueprint, the parser's golden inputs and real blueprints
// (../shared/examples when it is there).
func reparseDocs(t testing.TB) map[string][]byte {
	return withFiles(t, map[string][]byte{"gen.yaml": gen.Blueprint(30, "yaml")}, "testdata/parse/*.yaml", "../testdata/examples/valid/*.yaml",
		"../testdata/celerity-docs/*-0[1-3].blueprint.yaml", "../../shared/examples/valid/*.yaml")
}

// withFiles adds to docs every file that matches one of globs, by path.
func withFiles(t testing.TB, docs map[string][]byte, globs ...string) map[string][]byte {
	for _, g := range globs {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			docs[p] = b
		}
	}
	return docs
}

// edits are what the random edits type: text inside a line, line breaks
// with indentation (new entries, deeper fields, siblings, top-level
// keys), and the characters that open flow collections, quotes, block
// scalars and comments.
var edits = []string{"x", "9", " ", "  ", ": ", "-", "- ", "#", "'", "\"", "[", "]", "{", "}", "|", ">", "\t", "\r",
	"\n", "\n  ", "\n    ", "\n      ", "\n  added:\n    type: x\n", "\n    extra: 1", "\nexports: {}\n",
	"\n    - item", "\n---\n", "&a ", "*a", "!!str ", "${values.x}", "é", "\u2028"}

// sameParse reports how got differs from the whole parse of its text.
func sameParse(name string, got *syntax.File) string {
	return parsetest.Diff(got, syntax.Parse(name, got.Content()))
}

// TestReparseEqualsParse replays random edit sequences of YAML, and of
// JSON and JSONC documents (jsonDocs, typing jsonEdits), each version
// reparsed from the one before (by Splice, and by SpliceAt told the
// edit), and checks after every edit that the tree is the one a whole
// parse gives (parsetest.ReplaySplices).
func TestReparseEqualsParse(t *testing.T) {
	steps := 300
	if testing.Short() {
		steps = 80
	}
	t.Run("yaml", func(t *testing.T) {
		parsetest.ReplaySplices(t, reparseDocs(t), edits, steps, 10, syntax.Parse, syntax.Splice, syntax.SpliceAt)
	})
	t.Run("json", func(t *testing.T) {
		parsetest.ReplaySplices(t, jsonDocs(t), jsonEdits, steps, 10, syntax.Parse, syntax.Splice, syntax.SpliceAt)
	})
}

// TestReparseCases pins which edits are spliced and which are parsed whole.
func TestReparseCases(t *testing.T) {
	base := "version: 2025-11-02\nresources:\n  a:\n    type: x\n    spec:\n      n: 1\n  b:\n    type: y\n# tail\nexports:\n  e:\n    type: string\n"
	for _, c := range []struct {
		name, from, to string
		spliced        bool
	}{
		{"value inside an entry", "n: 1", "n: 22", true},
		{"new field in an entry", "n: 1\n", "n: 1\n      m: 2\n", true},
		{"key of an entry", "  b:\n", "  bb:\n", true},
		{"last entry of the last section", "type: string\n", "type: str\n", true},
		{"trailing comment of a section", "# tail", "# tail2", true},
		{"new sibling entry", "n: 1\n", "n: 1\n  c:\n    type: z\n", false},
		{"entry dedented", "  b:\n", " b:\n", false},
		{"new top-level key", "# tail\n", "# tail\nmetadata: {}\n", false},
		{"top-level scalar", "2025-11-02", "2023-04-20", false},
		{"unclosed flow", "n: 1", "n: [1", false},
		{"across two entries", "1\n  b:", "2\n  c:", false},
		{"field added at the end of an entry", "n: 1\n  b:", "n: 1\n      m: [2]\n  b:", true},
		{"same text", "n: 1", "n: 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			prev := syntax.Parse("f.yaml", []byte(base))
			next := []byte(replaceOnce(base, c.from, c.to))
			got, spliced := Reparse(prev, next)
			if spliced != c.spliced {
				t.Errorf("spliced %v, want %v", spliced, c.spliced)
			}
			if diff := sameParse("f.yaml", got); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestReparseExplicitKey: an explicit key ("? " on a line of its own,
// the key's text on the next) starts its entry a line above the key,
// whose lines alone parse as another entry: an edit in them is parsed
// whole (found by TestLSPEditsEqualFresh, seed 1414).
func TestReparseExplicitKey(t *testing.T) {
	base := "version: 2025-11-02\nresources:\n  a:\n    type: x\n  ? # spec:\n    name: \"order-events\"\n"
	prev := syntax.Parse("f.yaml", []byte(base))
	got, spliced := Reparse(prev, []byte(replaceOnce(base, "order-events", "o-events")))
	if spliced {
		t.Error("spliced")
	}
	if diff := sameParse("f.yaml", got); diff != "" {
		t.Error(diff)
	}
}

func replaceOnce(s, from, to string) string {
	for i := 0; i+len(from) <= len(s); i++ {
		if s[i:i+len(from)] == from {
			return s[:i] + to + s[i+len(from):]
		}
	}
	panic("no " + from)
}

// TestReparseLeavesPrevAlone checks that a splice shares the nodes before
// the edit and changes none of prev's.
func TestReparseLeavesPrevAlone(t *testing.T) {
	data := gen.Blueprint(6, "yaml")
	prev := syntax.Parse("f.yaml", data)
	before := syntax.Parse("f.yaml", data)
	at := len(data) / 2
	next, spliced := Reparse(prev, append(append(append([]byte{}, data[:at]...), 'x'), data[at:]...))
	if !spliced {
		t.Skip("the middle of the generated blueprint is not inside an entry")
	}
	if !reflect.DeepEqual(prev.Root, before.Root) {
		t.Fatal("Reparse changed the previous tree")
	}
	if next.Root.(*syntax.Mapping).Entries[0] != prev.Root.(*syntax.Mapping).Entries[0] {
		t.Error("the first top-level entry, before the edit, was copied rather than shared")
	}
}

// FuzzReparse edits a generated blueprint at a fuzzed offset and checks
// that the reparsed tree is the whole parse's.
func FuzzReparse(f *testing.F) {
	base := gen.Blueprint(4, "yaml")
	f.Add(uint16(900), uint8(0), "x")
	f.Add(uint16(1500), uint8(3), "\n      extra: [1, 2]\n")
	f.Add(uint16(400), uint8(1), "'")
	f.Add(uint16(2000), uint8(0), "\n  - a")
	prev := syntax.Parse("f.yaml", base)
	f.Fuzz(func(t *testing.T, at uint16, del uint8, insert string) {
		checkFuzzedEdit(t, prev, at, del, insert)
	})
}

// checkFuzzedEdit replaces up to del%16 bytes of prev's text at offset
// at (modulo its length) with insert and checks that the reparsed tree,
// found by Splice and by SpliceAt told the change, is the whole parse's.
func checkFuzzedEdit(t *testing.T, prev *syntax.File, at uint16, del uint8, insert string) {
	base := prev.Content()
	pos := int(at) % (len(base) + 1)
	end := min(pos+int(del%16), len(base))
	next := append(append(append([]byte{}, base[:pos]...), insert...), base[end:]...)
	got, spliced := Reparse(prev, next)
	if diff := sameParse(prev.URI, got); diff != "" {
		t.Fatalf("spliced %v: %s", spliced, diff)
	}
	// Told the change as made (wider than the bytes that differ when the
	// inserted text repeats the deleted).
	if got := syntax.SpliceAt(prev, source.NewText(next), syntax.Change{Start: pos, OldEnd: end, NewEnd: pos + len(insert)}); got != nil {
		if diff := sameParse(prev.URI, got); diff != "" {
			t.Fatalf("SpliceAt: %s", diff)
		}
	}
}

// BenchmarkReparse is an edit inside one resource in the middle of a
// generated blueprint of n resources, reparsed from the version before
// (compare BenchmarkParseYAML*, the whole parse). Splice finds the edit
// by comparing the two texts; BenchmarkReparseAt tells it.
func BenchmarkReparse(b *testing.B) { benchReparse(b, "yaml", found, 100, 1000, 5000, 20000) }

// BenchmarkReparseAt is BenchmarkReparse with SpliceAt told the edit,
// as the language server tells it.
func BenchmarkReparseAt(b *testing.B) { benchReparse(b, "yaml", told, 100, 1000, 5000, 20000) }

// How benchReparse makes the next version: Splice finding the edit,
// SpliceAt told it, or a whole parse.
const (
	found = iota
	told
	whole
)

// benchReparse edits a digit inside one resource in the middle of a
// generated blueprint in format of each of sizes, back and forth, each
// version made from the one before as how says.
func benchReparse(b *testing.B, format string, how int, sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			data := gen.Blueprint(n, format)
			name, field := "b."+format, "visibilityTimeout: 45"
			if format == "json" {
				field = `"visibilityTimeout": 45`
			}
			at := len(data)/2 + bytesIndex(data[len(data)/2:], field) + len(field) - 1
			other := append([]byte{}, data...)
			other[at] = '6'
			versions := [2]*syntax.File{syntax.Parse(name, data), syntax.Parse(name, other)}
			edit := syntax.Change{Start: at, OldEnd: at + 1, NewEnd: at + 1}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				prev, next := versions[i%2], versions[(i+1)%2].Content()
				var f *syntax.File
				switch how {
				case told:
					f = syntax.SpliceAt(prev, source.NewText(next), edit)
				case found:
					f = syntax.Splice(prev, next)
				default:
					f = syntax.Parse(name, next)
				}
				if f == nil || f.Root == nil {
					b.Fatal("not spliced")
				}
				i++
			}
		})
	}
}

func bytesIndex(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	panic("no " + s)
}
