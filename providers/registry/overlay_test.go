package registry

import (
	"slices"
	"strings"
	"testing"
)

// TestOfficialTypeAliases: the official provider's type names resolve to
// the CloudFormation types, carry their own name, and replace the
// CloudFormation-derived names in the listed names (completion offers
// the official spelling), while those still resolve.
func TestOfficialTypeAliases(t *testing.T) {
	r := NewBuiltin()
	names := r.ResourceTypeNames()
	for alias, target := range map[string]string{
		"aws/lambda/functionVersion": "AWS::Lambda::Version",
		"aws/lambda/functionUrl":     "AWS::Lambda::Url",
	} {
		rt, ok := r.ResourceType(alias)
		if !ok || rt.Err != nil || rt.Name != alias || rt.Original != target {
			t.Errorf("%s: %v %+v", alias, ok, rt)
			continue
		}
		if !slices.Contains(names, alias) {
			t.Errorf("%s not listed", alias)
		}
		derived := ResourceTypeName(target)
		if slices.Contains(names, derived) {
			t.Errorf("%s still listed beside %s", derived, alias)
		}
		if rt2, ok := r.ResourceType(derived); !ok || rt2.Name != derived {
			t.Errorf("%s no longer resolves", derived)
		}
		if sum, ok := r.ResourceTypeSummary(alias); !ok || sum.Original != target {
			t.Errorf("summary of %s: %+v", alias, sum)
		}
	}
	if _, ok := r.ResourceType("aws/lambda/functionVersion"); !ok {
		t.Fatal("alias lost")
	}
	// The version's added state field comes with the alias too.
	rt, _ := r.ResourceType("aws/lambda/functionVersion")
	if _, ok := rt.LookupState([]string{"functionArnWithVersion"}); !ok {
		t.Error("functionArnWithVersion not in the state of aws/lambda/functionVersion")
	}
}

// TestOfficialFieldSpellings validates event source mapping specs written
// with either spelling and with the official provider's added fields.
func TestOfficialFieldSpellings(t *testing.T) {
	rt, _ := NewBuiltin().ResourceType("aws/lambda/eventSourceMapping")
	names := rt.Schema.PropertyNames()
	if !slices.Contains(names, "documentDbEventSourceConfig") || slices.Contains(names, "documentDBEventSourceConfig") {
		t.Errorf("offered names: %v", names)
	}
	for _, tc := range []struct {
		name, spec string
		want       []string // code@text
	}{
		{"official spelling", `{"functionName": "f", "documentDbEventSourceConfig": {"databaseName": "db"}}`, nil},
		{"CloudFormation spelling", `{"functionName": "f", "documentDBEventSourceConfig": {"databaseName": "db"}}`, nil},
		{"checked through the alias", `{"functionName": "f", "documentDbEventSourceConfig": {"databaseNam": "db"}}`, []string{"resource-unknown-field@databaseNam"}},
		{"onSuccess added", `{"functionName": "f", "destinationConfig": {"onSuccess": {"destination": "arn:aws:sqs:us-east-1:123456789012:q"}, "onFailure": {"destination": "arn:aws:sqs:us-east-1:123456789012:q"}}}`, nil},
		{"onSuccess checked", `{"functionName": "f", "destinationConfig": {"onSuccess": {"dest": "x"}}}`, []string{"resource-unknown-field@dest"}},
		{"added state field", `{"functionName": "f", "state": "Enabled"}`, []string{"resource-read-only@state"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := parseJSONNode(tc.spec)
			var got []string
			for _, d := range rt.ValidateSpec(tn(n), where) {
				got = append(got, d.Code+"@"+strings.Trim(tc.spec[d.Range.Start:d.Range.End], `"`))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if f, ok := rt.LookupState([]string{"functionArn"}); !ok || f.Schema.Description == "" {
		t.Error("functionArn not in state")
	}
	if _, ok := rt.LookupSpec([]string{"documentDBEventSourceConfig", "databaseName"}); !ok {
		t.Error("the CloudFormation spelling does not look up")
	}
}

func TestOverlayFormatErrors(t *testing.T) {
	for name, src := range map[string]string{
		"both":       `{"provider": "x", "resourceTypes": {"x/a/b": {"fields": {"f": {"aliasFor": "g", "schema": {"type": "string"}}}}}}`,
		"neither":    `{"provider": "x", "resourceTypes": {"x/a/b": {"fields": {"f": {"readOnly": true}}}}}`,
		"self":       `{"provider": "x", "resourceTypes": {"x/a/b": {"aliasFor": "x/a/b"}}}`,
		"empty path": `{"provider": "x", "resourceTypes": {"x/a/b": {"fields": {"a..b": {"aliasFor": "c"}}}}}`,
		"unknown":    `{"provider": "x", "resourceTypes": {"x/a/b": {"alias": "x/c/d"}}}`,
	} {
		if err := New().AddProvider([]byte(src)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestUserOverlay: a user's provider file may alias a type it loads and
// add a field, and a field under a parent the schema lacks is skipped.
func TestUserOverlay(t *testing.T) {
	r := New()
	if err := r.AddResourceSchema("w.json", []byte(`{"typeName": "Acme::Shop::Widget", "properties": {"Size": {"type": "integer"}}, "primaryIdentifier": ["/properties/Size"]}`)); err != nil {
		t.Fatal(err)
	}
	err := r.AddProvider([]byte(`{"provider": "acme", "resourceTypes": {"acme/shop/gizmo": {"aliasFor": "acme/shop/widget", "fields": {
		"colour": {"schema": {"type": "string", "enum": ["red"]}},
		"widgetSize": {"aliasFor": "size"},
		"missing.deep": {"schema": {"type": "string"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	rt, ok := r.ResourceType("acme/shop/gizmo")
	if !ok || rt.Err != nil {
		t.Fatalf("%v %v", ok, rt)
	}
	if got := rt.Schema.PropertyNames(); !slices.Equal(got, []string{"colour", "widgetSize"}) {
		t.Errorf("names %v", got)
	}
	if ds := rt.ValidateSpec(tn(parseJSONNode(`{"colour": "blue", "size": 3}`)), where); len(ds) != 1 || ds[0].Code != "resource-enum" {
		t.Errorf("diagnostics %v", ds)
	}
	if got := r.ResourceTypeNames(); !slices.Equal(got, []string{"acme/shop/gizmo"}) {
		t.Errorf("listed %v", got)
	}
}

// TestOverlayFlags: computedWhenOmitted and activatesLinkOnReference
// flag a type's own field (an entry with flags only) or an added one.
func TestOverlayFlags(t *testing.T) {
	r := New()
	if err := r.AddResourceSchema("w.json", []byte(`{"typeName": "Acme::Shop::Rule", "properties": {"Name": {"type": "string"},
		"Targets": {"type": "array", "items": {"type": "object", "properties": {"Arn": {"type": "string"}}}}}}`)); err != nil {
		t.Fatal(err)
	}
	err := r.AddProvider([]byte(`{"provider": "acme", "resourceTypes": {"acme/shop/rule": {"fields": {
		"name": {"computedWhenOmitted": true},
		"targets.*.arn": {"activatesLinkOnReference": true},
		"extra": {"schema": {"type": "string"}, "computedWhenOmitted": true}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	rt, _ := r.ResourceType("acme/shop/rule")
	for _, tc := range []struct {
		path []string
		want Mark
	}{
		{[]string{"name"}, ComputedWhenOmitted},
		{[]string{"extra"}, ComputedWhenOmitted},
		{[]string{"targets", "0", "arn"}, ActivatesLink},
		{[]string{"targets"}, 0},
	} {
		if got := rt.Marks(tc.path) & (ComputedWhenOmitted | ActivatesLink); got != tc.want {
			t.Errorf("%v: %b, want %b", tc.path, got, tc.want)
		}
	}
	if !rt.ActivatesLinkAt([]string{"targets", "2", "arn"}) || rt.ActivatesLinkAt([]string{"name"}) {
		t.Error("ActivatesLinkAt")
	}
	if _, ok := rt.LookupSpec([]string{"extra"}); !ok {
		t.Error("extra not added")
	}
}

// TestOfficialDataSources: the official provider's data source types
// with their filter fields and exports (dotted fields also as objects).
func TestOfficialDataSources(t *testing.T) {
	r := NewBuiltin()
	for name, want := range map[string]struct{ filters, exports []string }{
		"aws/lambda/function":          {[]string{"arn", "name", "qualifier", "region"}, []string{"arn", "handler", "vpcConfig", "vpcConfig.subnetIds"}},
		"aws/lambda/alias":             {[]string{"functionName", "name"}, []string{"invokeArn", "routingConfig.additionalVersionWeights"}},
		"aws/lambda/function_url":      {[]string{"functionName", "qualifier", "region"}, []string{"cors", "functionUrl"}},
		"aws/lambda/functionUrl":       {[]string{"functionName", "qualifier", "region"}, []string{"cors", "functionUrl"}},
		"aws/lambda/layerVersion":      {[]string{"layerName", "region", "versionNumber"}, []string{"content.codeSize", "version"}},
		"aws/lambda/codeSigningConfig": {[]string{"arn"}, []string{"allowedPublishers", "codeSigningConfigId"}},
	} {
		dt, ok := r.DataSourceType(name)
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if got := dt.FilterFieldNames(); !slices.Equal(got, want.filters) {
			t.Errorf("%s filter fields %v, want %v", name, got, want.filters)
		}
		for _, e := range want.exports {
			if _, ok := dt.Export(e); !ok {
				t.Errorf("%s does not export %s", name, e)
			}
		}
	}
	dt, _ := r.DataSourceType("aws/lambda/function")
	if f, _ := dt.Export("vpcConfig"); f.Type.String() != "object{ipv6AllowedForDualStack: boolean, securityGroupIds: array[string], subnetIds: array[string]}" {
		t.Errorf("vpcConfig exported as %s", f.Type)
	}
}

// TestOfficialReplacementsAndShapes: a field the official provider uses
// in place of a CloudFormation one meets its requirement, and a field
// the provider shapes differently accepts both shapes.
func TestOfficialReplacementsAndShapes(t *testing.T) {
	r := NewBuiltin()
	profile, _ := r.ResourceType("aws/iam/instanceProfile")
	alias, _ := r.ResourceType("aws/lambda/alias")
	for _, tc := range []struct {
		rt         *ResourceType
		name, spec string
		want       []string
	}{
		{profile, "role stands in for roles", `{"role": "r"}`, nil},
		{profile, "roles still works", `{"roles": ["r"]}`, nil},
		{profile, "neither", `{"path": "/"}`, []string{"resource-missing-field"}},
		{alias, "weights as a map", `{"functionName": "f", "functionVersion": "1", "name": "live", "routingConfig": {"additionalVersionWeights": {"2": 0.1}}}`, nil},
		{alias, "weights as a list", `{"functionName": "f", "functionVersion": "1", "name": "live", "routingConfig": {"additionalVersionWeights": [{"functionVersion": "2", "functionWeight": 0.1}]}}`, nil},
		{alias, "weights as neither", `{"functionName": "f", "functionVersion": "1", "name": "live", "routingConfig": {"additionalVersionWeights": "2=0.1"}}`, []string{"resource-field-type"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range tc.rt.ValidateSpec(tn(parseJSONNode(tc.spec)), where) {
				got = append(got, d.Code)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAutoNamedFields: the official AWS provider's auto-named fields (a
// top-level primary identifier a spec may leave out) are computed when
// omitted; a required or read-only identifier is not.
func TestAutoNamedFields(t *testing.T) {
	r := NewBuiltin()
	for typ, field := range map[string]string{
		"aws/s3/bucket": "bucketName", "aws/dynamodb/table": "tableName", "aws/lambda/function": "functionName",
		"aws/iam/role": "roleName", "aws/logs/logGroup": "logGroupName",
	} {
		rt, _ := r.ResourceType(typ)
		if !rt.Marks([]string{field}).Has(ComputedWhenOmitted) {
			t.Errorf("%s.%s is not computed when omitted", typ, field)
		}
	}
	rt, _ := r.ResourceType("aws/sqs/queue") // its identifier is the read-only queueUrl
	if len(rt.ComputedWhenOmittedPaths) != 0 {
		t.Errorf("aws/sqs/queue: %v", rt.ComputedWhenOmittedPaths)
	}
}

// TestOfficialWiringSlots: the official provider's link-activating
// fields, and the links they activate.
func TestOfficialWiringSlots(t *testing.T) {
	r := NewBuiltin()
	for typ, path := range map[string][]string{
		"aws/events/rule":      {"targets", "0", "arn"},
		"aws/sns/subscription": {"endpoint"},
	} {
		rt, _ := r.ResourceType(typ)
		if !rt.ActivatesLinkAt(path) {
			t.Errorf("%s %v does not activate links", typ, path)
		}
	}
	if _, ok := r.Link("aws/events/rule", "aws/lambda/function"); !ok {
		t.Error("no link from aws/events/rule to aws/lambda/function")
	}
}
