package bplang_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/parsetest"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// reparse is Splice, or when it gives nil the whole parse; spliced says
// which.
func reparse(prev *syntax.File, content []byte) (f *syntax.File, spliced bool) {
	if f = bplang.Splice(prev, content); f != nil {
		return f, true
	}
	return bplang.Parse(prev.URI, content), false
}

// spliceDocs are the documents the random edits start from: a generated
// blueprint and the conformance inputs of testdata/bp.
func spliceDocs(t testing.TB) map[string][]byte {
	docs := map[string][]byte{"gen.bp": gen.Blueprint(12, "bp")}
	paths, _ := filepath.Glob("../testdata/bp/*.bp")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = b
	}
	return docs
}

// bpEdits are what the random edits type: text inside a line, line
// breaks, whole statements, the characters that open and close blocks,
// strings, interpolations and comments, top-level keywords, and bytes
// the lexer treats specially.
var bpEdits = []string{"x", "9", " ", "\n", "\n    ", "{", "}", "[", "]", "(", ")", "\"", `"""`, "#", "=", ",", ":",
	".", "/", "&&", "-", "\nresource z: aws/s3/bucket {\n}\n", "\nvalue v: string\n", "value", "resource ",
	"\nversion \"2025-11-02\"\n", "\n    extra = 1", "\n    spec {\n    }", "${values.x}", "\"${", "é", "\r", "\t",
	"\n+ 1", "\n== 2", "\ninclude c \"c.bp\"\n", "export e: string {\n    field = values.x\n}\n"}

// sameAsParse reports how got differs from the whole parse of its text.
func sameAsParse(name string, got *syntax.File) string {
	return parsetest.Diff(got, bplang.Parse(name, got.Content()))
}

// TestSpliceEqualsParse replays random edit sequences, each version
// reparsed from the one before (by Splice, and by SpliceAt told the
// edit), and checks after every edit that the tree is the one a whole
// parse gives (parsetest.ReplaySplices).
func TestSpliceEqualsParse(t *testing.T) {
	steps := 200
	if testing.Short() {
		steps = 60
	}
	parsetest.ReplaySplices(t, spliceDocs(t), bpEdits, steps, 5, bplang.Parse, bplang.Splice, bplang.SpliceAt)
}

// TestSpliceCases pins which edits are spliced and which are parsed whole.
func TestSpliceCases(t *testing.T) {
	base := "version \"2025-11-02\"\n\nvariable env: string {\n    default = \"dev\"\n}\n\n" +
		"resource a: aws/s3/bucket {\n    spec {\n        n = 1\n    }\n}\n\n# between\nvalue v: string {\n    value = \"x\"\n}\n\n" +
		"resource b: aws/s3/bucket {\n    spec {\n        m = variables.env\n    }\n}\n"
	for _, c := range []struct {
		name, from, to string
		spliced        bool
	}{
		{"value inside a resource", "n = 1", "n = 22", true},
		{"new field in a resource", "n = 1\n", "n = 1\n        k = [1, 2]\n", true},
		{"name of a resource", "resource b:", "resource bb:", true},
		{"type of a resource", "b: aws/s3/bucket", "b: aws/sqs/queue", true},
		{"comment after a statement", "# between", "# between us", true},
		{"a variable, first statement of its section", "\"dev\"", "\"prod\"", true},
		{"last statement", "m = variables.env", "m = variables.env2", true},
		{"an operator continuing a line", "m = variables.env", "m = variables.env\n        == \"x\"", true},
		{"the version", "2025-11-02", "2023-04-20", false},
		{"a new statement after one", "# between", "value w: string {\n}\n# between", false},
		{"keyword changed", "value v: string", "variable v: string", false},
		{"unclosed block", "n = 1\n    }", "n = 1\n", false},
		{"unclosed string", "n = 1", "n = \"1", false},
		{"across two statements", "}\n\n# between", "", false},
		{"statement indented off the line start", "resource b:", " resource b:", false},
		{"text glued before the next keyword", "\n\nresource b", "\n\nxresource b", false},
		{"same text", "n = 1", "n = 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			prev := bplang.Parse("f.bp", []byte(base))
			if len(prev.Diagnostics) > 0 {
				t.Fatal(prev.Diagnostics)
			}
			next := bytes.Replace([]byte(base), []byte(c.from), []byte(c.to), 1)
			got, spliced := reparse(prev, next)
			if spliced != c.spliced {
				t.Errorf("spliced %v, want %v", spliced, c.spliced)
			}
			if diff := sameAsParse("f.bp", got); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestSpliceLeavesPrevAlone checks that a splice shares the nodes before
// the edit and changes none of prev's.
func TestSpliceLeavesPrevAlone(t *testing.T) {
	data := gen.Blueprint(6, "bp")
	prev := bplang.Parse("f.bp", data)
	before := bplang.Parse("f.bp", data)
	at := bytes.LastIndex(data, []byte("timeout = 30")) + len("timeout = 3")
	next, spliced := reparse(prev, append(append(append([]byte{}, data[:at]...), '5'), data[at:]...))
	if !spliced {
		t.Fatal("an edit inside the last resource was not spliced")
	}
	if !reflect.DeepEqual(prev.Root, before.Root) {
		t.Fatal("Splice changed the previous tree")
	}
	pr, nr := prev.Root.(*syntax.Mapping), next.Root.(*syntax.Mapping)
	for i, e := range pr.Entries {
		if e.Key.Value == "resources" {
			break // the statements from here on are at or after the edit
		}
		if nr.Entries[i] != e {
			t.Errorf("root entry %s, before the edit, was copied rather than shared", e.Key.Value)
		}
	}
	pres, nres := pr.Get("resources").(*syntax.Mapping), nr.Get("resources").(*syntax.Mapping)
	if nres.Entries[0] != pres.Entries[0] {
		t.Error("the first resource, before the edit, was copied rather than shared")
	}
}

// FuzzSplice edits a generated blueprint at a fuzzed offset and checks
// that the spliced tree is the whole parse's.
func FuzzSplice(f *testing.F) {
	base := gen.Blueprint(3, "bp")
	f.Add(uint16(1500), uint8(0), "x")
	f.Add(uint16(1500), uint8(2), "\n        extra = [1, 2]\n")
	f.Add(uint16(900), uint8(1), "\"")
	f.Add(uint16(2000), uint8(0), "\nresource z: aws/s3/bucket {\n}\n")
	f.Add(uint16(1200), uint8(0), "\n    == 1")
	prev := bplang.Parse("f.bp", base)
	f.Fuzz(func(t *testing.T, at uint16, del uint8, insert string) {
		pos := int(at) % (len(base) + 1)
		end := min(pos+int(del%16), len(base))
		next := append(append(append([]byte{}, base[:pos]...), insert...), base[end:]...)
		got, spliced := reparse(prev, next)
		if diff := sameAsParse("f.bp", got); diff != "" {
			t.Fatalf("spliced %v: %s", spliced, diff)
		}
		if got := bplang.SpliceAt(prev, source.NewText(next), syntax.Change{Start: pos, OldEnd: end, NewEnd: pos + len(insert)}); got != nil {
			if diff := sameAsParse("f.bp", got); diff != "" {
				t.Fatalf("SpliceAt: %s", diff)
			}
		}
	})
}

// benchSplice is an edit inside one resource in the middle of a
// generated blueprint of n resources, spliced into the version before
// (compare BenchmarkParse*, the whole parse).
func benchSplice(b *testing.B, n int) {
	data := gen.Blueprint(n, "bp")
	at := len(data)/2 + bytes.Index(data[len(data)/2:], []byte("timeout = 30")) + len("timeout = 3")
	other := append([]byte{}, data...)
	other[at] = '5'
	versions := [2]*syntax.File{bplang.Parse("b.bp", data), bplang.Parse("b.bp", other)}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f := bplang.Splice(versions[i%2], versions[(i+1)%2].Content())
		if f == nil {
			b.Fatal("not spliced")
		}
		i++
	}
}

func BenchmarkSplice1000(b *testing.B) { benchSplice(b, 1000) }
func BenchmarkSplice5000(b *testing.B) { benchSplice(b, 5000) }
