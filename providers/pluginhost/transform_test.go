package pluginhost

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
)

// handlerBlueprint is the test transformer's fixture, shared with the
// tests of check, plan and the language server: a testx/handler (whose
// memory, 64, AWS refuses once transformed) beside an S3 bucket.
var handlerBlueprint = readHandlerBlueprint()

// handlerBlueprintPath is where the fixture lives, from this package.
const handlerBlueprintPath = "internal/testplugin/testdata/handler.blueprint.yaml"

func readHandlerBlueprint() string {
	data, err := os.ReadFile(handlerBlueprintPath)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// TestTransformer: the test transformer's abstract type and transform
// name join the registry, and running it makes the handler a function
// and a role that name it as their origin.
func TestTransformer(t *testing.T) {
	root := t.TempDir()
	InstallTestTransformer(t, root, "testx-labs", "testx", "1.0.0", "")
	res := Load(context.Background(), Options{Path: root, Helper: helper})
	if len(res.Problems) != 0 || len(res.Plugins) != 1 {
		t.Fatalf("Load = %+v, problems %v", res.Plugins, res.Problems)
	}
	p := res.Plugins[0]
	if p.Kind != KindTransformer || p.Transform != "testx-2026-01-01" || p.Namespace != "testx" {
		t.Errorf("plugin %+v", p.Described)
	}
	reg := registry.NewBuiltin()
	if probs := res.AddTo(reg); len(probs) != 0 {
		t.Fatalf("AddTo: %v", probs)
	}
	h, ok := reg.ResourceType("testx/handler")
	if !ok || h.Err != nil || !strings.Contains(h.Description, "the transformer's own documentation") {
		t.Fatalf("testx/handler: %v %+v", ok, h)
	}
	if _, ok := reg.Transform("testx-2026-01-01"); !ok {
		t.Errorf("transform testx-2026-01-01 unknown")
	}
	tr := res.Transformers()["testx-2026-01-01"]
	if tr.Path != p.Path {
		t.Fatalf("Transformers() = %v", res.Transformers())
	}

	start := time.Now()
	out := Transform(context.Background(), Options{Helper: helper}, TransformRequest{Target: tr.Target, Namespace: tr.Namespace, Format: "yaml", Blueprint: handlerBlueprint})
	t.Logf("transform: %v", time.Since(start))
	if out.Error != "" {
		t.Fatalf("Transform: %s", out.Error)
	}
	if diff := cmp.Diff(map[string]string{"ordersFunction": "orders", "ordersRole": "orders"}, out.Origins); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
	var bp struct {
		Transform any `json:"transform"`
		Resources map[string]struct {
			Type string         `json:"type"`
			Spec map[string]any `json:"spec"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(out.Blueprint, &bp); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for name, r := range bp.Resources {
		got[name] = r.Type
	}
	want := map[string]string{"archive": "aws/s3/bucket", "scratch": "aws/s3/bucket", "ordersFunction": "aws/lambda/function", "ordersRole": "aws/iam/role"}
	if diff := cmp.Diff(want, got); diff != "" || bp.Transform != nil {
		t.Errorf("transformed resources (-want +got):\n%s\ntransform %v", diff, bp.Transform)
	}
	// The same blueprint written in JSON.
	jsonForm := `{"version": "2025-11-02", "transform": "testx-2026-01-01", "resources": {
	  "orders": {"type": "testx/handler", "spec": {"handlerName": "orders", "memory": 64}}}}`
	if j := Transform(context.Background(), Options{Helper: helper}, TransformRequest{Target: tr.Target, Format: "jwcc", Blueprint: jsonForm}); j.Error != "" || j.Origins["ordersRole"] != "orders" {
		t.Errorf("JSON form: %+v", j)
	}
	// The deploy configuration's transformer configuration reaches it.
	params := Params{Transformers: map[string]map[string]any{"testx": {"namePrefix": "prod-"}}, Context: map[string]any{"deployTarget": "aws"}}
	withPrefix := NewRunner(res, Options{Helper: helper}).With(params).Transform(context.Background(), "testx-2026-01-01", "yaml", []byte(handlerBlueprint))
	if withPrefix.Error != "" || !strings.Contains(string(withPrefix.Blueprint), `"functionName":"prod-orders"`) {
		t.Errorf("with the transformer's configuration: %s %s", withPrefix.Error, withPrefix.Blueprint)
	}
	if s := bp.Resources["scratch"].Spec; s == nil || len(s) != 0 {
		t.Errorf("scratch spec %v, want {} (held back and put back)", s)
	}
	if fn := bp.Resources["ordersFunction"].Spec; fn["memorySize"] != 64.0 || fn["role"] != "${resources.ordersRole.state.arn}" {
		t.Errorf("ordersFunction spec %v", fn)
	}
}

// TestMisbehavingTransformers: a transformer that crashes at start,
// hangs or dies in Transform, or answers a blueprint with an untyped
// resource costs at most its timeouts and is one error naming why.
func TestMisbehavingTransformers(t *testing.T) {
	const call = 500 * time.Millisecond
	for mode, want := range map[string]string{
		"crash": "exited before registering with the host (exit status 3): testplugin: crashing at start, as asked",
		"hang":  "transform: no answer within 500ms; gave up",
		"exit":  "exited while transforming the blueprint (exit status 4)",
		"lie":   `transform: answered a blueprint whose resource "ordersFunction" has no type`,
	} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			exe := InstallTestTransformer(t, root, "bad", "testx", "0.1.0", mode)
			target := Target{Path: exe, ID: "bad/testx", Version: "0.1.0", Kind: KindTransformer}
			start := time.Now()
			out := Transform(context.Background(), Options{Helper: helper, CallTimeout: call, LaunchTimeout: 10 * time.Second}, TransformRequest{Target: target, Format: "yaml", Blueprint: handlerBlueprint})
			took := time.Since(start)
			if !strings.Contains(out.Error, want) || len(out.Blueprint) != 0 {
				t.Errorf("error %q, want %q", out.Error, want)
			}
			if took > 5*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// TestPluginFunction: the test provider's function joins the registry
// with its signature and documentation.
func TestPluginFunction(t *testing.T) {
	root := t.TempDir()
	InstallTestPlugin(t, root, "acme-labs", "acme", "1.0.0", "")
	res := Load(context.Background(), Options{Path: root, Helper: helper})
	reg := registry.NewBuiltin()
	if probs := append(res.Problems, res.AddTo(reg)...); len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	var fn *registry.Function
	for _, f := range reg.Functions() {
		if f.Name == "acme_sprocket" {
			fn = f
		}
	}
	if fn == nil {
		t.Fatal("no function acme_sprocket")
	}
	if fn.Provider != "acme" || fn.Description != "Names the sprocket of a widget: the provider's own documentation." ||
		fn.Signature.String() != "func(string, integer?) -> string" || fn.Signature.Params[0].Name != "widget" {
		t.Errorf("function %+v %s", fn, fn.Signature)
	}
	if diff := cmp.Diff([]string{"The widget's name.", "Its size."}, fn.ParamDocs); diff != "" {
		t.Errorf("param docs (-want +got):\n%s", diff)
	}
}
