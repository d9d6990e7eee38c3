package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// "Extract to variable" on a literal makes it a variable's default and
// references the variable in its place, in YAML, JSON and .bp, as a whole
// scalar or inside ${..}; the result has no diagnostic but the new
// variable's (never referenced elsewhere: none).
func TestExtractToVariable(t *testing.T) {
	cases := []struct {
		name, file, text, sel string
		want                  string
	}{
		{"yaml scalar", "x.blueprint.yaml", `version: 2023-04-20
variables:
  env:
    type: string
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${variables.env}
      visibilityTimeout: 30
`, "30", `version: 2023-04-20
variables:
  env:
    type: string
  newVariable:
    type: integer
    default: 30
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${variables.env}
      visibilityTimeout: ${variables.newVariable}
`},
		{"yaml literal in a substitution", "x.blueprint.yaml", `version: 2023-04-20
variables:
  env:
    type: string
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${join(list(variables.env, "orders"), "-")}
`, `"orders"`, `version: 2023-04-20
variables:
  env:
    type: string
  newVariable:
    type: string
    default: orders
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${join(list(variables.env, variables.newVariable), "-")}
`},
		{"yaml quoted string, no variables yet", "x.blueprint.yaml", `version: 2023-04-20
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: "orders: main"
`, `orders: main`, `version: 2023-04-20
resources:
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${variables.newVariable}
variables:
  newVariable:
    type: string
    default: "orders: main"
`},
		{"json scalar", "x.blueprint.json", `{
  "version": "2023-04-20",
  "variables": {"env": {"type": "string"}},
  "resources": {
    "queue": {"type": "aws/sqs/queue", "spec": {"queueName": "${variables.env}", "fifoQueue": true}}
  }
}
`, "true", `{
  "version": "2023-04-20",
  "variables": {"env": {"type": "string"},
                "newVariable": {"type": "boolean", "default": true}},
  "resources": {
    "queue": {"type": "aws/sqs/queue", "spec": {"queueName": "${variables.env}", "fifoQueue": "${variables.newVariable}"}}
  }
}
`},
		{"bp literal", "x.bp", `version "2025-11-02"

variable env: string {
    default = "dev"
}

resource queue: aws/sqs/queue {
    spec {
        queueName = "orders"
        delaySeconds = max(1, 2)
    }
}
`, `"orders"`, `version "2025-11-02"

variable env: string {
    default = "dev"
}

resource queue: aws/sqs/queue {
    spec {
        queueName = variables.newVariable
        delaySeconds = max(1, 2)
    }
}

variable newVariable: string {
    default = "orders"
}
`},
		{"bp literal in an expression", "x.bp", `version "2025-11-02"

variable env: string {
    default = "dev"
}

resource queue: aws/sqs/queue {
    spec {
        queueName = variables.env
        delaySeconds = max(1, 2)
    }
}
`, `2`, `version "2025-11-02"

variable env: string {
    default = "dev"
}

resource queue: aws/sqs/queue {
    spec {
        queueName = variables.env
        delaySeconds = max(1, variables.newVariable)
    }
}

variable newVariable: integer {
    default = 2
}
`},
	}
	h := newHarness(t)
	h.initialize(fastInit)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.Replace(tc.file, "x.", "x"+string(rune('a'+i))+".", 1)
			h.open(name, tc.text)
			if d := h.WaitDiagnostics(name, 1); len(d) > 0 && d[0].Severity == protocol.DiagnosticSeverityError {
				t.Fatalf("the text has errors: %v", d)
			}
			// The last occurrence of the selection.
			at := strings.LastIndex(tc.text, tc.sel)
			line := uint32(strings.Count(tc.text[:at], "\n"))
			col := uint32(at - strings.LastIndex(tc.text[:at], "\n") - 1)
			r := protocol.Range{Start: pos(line, col), End: pos(line, col+uint32(len(tc.sel)))}
			var raw []json.RawMessage
			if err := h.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: docURI(name)}, Range: r,
				Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}}}, &raw); err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, item := range raw {
				var ca protocol.CodeAction
				if err := protocol.Unmarshal(item, &ca); err != nil {
					t.Fatal(err)
				}
				titles = append(titles, ca.Title)
				if ca.Title != "Extract to variable newVariable" {
					continue
				}
				if ca.Kind == nil || *ca.Kind != protocol.CodeActionKindRefactorExtract {
					t.Errorf("kind %v", ca.Kind)
				}
				got := applyEdits(t, tc.text, ca.Edit.Changes[uri.URI(docURI(name))])
				if got != tc.want {
					t.Fatalf("extracted:\n%s\nwant:\n%s", got, tc.want)
				}
				h.changeFull(name, 2, got)
				for _, d := range h.WaitDiagnostics(name, 2) {
					if d.Severity <= protocol.DiagnosticSeverityWarning {
						t.Errorf("after the extraction: %s %s", codeOf(d), d.Message)
					}
				}
				return
			}
			t.Fatalf("no Extract to variable among %q", titles)
		})
	}
}
