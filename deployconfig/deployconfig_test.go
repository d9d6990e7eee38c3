package deployconfig

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
)

// writeTree creates files (path → content; a path ending in / is a
// directory) under a new temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// summary flattens a config for comparison: section.name=value.
func summary(c *Config) []string {
	if c == nil {
		return nil
	}
	var out []string
	add := func(prefix string, vs Values) {
		for _, n := range vs.Names() {
			out = append(out, prefix+n+"="+text(vs[n]))
		}
	}
	for _, ns := range sortedKeys(c.Providers) {
		add("providers."+ns+".", c.Providers[ns])
	}
	for _, ns := range sortedKeys(c.Transformers) {
		add("transformers."+ns+".", c.Transformers[ns])
	}
	add("context.", c.ContextVariables)
	add("vars.", c.BlueprintVariables)
	return out
}

func sortedKeys(m map[string]Values) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slicesSort(out)
	return out
}

const (
	canonicalFile = `{
  // canonical
  "providers": {"aws": {"region": "eu-west-2"}},
  "transformers": {"celerity": {}},
  "contextVariables": {"deployTarget": "aws-serverless"},
  "blueprintVariables": {"env": "prod", "port": 8080, "debug": false,},
  "dependencies": {"newstack-cloud/aws": "~2.2.1"}
}`
	appFile = `{
  // Celerity authoring format
  "appName": "walk-app",
  "deployTarget": {
    "name": "aws-serverless",
    "appEnv": "development",
    "config": {
      "aws.region": "us-east-1",
      /* the transformer's */
      "aws.sqs.messageRetentionPeriod": 60,
      "aws.lambda.memorySize": 512
    }
  },
  "contextVariables": {"custom": "x"},
  "blueprintVariables": {"logLevel": "debug"}
}`
)

func TestFind(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		from  string // the blueprint's directory, relative to the tree
		opts  Options
		want  string // relative to the tree; "" for none
		err   string
	}{
		{name: "canonical, found from nested folders", files: map[string]string{".git/": "", "bluelink.deploy.jsonc": canonicalFile, "a/b/c/": ""}, from: "a/b/c", want: "bluelink.deploy.jsonc"},
		{name: "Celerity app config, found from nested folders", files: map[string]string{".git/": "", "app.deploy.jsonc": appFile, "nested/deeper/": ""}, from: "nested/deeper", want: "app.deploy.jsonc"},
		{name: "canonical wins over Celerity's in one folder", files: map[string]string{".git/": "", "app.deploy.jsonc": appFile, "bluelink.deploy.jsonc": canonicalFile}, want: "bluelink.deploy.jsonc"},
		{name: "authoring file wins over the generated one", files: map[string]string{".git/": "", "app.deploy.jsonc": appFile, ".celerity/deploy-config.json": canonicalFile}, want: "app.deploy.jsonc"},
		{name: "generated file alone", files: map[string]string{".git/": "", ".celerity/deploy-config.json": canonicalFile}, want: ".celerity/deploy-config.json"},
		{name: "the nearest folder wins", files: map[string]string{".git/": "", "bluelink.deploy.jsonc": canonicalFile, "svc/app.deploy.jsonc": appFile}, from: "svc", want: "svc/app.deploy.jsonc"},
		{name: "environment variants are not picked by themselves", files: map[string]string{".git/": "", "bluelink.deploy.dev.jsonc": canonicalFile, "bluelink.deploy.prod.jsonc": canonicalFile}},
		{name: "a template is not a configuration", files: map[string]string{".git/": "", "bluelink.deploy.template.jsonc": canonicalFile}},
		{name: "an environment variant named explicitly, from a nested folder", files: map[string]string{".git/": "", "bluelink.deploy.dev.jsonc": canonicalFile, "bluelink.deploy.prod.jsonc": canonicalFile, "x/": ""}, from: "x", opts: Options{File: "bluelink.deploy.prod.jsonc"}, want: "bluelink.deploy.prod.jsonc"},
		{name: "Celerity environment variant named explicitly", files: map[string]string{".git/": "", "app.deploy.staging.jsonc": appFile}, opts: Options{File: "app.deploy.staging.jsonc"}, want: "app.deploy.staging.jsonc"},
		{name: "an explicit name replaces the conventional ones", files: map[string]string{".git/": "", "bluelink.deploy.jsonc": canonicalFile, "x/": ""}, from: "x", opts: Options{File: "custom-deploy-config.json"}, err: "custom-deploy-config.json: file does not exist"},
		{name: "candidate names replace the conventional ones", files: map[string]string{".git/": "", "bluelink.deploy.jsonc": canonicalFile, "deploy/my.json": canonicalFile}, opts: Options{Names: []string{"deploy/my.json"}}, want: "deploy/my.json"},
		{name: "the walk stops at the repository root", files: map[string]string{"bluelink.deploy.jsonc": canonicalFile, "repo/.git/": "", "repo/svc/": ""}, from: "repo/svc"},
		{name: "the walk stops at the workspace root, which it searches", files: map[string]string{"bluelink.deploy.jsonc": canonicalFile, "ws/app.deploy.jsonc": appFile, "ws/svc/": ""}, from: "ws/svc", opts: Options{Boundaries: []string{"ws"}}, want: "ws/app.deploy.jsonc"},
		{name: "nothing above the workspace root", files: map[string]string{"bluelink.deploy.jsonc": canonicalFile, "ws/svc/": ""}, from: "ws/svc", opts: Options{Boundaries: []string{"ws"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			o := tt.opts
			for i, b := range o.Boundaries {
				o.Boundaries[i] = filepath.Join(root, b)
			}
			got, err := Find(filepath.Join(root, tt.from), o)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Find: err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.want != "" {
				want = filepath.Join(root, filepath.FromSlash(tt.want))
			}
			if got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}

func TestFindConfinedToRoots(t *testing.T) {
	root := writeTree(t, map[string]string{".git/": "", "bluelink.deploy.jsonc": canonicalFile, "proj/svc/": ""})
	o := Options{Roots: safefs.NewRoots(filepath.Join(root, "proj"))}
	got, err := Find(filepath.Join(root, "proj", "svc"), o)
	if err != nil || got != "" {
		t.Errorf("Find outside the project = %q, %v; want none", got, err)
	}
	o.File = filepath.Join(root, "bluelink.deploy.jsonc")
	if _, err := Find(filepath.Join(root, "proj", "svc"), o); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("explicit file outside the project: err %v", err)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		path  string
		text  string
		want  []string
		diags []string // code@line:col message
	}{
		{name: "canonical", path: "bluelink.deploy.jsonc", text: canonicalFile, want: []string{
			"providers.aws.region=eu-west-2", "context.deployTarget=aws-serverless",
			"vars.debug=false", "vars.env=prod", "vars.port=8080",
		}},
		{name: "Celerity's format converted as the CLI does", path: "app.deploy.jsonc", text: appFile, want: []string{
			"providers.aws.region=us-east-1",
			"transformers.celerity.aws.lambda.memorySize=512", "transformers.celerity.aws.sqs.messageRetentionPeriod=60",
			"context.appEnv=development", "context.celerity.appName=walk-app", "context.custom=x", "context.deployTarget=aws-serverless",
			"vars.logLevel=debug",
		}},
		{name: "an environment variant is Celerity's format too", path: "app.deploy.staging.jsonc", text: `{"appName": "staging-app", "deployTarget": {"name": "aws", "appEnv": "staging"}}`, want: []string{
			"context.appEnv=staging", "context.celerity.appName=staging-app", "context.deployTarget=aws",
		}},
		{name: "malformed: one diagnostic at its line", path: "app.deploy.jsonc", text: "{\n  \"appName\": \"broken-app\",\n  \"deployTarget\": { \"name\": }\n}\n",
			diags: []string{"deploy-config-invalid@3:29 the deploy configuration does not parse: "}},
		{name: "unsupported deploy target", path: "app.deploy.jsonc", text: "{\n  \"deployTarget\": {\"name\": \"not-a-real-target\"}\n}",
			diags: []string{`deploy-config-invalid@2:28 deploy target "not-a-real-target" is not one Celerity deploys to`}},
		{name: "no deploy target name", path: "app.deploy.jsonc", text: `{"deployTarget": {}}`,
			diags: []string{"deploy-config-invalid@1:2 deployTarget has no name"}},
		{name: "a section that is not an object", path: "bluelink.deploy.jsonc", text: `{"blueprintVariables": [1]}`,
			diags: []string{`deploy-config-invalid@1:24 "blueprintVariables" must be an object`}},
		{name: "a value that is not a scalar is dropped", path: "bluelink.deploy.jsonc", text: `{"blueprintVariables": {"a": 1, "b": {"c": 2}}}`,
			want:  []string{"vars.a=1"},
			diags: []string{`deploy-config-value@1:38 "b" is not a string, number or boolean; it is ignored`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse(tt.path, []byte(tt.text))
			if diff := cmp.Diff(tt.want, summary(c)); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			var got []string
			for _, d := range c.Diagnostics {
				l, col := c.Mapper.LineCol(d.Range.Start, 0)
				got = append(got, d.Code+"@"+itoa(l)+":"+itoa(col)+" "+d.Message)
			}
			if len(got) != len(tt.diags) {
				t.Fatalf("diagnostics %q, want %q", got, tt.diags)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.diags[i]) {
					t.Errorf("diagnostic %q, want prefix %q", got[i], tt.diags[i])
				}
			}
			if c.Usable() != (len(tt.diags) == 0 || !strings.Contains(tt.diags[0], "invalid")) {
				t.Errorf("Usable = %v", c.Usable())
			}
		})
	}
}

func TestResolveReadsTheFile(t *testing.T) {
	root := writeTree(t, map[string]string{".git/": "", "app.deploy.jsonc": appFile, "svc/": ""})
	c, err := Resolve(filepath.Join(root, "svc"), Options{Roots: safefs.NewRoots(root)})
	if err != nil {
		t.Fatal(err)
	}
	if c == nil || c.Path != filepath.Join(root, "app.deploy.jsonc") || text(c.BlueprintVariables["logLevel"]) != "debug" {
		t.Fatalf("Resolve = %+v", c)
	}
	r := c.BlueprintVariables["logLevel"].Range
	if got := appFile[r.Start:r.End]; got != `"debug"` {
		t.Errorf("the value's range holds %q", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func slicesSort(s []string) { slices.Sort(s) }

// text prints a scalar value.
func text(v Value) string {
	s, err := funcs.Interpolate(v.Value)
	if err != nil {
		return "?" + err.Error()
	}
	return s
}

// TestTransformerParams: what a transform runs with, as Go scalars; a
// configuration with errors gives nothing.
func TestTransformerParams(t *testing.T) {
	c := Parse("app.deploy.jsonc", []byte(appFile))
	transformers, vars := c.TransformerParams()
	want := map[string]map[string]any{"celerity": {"aws.lambda.memorySize": int64(512), "aws.sqs.messageRetentionPeriod": int64(60)}}
	if diff := cmp.Diff(want, transformers); diff != "" {
		t.Errorf("transformers (-want +got):\n%s", diff)
	}
	wantVars := map[string]any{"appEnv": "development", "celerity.appName": "walk-app", "custom": "x", "deployTarget": "aws-serverless"}
	if diff := cmp.Diff(wantVars, vars); diff != "" {
		t.Errorf("context variables (-want +got):\n%s", diff)
	}
	broken := Parse("app.deploy.jsonc", []byte(`{"deployTarget": {}}`))
	if tr, vs := broken.TransformerParams(); tr != nil || vs != nil {
		t.Errorf("a configuration with errors: %v %v", tr, vs)
	}
	var none *Config
	if tr, vs := none.TransformerParams(); tr != nil || vs != nil {
		t.Errorf("no configuration: %v %v", tr, vs)
	}
}
