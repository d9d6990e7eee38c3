package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// handlerBlueprint is the test transformer's fixture (shared with the
// plugin host's and the language server's tests).
var handlerBlueprint = func() string {
	data, err := os.ReadFile("../../providers/pluginhost/internal/testplugin/testdata/handler.blueprint.yaml")
	if err != nil {
		panic(err)
	}
	return string(data)
}()

// writeHandler writes handlerBlueprint with memory as given.
func writeHandler(t *testing.T, memory string) string {
	t.Helper()
	bp := filepath.Join(t.TempDir(), "handler.blueprint.yaml")
	if err := os.WriteFile(bp, []byte(strings.Replace(handlerBlueprint, "memory: 64", "memory: "+memory, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return bp
}

// TestCheckWithTransformer: with the test transformer, a problem in the
// function it makes from a handler is reported at the handler's name
// (line 4), the plugin function is checked by its signature; without
// plugins the abstract type is "provider not loaded".
func TestCheckWithTransformer(t *testing.T) {
	root := t.TempDir()
	installTestTransformer(t, root, "testx-labs", "testx", "")
	installTestPlugin(t, root, "acme-labs", "acme", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bp := writeHandler(t, "64")
	code, out, errs := runCmd("check", "--no-summary", "--rules", "none", "--plugins", "--plugin-path", root, bp)
	want := "handler.blueprint.yaml:4:3: error[transformed-resource]: ordersFunction (made by the transform): spec.memorySize must be at least 128, found 64 [resource-bounds]\n"
	if code != 1 || !strings.HasSuffix(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("with plugins: exit %d\n%s%s\nwant %s", code, out, errs, want)
	}
	code, out, _ = runCmd("check", "--no-summary", "--rules", "none", bp)
	if code != 1 || !strings.Contains(out, `handler.blueprint.yaml:5:11: warning[resource-unknown-provider]: provider "testx" is not loaded`) ||
		!strings.Contains(out, `handler.blueprint.yaml:13:21: error[func-unknown]: unknown function "acme_sprocket"`) || strings.Contains(out, "transformed") {
		t.Errorf("without plugins: exit %d\n%s", code, out)
	}
	// The abstract resource's own spec, by the transformer's schema.
	if err := os.WriteFile(bp, []byte(strings.Replace(handlerBlueprint, "nodejs22.x", "java8", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd("check", "--no-summary", "--rules", "none", "--plugins", "--plugin-path", root, bp)
	if want := `handler.blueprint.yaml:8:16: error[resource-enum]: spec.runtime: "java8" is not an allowed value; allowed: nodejs22.x, python3.13`; code != 1 || !strings.Contains(out, want) {
		t.Errorf("bad runtime: exit %d\n%s\nwant %s", code, out, want)
	}
	// A wrong argument to the plugin's function, at the argument.
	if err := os.WriteFile(bp, []byte(strings.Replace(handlerBlueprint, `"orders", 3`, `"orders", "3"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd("check", "--no-summary", "--rules", "none", "--plugins", "--plugin-path", root, bp)
	if want := "handler.blueprint.yaml:13:45: error[func-arg-type]: argument 2 (size) of acme_sprocket must be an integer, not string"; code != 1 || !strings.Contains(out, want) {
		t.Errorf("bad argument: exit %d\n%s\nwant %s", code, out, want)
	}
}

// TestPlanWithTransformer: plan shows the concrete resources under the
// abstract one they came from; the plugin function's value is known
// after deploy.
func TestPlanWithTransformer(t *testing.T) {
	root := t.TempDir()
	installTestTransformer(t, root, "testx-labs", "testx", "")
	installTestPlugin(t, root, "acme-labs", "acme", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bp := writeHandler(t, "256")
	code, out, errs := runCmd("plan", "--plugins", "--plugin-path", root, bp)
	want := `Resources:
  + archive (aws/s3/bucket) will be created [stage 1]
      bucketName: (known after deploy)
  orders (testx/handler), transformed into:
    + ordersFunction (aws/lambda/function) will be created [stage 2]
        code.zipFile: "exports.handler = async () => {}"
        functionName: "orders"
        memorySize: 256
        role: (known after deploy)
        runtime: "nodejs22.x"
    + ordersRole (aws/iam/role) will be created [stage 1]
`
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("plan: exit %d\n%s%s\nwant\n%s", code, out, errs, want)
	}
	code, out, _ = runCmd("plan", "--plugins", "--plugin-path", root, "--format", "json", bp)
	if code != 0 || !strings.Contains(out, `"from": "orders",`) || !strings.Contains(out, `"fromType": "testx/handler"`) {
		t.Errorf("plan json: exit %d\n%s", code, out)
	}
	// The deploy configuration's transformer configuration reaches the
	// transformer (the project: a repository).
	for name, content := range map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		"bluelink.deploy.jsonc": `{"transformers": {"testx": {"namePrefix": "prod-"}}}`,
	} {
		p := filepath.Join(filepath.Dir(bp), name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs = runCmd("plan", "--plugins", "--plugin-path", root, bp)
	if code != 0 || !strings.Contains(out, `        functionName: "prod-orders"`) {
		t.Errorf("plan with a deploy configuration: exit %d\n%s%s", code, out, errs)
	}
	// A problem in a concrete resource stops the plan, at the handler.
	code, _, errs = runCmd("plan", "--plugins", "--plugin-path", root, writeHandler(t, "64"))
	if code != 1 || !strings.Contains(errs, "handler.blueprint.yaml:4:3: error[transformed-resource]: ordersFunction (made by the transform): spec.memorySize must be at least 128") {
		t.Errorf("plan with a bad memory: exit %d\n%s", code, errs)
	}
}

// TestMisbehavingTransformerInCheck: a transformer that hangs, dies or
// answers a blueprint with an untyped resource costs at most its call
// timeout and is one transform-failed diagnostic at the transform field
// (2:12); the blueprint is still checked as written.
func TestMisbehavingTransformerInCheck(t *testing.T) {
	for mode, why := range map[string]string{
		"hang": "transform: no answer within 3s; gave up",
		"exit": "exited while transforming the blueprint (exit status 4)",
		"lie":  `transform: answered a blueprint whose resource "ordersFunction" has no type`,
	} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			installTestTransformer(t, root, "testx-labs", "testx", mode)
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			bp := writeHandler(t, "64")
			start := time.Now()
			code, out, errs := runCmd("check", "--no-summary", "--rules", "none", "--plugins", "--plugin-path", root, bp)
			took := time.Since(start)
			want := "handler.blueprint.yaml:2:12: error[transform-failed]: transform testx-2026-01-01 failed: " + why
			if code != 1 || !strings.Contains(out, want) || strings.Count(out, "transform-failed") != 1 || strings.Contains(out, "transformed-resource") {
				t.Errorf("exit %d\n%s%s\nwant %s", code, out, errs, want)
			}
			if took > 12*time.Second {
				t.Errorf("check took %v", took)
			}
		})
	}
}

// TestEvalPluginFunction: eval never calls a plugin: a call to the
// plugin's function (with --plugins) or to a provider file's is known
// after deploy; without plugins the plugin's is unknown.
func TestEvalPluginFunction(t *testing.T) {
	root := t.TempDir()
	installTestPlugin(t, root, "acme-labs", "acme", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, tc := range []struct {
		args      []string
		code      int
		out, errs string
	}{
		{[]string{"eval", "--plugins", "--plugin-path", root, `${acme_sprocket("orders", 3)}`}, 0, `{"$unknown":"acme_sprocket(..), computed by its provider"}` + "\n", ""},
		{[]string{"eval", `${aws_arn("s3", "orders")}`}, 0, `{"$unknown":"aws_arn(..), computed by its provider"}` + "\n", ""},
		{[]string{"eval", `${acme_sprocket("orders", 3)}`}, 1, "", "<template>:1:3: error[eval-unknown-function]: unknown function acme_sprocket\n"},
	} {
		code, out, errs := runCmd(tc.args...)
		if code != tc.code || out != tc.out || errs != tc.errs {
			t.Errorf("%v: exit %d\n%s%s\nwant exit %d\n%s%s", tc.args, code, out, errs, tc.code, tc.out, tc.errs)
		}
	}
}
