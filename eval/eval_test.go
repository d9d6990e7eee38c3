package eval_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// testInputs is the form of testdata/NAME.inputs.json.
type testInputs struct {
	Vars []string                   `json:"vars"`
	Data map[string]json.RawMessage `json:"data"`
	// State is a prior state document (docs/plan.md).
	State json.RawMessage `json:"state"`
}

func analyze(t *testing.T, path string) *analysis.Result {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := schema.Parse(path, content)
	return analysis.Analyze(context.Background(), f, analysis.Options{Path: path, Loader: analysis.NewLoader(nil, analysis.Options{})})
}

func loadInputs(t *testing.T, path string) eval.Inputs {
	t.Helper()
	var in eval.Inputs
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return in
	}
	if err != nil {
		t.Fatal(err)
	}
	var ti testInputs
	if err := json.Unmarshal(data, &ti); err != nil {
		t.Fatal(err)
	}
	for _, v := range ti.Vars {
		if err := in.AddVar(v); err != nil {
			t.Fatal(err)
		}
	}
	if ti.State != nil {
		st, err := eval.ParseState(ti.State)
		if err != nil {
			t.Fatal(err)
		}
		in.State = st
	}
	for name, raw := range ti.Data {
		v, err := funcs.ParseJSON(raw)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := v.Map()
		if in.Data == nil {
			in.Data = map[string]map[string]funcs.Value{}
		}
		in.Data[name] = map[string]funcs.Value{}
		for i := range m.Len() {
			k, fv := m.At(i)
			in.Data[name][k] = fv
		}
	}
	return in
}

// TestMaterialise evaluates every testdata/*.blueprint.yaml with its
// inputs and compares the dump with NAME.golden.
func TestMaterialise(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.blueprint.yaml")
	if len(files) < 6 {
		t.Fatalf("found only %d test blueprints", len(files))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".blueprint.yaml")
		t.Run(name, func(t *testing.T) {
			res := analyze(t, path)
			var b strings.Builder
			for _, d := range res.Diagnostics {
				if d.Severity == source.Error {
					b.WriteString("analysis error: " + d.Code + ": " + d.Message + "\n")
				}
			}
			in := loadInputs(t, filepath.Join("testdata", name+".inputs.json"))
			bp, err := eval.Eval(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}})
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(eval.Dump(bp))
			got := b.String()
			if strings.Contains(got, "hunter2") || strings.Contains(strings.ToLower(got), "hunter2") {
				t.Errorf("a secret leaked into the output:\n%s", got)
			}
			testutil.Golden(t, filepath.Join("testdata", name+".golden"), got, *update)
		})
	}
}

func TestSecretsMaskedEverywhere(t *testing.T) {
	res := analyze(t, "testdata/secrets.blueprint.yaml")
	var in eval.Inputs
	_ = in.AddVar("password=hunter2")
	bp, err := eval.Eval(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range bp.Values {
		for _, out := range []string{string(eval.JSON(v.Value)), eval.Text(v.Value), eval.Plain(v.Value)} {
			if strings.Contains(strings.ToUpper(out), "HUNTER2") {
				t.Errorf("value %s leaks the secret: %s", v.Name, out)
			}
		}
	}
	// Reading a plain member of a secret object is still secret.
	for _, name := range []string{"dsn", "upper", "config", "plain"} {
		found := false
		for _, v := range bp.Values {
			if v.Name == name {
				found = true
				if !v.Value.Sensitive() {
					t.Errorf("value %s is not sensitive", name)
				}
			}
		}
		if !found {
			t.Errorf("value %s missing", name)
		}
	}
	if got := string(eval.JSONUnmasked(bp.Values[0].Value)); got != `"admin:hunter2@db"` {
		t.Errorf("unmasked dsn = %s", got)
	}
}

func TestInputErrorsListAll(t *testing.T) {
	res := analyze(t, "testdata/inputs.blueprint.yaml")
	in := loadInputs(t, "testdata/inputs.inputs.json")
	bp, _ := eval.Eval(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}})
	var got []string
	for _, d := range bp.Diagnostics {
		got = append(got, d.Code)
	}
	want := []string{
		"input-unknown-variable",
		"input-variable-type",    // port=eighty
		"input-not-allowed",      // env=test
		"input-not-allowed",      // region=eu-west-9
		"input-missing-variable", // needed
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s\n%v", diff, bp.Diagnostics)
	}
}

func TestVarsFilesLaterWins(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	b := filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte(`{"x": "from-a", "y": 1}`), 0o644)
	os.WriteFile(b, []byte("x: from-b\nz: [1, 2]\n"), 0o644)
	var in eval.Inputs
	if err := in.AddVarsFile(a); err != nil {
		t.Fatal(err)
	}
	if err := in.AddVarsFile(b); err != nil {
		t.Fatal(err)
	}
	if err := in.AddVar("y=2"); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range in.Vars {
		got[k] = eval.Text(v.Value)
	}
	want := map[string]string{"x": `"from-b"`, "y": `"2"`, "z": "[1, 2]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	if err := in.AddVar("novalue"); err == nil {
		t.Error("AddVar without = succeeded")
	}
	os.WriteFile(a, []byte(`[1]`), 0o644)
	if err := in.AddVarsFile(a); err == nil {
		t.Error("a vars file holding a list was accepted")
	}
}

func TestParseState(t *testing.T) {
	st, err := eval.ParseState([]byte(`{"resources": {"t": {"type": "aws/dynamodb/table", "spec": {"b": 1, "a": 2}, "removalPolicy": "retain"}}, "exports": {"x": "y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(eval.JSON(st.Resources["t"].Spec)); got != `{"b":1,"a":2}` {
		t.Errorf("spec = %s (order must be kept)", got)
	}
	for _, bad := range []string{`{"resources": {"t": {"spec": {}}}}`, `{"resourcez": {}}`, `{`} {
		if _, err := eval.ParseState([]byte(bad)); err == nil {
			t.Errorf("ParseState(%s) succeeded", bad)
		}
	}
}

func TestTemplate(t *testing.T) {
	res := analyze(t, "../testdata/examples/valid/orders-api.blueprint.yaml")
	var in eval.Inputs
	in.AddVar("databaseHost=db")
	in.AddVar("databasePassword=pw")
	scope, diags := eval.NewScope(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}})
	if len(diags) != 0 {
		t.Fatalf("input diagnostics: %v", diags)
	}
	cases := []struct{ text, want string }{
		{`${join(map(split("a,b", ","), to_upper), "-")}`, `"A-B"`},
		{`${values.functionPrefix}`, `"ordersApi-dev"`},
		{`${resources.ordersTable.spec.tableName}`, `"orders-dev"`},
		{`${ordersSecrets.state.id}`, `{"$unknown":"ordersSecrets.state.id"}`},
		{`${variables.databasePassword}`, `{"$sensitive":true}`},
		{`${len(archiveBuckets)}`, `2`},
		{`${[1, 2]}`, `[1,2]`},
		{`n=${values.bucketCount} ${none}!`, `"n=2 !"`},
		{`${datasources.network.vpc}`, `{"$unknown":"datasources.network.vpc"}`},
	}
	for _, c := range cases {
		v, ds := scope.Template(subst.ParseTemplate(c.text, nil))
		for _, d := range ds {
			if d.Severity == source.Error {
				t.Errorf("%s: %v", c.text, d)
			}
		}
		if got := string(eval.JSON(v)); got != c.want {
			t.Errorf("%s = %s, want %s", c.text, got, c.want)
		}
	}
	_, ds := scope.Template(subst.ParseTemplate(`${values.buckets[5]}`, nil))
	if len(ds) != 1 || ds[0].Code != eval.CodeRuntime.ID || ds[0].Range.Start != 16 {
		t.Errorf("out of range: %v", ds)
	}
}

// TestPartlyKnownString checks that an interpolation with deploy-time
// parts keeps its shape in every renderer.
func TestPartlyKnownString(t *testing.T) {
	res := analyze(t, "../testdata/examples/valid/orders-api.blueprint.yaml")
	var in eval.Inputs
	in.AddVar("databaseHost=db")
	in.AddVar("databasePassword=pw")
	scope, _ := eval.NewScope(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}})
	cases := []struct{ text, json, text2, plain string }{
		{
			`arn:${ordersSecrets.state.id}/y`,
			`{"$unknown":"arn:${ordersSecrets.state.id}/y"}`,
			`"arn:(known after deploy)/y"`,
			`arn:(known after deploy)/y`,
		},
		{
			`${values.functionPrefix}:${ordersSecrets.state.id}:${datasources.network.vpc}`,
			`{"$unknown":"ordersApi-dev:${ordersSecrets.state.id}:${datasources.network.vpc}"}`,
			`"ordersApi-dev:(known after deploy):(known after deploy)"`,
			`ordersApi-dev:(known after deploy):(known after deploy)`,
		},
		{ // a secret part masks the whole string
			`${variables.databasePassword}@${ordersSecrets.state.id}`,
			`{"$sensitive":true}`, eval.SensitiveText, eval.SensitiveText,
		},
	}
	for _, c := range cases {
		v, _ := scope.Template(subst.ParseTemplate(c.text, nil))
		if _, ok := v.Parts(); !ok {
			t.Errorf("%s: no shape: %s", c.text, eval.JSONUnmasked(v))
		}
		if got := string(eval.JSON(v)); got != c.json {
			t.Errorf("JSON(%s) = %s, want %s", c.text, got, c.json)
		}
		if got := eval.Text(v); got != c.text2 {
			t.Errorf("Text(%s) = %s, want %s", c.text, got, c.text2)
		}
		if got := eval.Plain(v); got != c.plain {
			t.Errorf("Plain(%s) = %s, want %s", c.text, got, c.plain)
		}
	}
}

// TestIfIsLazy checks that if evaluates only the branch it takes: an
// error in the other is not reported, one in the taken branch or the
// condition is (once), and an unknown condition evaluates both.
func TestIfIsLazy(t *testing.T) {
	res := analyze(t, "../testdata/examples/valid/orders-api.blueprint.yaml")
	var in eval.Inputs
	in.AddVar("databaseHost=db")
	in.AddVar("databasePassword=pw")
	scope, _ := eval.NewScope(context.Background(), res, in, eval.Options{Env: &funcs.TestEnv{}})
	cases := []struct {
		text, want string
		errors     int
	}{
		{`${if(true, "a", values.buckets[5])}`, `"a"`, 0},
		{`${if(false, values.buckets[5], "b")}`, `"b"`, 0},
		{`${if(none, values.buckets[5], "b")}`, `"b"`, 0},
		{`${if(eq(values.bucketCount, 2), "two", values.buckets[9])}`, `"two"`, 0},
		{`${if(false, "a", values.buckets[5])}`, `{"$unknown":"values.buckets[5] (failed)"}`, 1},
		{`${if(values.buckets[5], "a", "b")}`, `{"$unknown":"if(..)"}`, 1},                    // reported once, not again by the eager call
		{`${if(ordersSecrets.state.id, "a", values.buckets[5])}`, `{"$unknown":"if(..)"}`, 1}, // unknown: both branches evaluated
		{`${if(true, variables.databasePassword, "x")}`, `{"$sensitive":true}`, 0},
		{`${if(eq(variables.databasePassword, "pw"), "a", "b")}`, `{"$sensitive":true}`, 0},
		{`${if(true, [1, 2], [3])[1]}`, `2`, 0},
		{`${if(condition = true, then = "a", else = values.buckets[5])}`, `"a"`, 0}, // names are ignored: still lazy
	}
	for _, c := range cases {
		v, ds := scope.Template(subst.ParseTemplate(c.text, nil))
		errs := 0
		for _, d := range ds {
			if d.Severity == source.Error {
				errs++
			}
		}
		if got := string(eval.JSON(v)); got != c.want || errs != c.errors {
			t.Errorf("%s = %s with %d errors, want %s with %d (%v)", c.text, got, errs, c.want, c.errors, ds)
		}
	}
}

// TestEvalResourcesPartial: with Options.Resources only the chosen
// resources are listed, evaluated with what they reference.
func TestEvalResourcesPartial(t *testing.T) {
	src := "version: 2025-11-02\nvariables:\n  n:\n    type: string\n    default: x\nresources:\n  a:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.n}-a\n  b:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${resources.a.spec.queueName}-b\n"
	ctx := context.Background()
	f := schema.Parse("/tmp/p.blueprint.yaml", []byte(src))
	res := analysis.Analyze(ctx, f, analysis.Options{Path: "/tmp/p.blueprint.yaml"})
	bp, err := eval.Eval(ctx, res, eval.Inputs{}, eval.Options{Partial: true, Resources: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bp.Resources) != 1 || bp.Resources[0].Name != "b" {
		t.Fatalf("resources %v, want b only", bp.Resources)
	}
	if got := eval.Plain(bp.Resources[0].Spec); got != `{queueName: "x-a-b"}` {
		t.Errorf("b's spec %s", got)
	}
}

// TestSplicedKnownTextBounded checks that the known text of unknown
// strings spliced into one interpolation counts towards the string size
// limit together: each value below doubles the one before, v20 fails
// half-way (its text would pass 64 MiB) and is unknown with 52 MB of
// known text, and v21 splices v20 twice. Before, each splice was held to
// the limit alone, so v21 held 105 MB of text and such chains ran the
// process out of memory under scripts/hostile.sh's address-space limit.
func TestSplicedKnownTextBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 2023-04-20\nvalues:\n  v0:\n    type: string\n    value: " + strings.Repeat("a", 100) + "\n")
	for i := 1; i <= 21; i++ {
		fmt.Fprintf(&b, "  v%d:\n    type: string\n    value: ${values.v%d}${values.v%d}\n", i, i-1, i-1)
	}
	text := b.String()
	res := analysis.Analyze(context.Background(), schema.Parse("doubling.yaml", []byte(text)), analysis.Options{})
	scope, _ := eval.NewScope(context.Background(), res, eval.Inputs{}, eval.Options{Env: &funcs.TestEnv{}})
	v21 := res.Lookup(analysis.ValueSymbol, "v21")
	v, ds := scope.Site(res.SiteOf(v21.Value.Value.Scalar()))
	if ps, ok := v.Parts(); ok {
		n := 0
		for _, p := range ps {
			if s, ok := p.Str(); ok {
				n += len(s)
			}
		}
		if n > funcs.MaxStringSize {
			t.Fatalf("v21 holds %d bytes of known text, more than %d", n, funcs.MaxStringSize)
		}
	}
	second := strings.LastIndex(text, "${values.v20}") + len("${")
	found := false
	for _, d := range append(ds, scope.BlueprintDiagnostics()...) {
		if d.Range.Start == second && strings.Contains(d.Message, "larger than") {
			found = true
		}
	}
	if !found {
		t.Errorf("no size error at v21's second ${values.v20}: %v", ds)
	}
}
