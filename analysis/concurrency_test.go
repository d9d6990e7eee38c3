package analysis

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/sourcegraph/conc/pool"
)

// TestParallelSharedLoader analyses many files at once with one Loader,
// including files that include each other from different parents (which
// once deadlocked), and checks each child is analysed once per content.
// Run with -race.
func TestParallelSharedLoader(t *testing.T) {
	dir, _ := filepath.Abs("testdata/children")
	var reads atomic.Int64
	loader := NewLoader(func(p string) ([]byte, error) {
		reads.Add(1)
		return os.ReadFile(p)
	}, Options{})
	parents := []string{
		"include:\n  a:\n    path: cycle-a.blueprint.yaml\n",
		"include:\n  b:\n    path: cycle-b.blueprint.yaml\n",
		"include:\n  s:\n    path: simple.blueprint.yaml\n    variables:\n      name: x\n",
		"include:\n  g:\n    path: grandparent.blueprint.yaml\n",
	}
	type job struct{ path, text string }
	var jobs []job
	for i := 0; i < 64; i++ {
		jobs = append(jobs, job{filepath.Join(dir, "parent.blueprint.yaml"), "version: 2023-04-20\n" + parents[i%len(parents)]})
		if i%8 == 0 {
			for _, name := range []string{"cycle-a", "cycle-b", "simple", "grandparent"} {
				p := filepath.Join(dir, name+".blueprint.yaml")
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				jobs = append(jobs, job{p, string(data)})
			}
		}
	}
	results := make([]*Result, len(jobs))
	p := pool.New().WithMaxGoroutines(8)
	for i, j := range jobs {
		p.Go(func() {
			results[i] = Analyze(context.Background(), schema.Parse(j.path, []byte(j.text)), Options{Path: j.path, Loader: loader})
		})
	}
	p.Wait()
	for i, r := range results {
		for _, d := range r.Diagnostics {
			if d.Code == CodeInternal.ID {
				t.Errorf("job %d: %s", i, d.Message)
			}
		}
	}
	// A parent including simple gets its exports typed.
	// Every parent including simple gets the one cached analysis of it.
	var shared *Result
	for _, r := range results {
		c, ok := r.Children["s"]
		if !ok {
			continue
		}
		if !c.loaded() || c.Result.Lookup(ExportSymbol, "topicArn") == nil {
			t.Fatalf("child not loaded: %+v", c)
		}
		if shared == nil {
			shared = c.Result
		} else if c.Result != shared {
			t.Errorf("simple.blueprint.yaml analysed more than once")
		}
	}
	if shared == nil {
		t.Fatal("no parent included simple.blueprint.yaml")
	}
	if reads.Load() == 0 {
		t.Errorf("the loader's ReadFile was never used")
	}
}
