package ide

import (
	"strings"
	"testing"
)

// TestCodeActionLanguage: the quick fixes that add text write the
// blueprint language in a .bp document, and the result checks clean of
// the problem (extract to value: codeaction_extract_bp_test.go).
func TestCodeActionLanguage(t *testing.T) {
	src := "version \"2025-11-02\"\n\nvalue v: integer {\n    value = len(variables.names)\n}\n"
	got := fixes(t, analyze(t, "a.bp", src), "ref-unknown-variable", "Declare variable")
	if want := src + "\nvariable names: string {}\n"; got != want {
		t.Errorf("declare variable:\n%s\nwant\n%s", got, want)
	}
	noErrors(t, "a.bp", got)

	src = "version \"2025-11-02\"\n\nresource t: aws/dynamodb/table {\n    spec {\n        tableName = \"x\"\n    }\n}\n"
	got = fixes(t, analyze(t, "a.bp", src), "resource-missing-field", "Add missing fields")
	if !strings.Contains(got, "        tableName = \"x\"\n        keySchema = ") {
		t.Errorf("add missing fields:\n%s", got)
	}
	if f := analyze(t, "a.bp", got).File; f.HasSyntaxErrors() {
		t.Errorf("the fix does not parse: %v\n%s", f.Diagnostics, got)
	}
}
