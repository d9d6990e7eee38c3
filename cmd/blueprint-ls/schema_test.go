package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

const committedSchema = "../../schemas/blueprint.schema.json"

// TestSchemaFresh checks that the committed schema is what `schema
// --format json-schema` prints (regenerate with -update).
func TestSchemaFresh(t *testing.T) {
	code, out, errs := runArgs("schema", "--format", "json-schema")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	testutil.Golden(t, committedSchema, out, *update)
	if code, _, errs := runArgs("schema", "--format", "yaml"); code != exitUsage || !strings.Contains(errs, `unknown format "yaml"`) {
		t.Errorf("--format yaml: exit %d, stderr %q", code, errs)
	}
}

// compiledSchema compiles the committed schema with a JSON Schema
// validator that knows nothing of blueprint-ls.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(committedSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schema.JSONSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schema.JSONSchemaID)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// instance is a parsed blueprint as the JSON value a YAML or JSON
// language server validates, with the lines of every value by JSON
// pointer (the line of its key and of the value itself).
type instance struct {
	value any
	lines map[string][]int
	m     *source.Mapper
}

func toInstance(t *testing.T, path string) *instance {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := schema.Parse(path, content)
	in := &instance{lines: map[string][]int{}, m: f.Mapper}
	raw, err := json.Marshal(in.convert(f.Root, "", nil))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if in.value, err = jsonschema.UnmarshalJSON(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	return in
}

func (in *instance) line(off int) int { return in.m.Line(off) + 1 }

func (in *instance) convert(n schema.Node, ptr string, key *schema.Scalar) any {
	if n == nil {
		return nil
	}
	lines := []int{in.line(n.Range().Start)}
	if key != nil {
		lines = append(lines, in.line(key.Rng.Start))
	}
	in.lines[ptr] = lines
	switch n := n.(type) {
	case *schema.Mapping:
		out := map[string]any{}
		for _, e := range n.Entries {
			if e.Key == nil {
				continue
			}
			// Of duplicate keys the first counts, as in the checker.
			if _, dup := out[e.Key.Value]; !dup {
				out[e.Key.Value] = in.convert(e.Value, ptr+"/"+e.Key.Value, e.Key)
			}
		}
		return out
	case *schema.Sequence:
		out := []any{}
		for i, it := range n.Items {
			out = append(out, in.convert(it, ptr+"/"+strconv.Itoa(i), nil))
		}
		return out
	case *schema.Scalar:
		switch n.Tag {
		case schema.NullTag:
			return nil
		case schema.BoolTag:
			return strings.EqualFold(n.Value, "true")
		case schema.IntTag:
			if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
				return i
			}
		case schema.FloatTag:
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f
			}
		}
		return n.Value
	}
	return nil
}

// failure is one innermost validation error: the value that fails, its
// lines (the key's and the value's) and why.
type failure struct {
	ptr   string
	lines []int
	why   string
}

// failures validates the instance and returns the innermost errors. Of
// the alternatives of a failed anyOf or oneOf it keeps the one that got
// deepest into the document, as validators' "best match" does: a filter
// mapping with a bad operator is reported at the operator, not as "not a
// list".
func (in *instance) failures(t *testing.T, sch *jsonschema.Schema) []failure {
	t.Helper()
	err := sch.Validate(in.value)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	var out []failure
	for _, e := range leaves(ve) {
		ptrs := []string{pointer(e.InstanceLocation)}
		if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			ptrs = nil
			for _, p := range ap.Properties {
				ptrs = append(ptrs, pointer(append(slices.Clone(e.InstanceLocation), p)))
			}
		}
		for _, p := range ptrs {
			lines, ok := in.lines[p]
			if !ok {
				t.Errorf("validator names %q, which the document does not have", p)
			}
			out = append(out, failure{p, lines, fmt.Sprintf("%v", e.ErrorKind)})
		}
	}
	return out
}

func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		var best []*jsonschema.ValidationError
		bestDepth := -1
		for _, c := range e.Causes {
			ls := leaves(c)
			d := 0
			for _, l := range ls {
				d = max(d, len(l.InstanceLocation))
			}
			if d > bestDepth {
				best, bestDepth = ls, d
			}
		}
		return best
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

func pointer(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return "/" + strings.Join(loc, "/")
}

func exampleFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !dialect.IsBlueprintName(d.Name()) {
			return err
		}
		// The JSON Schema is the Bluelink blueprint's: a Landscaper
		// blueprint of the editor tests is another dialect.
		data, rerr := os.ReadFile(p)
		if k, _ := dialect.Detect(p, "", data); rerr == nil && k == dialect.Bluelink {
			out = append(out, p)
		}
		return rerr
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("no blueprints in %s (%v)", dir, err)
	}
	return out
}

// TestSchemaAcceptsValidExamples validates every valid example, and the
// editor tests' blueprint, against the committed schema.
func TestSchemaAcceptsValidExamples(t *testing.T) {
	sch := compiledSchema(t)
	files := append(exampleFiles(t, "../../testdata/examples/valid"), exampleFiles(t, "../../editors/testdata")...)
	for _, path := range files {
		if fails := toInstance(t, path).failures(t, sch); len(fails) > 0 {
			t.Errorf("%s fails the schema: %v", path, fails)
		}
	}
}

// structuralCodes are the diagnostics a JSON Schema can express: the
// schema must fail on the line of every one of them.
var structuralCodes = []string{
	"spec-missing-version", "spec-unsupported-version", "spec-no-resources", "spec-missing-field",
	"spec-field-type", "spec-unknown-field", "spec-field-needs-version", "spec-invalid-name",
	"var-invalid-type", "var-allowed-values-boolean", "var-default-type", "value-invalid-type",
	"export-invalid-type", "datasource-type-format", "datasource-export-type",
	"datasource-filter-operator", "resource-type-format", "resource-removal-policy", "condition-exactly-one",
}

// TestSchemaRejectsInvalidExamples checks the schema against the checker
// on the invalid examples, line by line: the schema fails on every line
// with a structural diagnostic, and on no line without any diagnostic.
func TestSchemaRejectsInvalidExamples(t *testing.T) {
	sch := compiledSchema(t)
	check := newChecker(nil, nil, safefs.Limits{}, nil, nil)
	structural := 0
	for _, path := range exampleFiles(t, "../../testdata/examples/invalid") {
		diags, m, err := check(path)
		if err != nil {
			t.Fatal(err)
		}
		diagnosed := map[int]bool{}
		fails := toInstance(t, path).failures(t, sch)
		failed := map[int]bool{}
		for _, f := range fails {
			for _, l := range f.lines {
				failed[l] = true
			}
		}
		for _, d := range diags {
			line := m.Line(d.Range.Start) + 1
			diagnosed[line] = true
			if slices.Contains(structuralCodes, d.Code) {
				structural++
				if !failed[line] {
					t.Errorf("%s:%d: the schema accepts what the checker reports as %s: %s", path, line, d.Code, d.Message)
				}
			}
		}
		for _, f := range fails {
			if !slices.ContainsFunc(f.lines, func(l int) bool { return diagnosed[l] }) {
				t.Errorf("%s:%v: the schema fails where the checker finds nothing: %s: %s", path, f.lines, f.ptr, f.why)
			}
		}
	}
	if structural < 10 {
		t.Errorf("only %d structural diagnostics in the invalid examples", structural)
	}
}

// TestSchemaRules checks the schema's finer rules on small documents.
func TestSchemaRules(t *testing.T) {
	sch := compiledSchema(t)
	const queue = "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n"
	cases := []struct {
		name, doc string
		valid     bool
	}{
		{"minimal", "version: 2023-04-20\n" + queue, true},
		{"unsupported version", "version: 2024-01-01\n" + queue, false},
		{"no version", queue, false},
		{"no resources", "version: 2023-04-20\nresources: {}\n", false},
		{"include only", "version: 2023-04-20\ninclude:\n  c:\n    path: c.blueprint.yaml\n", true},
		{"removalPolicy in 2025", "version: 2025-11-02\n" + queue + "    removalPolicy: retain\n", true},
		{"removalPolicy in 2023", "version: 2023-04-20\n" + queue + "    removalPolicy: retain\n", false},
		{"bad removalPolicy", "version: 2025-11-02\n" + queue + "    removalPolicy: keep\n", false},
		{"exclude in 2023", "version: 2023-04-20\n" + queue + "    linkSelector:\n      exclude: [x]\n", false},
		{"byLabel in 2023", "version: 2023-04-20\n" + queue + "    linkSelector:\n      byLabel: {app: x}\n", true},
		{"condition substitution", "version: 2023-04-20\n" + queue + "    condition: ${variables.on}\n", true},
		{"nested conditions", "version: 2023-04-20\n" + queue + "    condition:\n      and:\n        - ${a}\n        - not: ${b}\n", true},
		{"empty condition", "version: 2023-04-20\n" + queue + "    condition: {}\n", false},
		{"custom variable type", "version: 2023-04-20\nvariables:\n  r:\n    type: aws/region\n" + queue, true},
		{"bad variable type", "version: 2023-04-20\nvariables:\n  r:\n    type: int\n" + queue, false},
		{"secret substitution", "version: 2023-04-20\nvalues:\n  v:\n    type: string\n    value: x\n    secret: ${variables.s}\n" + queue, true},
		{"secret string", "version: 2023-04-20\nvalues:\n  v:\n    type: string\n    value: x\n    secret: yes please\n" + queue, false},
		{"float default integer", "version: 2023-04-20\nvariables:\n  f:\n    type: float\n    default: 1\n" + queue, true},
		{"filter list", "version: 2025-11-02\ndatasources:\n  n:\n    type: aws/vpc\n    filter:\n      - {field: a, operator: =, search: b}\n    exports: '*'\n" + queue, true},
		{"filter list in 2023", "version: 2023-04-20\ndatasources:\n  n:\n    type: aws/vpc\n    filter:\n      - {field: a, operator: =, search: b}\n    exports: {id: {type: string}}\n" + queue, false},
		{"exports star in 2023", "version: 2023-04-20\ndatasources:\n  n:\n    type: aws/vpc\n    filter: {field: a, operator: =, search: b}\n    exports: '*'\n" + queue, false},
		{"data source in 2023", "version: 2023-04-20\ndatasources:\n  n:\n    type: aws/vpc\n    filter: {field: a, operator: =, search: b}\n    exports: {id: {type: string}}\n" + queue, true},
		{"empty filter list", "version: 2025-11-02\ndatasources:\n  n:\n    type: aws/vpc\n    filter: []\n    exports: '*'\n" + queue, false},
		{"bad name", "version: 2023-04-20\nvalues:\n  my value:\n    type: string\n    value: x\n" + queue, false},
		{"transform list", "version: 2023-04-20\ntransform: [celerity-2026-02-28]\n" + queue, true},
		{"JSON", `{"version": "2025-11-02", "resources": {"q": {"type": "aws/sqs/queue", "spec": {}, "dependsOn": ["p"]}}}`, true},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ext := ".yaml"
			if strings.HasPrefix(c.doc, "{") {
				ext = ".json"
			}
			path := filepath.Join(dir, strconv.Itoa(i)+".blueprint"+ext)
			if err := os.WriteFile(path, []byte(c.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			failed := toInstance(t, path).failures(t, sch)
			if got := len(failed) == 0; got != c.valid {
				t.Errorf("valid %v, want %v (failures: %v)", got, c.valid, failed)
			}
		})
	}
}
