package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// fastCorpus returns every YAML file of the repository (blueprints,
// goldens, configs) and generated blueprints.
func fastCorpus(t testing.TB) map[string][]byte {
	out := map[string][]byte{
		"gen100":  gen.Blueprint(100, "yaml"),
		"gen1000": gen.Blueprint(1000, "yaml"),
	}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.Contains(p, "testdata/parse/")) {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFastAgrees fails when fastParse accepts src and yaml.v3 refuses
// it, or the tree or diagnostics of ParseYAML differ from those built from
// yaml.v3's nodes. It reports whether fastParse accepted src.
func checkFastAgrees(t testing.TB, name string, src []byte) bool {
	t.Helper()
	if _, ok := fastParse(newYAMLBuilder(src, source.NewMapper(src)), src); !ok {
		return false
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: fastParse accepted what yaml.v3 refuses: %v\n%s", name, err, src)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		t.Fatalf("%s: fastParse accepted more than one document (%v)", name, err)
	}
	fast, slow := parseYAML(src, true), parseYAML(src, false)
	if len(slow.Diagnostics) > 0 {
		t.Fatalf("%s: fastParse accepted a document with diagnostics: %v", name, slow.Diagnostics)
	}
	if fd, sd := dump(fast), dump(slow); fd != sd {
		t.Fatalf("%s: trees differ\nfast:\n%s\nyaml.v3:\n%s", name, fd, sd)
	}
	if !reflect.DeepEqual(fast.Root, slow.Root) || !reflect.DeepEqual(fast.Diagnostics, slow.Diagnostics) {
		t.Fatalf("%s: trees differ beyond what dump shows", name)
	}
	return true
}

// TestFastParseAgrees holds fastParse to yaml.v3 on every YAML file of
// the repository and on random edits of them (lines deleted, duplicated,
// re-indented; characters that matter to YAML inserted).
func TestFastParseAgrees(t *testing.T) {
	corpus := fastCorpus(t)
	accepted := 0
	for name, src := range corpus {
		if checkFastAgrees(t, name, src) {
			accepted++
		}
	}
	t.Logf("fastParse accepted %d of %d files", accepted, len(corpus))
	if !checkFastAgrees(t, "gen1000", corpus["gen1000"]) {
		t.Fatal("fastParse refused the generated blueprint")
	}
	if accepted < len(corpus)/4 {
		t.Fatalf("fastParse accepted only %d of %d files", accepted, len(corpus))
	}
	rounds := 40
	if testing.Short() {
		rounds = 5
	}
	rng := rand.New(rand.NewPCG(36, 1))
	edited, editedOK := 0, 0
	for name, src := range corpus {
		if len(src) > 200_000 {
			continue
		}
		for range rounds {
			e := mutateYAML(rng, src)
			edited++
			if checkFastAgrees(t, name+" (edited)", e) {
				editedOK++
			}
		}
	}
	t.Logf("fastParse accepted %d of %d edited files", editedOK, edited)
	// Indented: every file with its lines moved right (the shape of the
	// one definition a splice parses alone), and some of them edited.
	indented, indentedOK := 0, 0
	for name, src := range corpus {
		if len(src) > 200_000 {
			continue
		}
		for k, v := range [][]byte{src, mutateYAML(rng, src), mutateYAML(rng, src)} {
			in := bytes.ReplaceAll(v, []byte("\n"), []byte("\n  "))
			indented++
			if checkFastAgrees(t, fmt.Sprintf("%s (indented %d)", name, k), append([]byte("  "), in...)) {
				indentedOK++
			}
		}
	}
	t.Logf("fastParse accepted %d of %d indented files", indentedOK, indented)
	if indentedOK == 0 {
		t.Fatal("fastParse accepted no indented file")
	}
}

// yamlBits are the edits mutateYAML inserts.
var yamlBits = []string{" ", ":", ": ", "-", "- ", "#", " #", "'", "\"", "|", "|-", "\n", "\n  ", "\\", "\\\"", "\\/", "\\'", "\\q", "\\0", "''", "x", "[", "{", "&a ", "*a", "!", "---\n", "? ", "1", "\n\n", "  \n"}

// mutateYAML returns src with one to three random edits.
func mutateYAML(rng *rand.Rand, src []byte) []byte {
	out := bytes.Clone(src)
	for range 1 + rng.IntN(3) {
		if len(out) == 0 {
			return append(out, yamlBits[rng.IntN(len(yamlBits))]...)
		}
		lines := bytes.SplitAfter(out, []byte("\n"))
		i := rng.IntN(len(lines))
		switch rng.IntN(5) {
		case 0: // delete a line
			lines = append(lines[:i], lines[i+1:]...)
		case 1: // duplicate a line
			lines = append(lines[:i+1], lines[i:]...)
		case 2: // indent or outdent a line
			if rng.IntN(2) == 0 {
				lines[i] = append([]byte("  "), lines[i]...)
			} else {
				lines[i] = bytes.TrimPrefix(lines[i], []byte(" "))
			}
		default: // insert a bit
			at := rng.IntN(len(out) + 1)
			bit := yamlBits[rng.IntN(len(yamlBits))]
			out = append(out[:at:at], append([]byte(bit), out[at:]...)...)
			continue
		}
		out = bytes.Join(lines, nil)
	}
	return out
}

// FuzzFastParse: whatever fastParse accepts, yaml.v3 reads, into the
// same tree.
func FuzzFastParse(f *testing.F) {
	f.Add([]byte("a: 1\nb:\n  - x\n  - 'y'\nc: |\n  text\n"))
	f.Add([]byte("k: \"a\\\"b\"\nl:\n- m: n\n  o: p\n"))
	f.Add(gen.Blueprint(3, "yaml"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFastAgrees(t, "fuzz", src)
	})
}

// TestFastText holds fastText's word-at-a-time check to the byte loop it
// replaces: every byte value at every position of a 19-byte text (two
// words and a tail) of printable bytes and line feeds.
func TestFastText(t *testing.T) {
	slow := func(src []byte) bool {
		for _, c := range src {
			if c >= 0x80 || c < ' ' && c != '\n' || c == 0x7F {
				return false
			}
		}
		return true
	}
	// Random words, bytes drawn mostly near the edges the masks test.
	rng := rand.New(rand.NewPCG(36, 8))
	edges := []byte{0, 0x09, 0x0A, 0x0B, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xFF}
	for range 200000 {
		var w [8]byte
		for i := range w {
			if rng.IntN(2) == 0 {
				w[i] = edges[rng.IntN(len(edges))]
			} else {
				w[i] = byte(rng.IntN(256))
			}
		}
		if got, want := fastText(w[:]), slow(w[:]); got != want {
			t.Fatalf("fastText(%q) = %v, want %v", w, got, want)
		}
	}
	base := []byte("key: value\n  - x: 1")
	for pos := range base {
		for c := 0; c < 256; c++ {
			src := append([]byte(nil), base...)
			src[pos] = byte(c)
			if got, want := fastText(src), slow(src); got != want {
				t.Fatalf("fastText(%q) = %v, want %v", src, got, want)
			}
		}
	}
}

// TestFastTextHasNoReaderProblem holds what parseYAMLSplit relies on to
// skip readerProblem for a text the fast parser reads: in a text
// fastText accepts, the reader refuses nothing. Every byte value at
// every position of a short text, and random texts of printable bytes,
// line feeds and bytes the reader may refuse.
func TestFastTextHasNoReaderProblem(t *testing.T) {
	check := func(src []byte) {
		t.Helper()
		if off, problem, ok := readerProblem(src); fastText(src) && ok {
			t.Fatalf("%q: fastText accepts it, readerProblem refuses it at %d: %s", src, off, problem)
		}
	}
	base := []byte("key: value\n  - x: 1 # c\n")
	accepted := 0
	for pos := range base {
		for c := range 256 {
			src := append([]byte(nil), base...)
			src[pos] = byte(c)
			check(src)
			if fastText(src) {
				accepted++
			}
		}
	}
	if accepted < len(base)*90 {
		t.Fatalf("fastText accepted only %d of the texts", accepted)
	}
	rng := rand.New(rand.NewPCG(36, 11))
	for range 20000 {
		src := make([]byte, 1+rng.IntN(40))
		for i := range src {
			src[i] = byte(0x20 + rng.IntN(0x60)) // printable and DEL
			if rng.IntN(8) == 0 {
				src[i] = '\n'
			}
		}
		check(src)
	}
}
