package bplang_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/format"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// TestFormatCorpus: formatting each official example (and a generated
// blueprint) keeps its tree, its comments, and is stable.
func TestFormatCorpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bp/*.bp")
	inputs := map[string][]byte{"generated": gen.Blueprint(8, "bp")}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(p)] = b
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			out, err := bplang.Format(src)
			if err != nil {
				t.Fatal(err)
			}
			f, g := bplang.Parse("a.bp", src), bplang.Parse("b.bp", out)
			if g.HasSyntaxErrors() {
				t.Fatalf("formatted text does not parse: %v\n%s", g.Diagnostics, out)
			}
			if !format.Equal(f.Root, g.Root) {
				t.Fatalf("formatting changed the tree:\n%s", out)
			}
			if n, m := len(bplang.Comments(src)), len(bplang.Comments(out)); n != m {
				t.Errorf("%d comments became %d:\n%s", n, m, out)
			}
			again, err := bplang.Format(out)
			if err != nil || string(again) != string(out) {
				t.Errorf("not stable (%v):\n%s\n---\n%s", err, out, again)
			}
		})
	}
}

// TestFormatLayout pins the canonical layout.
func TestFormatLayout(t *testing.T) {
	src := `version "2025-11-02"
# the region
variable region: string { default = "us-east-1", allowedValues = ["us-east-1", "eu-west-1"] }
resource fn: aws/lambda/function {
  spec {
      functionName = "f" # its name
      environment = { variables = { A = variables.region } }
  }
  condition = variables.region == "eu-west-1"
      && true
}
`
	want := `version "2025-11-02"

# the region
variable region: string {
    default = "us-east-1"
    allowedValues = ["us-east-1", "eu-west-1"]
}

resource fn: aws/lambda/function {
    spec {
        functionName = "f" # its name
        environment = { variables = { A = variables.region } }
    }
    condition = variables.region == "eu-west-1"
      && true
}
`
	out, err := bplang.Format([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := bplang.Format([]byte("resource {")); err == nil || !strings.Contains(err.Error(), "1:10") {
		t.Errorf("a syntax error: %v", err)
	}
}
