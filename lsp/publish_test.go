package lsp

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestPublishParamsDecode: the params publish sends, built around the
// diagnostics' encoding, decode to what the protocol's own encoding of
// the same PublishDiagnosticsParams gives, for URIs that need escaping
// in JSON, any version, and no diagnostics or several.
func TestPublishParamsDecode(t *testing.T) {
	sev := protocol.DiagnosticSeverityWarning
	sets := [][]protocol.Diagnostic{{}, {
		{Range: protocol.Range{Start: protocol.Position{Line: 1, Character: 2}, End: protocol.Position{Line: 1, Character: 9}}, Message: protocol.String("a \"quoted\"\nmessage é"), Severity: sev},
		{Message: protocol.String("second")},
	}}
	for _, u := range []string{"file:///tmp/a.blueprint.yaml", `file:///tmp/we"ird\path/ü.bp`, "untitled:Untitled-1"} {
		for _, version := range []int32{0, 7, -1, 1 << 30} {
			for _, ds := range sets {
				want := protocol.PublishDiagnosticsParams{URI: uri.URI(u), Version: protocol.NewOptional(version), Diagnostics: ds}
				wantDiags, err := protocol.Marshal(ds)
				if err != nil {
					t.Fatal(err)
				}
				msg, diags, err := publishParams(u, version, ds)
				if err != nil || string(diags) != string(wantDiags) {
					t.Fatalf("%s: the diagnostics' part is %s, want %s (%v)", u, diags, wantDiags, err)
				}
				var got protocol.PublishDiagnosticsParams
				if err := protocol.Unmarshal(msg, &got); err != nil {
					t.Fatalf("%s: %v", u, err)
				}
				// Compared decoded (a URI is normalised as it is read)
				// and encoded again: the protocol's types hold unexported
				// fields.
				wire, _ := protocol.Marshal(&want)
				var decoded protocol.PublishDiagnosticsParams
				if err := protocol.Unmarshal(wire, &decoded); err != nil {
					t.Fatal(err)
				}
				wb, _ := protocol.Marshal(&decoded)
				gb, _ := protocol.Marshal(&got)
				if diff := gocmp.Diff(string(wb), string(gb)); diff != "" {
					t.Errorf("%s version %d: (-want +got)\n%s", u, version, diff)
				}
			}
		}
	}
}
