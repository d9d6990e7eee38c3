package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestFanOutEqualsSequential analyses every testdata blueprint and
// generated ones twice, fanned out (in chunks of two resources, so that
// every document with resources fans out, over several chunks) and
// sequentially, and compares everything the features and `check` read:
// the flat lists with the symbols they name, the diagnostics in their
// order, the sites' types. Fanned out, it analyses each document twice:
// with the workers validating, and with none (fanOutLater 0), the main
// goroutine then validating every chunk from the last (helpValidate)
// and selecting the links. Run with -race.
func TestFanOutEqualsSequential(t *testing.T) {
	files := testdataBlueprints(t)
	type doc struct {
		name string
		data []byte
	}
	var docs []doc
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{path, data})
	}
	for _, n := range []int{7, 600} {
		for _, format := range []string{"yaml", "json", "bp"} {
			name := fmt.Sprintf("gen%d.blueprint.%s", n, format)
			if format == "bp" {
				name = fmt.Sprintf("gen%d.bp", n)
			}
			docs = append(docs, doc{name, gen.Blueprint(n, format)})
		}
	}
	// Templates with their own diagnostics, in several resources.
	docs = append(docs, doc{"broken.blueprint.yaml", []byte(`version: 2025-05-12
variables:
  env:
    type: string
resources:
  a:
    type: aws/sqs/queue
    spec:
      queueName: "${variables.env"
  b:
    type: aws/sqs/queue
    spec:
      queueName: "${variables.}"
  c:
    type: aws/sqs/queue
    spec:
      queueName: "x-${len(}"
`)})
	// Selections without a match, names in dependsOn and exclude, in
	// several resources (their diagnostics are reported in order).
	docs = append(docs, doc{"links.blueprint.yaml", []byte(`version: 2025-05-12
resources:
  a:
    type: aws/sqs/queue
    metadata:
      labels: {app: orders}
    linkSelector:
      byLabel: {app: none}
    spec:
      queueName: a
  b:
    type: aws/lambda/function
    dependsOn: [a, nosuch]
    linkSelector:
      byLabel: {app: orders}
      exclude: [c]
    spec:
      handler: x
  c:
    type: aws/sqs/queue
    metadata:
      labels: {app: orders}
    linkSelector:
      byLabel: {app: other}
    spec:
      queueName: c
`)})
	// Spec substitutions of the wrong type, at the top of a spec and in
	// a list, in several resources, beside a template with its own error.
	docs = append(docs, doc{"mismatch.blueprint.yaml", []byte(`version: 2023-04-20
variables:
  delay:
    type: string
  n:
    type: integer
resources:
  a:
    type: aws/sqs/queue
    spec:
      delaySeconds: ${variables.delay}
      queueName: ${variables.n}
  b:
    type: aws/sqs/queue
    spec:
      queueName: "${variables.}"
      delaySeconds: ${variables.delay}
  c:
    type: aws/lambda/function
    spec:
      timeout: ${variables.delay}
      layers: ["${variables.delay}", "${variables.n}"]
      tags:
        - key: k
          value: ${variables.n}
`)})
	defer func(lo, chunk int, later func() int) {
		fanOutMin, fanOutChunk, fanOutLater = lo, chunk, later
	}(fanOutMin, fanOutChunk, fanOutLater)
	workers := fanOutLater
	analyse := func(d doc, lo, chunk int, later func() int) *Result {
		fanOutMin, fanOutChunk, fanOutLater = lo, chunk, later
		return Analyze(context.Background(), schema.Parse("file://"+d.name, d.data), Options{Path: d.name, Repair: true})
	}
	none := func() int { return 0 }
	fanned := 0
	for _, d := range docs {
		seq := analyse(d, 1<<30, 1, workers)
		for _, par := range []*Result{analyse(d, 1, 2, workers), analyse(d, 1, 2, none)} {
			if !sameAsSequential(t, d.name, par, seq) {
				break
			}
		}
		if d.name == "mismatch.blueprint.yaml" {
			n := 0
			for _, x := range seq.Diagnostics {
				if x.Code == codeTypeMismatch.ID {
					n++
				}
			}
			if n < 3 {
				t.Errorf("%s: %d type mismatches, want 3 or more:\n%v", d.name, n, seq.Diagnostics)
			}
		}
		if seq.Blueprint != nil && seq.Blueprint.Resources.Len() > 0 {
			fanned++
		}
	}
	if fanned < 100 {
		t.Errorf("only %d documents fanned out", fanned)
	}
}

// sameAsSequential reports, as errors of t, how the fanned-out analysis
// par of the document name differs from the sequential seq; false when
// it does.
func sameAsSequential(t *testing.T, name string, par, seq *Result) bool {
	t.Helper()
	if diff := sameAnalysis(par, seq); diff != "" {
		t.Errorf("%s: fanned out differs from sequential: %s", name, diff)
		return false
	}
	// What an incremental analysis carries over: the diagnostics in
	// the order they were reported, the label index.
	if !reflect.DeepEqual(par.own, seq.own) {
		t.Errorf("%s: fanned out reported its diagnostics in another order", name)
		return false
	}
	if (par.wide == nil) != (seq.wide == nil) || par.wide != nil && !reflect.DeepEqual(par.wide.labels, seq.wide.labels) {
		t.Errorf("%s: fanned out made another label index", name)
		return false
	}
	if g, w := listsOf(par), listsOf(seq); g != w {
		t.Errorf("%s: fanned out differs from sequential: %s", name, firstDiff(g, w))
		return false
	}
	return true
}

// BenchmarkAnalyzeFanOut is a whole analysis of a parsed 5,000-resource
// blueprint, sequential and fanned out (fanout.go): the wall time shows
// what the second core gives when it is free, the CPU time (user+sys of
// the run) what the fan-out costs. Where the system counts each
// thread's CPU (Linux), it also reports main-cpu-ms, the median CPU of
// the goroutine that calls Analyze (locked to its thread): the
// sequential path an open waits for when the other cores are free, which
// a loaded machine inflates far less than the wall time; and cpu-ms, the
// process's.
//
//	go test ./analysis -run '^$' -bench AnalyzeFanOut -count 5
func BenchmarkAnalyzeFanOut(b *testing.B) {
	data := gen.Blueprint(5000, "yaml")
	BuiltinRegistry()
	f := schema.Parse("bench.blueprint.yaml", data)
	defer func(lo int) { fanOutMin = lo }(fanOutMin)
	for _, mode := range []struct {
		name string
		min  int
	}{{"sequential", 1 << 30}, {"fanout", 512}} {
		b.Run(mode.name, func(b *testing.B) {
			fanOutMin = mode.min
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var main, proc []time.Duration
			for b.Loop() {
				t0, ok := threadCPU()
				p0 := processCPU()
				Analyze(context.Background(), f, Options{})
				if t1, _ := threadCPU(); ok {
					main = append(main, t1-t0)
				}
				proc = append(proc, processCPU()-p0)
			}
			reportMedian(b, main, "main-cpu-ms")
			reportMedian(b, proc, "cpu-ms")
		})
	}
}

// processCPU is the CPU time (user and system, every thread) the test
// process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportMedian reports the median of ds in milliseconds as unit (none
// when ds is empty).
func reportMedian(b *testing.B, ds []time.Duration, unit string) {
	if len(ds) == 0 {
		return
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	b.ReportMetric(float64(s[(len(s)-1)/2].Microseconds())/1000, unit)
}

// testdataBlueprints lists the Bluelink blueprints under testdata, YAML,
// JSON and the blueprint language (at least 100 of them).
func testdataBlueprints(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../testdata/*/*.blueprint.*", "../testdata/*/*/*.blueprint.*", "../testdata/*/*/*/*.blueprint.*", "../testdata/*/*.bp", "../testdata/*/*/*.bp"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d testdata blueprints", len(files))
	}
	return files
}
