package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestDirectiveTypedIncrementally: a version whose predecessor held no
// suppression directive skips the scan for one unless its edit typed one,
// so typing a directive a character at a time must suppress the
// diagnostic when the directive is complete, and breaking it in the
// middle (a deletion, then text that completes it again across the
// edit) must bring the diagnostic back and take it away again. After
// every edit the diagnostics are those of the same text opened fresh.
func TestDirectiveTypedIncrementally(t *testing.T) {
	h := newHarness(t)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	const name = "directive.blueprint.yaml"
	text := "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope}\n"
	h.open(name, text)
	h.WaitDiagnostics(name, 1)
	m := newTestMapper(text)
	eol := strings.Index(text, "nope}") + len("nope}")
	v := int32(1)
	codes := func(ds []protocol.Diagnostic) string {
		var out []string
		for _, d := range ds {
			code, _ := d.Code.(protocol.String)
			out = append(out, string(code))
		}
		return strings.Join(out, " ")
	}
	step := func(from, to int, typed string) string {
		t.Helper()
		m = newTestMapper(text)
		v++
		h.changeRange(name, v, rng2(m.pos(from), m.pos(to)), typed)
		text = text[:from] + typed + text[to:]
		got := codes(h.WaitDiagnostics(name, v))
		fresh := fmt.Sprintf("fresh%d-%s", v, name)
		h.open(fresh, text)
		if want := codes(h.WaitDiagnostics(fresh, 1)); got != want {
			t.Fatalf("after %q: %q, a fresh open gives %q (text %q)", typed, got, want, text)
		}
		h.close(fresh)
		return got
	}
	directive := " # blueprint-ls:ignore ref-unknown-variable"
	for i := range directive {
		got := step(eol+i, eol+i, directive[i:i+1])
		typed := directive[:i+1]
		// Until the directive's last letter nothing is suppressed; with
		// the code (or none) after it, the diagnostic is.
		whole := typed == " # blueprint-ls:ignore" || typed == directive
		if !strings.Contains(typed, "blueprint-ls:ignore") && !strings.Contains(got, "ref-unknown-variable") ||
			whole && strings.Contains(got, "ref-unknown-variable") {
			t.Fatalf("after typing %q: diagnostics %q", typed, got)
		}
	}
	// Break the directive in its middle, then mend it by typing the
	// missing letters back.
	mid := strings.Index(text, "ls:ignore") + 2
	if got := step(mid, mid+1, ""); !strings.Contains(got, "ref-unknown-variable") {
		t.Fatalf("the broken directive still suppresses: %q", got)
	}
	if got := step(mid, mid, ":"); strings.Contains(got, "ref-unknown-variable") {
		t.Fatalf("the mended directive does not suppress: %q", got)
	}
}
