package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// structuralPrefixes are the diagnostic areas parsing and the structural
// rules own; later stages' codes are ignored by the example tests.
var structuralPrefixes = []string{"yaml-", "json-", "spec-", "var-", "value-", "datasource-", "condition-", "resource-", "export-"}

func isStructural(code string) bool {
	for _, p := range structuralPrefixes {
		if strings.HasPrefix(code, p) {
			return true
		}
	}
	return false
}

// check parses and loads src, returning the view and every diagnostic.
func check(t *testing.T, name, src string) (*Blueprint, *File, []source.Diagnostic) {
	t.Helper()
	f := Parse(name, []byte(src))
	bp, ds := Load(f)
	all := append(append([]source.Diagnostic(nil), f.Diagnostics...), ds...)
	source.SortDiagnostics(all)
	return bp, f, all
}

// rng renders a range as 1-based line:col-line:col (columns in code points).
func rng(m *source.Mapper, r source.Range) string {
	l1, c1 := m.LineCol(r.Start, source.UTF32)
	l2, c2 := m.LineCol(r.End, source.UTF32)
	return fmt.Sprintf("%d:%d-%d:%d", l1, c1, l2, c2)
}

func render(f *File, ds []source.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, rng(f.Mapper, d.Range)+" "+d.Code)
	}
	return out
}

func TestExamplesValid(t *testing.T) {
	root := filepath.Join("..", "testdata", "examples", "valid")
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(d.Name(), ".blueprint.") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("found only %d example files", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			bp, f, ds := check(t, p, string(src))
			for _, d := range ds {
				if isStructural(d.Code) && d.Severity <= source.Warning {
					line, col := f.Mapper.LineCol(d.Range.Start, source.UTF32)
					t.Errorf("%s:%d:%d: %s[%s]: %s", p, line, col, d.Severity, d.Code, d.Message)
				}
			}
			if bp.SpecVersion == "" || bp.Resources.Len() == 0 {
				t.Errorf("view incomplete: version %q, %d resources", bp.SpecVersion, bp.Resources.Len())
			}
		})
	}
}

var expectRE = regexp.MustCompile(`#\s*expect:\s*(.*)$`)

func TestStructureMarkers(t *testing.T) {
	p := filepath.Join("..", "testdata", "examples", "invalid", "structure.blueprint.yaml")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Markers that need a later stage, by a phrase of their text.
	deferred := map[string]string{
		"does not match the string it exports": "needs reference resolution and inferred types (analysis)",
	}
	_, f, ds := check(t, p, string(src))
	byLine := map[int][]source.Diagnostic{}
	for _, d := range ds {
		line, _ := f.Mapper.LineCol(d.Range.Start, source.UTF32)
		byLine[line] = append(byLine[line], d)
	}
	marked := map[int]bool{}
	for i, text := range strings.Split(string(src), "\n") {
		line := i + 1
		m := expectRE.FindStringSubmatch(text)
		if m == nil || strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		marked[line] = true
		skip := false
		for phrase := range deferred {
			if strings.Contains(m[1], phrase) {
				skip = true
			}
		}
		if got := byLine[line]; len(got) == 0 && !skip {
			t.Errorf("line %d: no diagnostic; want %s", line, m[1])
		} else if len(got) > 0 && skip {
			t.Errorf("line %d: deferred marker now has a diagnostic (%s); remove it from deferred", line, got[0].Code)
		}
	}
	for line, got := range byLine {
		if !marked[line] {
			for _, d := range got {
				t.Errorf("line %d: unexpected %s: %s", line, d.Code, d.Message)
			}
		}
	}
}

func TestRules(t *testing.T) {
	const head = "version: 2025-11-02\n"
	const res = "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n"
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"missing version", res, []string{"1:1-1:1 spec-missing-version"}},
		{"unsupported version", "version: 2024-01-01\n" + res, []string{"1:10-1:20 spec-unsupported-version"}},
		{"version not scalar", "version: [1]\n" + res, []string{"1:10-1:13 spec-field-type", "1:10-1:13 spec-unsupported-version"}},
		{"no resources", head + "resources: {}\n", []string{"2:1-2:10 spec-no-resources"}},
		{"no resources at all", head + "variables: {}\n", []string{"1:1-1:1 spec-no-resources"}},
		{"include is enough", head + "include:\n  c:\n    path: c.yaml\n", nil},
		{"not a mapping", "- a\n", []string{"1:1-1:4 spec-not-mapping"}},
		{"unknown top-level", head + res + "exprots: {}\n", []string{"6:1-6:8 spec-unknown-field"}},
		{"duplicate key", head + res + "  q:\n    type: aws/sqs/queue\n    spec: {}\n", []string{"6:3-6:4 spec-duplicate-key"}},
		{"duplicate nested key", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      a: 1\n      a: 2\n", []string{"7:7-7:8 spec-duplicate-key"}},
		{"key with substitution", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      ${variables.k}: 1\n", []string{"6:7-6:21 spec-substitution-not-allowed"}},
		{"transform substitution", head + "transform: ${variables.t}\n" + res, []string{"2:12-2:26 spec-substitution-not-allowed"}},
		{"transform list", head + "transform: [a, b]\n" + res, nil},
		{"section not mapping", head + "variables: [a]\n" + res, []string{"2:12-2:15 spec-field-type"}},

		{"variable missing type", head + "variables:\n  v:\n    description: x\n" + res, []string{"3:3-3:4 spec-missing-field"}},
		{"variable not mapping", head + "variables:\n  v: string\n" + res, []string{"3:6-3:12 spec-field-type"}},
		{"variable invalid type", head + "variables:\n  v:\n    type: strng\n" + res, []string{"4:11-4:16 var-invalid-type"}},
		{"variable alias type", head + "variables:\n  v:\n    type: int\n" + res, []string{"4:11-4:14 var-invalid-type"}},
		{"variable custom type", head + "variables:\n  v:\n    type: aws/ec2/instanceSize\n    default: t3.micro\n" + res, nil},
		{"variable bad custom type", head + "variables:\n  v:\n    type: aws/1x\n" + res, []string{"4:11-4:17 var-invalid-type"}},
		{"variable substitution", head + "variables:\n  v:\n    type: string\n    description: ${values.x}\n" + res, []string{"5:18-5:29 spec-substitution-not-allowed"}},
		{"integer default word", head + "variables:\n  v:\n    type: integer\n    default: eighty\n" + res, []string{"5:14-5:20 var-default-type"}},
		{"integer default quoted", head + "variables:\n  v:\n    type: integer\n    default: \"5\"\n" + res, []string{"5:14-5:17 var-default-type"}},
		{"float accepts integer", head + "variables:\n  v:\n    type: float\n    default: 5\n" + res, nil},
		{"string default number", head + "variables:\n  v:\n    type: string\n    default: 5432\n" + res, []string{"5:14-5:18 var-scalar-as-string"}},
		{"boolean default", head + "variables:\n  v:\n    type: boolean\n    default: yes\n" + res, []string{"5:14-5:17 var-default-type"}},
		{"default mapping", head + "variables:\n  v:\n    type: string\n    default: {a: 1}\n" + res, []string{"5:14-5:20 var-default-type"}},
		{"boolean allowed values", head + "variables:\n  v:\n    type: boolean\n    allowedValues: [true]\n" + res, []string{"5:5-5:26 var-allowed-values-boolean"}},
		{"allowed value type", head + "variables:\n  v:\n    type: integer\n    allowedValues: [1, two]\n" + res, []string{"5:24-5:27 var-allowed-value-type"}},
		{"default not allowed", head + "variables:\n  v:\n    type: string\n    allowedValues: [a, b]\n    default: c\n" + res, []string{"6:14-6:15 var-default-not-allowed"}},
		{"numeric default allowed", head + "variables:\n  v:\n    type: float\n    allowedValues: [1.0, 2]\n    default: 1\n" + res, nil},
		{"secret not boolean", head + "variables:\n  v:\n    type: string\n    secret: \"true\"\n" + res, []string{"5:13-5:19 spec-field-type"}},

		{"value invalid type", head + "values:\n  v:\n    type: list\n    value: x\n" + res, []string{"4:11-4:15 value-invalid-type"}},
		{"value missing value", head + "values:\n  v:\n    type: string\n" + res, []string{"3:3-3:4 spec-missing-field"}},
		{"value integer word", head + "values:\n  v:\n    type: integer\n    value: three\n" + res, []string{"5:12-5:17 value-type-mismatch"}},
		{"value integer string", head + "values:\n  v:\n    type: integer\n    value: \"15\"\n" + res, nil},
		{"value boolean literal", head + "values:\n  v:\n    type: boolean\n    value: true\n" + res, nil},
		{"value array literal", head + "values:\n  v:\n    type: array\n    value: [1, 2]\n" + res, []string{"5:12-5:18 value-type-mismatch"}},
		{"value array text", head + "values:\n  v:\n    type: array\n    value: a,b\n" + res, []string{"5:12-5:15 value-type-mismatch"}},
		{"value substitution opaque", head + "values:\n  v:\n    type: integer\n    value: ${len(x)} items\n" + res, nil},
		{"value string number", head + "values:\n  v:\n    type: string\n    value: 42\n" + res, []string{"5:12-5:14 value-type-mismatch"}},

		{"datasource missing filter", head + "datasources:\n  d:\n    type: aws/vpc\n    exports: {}\n" + res, []string{"3:3-3:4 spec-missing-field"}},
		{"datasource type format", head + "datasources:\n  d:\n    type: vpc\n    filter: {field: a, operator: =, search: b}\n    exports: {}\n" + res, []string{"4:11-4:14 datasource-type-format"}},
		{"filter operator", head + "datasources:\n  d:\n    type: aws/vpc\n    filter: {field: a, operator: in list, search: [b]}\n    exports: {}\n" + res, []string{"5:34-5:41 datasource-filter-operator"}},
		{"filter in needs list", head + "datasources:\n  d:\n    type: aws/vpc\n    filter:\n      field: a\n      operator: not in\n      search: b\n    exports: {}\n" + res, []string{"8:15-8:16 datasource-filter-search"}},
		{"filter in substitution", head + "datasources:\n  d:\n    type: aws/vpc\n    filter:\n      field: a\n      operator: in\n      search: ${values.list}\n    exports: {}\n" + res, nil},
		{"filter mixed list", head + "datasources:\n  d:\n    type: aws/vpc\n    filter:\n      field: a\n      operator: in\n      search: [a, 1]\n    exports: {}\n" + res, []string{"8:19-8:20 datasource-filter-search"}},
		{"filter has key list", head + "datasources:\n  d:\n    type: aws/vpc\n    filter:\n      field: a\n      operator: has key\n      search: [a]\n    exports: {}\n" + res, []string{"8:15-8:18 datasource-filter-search"}},
		{"filter field substitution", head + "datasources:\n  d:\n    type: aws/vpc\n    filter:\n      field: ${values.f}\n      operator: =\n      search: a\n    exports: {}\n" + res, []string{"6:14-6:25 spec-substitution-not-allowed"}},
		{"filter list 2025", head + "datasources:\n  d:\n    type: aws/vpc\n    filter:\n      - {field: a, operator: =, search: b}\n      - {field: c, operator: =, search: d}\n    exports: \"*\"\n" + res, nil},
		{"filter list 2023", "version: 2023-04-20\ndatasources:\n  d:\n    type: aws/vpc\n    filter:\n      - {field: a, operator: =, search: b}\n    exports: {}\n" + res, []string{"6:7-6:43 spec-field-type"}},
		{"exports star 2023", "version: 2023-04-20\ndatasources:\n  d:\n    type: aws/vpc\n    filter: {field: a, operator: =, search: b}\n    exports: \"*\"\n" + res, []string{"6:14-6:17 spec-field-type"}},
		{"datasource export type", head + "datasources:\n  d:\n    type: aws/vpc\n    filter: {field: a, operator: =, search: b}\n    exports:\n      x:\n        type: object\n" + res, []string{"8:15-8:21 datasource-export-type"}},

		{"resource type format", head + "resources:\n  q:\n    type: AWS::SQS::Queue\n    spec: {}\n", []string{"4:11-4:26 resource-type-format"}},
		{"resource two segments", head + "resources:\n  q:\n    type: celerity/handler\n    spec: {}\n", nil},
		{"resource four segments", head + "resources:\n  q:\n    type: a/b/c/d\n    spec: {}\n", []string{"4:11-4:18 resource-type-format"}},
		{"resource missing spec", head + "resources:\n  q:\n    type: aws/sqs/queue\n", []string{"3:3-3:4 spec-missing-field"}},
		{"resource spec list", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: [a]\n", []string{"5:11-5:14 spec-field-type"}},
		{"unknown resource field", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    linkSelecter: {}\n", []string{"6:5-6:17 spec-unknown-field"}},
		{"condition two ops", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      and: [\"${a}\"]\n      not: \"${b}\"\n", []string{"6:5-6:14 condition-exactly-one"}},
		{"condition empty", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition: {}\n", []string{"6:5-6:14 condition-exactly-one"}},
		{"condition nested", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      or:\n        - \"${a}\"\n        - {}\n", []string{"9:11-9:13 condition-exactly-one"}},
		{"condition not nested ok", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      not:\n        and: [\"${a}\", \"${b}\"]\n", nil},
		{"condition not list", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      not:\n        - \"${a}\"\n        - \"${b}\"\n", []string{"8:9-9:17 spec-field-type"}},
		{"condition not flow list", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      not: [\"${a}\"]\n", []string{"7:12-7:20 spec-field-type"}},
		{"condition nested not list", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      and:\n        - not: []\n", []string{"8:16-8:18 spec-field-type"}},
		{"condition not mapping ok", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n      not:\n        or: [\"${a}\"]\n", nil},
		{"condition boolean", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition: true\n", []string{"6:16-6:20 spec-field-type"}},
		{"labels substitution", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    metadata:\n      labels:\n        app: ${values.x}\n", []string{"8:14-8:25 spec-substitution-not-allowed"}},
		{"labels number", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    metadata:\n      labels:\n        tier: 1\n", []string{"8:15-8:16 spec-scalar-not-string"}},
		{"dependsOn 2023", "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    dependsOn: r\n", []string{"6:5-6:14 spec-field-needs-version"}},
		{"dependsOn unknown", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    dependsOn: [r, q]\n", []string{"6:17-6:18 resource-depends-on-unknown", "6:20-6:21 resource-depends-on-self"}},
		{"removalPolicy", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    removalPolicy: retian\n", []string{"6:20-6:26 resource-removal-policy"}},
		{"exclude unknown", head + "resources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    linkSelector:\n      byLabel: {a: b}\n      exclude: [z]\n", []string{"8:17-8:18 resource-link-exclude-unknown"}},
		{"description substitution", head + "resources:\n  q:\n    type: aws/sqs/queue\n    description: for ${values.x}\n    spec: {}\n", []string{"5:18-5:33 spec-substitution-not-recommended"}},

		{"include missing path", head + "include:\n  c:\n    description: x\n", []string{"3:3-3:4 spec-missing-field"}},
		{"export invalid type", head + res + "exports:\n  e:\n    type: map\n    field: resources.q.spec\n", []string{"8:11-8:14 export-invalid-type"}},
		{"export missing field", head + res + "exports:\n  e:\n    type: string\n", []string{"7:3-7:4 spec-missing-field"}},
		{"export field substitution", head + res + "exports:\n  e:\n    type: string\n    field: ${values.x}\n", []string{"9:12-9:23 spec-substitution-not-allowed"}},
		{"name not referenceable", head + "resources:\n  my queue:\n    type: aws/sqs/queue\n    spec: {}\n", []string{"3:3-3:11 spec-invalid-name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f, ds := check(t, "t.yaml", tt.src)
			if diff := cmp.Diff(tt.want, render(f, ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
				for _, d := range ds {
					t.Logf("  %s %s", d.Code, d.Message)
				}
			}
		})
	}
}

// TestViewYAMLJSON loads the same blueprint written in YAML and JSON and
// compares what the typed view holds.
func TestViewYAMLJSON(t *testing.T) {
	summary := func(bp *Blueprint) []string {
		out := []string{"version " + bp.SpecVersion}
		for _, v := range bp.Variables.Items() {
			out = append(out, fmt.Sprintf("variable %s %s default=%q secret=%v", v.Name, v.Type.Text(), v.Default.Text(), v.Secret.Bool()))
		}
		for _, v := range bp.Values.Items() {
			out = append(out, fmt.Sprintf("value %s %s", v.Name, v.Type.Text()))
		}
		for _, d := range bp.DataSources.Items() {
			out = append(out, fmt.Sprintf("datasource %s %s filters=%d op=%s exports=%v", d.Name, d.Type.Text(), len(d.Filters), d.Filters[0].Operator.Text(), d.Exports.Names()))
		}
		for _, r := range bp.Resources.Items() {
			cond := ""
			if op, ok := r.Condition.(*ConditionOp); ok {
				cond = fmt.Sprintf(" condition=%s/%d", op.Op, len(op.Operands))
			}
			out = append(out, fmt.Sprintf("resource %s %s each=%v%s", r.Name, r.Type.Text(), r.Each != nil, cond))
		}
		for _, x := range bp.Exports.Items() {
			out = append(out, fmt.Sprintf("export %s %s %s", x.Name, x.Type.Text(), x.Field.Text()))
		}
		return out
	}
	var got [][]string
	for _, name := range []string{"orders-api.blueprint.yaml", "orders-api.blueprint.json"} {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "examples", "valid", name))
		if err != nil {
			t.Fatal(err)
		}
		bp, _, _ := check(t, name, string(src))
		got = append(got, summary(bp))
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("YAML and JSON views differ (-yaml +json):\n%s", diff)
	}
	want := "resource saveOrderFunction aws/lambda/function each=false condition=and/2"
	found := false
	for _, s := range got[0] {
		found = found || s == want
	}
	if !found {
		t.Errorf("view lacks %q:\n%s", want, strings.Join(got[0], "\n"))
	}
}

func TestSuggestions(t *testing.T) {
	src := "version: 2023-04-20\nresourcez:\n  q:\n    type: AWS::Lambda::Function\n    spec: {}\ninclude:\n  c:\n    path: x.yaml\n"
	_, _, ds := check(t, "t.yaml", src)
	var got []string
	for _, d := range ds {
		for _, s := range d.Suggestions {
			for _, e := range s.Edits {
				got = append(got, fmt.Sprintf("%s: %s [%d,%d) %q", d.Code, s.Title, e.Range.Start, e.Range.End, e.NewText))
			}
		}
	}
	want := []string{`spec-unknown-field: Change to "resources" [20,29) "resources"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("suggestions (-want +got):\n%s", diff)
	}
	_, _, ds = check(t, "t.yaml", "version: 2023-04-20\nresources:\n  q:\n    type: AWS::DynamoDB::GlobalTable\n    spec: {}\n")
	if len(ds) != 1 || len(ds[0].Suggestions) != 1 || ds[0].Suggestions[0].Edits[0].NewText != "aws/dynamodb/globalTable" {
		t.Errorf("want one fix to aws/dynamodb/globalTable, got %+v", ds)
	}
}

// TestNotListFix checks the fix that unwraps the one condition of a list
// given to not, in flow and block form, and that a longer list gets none.
func TestNotListFix(t *testing.T) {
	head := "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n    condition:\n"
	for _, tc := range []struct{ name, src, want string }{
		{"flow", head + "      not: [\"${a}\"]\n", head + "      not: \"${a}\"\n"},
		{"block", head + "      not:\n        - ${a}\n", head + "      not:\n        ${a}\n"},
		{"two items", head + "      not: [\"${a}\", \"${b}\"]\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, ds := check(t, "t.yaml", tc.src)
			if len(ds) != 1 || ds[0].Code != "spec-field-type" {
				t.Fatalf("want one spec-field-type, got %+v", ds)
			}
			if tc.want == "" {
				if len(ds[0].Suggestions) != 0 {
					t.Errorf("want no fix, got %+v", ds[0].Suggestions)
				}
				return
			}
			if len(ds[0].Suggestions) != 1 {
				t.Fatalf("want one fix, got %+v", ds[0].Suggestions)
			}
			e := ds[0].Suggestions[0].Edits[0]
			got := tc.src[:e.Range.Start] + e.NewText + tc.src[e.Range.End:]
			if got != tc.want {
				t.Errorf("fixed text:\n%s\nwant:\n%s", got, tc.want)
			}
			if _, _, ds := check(t, "t.yaml", got); len(ds) != 0 {
				t.Errorf("fixed text still has %+v", ds)
			}
		})
	}
}
