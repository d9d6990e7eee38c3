package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// A child analysed under a context that is cancelled is never cached: the
// next caller with a live context gets a complete analysis, and the parent
// analysed under the cancelled context reports no bogus include error.
func TestLoaderCancelledNotCached(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"parent.blueprint.yaml": "version: 2023-04-20\ninclude:\n  child:\n    path: child.blueprint.yaml\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${children.child.name}\n",
		"child.blueprint.yaml":  "version: 2023-04-20\nvariables:\n  n:\n    type: string\n    default: x\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.n}\nexports:\n  name:\n    type: string\n    field: resources.q.spec.queueName\n",
	}
	read := func(path string) ([]byte, error) { return []byte(files[filepath.Base(path)]), nil }
	loader := NewLoader(read, Options{})
	parent := filepath.Join(dir, "parent.blueprint.yaml")
	child := filepath.Join(dir, "child.blueprint.yaml")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := loader.Load(ctx, child, nil); err == nil || res != nil {
		t.Fatalf("cancelled load = %v, %v; want nil and an error", res, err)
	}
	f := schema.Parse(parent, []byte(files["parent.blueprint.yaml"]))
	for _, d := range Analyze(ctx, f, Options{Path: parent, Loader: loader}).Diagnostics {
		if d.Code == codeIncludeMissing.ID {
			t.Errorf("cancelled analysis reported %s: %s", d.Code, d.Message)
		}
	}

	res, err := loader.Load(context.Background(), child, nil)
	if err != nil || res == nil {
		t.Fatalf("live load = %v, %v", res, err)
	}
	if res.Lookup(ExportSymbol, "name") == nil {
		t.Errorf("live load returned an incomplete analysis")
	}
	full := Analyze(context.Background(), f, Options{Path: parent, Loader: loader})
	for _, d := range full.Diagnostics {
		if d.Severity == 1 {
			t.Errorf("unexpected error: %s %s", d.Code, d.Message)
		}
	}
}
