package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// referenceDifference is one place where blueprint-ls deliberately
// answers differently from the reference implementation (Bluelink's
// blueprint framework) because the specification says otherwise.
type referenceDifference struct {
	Title     string
	Reference string // what the reference implementation does
	Here      string // what blueprint-ls does
	Spec      string // the specification's words, quoted exactly
	Source    string // where the words are
	Codes     []string
}

// referenceDifferences is the one list of deliberate differences; the
// "Differences from the reference implementation" section of
// docs/diagnostics.md is generated from it.
var referenceDifferences = []referenceDifference{
	{
		Title:     "Named arguments outside object()",
		Reference: "rejects the blueprint: named arguments are only supported in the object function.",
		Here:      "accepts the call with a warning that the name is ignored, and offers a fix that removes `name =`.",
		Spec:      "It is not syntactically invalid to use named arguments in other functions but the names will be ignored and the values passed in will be treated as positional arguments.",
		Source:    "core functions specification (object)",
		Codes:     []string{"func-named-arg"},
	},
	{
		Title:     "String literals in single quotes",
		Reference: "accepts `'..'` for every string literal (`trim('abc')`).",
		Here:      "accepts single quotes only around a name in an accessor (`['annotationKey.v1']`), where the grammar does not fix the quote character; a single-quoted string literal is an error with a fix to double quotes.",
		Spec:      "string literal = '\"' , string chars , '\"' ;",
		Source:    "blueprint specification (Substitution Grammar)",
		Codes:     []string{"subst-single-quoted-string"},
	},
	{
		Title:     "Array literals",
		Reference: "has no array literal: `[8080, 8081]` inside `${..}` is a syntax error.",
		Here:      "parses it and evaluates it like `list(..)`, with a warning that it is not portable and a fix to `list(..)` (decision 8).",
		Spec:      "ports: ${join([8080, 8081, 8082], \",\")}",
		Source:    "core functions specification (join, an example the grammar does not cover)",
		Codes:     []string{"subst-array-literal"},
	},
}

// writeReferenceDifferences renders referenceDifferences as a section of
// docs/diagnostics.md.
func writeReferenceDifferences(b *strings.Builder) {
	b.WriteString("\n## Differences from the reference implementation\n\n")
	b.WriteString("Where the specification and the reference implementation disagree, blueprint-ls\n")
	b.WriteString("follows the specification. These are the known cases:\n")
	for _, d := range referenceDifferences {
		fmt.Fprintf(b, "\n### %s\n\n", d.Title)
		fmt.Fprintf(b, "- The reference implementation %s\n", d.Reference)
		fmt.Fprintf(b, "- blueprint-ls %s\n", d.Here)
		fmt.Fprintf(b, "- The %s says:\n\n  > %s\n", d.Source, d.Spec)
		var links []string
		for _, c := range d.Codes {
			links = append(links, fmt.Sprintf("[`%s`](#%s)", c, c))
		}
		fmt.Fprintf(b, "\nDiagnostics: %s.\n", strings.Join(links, ", "))
	}
}

// TestReferenceDifferencesAreSound checks every entry names registered
// codes and quotes words that are in the specification texts.
func TestReferenceDifferencesAreSound(t *testing.T) {
	known := map[string]bool{}
	for _, c := range source.Codes() {
		known[c.ID] = true
	}
	doc := diagnosticsDoc()
	if !strings.Contains(doc, "\n## Differences from the reference implementation\n") {
		t.Error("docs/diagnostics.md lost its differences section")
	}
	spec := readSpecTexts(t)
	for _, d := range referenceDifferences {
		if !strings.Contains(doc, "\n### "+d.Title+"\n") {
			t.Errorf("%s: not in the generated document", d.Title)
		}
		if len(d.Codes) == 0 {
			t.Errorf("%s: no diagnostic code", d.Title)
		}
		for _, c := range d.Codes {
			if !known[c] {
				t.Errorf("%s: %s is not a registered code", d.Title, c)
			}
		}
		if spec != "" && !strings.Contains(spec, d.Spec) {
			t.Errorf("%s: the quote %q is not in the specification texts", d.Title, d.Spec)
		}
	}
}

// readSpecTexts returns the specification texts beside the repository
// (../shared/spec in the development checkout), or "" when they are not
// there (a plain clone), in which case the quotes are not checked.
func readSpecTexts(t *testing.T) string {
	var b strings.Builder
	for _, f := range []string{"blueprint-spec-v2023-04-20.txt", "core-functions-v2025-11-02.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "spec", f))
		if err != nil {
			t.Logf("spec text not found (%v); quotes not checked", err)
			return ""
		}
		b.Write(data)
	}
	return b.String()
}
