package eval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// lazyCase reads resources' specs every way a reference can: a field,
// a quoted field, the whole spec, the whole instance, an each resource's
// instances by index and as a list, a field left out (with and without a
// provider default), and exports of them.
const lazyCase = `version: 2023-04-20
variables:
  names:
    type: string
    default: "a,b"
resources:
  buckets:
    type: aws/s3/bucket
    each: ${split(variables.names, ",")}
    metadata:
      displayName: bucket ${i}
      labels: {app: "${elem}"}
      custom: {suppressedRules: [s3-bucket-logging]}
    spec:
      bucketName: bucket-${elem}
      tags: [{key: i, value: "${i}"}]
  queue:
    type: aws/sqs/queue
    spec:
      queueName: ${resources.buckets[1].spec.bucketName}-q
      delaySeconds: ${len(resources.buckets)}
      visibilityTimeout: 30
      visibilityTimeout: 40
  topic:
    type: aws/sns/topic
    spec:
      displayName: ${resources.queue.spec["queueName"]}
      topicName: ${keys(resources.queue.spec)[0]}
      kmsMasterKeyId: ${resources.queue.spec.visibilityTimeout}
      fifoTopic: ${resources.queue.spec.maximumMessageSize}
      tags: ${resources.buckets[0].spec.tags}
    metadata:
      displayName: ${resources.buckets[1].metadata.displayName}
      labels: ${resources.buckets[0].metadata["labels"]}
      annotations: {third: "${keys(resources.buckets[1].metadata)[2]}"}
  whole:
    type: aws/sns/topic
    spec:
      displayName: ${jsonencode(resources.topic)}
exports:
  name:
    type: string
    field: resources.queue.spec.queueName
  size:
    type: integer
    field: resources.queue.spec.messageRetentionPeriod
`

// TestLazyEqualsEager evaluates every test blueprint (and lazyCase)
// eagerly and lazily (Options.Lazy, as check's rules do): once the lazy
// specs are read whole, every definition has the same value.
func TestLazyEqualsEager(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.blueprint.yaml")
	dir := t.TempDir()
	extra := filepath.Join(dir, "lazy.blueprint.yaml")
	if err := os.WriteFile(extra, []byte(lazyCase), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range append(files, extra) {
		name := strings.TrimSuffix(filepath.Base(path), ".blueprint.yaml")
		t.Run(name, func(t *testing.T) {
			res := analyze(t, path)
			in := loadInputs(t, filepath.Join("testdata", name+".inputs.json"))
			dump := func(lazy bool) string {
				bp, err := eval.Eval(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}, Lazy: lazy})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range bp.Resources {
					r.FullSpec()
					r.FullMetadata()
				}
				bp.Diagnostics = nil // the problems of fields nobody read are not reported
				return eval.Dump(bp)
			}
			eager := dump(false)
			if name == "lazy" && !strings.Contains(eager, "annotations") {
				t.Fatalf("the case does not read what it is written to:\n%s", eager)
			}
			if diff := cmp.Diff(eager, dump(true)); diff != "" {
				t.Errorf("lazy evaluation differs (-eager +lazy):\n%s", diff)
			}
		})
	}
}

// TestWrittenMapping: a mapping written as one is told without
// evaluating; anything else (a substitution, a duplicate key whose last
// value is not a mapping) is left to the evaluation.
func TestWrittenMapping(t *testing.T) {
	const doc = `version: 2023-04-20
resources:
  fn:
    type: aws/lambda/function
    spec:
      environment:
        variables: {A: a}
        Other: {B: b}
        later: {C: c}
        later: ${variables.x}
      vpcConfig: ${variables.x}
variables:
  x:
    type: string
    default: x
`
	dir := t.TempDir()
	path := filepath.Join(dir, "w.blueprint.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	res := analyze(t, path)
	for _, lazy := range []bool{false, true} {
		bp, err := eval.Eval(context.Background(), res, eval.Inputs{}, eval.Options{Lazy: lazy})
		if err != nil {
			t.Fatal(err)
		}
		r := bp.Resource("fn")
		for _, c := range []struct {
			keys, upper []string
			want        bool
		}{
			{[]string{"environment", "variables"}, []string{"Environment", "Variables"}, true},
			{[]string{"environment", "other"}, []string{"Environment", "Other"}, true},
			{[]string{"environment", "other"}, []string{"Environment", ""}, false},
			{[]string{"environment", "later"}, []string{"Environment", "Later"}, false},
			{[]string{"vpcConfig"}, []string{"VpcConfig"}, false},
			{[]string{"missing"}, []string{"Missing"}, false},
		} {
			if got := r.WrittenMapping(c.keys, c.upper); got != (c.want && lazy) {
				t.Errorf("lazy %v: WrittenMapping(%v) = %v, want %v", lazy, c.keys, got, c.want && lazy)
			}
		}
	}
}
