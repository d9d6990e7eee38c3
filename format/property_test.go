package format

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// corpus returns every document the properties are checked on: the
// example blueprints, this package's cases and the parser's own cases.
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, root := range []string{"../testdata/examples", "testdata/cases", "../syntax/testdata/parse"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(p) {
			case ".yaml", ".yml", ".json", ".jsonc":
				b, err := os.ReadFile(p)
				out[p] = b
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 20 {
		t.Fatalf("corpus has only %d files", len(out))
	}
	return out
}

var optionSets = map[string]Options{
	"default": DefaultOptions(),
	"width4":  {IndentWidth: 4, InsertFinalNewline: true, TrimTrailingWhitespace: true},
	"tabs":    {IndentWidth: 4, UseTabs: true, InsertFinalNewline: true, TrimTrailingWhitespace: true},
	"keep":    {IndentWidth: 3},
}

// fallbackAllowed lists corpus files the formatter may only partly format;
// each names why.
var fallbackAllowed = map[string]string{}

// checkProperties asserts that formatting content keeps the document and
// is idempotent; it returns the formatted text, or nil when the document
// has syntax errors.
func checkProperties(t *testing.T, name string, content []byte, opts Options) ([]byte, level) {
	t.Helper()
	edits, lv, err := format(name, content, nil, opts)
	if err != nil {
		return nil, lv
	}
	for i := 1; i < len(edits); i++ {
		if edits[i].Range.Start < edits[i-1].Range.End {
			t.Fatalf("edits overlap: %v then %v", edits[i-1], edits[i])
		}
	}
	out := Apply(content, edits)
	before, after := schema.Parse(name, content), schema.Parse(name, out)
	if len(syntaxErrors(after.Diagnostics)) > 0 {
		t.Fatalf("formatted text does not parse: %v\n%s", after.Diagnostics, out)
	}
	if !Equal(before.Root, after.Root) {
		t.Fatalf("formatting changed the document:\n%s", out)
	}
	if before.Format == schema.YAML {
		checkYAMLDecode(t, content, out)
	}
	again, _, err := format(name, out, nil, opts)
	if err != nil {
		t.Fatalf("formatted text refused: %v", err)
	}
	if len(again) > 0 {
		t.Fatalf("not idempotent: second pass gives %v\nfirst output:\n%s\nsecond:\n%s", again, out, Apply(out, again))
	}
	return out, lv
}

// checkYAMLDecode compares the documents as yaml.v3 decodes them, with
// spacing inside ${..} normalised: a check independent of schema's tree.
func checkYAMLDecode(t *testing.T, a, b []byte) {
	t.Helper()
	var va, vb any
	errA, errB := yaml.Unmarshal(a, &va), yaml.Unmarshal(b, &vb)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("yaml.v3 decodes one side only: %v / %v", errA, errB)
	}
	if errA != nil {
		return
	}
	if na, nb := normAny(va), normAny(vb); !reflect.DeepEqual(na, nb) {
		t.Fatalf("yaml.v3 sees a different document:\n%#v\n%#v", na, nb)
	}
}

func normAny(v any) any {
	switch v := v.(type) {
	case string:
		return normalizeValue(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normAny(x)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = normAny(x)
		}
		return out
	case map[any]any:
		out := map[any]any{}
		for k, x := range v {
			out[k] = normAny(x)
		}
		return out
	case float64:
		if math.IsNaN(v) {
			return "NaN" // NaN != NaN, and the point is the same decoding
		}
	}
	return v
}

func TestProperties(t *testing.T) {
	for name, content := range corpus(t) {
		for oname, opts := range optionSets {
			t.Run(name+"/"+oname, func(t *testing.T) {
				_, lv := checkProperties(t, name, content, opts)
				if lv != levelFull && lv != levelNone {
					if _, ok := fallbackAllowed[name]; !ok {
						t.Errorf("formatting fell back to level %d", lv)
					}
				}
				// The same with CRLF line breaks.
				crlf := bytes.ReplaceAll(bytes.ReplaceAll(content, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
				checkProperties(t, name, crlf, opts)
			})
		}
	}
}

// TestGolden compares the formatted cases with their goldens.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*")
	for _, p := range files {
		if strings.HasSuffix(p, ".golden") {
			continue
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			content, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			edits, err := Format(p, content, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, p+".golden", string(Apply(content, edits)), *update)
		})
	}
}

// TestGenerated checks the properties on large generated blueprints,
// formatted at a width other than the generator's.
func TestGenerated(t *testing.T) {
	opts := DefaultOptions()
	opts.IndentWidth = 4
	for _, f := range []string{"yaml", "json"} {
		t.Run(f, func(t *testing.T) {
			_, lv := checkProperties(t, "gen."+f, gen.Blueprint(300, f), opts)
			if lv != levelFull {
				t.Errorf("formatting fell back to level %d", lv)
			}
		})
	}
}
