package ide

import (
	"strings"
	"testing"
)

// bpGood is the last version of a .bp document that analysed; the cases
// type into it (the text then does not parse).
const bpGood = `version "2025-11-02"

variable env: string {
    default = "staging"
}

resource t: aws/sqs/queue {
    spec {
        queueName = variables.env
    }
}
`

// TestCompletionLanguage: completion in a blueprint-language document
// being typed, each item inserted the language's way.
func TestCompletionLanguage(t *testing.T) {
	res := analyze(t, "app.bp", bpGood)
	if len(res.Diagnostics) != 0 {
		t.Fatalf("the good version has diagnostics: %v", res.Diagnostics)
	}
	tests := []struct {
		name, old, new string
		want           map[string]string // label → insert text
		not            []string
	}{
		{"statement", "", "\nre<>", map[string]string{"resource": "resource ", "variable": "variable ", "metadata": "metadata {"}, nil},
		{"type", "", "\nresource u: aws/sqs/q<>", map[string]string{"aws/sqs/queue": "aws/sqs/queue"}, nil},
		{"spec field", "        queueName = variables.env\n", "        queueName = variables.env\n        del<>\n", map[string]string{"delaySeconds": "delaySeconds = "}, []string{"queueName"}},
		{"spec field of a resource the last Result lacks", "", "\nresource u: aws/sqs/queue {\n    spec {\n        vis<>\n", map[string]string{"visibilityTimeout": "visibilityTimeout = "}, nil},
		{"resource field", "    spec {\n", "    con<>\n    spec {\n", map[string]string{"condition": "condition = ", "foreach": "foreach ", "select by label": "select by label {", "metadata": "metadata {"}, []string{"type", "spec", "each", "linkSelector"}},
		{"enum value", "    spec {\n", "    removalPolicy = <>\n    spec {\n", map[string]string{"retain": `"retain"`, "delete": `"delete"`}, nil},
		{"reference", "queueName = variables.env", "queueName = variables.<>", map[string]string{"env": "env"}, nil},
		{"reference after an operator", "queueName = variables.env", "queueName = variables.env == \"a\" && variables.<>", map[string]string{"env": "env"}, nil},
		{"interpolation", "queueName = variables.env", "queueName = \"q-${variables.<>", map[string]string{"env": "env"}, nil},
		{"data source statements", "", "\ndata d: aws/vpc {\n    fil<>\n", map[string]string{"filter": "filter ", "export": "export "}, []string{"exports", "type"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := bpGood + tc.new
			if tc.old != "" {
				if !strings.Contains(bpGood, tc.old) {
					t.Fatalf("%q not in the document", tc.old)
				}
				src = strings.Replace(bpGood, tc.old, tc.new, 1)
			}
			text, off := cursor(t, src)
			items := Completion(res, []byte(text), off, Options{})
			got := map[string]string{}
			for _, it := range items {
				got[it.Label] = it.InsertText
				if it.ReplaceRange.End != off {
					t.Errorf("%s replaces %v, not up to the cursor %d", it.Label, it.ReplaceRange, off)
				}
			}
			for label, insert := range tc.want {
				if g, ok := got[label]; !ok || g != insert {
					t.Errorf("%q: inserted %q (offered %v), want %q", label, g, ok, insert)
				}
			}
			for _, n := range tc.not {
				if _, ok := got[n]; ok {
					t.Errorf("%q should not be offered", n)
				}
			}
		})
	}
}
