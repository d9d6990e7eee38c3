package ide

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// fixes runs the code actions for every diagnostic with code and applies
// the one whose title starts with prefix.
func fixes(t *testing.T, res *analysis.Result, code, prefix string) string {
	t.Helper()
	var ds []source.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == code {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		t.Fatalf("no %s diagnostic", code)
	}
	for _, a := range CodeActions(res, ds[0].Range, ds, Options{}) {
		if strings.HasPrefix(a.Title, prefix) {
			return applyEdits(res.File.Content(), a.Edit.Changes[res.URI])
		}
	}
	t.Fatalf("no action %q for %s", prefix, code)
	return ""
}

func noErrors(t *testing.T, name, src string) {
	t.Helper()
	for _, d := range analyze(t, name, src).Diagnostics {
		// The small sources have no resources; that error is not the fix's.
		if d.Severity == source.Error && d.Code != "spec-no-resources" {
			t.Errorf("after the fix: %s %s\n%s", d.Code, d.Message, src)
		}
	}
}

func TestCodeActionDeclareVariable(t *testing.T) {
	tests := []struct {
		name, file, src, want string
	}{
		{"yaml section exists", "a.yaml",
			"version: 2023-04-20\nvariables:\n  env:\n    type: string\nvalues:\n  v:\n    type: integer\n    value: ${len(variables.names)}\n",
			"  env:\n    type: string\n  names:\n    type: string\nvalues:"},
		{"yaml no section, typed from parameter", "a.yaml",
			"version: 2023-04-20\nvalues:\n  v:\n    type: string\n    value: ${substr(\"abc\", variables.start, 2)}\n",
			"\nvariables:\n  start:\n    type: integer"},
		{"json", "a.json",
			"{\n  \"version\": \"2023-04-20\",\n  \"variables\": {\n    \"env\": {\"type\": \"string\"}\n  },\n  \"values\": {\"v\": {\"type\": \"string\", \"value\": \"${variables.other}\"}}\n}\n",
			"\"env\": {\"type\": \"string\"},\n    \"other\": {\"type\": \"string\"}"},
		{"json no section", "a.json",
			"{\n  \"version\": \"2023-04-20\",\n  \"values\": {\"v\": {\"type\": \"string\", \"value\": \"${variables.other}\"}}\n}\n",
			"\"variables\": {\n    \"other\": {\"type\": \"string\"}\n  }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fixes(t, analyze(t, tc.file, tc.src), "ref-unknown-variable", "Declare variable")
			if !strings.Contains(got, tc.want) {
				t.Errorf("got:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
			noErrors(t, tc.file, got)
		})
	}
}

func TestCodeActionSuggestions(t *testing.T) {
	src := "version: 2023-04-20\nvariables:\n  environment:\n    type: string\nvalues:\n  v:\n    type: string\n    value: ${variables.enviroment}\n"
	got := fixes(t, analyze(t, "a.yaml", src), "ref-unknown-variable", `Change to "environment"`)
	if !strings.Contains(got, "${variables.environment}") {
		t.Errorf("got:\n%s", got)
	}
}

func TestCodeActionMissingFields(t *testing.T) {
	src := "version: 2023-04-20\nvariables:\n  env:\n    description: no type\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: x\n"
	res := analyze(t, "a.yaml", src)
	got := fixes(t, res, "spec-missing-field", "Add missing fields: type")
	if !strings.Contains(got, "    description: no type\n    type: \"\"\n") {
		t.Errorf("got:\n%s", got)
	}
	src = "version: 2023-04-20\nresources:\n  t:\n    type: aws/dynamodb/table\n    spec:\n      tableName: x\n"
	got = fixes(t, analyze(t, "a.yaml", src), "resource-missing-field", "Add missing fields")
	if !strings.Contains(got, "      tableName: x\n      keySchema: ") {
		t.Errorf("got:\n%s", got)
	}
}

func TestCodeActionExtractToValue(t *testing.T) {
	src := "version: 2023-04-20\nvariables:\n  env:\n    type: string\nvalues:\n  v:\n    type: string\n    value: pre-${to_upper(variables.env)}\n"
	res := analyze(t, "a.yaml", src)
	start := strings.Index(src, "to_upper(")
	rng := source.R(start, start+len("to_upper(variables.env)"))
	var got string
	for _, a := range CodeActions(res, rng, nil, Options{}) {
		if a.Kind == KindRefactorExtract {
			got = applyEdits(res.File.Content(), a.Edit.Changes[res.URI])
		}
	}
	want := "    value: pre-${values.newValue}\n  newValue:\n    type: string\n    value: ${to_upper(variables.env)}"
	if !strings.Contains(got, want) {
		t.Fatalf("got:\n%s", got)
	}
	noErrors(t, "a.yaml", got)
}

// TestCodeActionExtractToValueYAMLPlaces: an expression that reads a
// secret moves into a secret value; one that reads elem is not offered
// (a value cannot see the element of a foreach).
func TestCodeActionExtractToValueYAMLPlaces(t *testing.T) {
	src := "version: 2023-04-20\nvariables:\n  token:\n    type: string\n    secret: true\nvalues:\n  v:\n    type: string\n    secret: true\n    value: pre-${trim(variables.token)}\n"
	res := analyze(t, "a.yaml", src)
	start := strings.Index(src, "trim(")
	var got string
	for _, a := range CodeActions(res, source.R(start, start+len("trim(variables.token)")), nil, Options{}) {
		if a.Kind == KindRefactorExtract {
			got = applyEdits(res.File.Content(), a.Edit.Changes[res.URI])
		}
	}
	want := "    value: pre-${values.newValue}\n  newValue:\n    type: string\n    value: ${trim(variables.token)}\n    secret: true"
	if !strings.Contains(got, want) {
		t.Fatalf("got:\n%s", got)
	}
	for _, d := range analyze(t, "a.yaml", got).Diagnostics {
		if d.Code == "secret-leak" {
			t.Errorf("after the extraction: %s %s", d.Code, d.Message)
		}
	}

	src = "version: 2023-04-20\nvariables:\n  names:\n    type: array\nresources:\n  q:\n    type: aws/sqs/queue\n    each: ${variables.names}\n    spec:\n      queueName: ${to_upper(elem)}\n"
	res = analyze(t, "a.yaml", src)
	start = strings.Index(src, "to_upper(")
	for _, a := range CodeActions(res, source.R(start, start+len("to_upper(elem)")), nil, Options{}) {
		if a.Kind == KindRefactorExtract {
			t.Errorf("offered %q for an expression that reads elem", a.Title)
		}
	}
}
