package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestStateAttributesOverTheProtocol: after `${resources.q.state.` on an
// aws/sqs/queue the server offers the queue's attributes with AWS's
// documentation, directly or through completionItem/resolve; hover on
// the attribute and on the type shows the same text.
func TestStateAttributesOverTheProtocol(t *testing.T) {
	src := "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n  t:\n    type: aws/sns/topic\n    spec:\n      topicName: \"${resources.q.state.}\"\n      displayName: \"${resources.q.state.queueUrl}\"\n"
	h := newHarness(t)
	h.initialize(`{"capabilities":{"textDocument":{"completion":{"completionItem":{"resolveSupport":{"properties":["documentation"]}}}}},"initializationOptions":{"debounceMs":0}}`)
	h.open("q.blueprint.yaml", src)
	h.WaitDiagnostics("q.blueprint.yaml", 1)
	m := newTestMapper(src)
	td := map[string]any{"uri": string(docURI("q.blueprint.yaml"))}

	var list protocol.CompletionList
	at := strings.Index(src, "state.}") + len("state.")
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td, "position": m.pos(at)}, &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"arn":       "Returns the Amazon Resource Name (ARN) of the queue.",
		"queueName": "Returns the queue name.",
		"queueUrl":  "Returns the URLs of the queues from the policy.",
	}
	seen := 0
	for _, it := range list.Items {
		first, ok := want[it.Label]
		if !ok {
			continue
		}
		seen++
		if it.Documentation == nil {
			if len(it.Data) == 0 && list.ItemDefaults != nil {
				it.Data = list.ItemDefaults.Data
			}
			var got protocol.CompletionItem
			if err := h.call(protocol.MethodCompletionItemResolve, it, &got); err != nil {
				t.Fatal(err)
			}
			it = got
		}
		// queueName is also set in spec: the attribute's own text, not
		// the property's ("A name for the queue."), and not read-only.
		if doc := docOf(t, it); !strings.Contains(doc, first) || strings.Contains(doc, "read-only") != (it.Label != "queueName") {
			t.Errorf("%s: documentation %s, want %q (read-only unless queueName)", it.Label, doc, first)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the attributes offered among %d items", seen, len(list.Items))
	}

	for _, tc := range []struct {
		at   int
		want []string
	}{
		{strings.Index(src, "queueUrl}") + 2, []string{"Returns the URLs of the queues from the policy.", "read-only"}},
		{strings.Index(src, "aws/sqs/queue") + 4, []string{"The `AWS::SQS::Queue` resource creates an Amazon SQS standard or FIFO queue.",
			"[Read more](https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-sqs-queue.html)"}},
	} {
		var raw json.RawMessage
		if err := h.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": td, "position": m.pos(tc.at)}, &raw); err != nil {
			t.Fatal(err)
		}
		var hover struct{ Contents struct{ Value string } }
		if err := json.Unmarshal(raw, &hover); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(hover.Contents.Value, w) {
				t.Errorf("hover at %d lacks %q:\n%s", tc.at, w, hover.Contents.Value)
			}
		}
	}
}
