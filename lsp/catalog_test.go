package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestCatalogOverTheProtocol: after `type: aws/` the server offers the
// whole built-in catalog under the official provider's names, hover on a
// catalog type links its AWS reference page, and a Celerity type's spec
// is checked against its built-in schema.
func TestCatalogOverTheProtocol(t *testing.T) {
	src := "version: 2025-11-02\ntransform: celerity-2026-02-27-draft\nresources:\n  user:\n    type: aws/iam/user\n  fn:\n    type: aws/\n  h:\n    type: celerity/handler\n    spec:\n      handlerName: h\n      handler: index.h\n      memry: 128\n"
	h := newHarness(t)
	h.initialize(`{"capabilities":{},"initializationOptions":{"debounceMs":0}}`)
	h.open("cat.blueprint.yaml", src)
	m := newTestMapper(src)
	td := map[string]any{"uri": string(docURI("cat.blueprint.yaml"))}

	var list struct{ Items []struct{ Label string } }
	var raw json.RawMessage
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td, "position": m.pos(strings.Index(src, "aws/\n") + len("aws/"))}, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	// Both sources: the schema set's types and those only the AWS service
	// spec knows (aws/bedrockagentcore/harness).
	if len(labels) < 1820 || !slices.Contains(labels, "aws/bedrockagentcore/harness") || !slices.Contains(labels, "aws/lambda/functionVersion") || slices.Contains(labels, "aws/lambda/version") || !slices.Contains(labels, "celerity/handler") {
		t.Errorf("%d type items; functionVersion %v, version %v", len(labels), slices.Contains(labels, "aws/lambda/functionVersion"), slices.Contains(labels, "aws/lambda/version"))
	}

	var hover struct{ Contents struct{ Value string } }
	if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": td, "position": m.pos(strings.Index(src, "aws/iam/user") + 4)}, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &hover); err != nil {
		t.Fatal(err)
	}
	if want := "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-iam-user.html"; !strings.Contains(hover.Contents.Value, want) {
		t.Errorf("hover %q lacks %s", hover.Contents.Value, want)
	}

	diags := h.WaitDiagnostics("cat.blueprint.yaml", 1)
	at := strings.Index(src, "memry")
	want := protocol.Range{Start: m.pos(at), End: m.pos(at + len("memry"))}
	found := false
	for _, d := range diags {
		if d.Code == protocol.String("resource-unknown-field") && d.Range == want {
			found = true
		}
		if d.Code == protocol.String("resource-unknown-provider") || d.Code == protocol.String("resource-unknown-type") {
			t.Errorf("unexpected %v: %s", d.Code, d.Message)
		}
	}
	if !found {
		t.Errorf("diagnostics %+v lack the celerity/handler spec typo at %v", diags, want)
	}
}

// TestLongListItemDefaults: to a client that takes them, a long list's
// shared edit range and insert format go in itemDefaults and its items
// are labels (with textEditText where the insert differs); a client that
// does not gets them in every item.
func TestLongListItemDefaults(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  fn:\n    type: aws/\n"
	m := newTestMapper(src)
	pos := m.pos(strings.Index(src, "aws/") + len("aws/"))
	for _, tc := range []struct {
		name, defaults string
		shared         bool
	}{
		{"defaults taken", `["data","editRange","insertTextFormat"]`, true},
		{"data only", `["data"]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.initialize(`{"capabilities":{"textDocument":{"completion":{"completionList":{"itemDefaults":` + tc.defaults + `},"completionItem":{"resolveSupport":{"properties":["documentation"]}}}}},"initializationOptions":{"debounceMs":0}}`)
			h.open("t.blueprint.yaml", src)
			var list struct {
				ItemDefaults struct {
					EditRange        *protocol.Range
					InsertTextFormat int
				}
				Items []struct {
					Label            string
					TextEdit         *protocol.TextEdit
					InsertTextFormat int
				}
			}
			var raw json.RawMessage
			if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": map[string]any{"uri": string(docURI("t.blueprint.yaml"))}, "position": pos}, &raw); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) < 1500 {
				t.Fatalf("%d items", len(list.Items))
			}
			want := protocol.Range{Start: m.pos(strings.Index(src, "aws/")), End: pos}
			first := list.Items[0]
			if tc.shared {
				if list.ItemDefaults.EditRange == nil || *list.ItemDefaults.EditRange != want || list.ItemDefaults.InsertTextFormat != 1 || first.TextEdit != nil || first.InsertTextFormat != 0 {
					t.Errorf("defaults %+v, first item %+v", list.ItemDefaults, first)
				}
			} else if list.ItemDefaults.EditRange != nil || first.TextEdit == nil || first.TextEdit.Range != want || first.TextEdit.NewText != first.Label {
				t.Errorf("defaults %+v, first item %+v", list.ItemDefaults, first)
			}
		})
	}
}
