package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const deployConfigDoc = `version: 2025-11-02
variables:
  env:
    type: string
resources:
  data:
    type: aws/s3/bucket
    spec:
      bucketName: ${variables.env}-data
`

// TestDeployConfigInPlanAndHints: the deploy configuration found above
// the blueprint (up to the workspace folder) gives the variable its
// value in the plan preview and in the inlay hint; the deployConfigFile
// setting picks an environment's file; a malformed file is one problem
// at its own line.
func TestDeployConfigInPlanAndHints(t *testing.T) {
	dir := projectDir(t, map[string]string{
		"app.deploy.jsonc":         `{"appName": "a", "deployTarget": {"name": "aws", "config": {"aws.region": "eu-west-2", "aws.secretAccessKey": "hunter2", "aws.lambda.memorySize": 512}}, "blueprintVariables": {"env": "staging"}}`,
		"app.deploy.prod.jsonc":    `{"appName": "a", "deployTarget": {"name": "aws"}, "blueprintVariables": {"env": "prod"}}`,
		"app.deploy.broken.jsonc":  "{\n  \"deployTarget\": { \"name\": }\n}\n",
		"svc/app.blueprint.yaml":   deployConfigDoc,
		"other/app.blueprint.yaml": deployConfigDoc,
	})
	folders := `"workspaceFolders":[{"uri":"` + string(uri.File(dir)) + `","name":"p"}]`
	for _, tt := range []struct {
		name, settings, hint, plan, file, value string
	}{
		{name: "found upward", settings: `{"debounceMs":0}`, hint: " = staging-data", plan: "staging-data", file: "app.deploy.jsonc", value: "staging"},
		{name: "named variant", settings: `{"debounceMs":0,"deployConfigFile":"app.deploy.prod.jsonc"}`, hint: " = prod-data", plan: "prod-data", file: "app.deploy.prod.jsonc", value: "prod"},
		{name: "settings win over it", settings: `{"debounceMs":0,"planVariables":{"env":"dev"}}`, hint: " = dev-data", plan: "dev-data", file: "app.deploy.jsonc", value: "staging"},
		{name: "malformed", settings: `{"debounceMs":0,"deployConfigFile":"app.deploy.broken.jsonc"}`,
			plan: "**Input problem**: deploy config " + filepath.Join(dir, "app.deploy.broken.jsonc") + ":2:29: the deploy configuration does not parse"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.initialize(`{"capabilities":{},` + folders + `,"initializationOptions":` + tt.settings + `}`)
			u := string(uri.File(filepath.Join(dir, "svc", "app.blueprint.yaml")))
			h.open(u, deployConfigDoc)
			h.WaitDiagnostics(u, 1)
			var hints []protocol.InlayHint
			if err := h.call(protocol.MethodTextDocumentInlayHint, map[string]any{"textDocument": map[string]any{"uri": u}, "range": rng(8, 0, 9, 0)}, &hints); err != nil {
				t.Fatal(err)
			}
			var labels []string
			for _, ih := range hints {
				b, _ := json.Marshal(ih.Label)
				labels = append(labels, string(b))
			}
			if tt.hint != "" && (len(labels) != 1 || labels[0] != `"`+tt.hint+`"`) {
				t.Errorf("hints %v, want %q", labels, tt.hint)
			}
			if tt.hint == "" && len(labels) != 0 {
				t.Errorf("hints %v, want none (the variable has no value)", labels)
			}
			var raw json.RawMessage
			if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 8, "character": 30}}, &raw); err != nil {
				t.Fatal(err)
			}
			var hover struct {
				Contents struct {
					Value string `json:"value"`
				} `json:"contents"`
			}
			if err := json.Unmarshal(raw, &hover); err != nil {
				t.Fatal(err)
			}
			if want := "Deploy configuration ([" + tt.file + "]("; tt.file != "" && !strings.Contains(hover.Contents.Value, want) {
				t.Errorf("hover lacks %q:\n%+v", want, hover)
			}
			if want := tt.file + "#L1)): `\"" + tt.value + "\"`"; tt.file != "" && !strings.Contains(hover.Contents.Value, want) {
				t.Errorf("hover lacks %q:\n%+v", want, hover)
			}
			if tt.file == "" && strings.Contains(hover.Contents.Value, "Deploy configuration") {
				t.Errorf("hover shows a deploy configuration:\n%s", hover.Contents.Value)
			}
			var plan planResult
			if err := h.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": commandPlan, "arguments": []any{map[string]any{"uri": u}}}, &plan); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(plan.Markdown, tt.plan) {
				t.Errorf("plan lacks %q:\n%s", tt.plan, plan.Markdown)
			}
			if tt.name == "found upward" {
				want := "**Deploy configuration** `" + filepath.Join(dir, "app.deploy.jsonc") + "`\n\n" +
					"- blueprint variables: `env` = `\"staging\"`\n" +
					"- context variables: `celerity.appName` = `\"a\"`, `deployTarget` = `\"aws\"`\n" +
					"- provider `aws`: `region` = `\"eu-west-2\"`, `secretAccessKey` = `(sensitive)`\n" +
					"- transformer `celerity`: `aws.lambda.memorySize` = `512`\n"
				if !strings.Contains(plan.Markdown, want) || strings.Contains(plan.Markdown, "hunter2") {
					t.Errorf("plan lacks the deploy configuration %q:\n%s", want, plan.Markdown)
				}
			}
			h.shutdown()
		})
	}
}
