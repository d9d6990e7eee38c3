// Package plantest holds test helpers that need the plan engine: what a
// blueprint means, without positions, so that two writings of it (a
// conversion, a refactoring) can be compared. Only tests import it.
package plantest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
)

// Meaning is what the blueprint at path with content means without
// positions: its diagnostics (severity, code, message), sorted, and its
// plan as JSON (without the file it names).
func Meaning(t testing.TB, path string, content []byte) string {
	t.Helper()
	p, diags, err := engine.PlanFile(context.Background(), path, content, eval.Inputs{}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range diags {
		lines = append(lines, fmt.Sprintf("%v %s: %s", d.Severity, d.Code, d.Message))
	}
	slices.Sort(lines)
	out := strings.Join(lines, "\n")
	if p != nil {
		p.Path = "" // the plan names its file
		out += "\nplan: " + string(engine.JSON(p))
	}
	return out
}
