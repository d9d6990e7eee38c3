package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
	"github.com/google/go-cmp/cmp"
)

func testRegistry(t testing.TB) *Registry {
	t.Helper()
	r := New()
	if err := r.LoadDir("testdata"); err != nil {
		t.Fatal(err)
	}
	return r
}

func gadget(t testing.TB) *ResourceType {
	t.Helper()
	rt, ok := testRegistry(t).ResourceType("test/widget/gadget")
	if !ok {
		t.Fatal("test/widget/gadget not loaded")
	}
	if rt.Err != nil {
		t.Fatal(rt.Err)
	}
	return rt
}

func TestLoadDirIndexesBothFormats(t *testing.T) {
	r := testRegistry(t)
	if diff := cmp.Diff([]string{"test/widget/gadget"}, r.ResourceTypeNames()); diff != "" {
		t.Errorf("resource types (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test/network"}, r.DataSourceTypeNames()); diff != "" {
		t.Errorf("data sources (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test/colour"}, r.CustomVariableTypeNames()); diff != "" {
		t.Errorf("custom types (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test_join"}, r.FunctionNames()); diff != "" {
		t.Errorf("functions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test-2024-01-01"}, r.TransformNames()); diff != "" {
		t.Errorf("transforms (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test"}, r.Providers()); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
	if _, ok := r.ResourceTypeByOriginal("Test::Widget::Gadget"); !ok {
		t.Error("lookup by CloudFormation name failed")
	}
}

func TestResourceTypeModel(t *testing.T) {
	rt := gadget(t)
	if rt.Name != "test/widget/gadget" || rt.Original != "Test::Widget::Gadget" || rt.Provider != "test" {
		t.Errorf("names: %q %q %q", rt.Name, rt.Original, rt.Provider)
	}
	want := map[string][][]string{
		"readOnly":   {{"gadgetId"}, {"arn"}, {"endpoint", "address"}, {"items", "*", "id"}},
		"writeOnly":  {{"secret"}, {"items", "*", "token"}},
		"createOnly": {{"gadgetName"}, {"tree", "label"}},
		"deprecated": {{"oldSetting"}},
		"primaryId":  {{"gadgetId"}},
	}
	got := map[string][][]string{
		"readOnly": rt.ReadOnlyPaths, "writeOnly": rt.WriteOnlyPaths, "createOnly": rt.CreateOnlyPaths,
		"deprecated": rt.DeprecatedPaths, "primaryId": rt.PrimaryIdentifier,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if p, ok := rt.Schema.Property("vpcId"); !ok || p.Original != "VPCId" {
		t.Errorf("vpcId property: %+v %v", p, ok)
	}
	if diff := cmp.Diff([]string{"gadgetName", "mode"}, rt.Schema.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	// The pattern with a look-behind is not RE2: kept, not compiled.
	suffix, _ := rt.Schema.Property("suffix")
	if suffix.Schema.Pattern == "" || suffix.Schema.PatternRegexp() != nil {
		t.Errorf("suffix pattern: %q compiled=%v", suffix.Schema.Pattern, suffix.Schema.PatternRegexp() != nil)
	}
}

func TestSpecAndStateTypes(t *testing.T) {
	rt := gadget(t)
	spec, ok := rt.SpecType().(*types.Object)
	if !ok {
		t.Fatalf("spec type %s", rt.SpecType())
	}
	state := rt.StateType().(*types.Object)
	has := func(o *types.Object, name string) bool { _, ok := o.Field(name); return ok }
	for _, c := range []struct {
		name        string
		spec, state bool
	}{
		{"gadgetName", true, true},
		{"gadgetId", false, true}, // read-only
		{"arn", false, true},
		{"secret", true, false}, // write-only
		{"oldSetting", true, true},
	} {
		if has(spec, c.name) != c.spec || has(state, c.name) != c.state {
			t.Errorf("%s: in spec %v (want %v), in state %v (want %v)", c.name, has(spec, c.name), c.spec, has(state, c.name), c.state)
		}
	}
	for _, c := range []struct{ field, want string }{
		{"gadgetName", "string"},
		{"size", "integer"},
		{"ratio", "float"},
		{"enabled", "boolean"},
		{"zones", "array[string]"},
		{"tags", "array[object{key: string, value: string}]"},
		{"settings", "map[string | integer | boolean]"},
		{"labels", "map[any]"},
		{"policy", "map[any] | string"},
		{"endpoint", "object{port: integer}"},
		{"items", "array[object{name: string, token: string}]"},
		{"tree", "object{children: array[object{children: array[any], label: string}], label: string}"},
	} {
		f, ok := spec.Field(c.field)
		if !ok {
			t.Errorf("spec has no %s", c.field)
			continue
		}
		if got := f.Type.String(); got != c.want {
			t.Errorf("spec.%s: %s, want %s", c.field, got, c.want)
		}
	}
	ep, _ := state.Field("endpoint")
	if got := ep.Type.String(); got != "object{address: string, port: integer}" {
		t.Errorf("state.endpoint: %s", got)
	}
	items, _ := state.Field("items")
	if got := items.Type.String(); got != "array[object{id: string, name: string}]" {
		t.Errorf("state.items: %s", got)
	}
	gn, _ := spec.Field("gadgetName")
	if gn.Doc != "The name of the gadget." {
		t.Errorf("doc %q", gn.Doc)
	}
}

func TestLookup(t *testing.T) {
	rt := gadget(t)
	for _, c := range []struct {
		path     string
		ok       bool
		name     string
		original string
		types    string
		marks    Mark
		required bool
	}{
		{"gadgetName", true, "gadgetName", "GadgetName", "string", CreateOnly, true},
		{"tags.*.key", true, "key", "Key", "string", 0, true},
		{"tags.0.value", true, "value", "Value", "string", 0, true},
		{"tags.[].key", true, "key", "Key", "string", 0, true},
		{"tags.*", true, "", "", "object", 0, false},
		{"tree.children.*.children.*.label", true, "label", "Label", "string", 0, false},
		{"tree.label", true, "label", "Label", "string", CreateOnly, false},
		{"settings.MY_KEY", true, "", "", "string | integer | boolean", 0, false},
		{"endpoint.address", true, "address", "Address", "string", ReadOnly, false},
		{"items.3.token", true, "token", "Token", "string", WriteOnly, false},
		{"source.byId", true, "byId", "ById", "string", 0, false},
		{"nope", false, "", "", "", 0, false},
		{"gadgetName.x", false, "", "", "", 0, false},
	} {
		f, ok := rt.Lookup(strings.Split(c.path, "."))
		if ok != c.ok {
			t.Errorf("%s: ok=%v", c.path, ok)
			continue
		}
		if !ok {
			continue
		}
		got := []any{f.Name, f.Original, f.Schema.TypeName(), f.Marks, f.Required}
		want := []any{c.name, c.original, c.types, c.marks, c.required}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.path, diff)
		}
	}
	if _, ok := rt.LookupSpec([]string{"arn"}); ok {
		t.Error("LookupSpec found read-only arn")
	}
	if _, ok := rt.LookupState([]string{"arn"}); !ok {
		t.Error("LookupState missed arn")
	}
	if _, ok := rt.LookupState([]string{"secret"}); ok {
		t.Error("LookupState found write-only secret")
	}
	if _, ok := rt.LookupState([]string{"items", "0", "token"}); ok {
		t.Error("LookupState found write-only items[0].token")
	}
}

func TestProviderFormat(t *testing.T) {
	r := testRegistry(t)
	ds, ok := r.DataSourceType("test/network")
	if !ok {
		t.Fatal("no test/network")
	}
	if f, ok := ds.Export("subnets"); !ok || f.Type.String() != "array[string]" {
		t.Errorf("subnets export: %+v", f)
	}
	if got := ds.ExportsType().String(); got != "object{id: string, size: integer, subnets: array[string]}" {
		t.Errorf("exports type %s", got)
	}
	ct, _ := r.CustomVariableType("test/colour")
	if o, ok := ct.Option("red"); !ok || o.Value != "#f00" {
		t.Errorf("red: %+v", o)
	}
	fn, _ := r.Function("test_join")
	if got := fn.Signature.String(); got != "func(array[string], string?) -> string" {
		t.Errorf("signature %s", got)
	}
	if len(r.Functions()) != 1 {
		t.Error("Functions()")
	}
	l, ok := r.Link("test/widget/gadget", "test/widget/gadget")
	if !ok || l.Priority != "to" || l.Annotations["test.gadget.wire"].Default != true || l.Annotations["test.gadget.wire"].On != "from" {
		t.Errorf("link %+v", l)
	}
	if len(r.LinksFrom("test/widget/gadget")) != 1 {
		t.Error("LinksFrom")
	}
}

// TestLinkCardinalityAndCapabilities: a link's cardinality and
// capabilities as a provider file writes them.
func TestLinkCardinalityAndCapabilities(t *testing.T) {
	r := New()
	err := r.AddProvider([]byte(`{"provider": "x", "links": [{"from": "x/fn", "to": "x/net",
		"cardinality": {"from": {"max": 1}, "to": {"min": 1, "max": 3}},
		"provides": [{"name": "x/attached", "on": "from"}],
		"requires": [{"name": "x/ready", "on": "to", "mustExist": true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := r.Link("x/fn", "x/net")
	got := fmt.Sprintf("%+v %+v %+v %+v", l.PerFrom, l.PerTo, l.Provides, l.Requires)
	if want := "{Min:0 Max:1} {Min:1 Max:3} [{Name:x/attached On:from MustExist:false}] [{Name:x/ready On:to MustExist:true}]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestProviderFormatErrors(t *testing.T) {
	for name, src := range map[string]string{
		"unknown field": `{"provider": "x", "dataSourcez": {}}`,
		"bad type":      `{"provider": "x", "functions": {"f": {"result": "strng"}}}`,
		"no name":       `{"description": "x"}`,
		"link":          `{"provider": "x", "links": [{"from": "a/b"}]}`,
		"cardinality":   `{"provider": "x", "links": [{"from": "x/a", "to": "x/b", "cardinality": {"from": {"min": 2, "max": 1}}}]}`,
		"capability":    `{"provider": "x", "links": [{"from": "x/a", "to": "x/b", "requires": [{"name": "x/ready", "on": "a"}]}]}`,
		"nameless":      `{"provider": "x", "links": [{"from": "x/a", "to": "x/b", "provides": [{"on": "from"}]}]}`,
	} {
		if err := New().AddProvider([]byte(src)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestBrokenSchemaYieldsErrType(t *testing.T) {
	dir := t.TempDir()
	bad := `{"typeName": "Bad::Thing::One", "properties": {`
	if err := os.WriteFile(dir+"/bad.json", []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New()
	// The syntax error is reported on the file at once; the type it
	// names is still indexed and reports its broken schema where used.
	les, rest := LoadErrors(r.LoadDir(dir))
	if rest != nil || len(les) != 1 || filepath.Base(les[0].Path) != "bad.json" || les[0].Offset != len(bad) {
		t.Fatalf("load errors %v", les)
	}
	ds, m := les[0].Diagnostics()
	d := ds[0]
	if d.Code != "provider-file-invalid" || d.Message != "cannot load this provider file: unexpected end of JSON input; the directory's other files still load" {
		t.Errorf("diagnostic %+v", d)
	}
	if l, c := m.LineCol(d.Range.Start, source.UTF32); l != 1 || c != len(bad)+1 {
		t.Errorf("at %d:%d", l, c)
	}
	rt, ok := r.ResourceType("bad/thing/one")
	if !ok || rt.Err == nil {
		t.Fatalf("want a type with Err, got %+v", rt)
	}
	if d := SchemaError(rt, rt.Schema.rangeForTest()); d.Code != "resource-schema-error" {
		t.Errorf("code %s", d.Code)
	}
	if diags := rt.ValidateSpec(tn(parseJSONNode(`{"anything": 1}`)), sourceR(0, 0)); len(diags) != 0 {
		t.Errorf("broken type should not report spec problems: %v", diags)
	}
}

func TestTypeExpr(t *testing.T) {
	for _, src := range []string{"string", "array[string]", "map[integer | string]", "object{a: string, b: array[float]}", "object{a: string, ...}", "any", "binary"} {
		ty, err := ParseTypeExpr(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if ty.String() != src {
			t.Errorf("%s rendered %s", src, ty)
		}
	}
	if ty, _ := ParseTypeExpr("object"); ty.String() != "map[any]" {
		t.Errorf("object: %s", ty)
	}
	for _, bad := range []string{"", "strin", "array[string", "object{a string}", "string |"} {
		if _, err := ParseTypeExpr(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestScanTopLevel(t *testing.T) {
	for _, c := range []struct{ src, key, value string }{
		{`{"properties": {"typeName": {"type": "string"}}, "typeName": "A::B::C"}`, "typeName", "A::B::C"},
		{`{"description": "\"typeName\": \"X::Y::Z\"", "typeName": "A::B::C"}`, "typeName", "A::B::C"},
		{`{"provider": "aws"}`, "provider", "aws"},
		{`{"other": 1}`, "", ""},
		{`[{"typeName": "A::B::C"}]`, "", ""},
	} {
		k, v, _ := scanTopLevel([]byte(c.src), "typeName", "provider")
		if k != c.key || v != c.value {
			t.Errorf("%s: %q %q", c.src, k, v)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"aws/lambda/function", "aws/lambda/eventSourceMapping", "aws/dynamodb/table", "aws/sqs/queue"}
	for _, c := range []struct{ in, want string }{
		{"aws/lambda/functon", "aws/lambda/function"},
		{"aws/dynamoDB/table", "aws/dynamodb/table"},
		{"aws/sqs/queu", "aws/sqs/queue"},
	} {
		got := Suggest(c.in, names)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("Suggest(%q) = %v", c.in, got)
		}
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	r := NewBuiltin()
	names := r.ResourceTypeNames()
	done := make(chan *ResourceType, 8*len(names))
	for w := 0; w < 8; w++ {
		go func() {
			for _, n := range names {
				rt, _ := r.ResourceType(n)
				done <- rt
			}
		}()
	}
	seen := map[string]*ResourceType{}
	for i := 0; i < 8*len(names); i++ {
		rt := <-done
		if prev, ok := seen[rt.Name]; ok && prev != rt {
			t.Fatalf("%s parsed twice", rt.Name)
		}
		seen[rt.Name] = rt
	}
}
