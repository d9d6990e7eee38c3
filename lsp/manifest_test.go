package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func TestDetectManifest(t *testing.T) {
	big := `{"version": "2023-04-20", "resources": {` + strings.Repeat(`"r": {"type": "a/b", "spec": {"s": "}]\"{["}}, `, 50) + `"z": 1}, "schema": "cloud-assembly/1.0"}`
	tests := []struct {
		name, content string
		want          manifestVerdict
	}{
		{"first member", `{"schema": "cloud-assembly/1.0", "droplets": {}}`, isManifest},
		{"last member, after nested values", big, isManifest},
		{"other version", "{\n\t\"schema\" :\r\n \"cloud-assembly/2.0\"}", isManifest},
		{"escaped key and value", `{"sch\u0065ma": "cloud-assembly\/1.0"}`, isManifest},
		{"other schema", `{"schema": "https://json-schema.org/draft/2020-12/schema"}`, notManifest},
		{"schema not a string", `{"schema": {"id": "cloud-assembly/1.0"}}`, notManifest},
		{"schema only nested", `{"droplets": {"A": {"schema": "cloud-assembly/1.0"}}}`, notManifest},
		{"blueprint", `{"version": "2023-04-20", "resources": {}}`, notManifest},
		{"array", `[{"schema": "cloud-assembly/1.0"}]`, notManifest},
		{"YAML", "schema: cloud-assembly/1.0\n", notManifest},
		{"empty object", `{}`, notManifest},
		{"empty", "", undecided},
		{"key being typed", "{\n  \"dro\n  \"schema\": \"cloud-assembly/1.0\"}", undecided},
		{"value being typed", `{"droplets": {"A": `, undecided},
		{"cut short", `{"schema": "cloud-ass`, undecided},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := detectManifest([]byte(tt.content)); got != tt.want {
				t.Errorf("detectManifest(%q) = %d, want %d", tt.content, got, tt.want)
			}
		})
	}
}

func TestIsJSONDocument(t *testing.T) {
	tests := []struct {
		uri, lang string
		want      bool
	}{
		{"file:///x/manifest.json", "", true},
		{"file:///x/MANIFEST.JSON", "plaintext", true},
		{"file:///x/a.jsonc", "", true},
		{"untitled:Untitled-1", "json", true},
		{"file:///x/app.blueprint.yaml", "yaml", false},
		{"file:///x/a.json.yaml", "", false},
		{"vscode-vfs://h/x/manifest.json?ref=main", "", true},
	}
	for _, tt := range tests {
		if got := isJSONDocument(tt.uri, tt.lang); got != tt.want {
			t.Errorf("isJSONDocument(%q, %q) = %v, want %v", tt.uri, tt.lang, got, tt.want)
		}
	}
}

// TestManifestDiagnosticsSource checks that a manifest's diagnostics say
// they come from the assembly checker, and that a manifest whose schema is
// removed becomes a blueprint again.
func TestManifestDiagnosticsSource(t *testing.T) {
	h := newHarness(t)
	h.initialize(fastInit)
	u := "file:///w/manifest.json"
	h.open(u, `{"schema": "cloud-assembly/1.0", "droplets": {"a.b": {"type": "npm://p/C", "environment": "aws://123456789012/eu-west-1"}}}`)
	ds := h.WaitDiagnostics(u, 1)
	if len(ds) != 1 || ds[0].Code != protocol.String("assembly-logical-id-dot") || diagSource(ds[0]) != manifestSource {
		t.Fatalf("manifest diagnostics = %+v, want one assembly-logical-id-dot from %s", ds, manifestSource)
	}
	h.changeFull(u, 2, `{"version": "2023-04-20", "resources": {"a": {"type": "aws/s3/bucket", "spec": {"bucketName": "${variables.nope}"}}}}`)
	ds = h.WaitDiagnostics(u, 2)
	if len(ds) != 1 || ds[0].Code != protocol.String("ref-unknown-variable") || diagSource(ds[0]) != diagnosticSource {
		t.Fatalf("blueprint diagnostics = %+v, want one ref-unknown-variable from %s", ds, diagnosticSource)
	}
	h.shutdown()
}

func diagSource(d protocol.Diagnostic) string {
	s, _ := d.Source.Get()
	return s
}
