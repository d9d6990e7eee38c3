package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

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
