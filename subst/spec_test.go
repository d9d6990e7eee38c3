package subst

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// specDir holds the spec texts; examples are extracted from them with
// -update into testdata/spec-examples.txt, which is committed so the test
// does not depend on files outside the module.
const specDir = "../../shared/spec"

var specFiles = []string{"blueprint-spec-v2023-04-20.txt", "core-functions-v2025-11-02.txt"}

// specExpectedErrors are the spec's `${` occurrences that are not valid
// substitutions: placeholders in prose and one typo. Each must still
// produce an error, so the list stays honest.
var specExpectedErrors = map[string]string{
	"${variables.[variableName]}":                      "placeholder",
	"${values.[valueName]}":                            "placeholder",
	"${datasources.[datasourceName].[exportedField]}":  "placeholder",
	"${children.{childName}":                           "placeholder",
	"${..}":                                            "prose",
	`${*.annotations["myAnnotation.populateEnvVars"]}`: "placeholder",
	`${map(variables,cacheClusterConfig.hosts, trimprefix_g("http://"))}`: "typo: variables, for variables.",
}

type specExample struct {
	where, text string
}

// extractSpecExamples finds every `${` in the spec texts and takes the
// substitution starting there (to its closing `}`; to the end of the line
// when it has none), dropping repeats.
func extractSpecExamples(t *testing.T) []specExample {
	var out []specExample
	seen := map[string]bool{}
	for _, f := range specFiles {
		b, err := os.ReadFile(filepath.Join(specDir, f))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for i := 0; ; {
			j := strings.Index(s[i:], "${")
			if j < 0 {
				break
			}
			start := i + j
			_, end, closed := lexSub(s, start+2, nil)
			if !closed || end-start > 2000 {
				end = start + strings.IndexByte(s[start:]+"\n", '\n')
			}
			text := s[start:end]
			if !seen[text] {
				seen[text] = true
				line := strings.Count(s[:start], "\n") + 1
				out = append(out, specExample{fmt.Sprintf("%s:%d", f, line), text})
			}
			i = start + 2
		}
	}
	return out
}

func readSpecExamples(t *testing.T) []specExample {
	b, err := os.ReadFile("testdata/spec-examples.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []specExample
	for _, chunk := range strings.Split(string(b), "\n-- ")[1:] {
		head, text, _ := strings.Cut(chunk, " --\n")
		out = append(out, specExample{head, strings.TrimSuffix(text, "\n")})
	}
	return out
}

// TestSpecExamples parses every substitution in both spec documents: all
// but the known placeholders parse without errors, and the trees with
// their ranges match the golden.
func TestSpecExamples(t *testing.T) {
	if *update {
		if _, err := os.Stat(specDir); err == nil {
			var b strings.Builder
			b.WriteString("Substitutions extracted from the spec texts by TestSpecExamples -update.\n")
			for _, e := range extractSpecExamples(t) {
				fmt.Fprintf(&b, "\n-- %s --\n%s\n", e.where, e.text)
			}
			if err := os.WriteFile("testdata/spec-examples.txt", []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	examples := readSpecExamples(t)
	if len(examples) < 150 {
		t.Fatalf("only %d examples extracted", len(examples))
	}
	var out strings.Builder
	seen := map[string]bool{}
	for _, e := range examples {
		seen[e.text] = true
		tpl := ParseTemplateWith(e.text, nil, Options{Mapper: source.NewMapper([]byte(e.text))})
		checkInvariants(t, tpl, 0, len(e.text))
		_, expectErr := specExpectedErrors[e.text]
		if tpl.HasErrors() != expectErr {
			t.Errorf("%s: %s: errors %v, want %v: %v", e.where, e.text, tpl.HasErrors(), expectErr, tpl.Diagnostics())
		}
		d := Dump(tpl, source.NewMapper([]byte(e.text)))
		d.Tokens = nil
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "-- %s --\n%s\n%s\n\n", e.where, e.text, b)
		if !tpl.HasErrors() {
			roundTrip(t, tpl)
		}
	}
	for text := range specExpectedErrors {
		if !seen[text] {
			t.Errorf("expected-error example %q is no longer in the spec examples", text)
		}
	}
	golden(t, "spec-examples.golden", out.String())
}

// roundTrip checks that printing and re-parsing gives the same tree.
func roundTrip(t *testing.T, tpl *Template) {
	t.Helper()
	printed := PrintTemplate(tpl)
	again := ParseTemplate(printed, nil)
	if again.HasErrors() {
		t.Fatalf("printed template %q does not parse: %v", printed, again.Diagnostics())
	}
	if a, b := templateTree(tpl, false), templateTree(again, false); a != b {
		t.Fatalf("round trip through %q changed the tree:\n%s\n%s", printed, a, b)
	}
}
