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
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
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

// checkFastAgrees fails when fastDecode accepts src and anything it
// gives differs from yaml.v3's decode, or the trees built from the two
// differ. It reports whether fastDecode accepted src.
func checkFastAgrees(t testing.TB, name string, src []byte) bool {
	t.Helper()
	root, ok := fastDecode(src)
	if !ok {
		return false
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: fastDecode accepted what yaml.v3 refuses: %v\n%s", name, err, src)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		t.Fatalf("%s: fastDecode accepted more than one document (%v)", name, err)
	}
	if len(doc.Content) != 1 {
		t.Fatalf("%s: yaml.v3 found %d nodes", name, len(doc.Content))
	}
	if diff := nodeDiff(root, doc.Content[0], "$"); diff != "" {
		t.Fatalf("%s: fastDecode differs from yaml.v3: %s\n%s", name, diff, src)
	}
	if fast, slow := dump(parseYAML(src, true)), dump(parseYAML(src, false)); fast != slow {
		t.Fatalf("%s: trees differ\nfast:\n%s\nyaml.v3:\n%s", name, fast, slow)
	}
	return true
}

// nodeDiff compares what the tree builder reads of two yaml.v3 nodes.
func nodeDiff(got, want *yaml.Node, path string) string {
	if got.Kind != want.Kind || got.Style != want.Style || got.Value != want.Value ||
		got.Line != want.Line || got.Column != want.Column || got.Anchor != want.Anchor ||
		len(got.Content) != len(want.Content) {
		return fmt.Sprintf("%s: got kind %v style %v %q at %d:%d (%d children), want kind %v style %v %q at %d:%d (%d children)",
			path, got.Kind, got.Style, got.Value, got.Line, got.Column, len(got.Content),
			want.Kind, want.Style, want.Value, want.Line, want.Column, len(want.Content))
	}
	for i := range got.Content {
		if d := nodeDiff(got.Content[i], want.Content[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// TestFastDecodeAgrees holds fastDecode to yaml.v3 on every YAML file of
// the repository and on random edits of them (lines deleted, duplicated,
// re-indented; characters that matter to YAML inserted).
func TestFastDecodeAgrees(t *testing.T) {
	corpus := fastCorpus(t)
	accepted := 0
	for name, src := range corpus {
		if checkFastAgrees(t, name, src) {
			accepted++
		}
	}
	t.Logf("fastDecode accepted %d of %d files", accepted, len(corpus))
	if !checkFastAgrees(t, "gen1000", corpus["gen1000"]) {
		t.Fatal("fastDecode refused the generated blueprint")
	}
	if accepted < len(corpus)/4 {
		t.Fatalf("fastDecode accepted only %d of %d files", accepted, len(corpus))
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
	t.Logf("fastDecode accepted %d of %d edited files", editedOK, edited)
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

// FuzzFastDecode: whatever fastDecode accepts, yaml.v3 reads the same.
func FuzzFastDecode(f *testing.F) {
	f.Add([]byte("a: 1\nb:\n  - x\n  - 'y'\nc: |\n  text\n"))
	f.Add([]byte("k: \"a\\\"b\"\nl:\n- m: n\n  o: p\n"))
	f.Add(gen.Blueprint(3, "yaml"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFastAgrees(t, "fuzz", src)
	})
}
