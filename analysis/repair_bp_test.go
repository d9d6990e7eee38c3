package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestRepairLanguage: a blueprint-language document with a syntax error
// in one declaration is analysed with that declaration left out: the
// syntax error is its only diagnostic, the others keep theirs.
func TestRepairLanguage(t *testing.T) {
	src := `version "2025-11-02"

resource a: aws/sqs/queue {
    spec {
        queueName = = "x"
        delaySeconds = unknownFn(1)
    }
}

resource b: aws/sqs/queue {
    spec {
        queueName = variables.missing
    }
}
`
	f := schema.Parse("app.bp", []byte(src))
	res := Analyze(context.Background(), f, Options{Repair: true})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Code+"@"+src[d.Range.Start:d.Range.End])
	}
	want := []string{"bp-syntax@=", "ref-unknown-variable@missing"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	if len(res.Repaired) != 1 || src[res.Repaired[0].Start:res.Repaired[0].Start+10] != "resource a" {
		t.Errorf("left out %v", res.Repaired)
	}
	if res.Lookup(ResourceSymbol, "b") == nil {
		t.Error("resource b is not in the result")
	}
}
