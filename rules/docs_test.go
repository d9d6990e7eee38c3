package rules_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestRulesDocFresh fails when docs/rules.md does not match the rule
// table; run with -update to regenerate it.
func TestRulesDocFresh(t *testing.T) {
	path := filepath.Join("..", "docs", "rules.md")
	want := rules.Markdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/rules.md is stale: go test ./rules -run TestRulesDocFresh -update")
	}
}
