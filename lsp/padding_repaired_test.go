package lsp

import (
	"strings"
	"testing"
)

// TestRepairedPaddingRefused: with a syntax error in the text, "? " typed
// at the start of a section's key line makes the padded key lines below
// it part of an explicit key, which the repaired analysis quotes in a
// message. The padding no longer fits the repaired parse: the snapshot is
// refused and analysed from the client's text, as a fresh open would be
// (found by TestLSPEditsEqualFresh on the Celerity docs' blueprints).
func TestRepairedPaddingRefused(t *testing.T) {
	const name = "padded.blueprint.yaml"
	content := `version: 2023-04-20
values:
  a:
    type: string
    value: ${values.b}-a
  b:
    type: string
    value: ${values.a}-b
resources:
  producer:
    type: aws/sqs/queue
    spec:
      queueName: producer
  consumer:
    type: aws/sqs/queue
    spec:
      queueName: consumer
`
	edited := newHarness(t)
	edited.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	fresh := newHarness(t)
	fresh.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	edited.open(name, content)
	edited.WaitDiagnostics(name, 1)
	if snap := edited.srv.session.current().snapshot(string(docURI(name))); snap.File().Mapper.Slack().Len() == 0 {
		t.Fatal("the document was not padded at the open: the test tests nothing")
	}
	// A syntax error in a value (the text parsed clean when it was
	// padded), then "? " typed at the resources section's key.
	v := int32(1)
	for _, e := range []struct{ at, del, ins string }{
		{"value: ${values.a}-b", "", "\n  - oops"},
		{"resources:", "", "? "},
	} {
		at := strings.Index(content, e.at)
		if e.del == "" && e.ins[0] == '\n' {
			at += len(e.at)
		}
		m := newTestMapper(content)
		v++
		edited.changeRange(name, v, rng2(m.pos(at), m.pos(at+len(e.del))), e.ins)
		content = content[:at] + e.ins + content[at+len(e.del):]
		edited.WaitDiagnostics(name, v)
	}
	got := edited.WaitDiagnostics(name, v)
	if !strings.Contains(jsonOf(t, got), "spec-unknown-field") {
		t.Fatalf("no message quoting the explicit key: %s", jsonOf(t, got))
	}
	if diff, _ := differsFromFresh(t, edited, fresh, name, "fresh-"+name, content, got); diff != "" {
		t.Fatal(diff)
	}
	snap := edited.srv.session.current().snapshot(string(docURI(name)))
	if text, _ := parsedClient(snap); string(text) != content {
		t.Fatalf("the server's text, without its padding, is not the client's:\n%s", text)
	}
}
