package resschema

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// corpus returns the resource schemas the module carries (testdata and
// the hand-written built-in Celerity schemas) and the samples in
// ../shared/cfn-schemas when that directory is present.
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	add := func(root string) {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && (d.Name() == "node_modules" || d.Name() == "meta" || strings.HasPrefix(d.Name(), ".")) {
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".json") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil && bytes.Contains(data, []byte(`"typeName"`)) && bytes.Contains(data, []byte(`"properties"`)) {
				out[p] = data
			}
			return nil
		})
	}
	add("../..")
	if _, err := os.Stat("../../../shared/cfn-schemas"); err == nil {
		add("../../../shared/cfn-schemas")
	} else {
		t.Log("../shared/cfn-schemas is absent: only the module's own schemas are checked")
	}
	return out
}

func render(f *syntax.File, ds []source.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		p := f.Mapper.OffsetPosition(d.Range.Start, source.UTF8)
		b.WriteString(strings.Join([]string{itoa(p.Line + 1), itoa(p.Character + 1), d.Code, d.Message}, ":") + "\n")
	}
	return b.String()
}

// knownDefects are the problems of the published AWS data itself, which
// the built-in relaxations do not cover: they are AWS's to fix.
var knownDefects = map[string]string{
	"aws-ec2-vpc.json": "54:4:provider-schema-array-keyword:insertionOrder applies to arrays only; this property's type is \"string\"\n" +
		"59:4:provider-schema-array-keyword:insertionOrder applies to arrays only; this property's type is \"string\"\n",
}

// TestCorpusClean: every resource schema the module carries, and the
// cfn-lint samples of ../shared/cfn-schemas, validate clean (the
// samples, like the built-in catalog, with the built-in relaxations);
// a broken copy of each gets the expected error at its position.
func TestCorpusClean(t *testing.T) {
	if _, err := os.Stat("../../../shared/cfn-schemas"); err != nil {
		// The walk of the module itself finds no schema (it skips its own
		// root, "../..", whose name starts with a dot); ../shared is what
		// this test checks, and a clone without it skips cleanly.
		t.Skip("../shared/cfn-schemas is absent")
	}
	files := corpus(t)
	if len(files) < 10 {
		t.Fatalf("found %d schemas; the walk is broken", len(files))
	}
	for p, data := range files {
		t.Run(p, func(t *testing.T) {
			f := syntax.ParseJSON(data, false)
			if f.HasSyntaxErrors() {
				t.Fatalf("not JSON: %v", f.SyntaxErrors())
			}
			got := render(f, Check(f, Options{Builtin: true}))
			if got != knownDefects[filepath.Base(p)] {
				t.Errorf("not clean:\n%s", got)
			}
			open := bytes.IndexByte(data, '{') + 1
			broken := append(append(append([]byte(nil), data[:open]...), `"replacementStrategy": "sometimes", `...), data[open:]...)
			bf := syntax.ParseJSON(broken, false)
			ds := Check(bf, Options{Builtin: true})
			want := source.R(open+len(`"replacementStrategy": `), open+len(`"replacementStrategy": "sometimes"`))
			found := false
			for _, d := range ds {
				found = found || d.Code == CodeReplacement.ID && d.Range == want
			}
			if !found {
				t.Errorf("broken copy: no %s at %v:\n%s", CodeReplacement.ID, want, render(bf, ds))
			}
		})
	}
}
