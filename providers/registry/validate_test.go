package registry

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
	"github.com/google/go-cmp/cmp"
)

// where is the range tests pass as the spec key's range.
var where = source.R(1000, 1004)

// want describes one expected diagnostic: its code, the node it sits on
// (a path into the spec; a trailing "=key" means the key's range, "" the
// spec key) and a fragment of its message.
type want struct {
	code string
	at   string
	msg  string
}

func (w want) resolve(n *tnode) (source.Range, error) {
	if w.at == "" {
		return where, nil
	}
	var parts []string
	if w.at != "." {
		parts = strings.Split(w.at, ".")
	}
	last := ""
	if len(parts) > 0 {
		last = parts[len(parts)-1]
	}
	if strings.HasPrefix(last, "=") {
		parts[len(parts)-1] = last[1:]
		return n.keyRange(parts...), nil
	}
	return n.get(parts...).Range(), nil
}

func runSpec(t *testing.T, rt *ResourceType, spec string, wants ...want) []source.Diagnostic {
	t.Helper()
	n := parseJSONNode(spec)
	got := rt.ValidateSpec(tn(n), where)
	type row struct {
		Code  string
		Range source.Range
	}
	var g, w []row
	for _, d := range got {
		g = append(g, row{d.Code, d.Range})
	}
	for _, x := range wants {
		r, _ := x.resolve(n)
		w = append(w, row{x.code, r})
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s\nall: %v", diff, got)
		return got
	}
	for i, x := range wants {
		if !strings.Contains(got[i].Message, x.msg) {
			t.Errorf("message %q does not contain %q", got[i].Message, x.msg)
		}
	}
	return got
}

const base = `"gadgetName": "my-gadget", "mode": "FAST"`

func TestValidateSpec(t *testing.T) {
	rt := gadget(t)
	tests := []struct {
		name  string
		spec  string
		wants []want
	}{
		{"valid minimal", `{` + base + `}`, nil},
		{"valid full", `{` + base + `, "size": 10, "ratio": 0.5, "enabled": true, "suffix": "abc",
			"tags": [{"key": "a", "value": "1"}, {"key": "b", "value": "1"}], "zones": ["a", "b"],
			"settings": {"MY_KEY": "x", "OTHER": 5}, "labels": {"any": {"thing": 1}}, "policy": "{}",
			"tree": {"label": "root", "children": [{"label": "leaf", "children": []}]},
			"source": {"byId": "x", "version": "1"}, "throughput": {"readUnits": 5},
			"endpoint": {"port": 80}, "secret": "s", "items": [{"name": "n", "token": "t"}], "vpcId": "vpc-1"}`, nil},
		{"missing required at where", `{"size": 2}`, []want{{"resource-missing-field", "", `"gadgetName", "mode"`}}},
		{"unknown field with suggestion", `{` + base + `, "sise": 2}`, []want{{"resource-unknown-field", "=sise", `did you mean "size"`}}},
		{"unknown field without suggestion", `{` + base + `, "zzzzzzzz": 2}`, []want{{"resource-unknown-field", "=zzzzzzzz", "unknown field"}}},
		{"type error", `{` + base + `, "size": "big"}`, []want{{"resource-field-type", "size", "spec.size expects integer, found string"}}},
		{"object for scalar", `{` + base + `, "enabled": {"a": 1}}`, []want{{"resource-field-type", "enabled", "expects boolean, found object"}}},
		{"array for object", `{` + base + `, "endpoint": [1]}`, []want{{"resource-field-type", "endpoint", "found array"}}},
		{"float for integer", `{` + base + `, "size": 2.5}`, []want{{"resource-field-type", "size", "found float"}}},
		{"integer for float is fine", `{` + base + `, "ratio": 1}`, nil},
		{"number for string warns", `{` + base + `, "vpcId": 42}`, []want{{"resource-field-type", "vpcId", "used as its text"}}},
		{"null", `{` + base + `, "vpcId": null}`, []want{{"resource-field-type", "vpcId", "found null"}}},
		{"enum", `{"gadgetName": "my-gadget", "mode": "fast"}`, []want{{"resource-enum", "mode", `did you mean "FAST"`}}},
		{"enum lists values", `{"gadgetName": "my-gadget", "mode": "QQQQQQQQQ"}`, []want{{"resource-enum", "mode", "allowed: FAST, SLOW, BALANCED"}}},
		{"pattern", `{"gadgetName": "My_Gadget", "mode": "FAST"}`, []want{{"resource-pattern", "gadgetName", "does not match"}}},
		{"non-RE2 pattern skipped", `{` + base + `, "suffix": "abc-"}`, nil},
		{"minLength", `{"gadgetName": "ab", "mode": "FAST"}`, []want{{"resource-bounds", "gadgetName", "at least 3 characters"}}},
		{"maxLength", `{"gadgetName": "abcdefghijklmnopqrstuvwxyz", "mode": "FAST"}`, []want{{"resource-bounds", "gadgetName", "at most 20 characters"}}},
		{"minimum", `{` + base + `, "size": 0}`, []want{{"resource-bounds", "size", "at least 1"}}},
		{"maximum", `{` + base + `, "size": 11}`, []want{{"resource-bounds", "size", "at most 10"}}},
		{"exclusiveMinimum", `{` + base + `, "ratio": 0}`, []want{{"resource-bounds", "ratio", "greater than 0"}}},
		{"minItems", `{` + base + `, "zones": []}`, []want{{"resource-bounds", "zones", "at least 1 item"}}},
		{"maxItems", `{` + base + `, "tags": [{"key": "a", "value": "1"}, {"key": "b", "value": "1"}, {"key": "c", "value": "1"}, {"key": "d", "value": "1"}]}`,
			[]want{{"resource-bounds", "tags", "at most 3 items"}}},
		{"uniqueItems scalars", `{` + base + `, "zones": ["a", "b", "a"]}`, []want{{"resource-bounds", "zones.2", "item 2 repeats item 0"}}},
		{"uniqueItems objects ignore key order", `{` + base + `, "tags": [{"key": "a", "value": "1"}, {"value": "1", "key": "a"}]}`,
			[]want{{"resource-bounds", "tags.1", "item 1 repeats item 0"}}},
		{"uniqueItems skips dynamic", `{` + base + `, "zones": ["${x}", "${x}"]}`, nil},
		{"nested array of objects", `{` + base + `, "tags": [{"key": "a", "value": "1"}, {"key": "toolongkey", "valu": "2"}]}`,
			[]want{
				{"resource-unknown-field", "tags.1.=valu", `did you mean "value"`},
				{"resource-bounds", "tags.1.key", "at most 8 characters"},
				{"resource-missing-field", "tags.1", `spec.tags[1] is missing required field "value"`},
			}},
		{"missing in nested object goes on its key", `{` + base + `, "items": [{"token": "t"}]}`,
			[]want{{"resource-missing-field", "items.0", `"name"`}}},
		{"recursive definition", `{` + base + `, "tree": {"children": [{"children": [{"lable": "x"}]}]}}`,
			[]want{{"resource-unknown-field", "tree.children.0.children.0.=lable", `did you mean "label"`}}},
		{"pattern properties", `{` + base + `, "settings": {"lower": 1, "OK": [1]}}`,
			[]want{{"resource-unknown-field", "settings.=lower", "unknown field"}, {"resource-field-type", "settings.OK", "found array"}}},
		{"type union", `{` + base + `, "policy": {"a": 1}}`, nil},
		{"type union mismatch", `{` + base + `, "policy": 5}`, []want{{"resource-field-type", "policy", "expects object | string, found integer"}}},
		{"read-only", `{` + base + `, "arn": "x"}`, []want{{"resource-read-only", "=arn", "read-only"}}},
		{"nested read-only", `{` + base + `, "endpoint": {"address": "x", "port": 1}}`, []want{{"resource-read-only", "endpoint.=address", ".state.endpoint.address"}}},
		{"read-only in array items", `{` + base + `, "items": [{"name": "n", "id": "x"}]}`, []want{{"resource-read-only", "items.0.=id", "read-only"}}},
		{"deprecated", `{` + base + `, "oldSetting": "x"}`, []want{{"resource-deprecated", "=oldSetting", "deprecated"}}},
		{"oneOf none", `{` + base + `, "source": {"version": "1"}}`, []want{{"resource-missing-field", "=source", "requires one of: byId and version; byName and version"}}},
		{"oneOf both", `{` + base + `, "source": {"byId": "a", "byName": "b", "version": "1"}}`, []want{{"resource-conflicting-fields", "source", "only one of"}}},
		{"anyOf none", `{` + base + `, "throughput": {}}`, []want{{"resource-missing-field", "=throughput", "requires one of: readUnits; writeUnits"}}},
		{"anyOf both fine", `{` + base + `, "throughput": {"readUnits": 1, "writeUnits": 2}}`, nil},
		{"dynamic values skip value checks", `{"gadgetName": "${variables.name}", "mode": "${variables.mode}", "size": "${values.size}", "endpoint": "${x}"}`, nil},
		{"dynamic values still checked structurally", `{"gadgetName": "${variables.name}", "modee": "${x}"}`,
			[]want{{"resource-missing-field", "", `"mode"`}, {"resource-unknown-field", "=modee", `did you mean "mode"`}}},
		{"many problems reported", `{"gadgetName": "X", "mode": "NO", "size": 100, "arn": "a"}`,
			[]want{
				{"resource-pattern", "gadgetName", ""},
				{"resource-bounds", "gadgetName", ""},
				{"resource-enum", "mode", ""},
				{"resource-bounds", "size", ""},
				{"resource-read-only", "=arn", ""},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Diagnostics come sorted by position; order the wants alike.
			n := parseJSONNode(tt.spec)
			sortWants(n, tt.wants)
			runSpec(t, rt, tt.spec, tt.wants...)
		})
	}
}

func sortWants(n *tnode, ws []want) {
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0; j-- {
			a, _ := ws[j-1].resolve(n)
			b, _ := ws[j].resolve(n)
			if a.Start > b.Start || (a.Start == b.Start && ws[j-1].code > ws[j].code) {
				ws[j-1], ws[j] = ws[j], ws[j-1]
			}
		}
	}
}

func TestValidateSuggestionEdits(t *testing.T) {
	rt := gadget(t)
	n := parseJSONNode(`{` + base + `, "sise": 2}`)
	ds := rt.ValidateSpec(tn(n), where)
	if len(ds) != 1 || len(ds[0].Suggestions) == 0 {
		t.Fatalf("want one diagnostic with a suggestion: %v", ds)
	}
	want := source.Suggestion{Title: `Change to "size"`, Edits: []source.Edit{{Range: n.keyRange("sise"), NewText: "size"}}}
	if diff := cmp.Diff(want, ds[0].Suggestions[0]); diff != "" {
		t.Errorf("suggestion (-want +got):\n%s", diff)
	}
	n = parseJSONNode(`{"gadgetName": "my-gadget", "mode": "slow"}`)
	ds = rt.ValidateSpec(tn(n), where)
	if len(ds) != 1 || len(ds[0].Suggestions) == 0 || ds[0].Suggestions[0].Edits[0].NewText != `"SLOW"` ||
		ds[0].Suggestions[0].Edits[0].Range != n.get("mode").Range() {
		t.Errorf("enum suggestion: %+v", ds)
	}
}

func TestValidateSeveritiesAndTags(t *testing.T) {
	rt := gadget(t)
	ds := rt.ValidateSpec(tn(parseJSONNode(`{`+base+`, "oldSetting": "x", "vpcId": true}`)), where)
	if len(ds) != 2 {
		t.Fatalf("%v", ds)
	}
	for _, d := range ds {
		if d.Severity != source.Warning {
			t.Errorf("%s: severity %v", d.Code, d.Severity)
		}
	}
	if ds[0].Code != "resource-deprecated" || len(ds[0].Tags) != 1 || ds[0].Tags[0] != source.Deprecated {
		t.Errorf("deprecated tag: %+v", ds[0])
	}
}

func TestValidateNilSpec(t *testing.T) {
	rt := gadget(t)
	ds := rt.ValidateSpec(nil, where)
	if len(ds) != 1 || ds[0].Code != "resource-missing-field" || ds[0].Range != where {
		t.Errorf("%v", ds)
	}
}

func TestRegistryDiagnostics(t *testing.T) {
	r := NewBuiltin()
	rng := source.R(5, 20)
	for _, c := range []struct {
		d    source.Diagnostic
		code string
		fix  string
	}{
		{r.UnknownResourceType("aws/lambda/functon", rng), "resource-unknown-type", "aws/lambda/function"},
		{r.UnknownResourceType("AWS::SQS::Queue", rng), "resource-unknown-type", "aws/sqs/queue"},
		{r.UnknownDataSourceType("aws/vcp", rng), "datasource-unknown-type", "aws/vpc"},
		{r.UnknownCustomVariableType("aws/regoin", rng), "var-unknown-custom-type", "aws/region"},
		{r.UnknownTransform("celerity-2023-04-02", rng), "transform-unknown", "celerity-2023-04-20"},
	} {
		if c.d.Code != c.code || len(c.d.Suggestions) == 0 || c.d.Suggestions[0].Edits[0].NewText != c.fix || c.d.Range != rng {
			t.Errorf("%s: %+v", c.code, c.d)
		}
	}
	region, _ := r.CustomVariableType("aws/region")
	if d := region.CheckOption("eu-west-1", rng); d != nil {
		t.Errorf("eu-west-1: %v", d)
	}
	if d := region.CheckOption("eu-west-9", rng); d == nil || d.Code != "var-custom-type-option" {
		t.Errorf("eu-west-9: %v", d)
	}
	vpc, _ := r.DataSourceType("aws/vpc")
	if ds := vpc.CheckExport("vpcId", mustType(t, "string"), rng, rng); len(ds) != 0 {
		t.Errorf("vpcId: %v", ds)
	}
	if ds := vpc.CheckExport("subnets", mustType(t, "array"), rng, rng); len(ds) != 0 {
		t.Errorf("subnets: %v", ds)
	}
	if ds := vpc.CheckExport("vpcIdd", mustType(t, "string"), rng, rng); len(ds) != 1 || ds[0].Code != "datasource-unknown-export" {
		t.Errorf("vpcIdd: %v", ds)
	}
	if ds := vpc.CheckExport("vpcId", mustType(t, "integer"), rng, rng); len(ds) != 1 || ds[0].Code != "datasource-export-mismatch" {
		t.Errorf("vpcId integer: %v", ds)
	}
	if d := vpc.CheckFilterField("tags", rng); d != nil {
		t.Errorf("tags: %v", d)
	}
	if d := vpc.CheckFilterField("tagz", rng); d == nil || d.Severity != source.Warning {
		t.Errorf("tagz: %v", d)
	}
}

func mustType(t *testing.T, s string) types.Type {
	t.Helper()
	ty, err := ParseTypeExpr(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}
