package ide

import (
	"os"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

func basicSource(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile("testdata/basic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// withCursor replaces the first occurrence of old in src with new, which
// holds the marker.
func withCursor(t testing.TB, src, old, new string) string {
	t.Helper()
	if !strings.Contains(src, old) {
		t.Fatalf("%q not in source", old)
	}
	return strings.Replace(src, old, new, 1)
}

func TestCompletionExpression(t *testing.T) {
	base := basicSource(t)
	tests := []struct {
		name     string
		old, new string
		want     []string
		not      []string
		replace  string // text the replace range covers in the edited text
	}{
		{"start", "value: orders-${variables.environment}", "value: ${<>}", []string{"variables", "values", "join", "table", "handler"}, []string{"elem"}, ""},
		{"namespace", "value: orders-${variables.environment}", "value: ${variables.<>", []string{"environment", "region", "dbPassword", "port"}, []string{"prefix"}, ""},
		{"namespace partial", "value: orders-${variables.environment}", "value: ${variables.env<>}", []string{"environment"}, nil, "env"},
		{"keyword", "value: orders-${variables.environment}", "value: ${variab<>}", []string{"variables"}, nil, "variab"},
		{"values", "value: orders-${variables.environment}", "value: ${values.<>}", []string{"prefix", "tags"}, nil, ""},
		{"resource parts", "zipFile: ${trim(variables.environment)}", "zipFile: ${resources.table.<>}", []string{"spec", "state", "metadata"}, nil, ""},
		{"resource spec", "zipFile: ${trim(variables.environment)}", "zipFile: ${resources.table.spec.<>}", []string{"tableName", "billingMode", "keySchema"}, nil, ""},
		{"resource state", "zipFile: ${trim(variables.environment)}", "zipFile: ${resources.table.state.<>}", []string{"arn", "tableName"}, nil, ""},
		{"bare resource spec", "zipFile: ${trim(variables.environment)}", "zipFile: ${table.spec.bil<>}", []string{"billingMode"}, nil, "bil"},
		{"metadata", "zipFile: ${trim(variables.environment)}", "zipFile: ${resources.table.metadata.<>}", []string{"displayName", "labels"}, nil, ""},
		{"metadata labels as written", "zipFile: ${trim(variables.environment)}", "zipFile: ${resources.table.metadata.labels.<>}", []string{"app"}, []string{"displayName"}, ""},
		{"datasource", "zipFile: ${trim(variables.environment)}", "zipFile: ${datasources.network.<>}", []string{"vpc", "subnets"}, nil, ""},
		{"resources", "zipFile: ${trim(variables.environment)}", "zipFile: ${resources.<>}", []string{"table", "handler"}, nil, ""},
		{"argument", "zipFile: ${trim(variables.environment)}", "zipFile: ${join(<>", []string{"values.tags", "variables.environment", "split"}, nil, ""},
		{"second argument", "zipFile: ${trim(variables.environment)}", `zipFile: ${join(split(variables.environment, ","), <>`, []string{"variables.environment", "values.prefix"}, nil, ""},
		{"function name", "zipFile: ${trim(variables.environment)}", "zipFile: ${to_up<>(variables.environment)}", []string{"to_upper"}, nil, "to_up("}, // its "(" is not written twice
		{"middle of a name", "value: orders-${variables.environment}", "value: ${variables.env<>ironment}", []string{"environment"}, nil, "environment"},
		{"middle of a keyword", "value: orders-${variables.environment}", "value: ${vari<>ables.environment}", []string{"variables"}, nil, "variables."},
		{"export field", "field: resources.table.spec.tableName", "field: resources.table.spec.<>", []string{"tableName", "billingMode"}, nil, ""},
		{"interpolation", "zipFile: ${trim(variables.environment)}", "zipFile: pre-${variables.<>}-post", []string{"environment"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := withCursor(t, base, tc.old, tc.new)
			text, off := cursor(t, src)
			res := analyze(t, "basic.yaml", text)
			items := Completion(res, nil, off, Options{})
			offers(t, items, tc.want, tc.not)
			for _, it := range items {
				if !has(tc.want, it.Label) {
					continue
				}
				if got := text[it.ReplaceRange.Start:it.ReplaceRange.End]; got != tc.replace {
					t.Errorf("%s: replace range %v covers %q, want %q", it.Label, it.ReplaceRange, got, tc.replace)
				}
			}
		})
	}
}

func TestCompletionArgumentRanking(t *testing.T) {
	src := withCursor(t, basicSource(t), "zipFile: ${trim(variables.environment)}", "zipFile: ${join(<>")
	text, off := cursor(t, src)
	items := Completion(analyze(t, "basic.yaml", text), nil, off, Options{})
	rank := map[string]string{}
	for _, it := range items {
		rank[it.Label] = it.SortText
	}
	// join takes an array first: the array value and split rank before
	// a string variable and an unrelated function.
	if !(rank["values.tags"] < rank["variables.environment"]) || !(rank["split"] < rank["to_upper"]) {
		t.Errorf("ranking: values.tags %s, variables.environment %s, split %s, to_upper %s",
			rank["values.tags"], rank["variables.environment"], rank["split"], rank["to_upper"])
	}
}

func TestCompletionSnippet(t *testing.T) {
	src := withCursor(t, basicSource(t), "zipFile: ${trim(variables.environment)}", "zipFile: ${subs<>}")
	text, off := cursor(t, src)
	items := Completion(analyze(t, "basic.yaml", text), nil, off, Options{Snippets: true})
	for _, it := range items {
		if it.Label == "substr" {
			if !it.Snippet || !strings.HasPrefix(it.InsertText, "substr(${1:") {
				t.Errorf("substr insert %q snippet %v", it.InsertText, it.Snippet)
			}
			return
		}
	}
	t.Fatal("substr not offered")
}

// TestCompletionBrokenText: the current text does not parse; the last
// good Result still drives completion of what is typed.
func TestCompletionBrokenText(t *testing.T) {
	good := basicSource(t)
	res := analyze(t, "basic.yaml", good)
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		{"namespace", "value: orders-${variables.environment}", "value: ${variables.<>\n  broken: [", []string{"environment", "port"}},
		{"resource spec", "zipFile: ${trim(variables.environment)}", "zipFile: \"${resources.table.spec.<>\n  : :", []string{"tableName"}},
		{"key", "      billingMode: PAY_PER_REQUEST\n", "      billingMode: PAY_PER_REQUEST\n      stream<>\n", []string{"streamSpecification"}},
		{"resource key", "  handler:\n    type: aws/lambda/function\n", "  handler:\n    type: aws/lambda/function\n    cond<>\n", []string{"condition", "description", "each"}},
		{"call argument", "zipFile: ${trim(variables.environment)}", "zipFile: ${join(split(variables.environment, \",\"), <>", []string{"variables.environment"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, off := cursor(t, withCursor(t, good, tc.old, tc.new))
			items := Completion(res, []byte(text), off, Options{})
			offers(t, items, tc.want, nil)
		})
	}
}

func TestCompletionStructure(t *testing.T) {
	base := basicSource(t)
	tests := []struct {
		name     string
		old, new string
		want     []string
		not      []string
		insert   map[string]string
	}{
		{"top-level key", "values:\n", "<>\nvalues:\n", []string{"include", "metadata", "transform"}, []string{"version", "variables"}, nil},
		{"variable key", "    type: aws/region\n", "    type: aws/region\n    <>\n", []string{"description", "secret", "allowedValues"}, []string{"type", "default"}, map[string]string{"description": "description: "}},
		{"variable type", "    type: aws/region\n", "    type: <>\n", []string{"string", "integer", "aws/region"}, nil, nil},
		{"default allowed", "    default: dev\n", "    default: <>\n", []string{"dev", "production"}, nil, nil},
		{"default custom type", "    default: eu-west-1\n", "    default: <>\n", []string{"eu-west-1", "us-east-1"}, nil, nil},
		{"value type", "    type: array\n", "    type: <>\n", []string{"array", "object"}, nil, nil},
		{"filter operator", "      operator: has key\n", "      operator: <>\n", []string{"=", "!=", "has key"}, nil, map[string]string{"!=": `"!="`}},
		{"resource type", "    type: aws/dynamodb/table\n", "    type: aws/<>\n", []string{"aws/lambda/function", "aws/sqs/queue", "aws/iam/user", "aws/ecr/repository", "aws/lambda/functionVersion"}, []string{"aws/lambda/version"}, nil},
		{"resource key", "    dependsOn: [table]\n", "    dependsOn: [table]\n    <>\n", []string{"removalPolicy", "condition", "each"}, []string{"spec", "type"}, map[string]string{"metadata": "metadata:"}},
		{"spec key", "      runtime: python3.12\n", "      runtime: python3.12\n      <>\n", []string{"timeout", "environment"}, []string{"functionName", "runtime", "arn"}, nil},
		{"spec enum", "      runtime: python3.12\n", "      runtime: python3.12\n      recursiveLoop: <>\n", []string{"Allow", "Terminate"}, nil, nil},
		{"spec nested key", "        zipFile: ${trim(variables.environment)}\n", "        zipFile: ${trim(variables.environment)}\n        s3<>\n", []string{"s3Bucket", "s3Key"}, []string{"zipFile"}, nil},
		{"selector label key", "      byLabel:\n        app: orders\n", "      byLabel:\n        <>\n", []string{"app"}, nil, nil},
		{"selector label value", "      byLabel:\n        app: orders\n", "      byLabel:\n        app: <>\n", []string{"orders"}, nil, nil},
		{"dependsOn", "    dependsOn: [table]\n", "    dependsOn:\n      - <>\n", []string{"table"}, []string{"handler"}, nil},
		{"removal policy", "    dependsOn: [table]\n", "    removalPolicy: <>\n", []string{"delete", "retain"}, nil, nil},
		{"version", "version: 2025-11-02", "version: <>", []string{"2023-04-20", "2025-11-02"}, nil, nil},
		{"sequence item key", "        - attributeName: id\n          attributeType: S\n", "        - attributeName: id\n          <>\n", []string{"attributeType"}, []string{"attributeName"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, off := cursor(t, withCursor(t, base, tc.old, tc.new))
			res := analyze(t, "basic.yaml", base)
			items := Completion(res, []byte(text), off, Options{})
			offers(t, items, tc.want, tc.not)
			for _, it := range items {
				if want, ok := tc.insert[it.Label]; ok && it.InsertText != want {
					t.Errorf("%s inserts %q, want %q", it.Label, it.InsertText, want)
				}
			}
		})
	}
}

const jsonDoc = `{
  "version": "2023-04-20",
  "variables": {
    "env": {"type": "string", "default": "dev"}
  },
  "resources": {
    "queue": {
      "type": "aws/sqs/queue",
      "spec": {"queueName": "${variables.env}-q"}
    }
  }
}
`

func TestCompletionJSON(t *testing.T) {
	res := analyze(t, "doc.json", jsonDoc)
	tests := []struct {
		name     string
		old, new string
		want     []string
		replace  string
		insert   map[string]string
	}{
		{"key in quotes", `"default": "dev"`, `"default": "dev", "desc<>"`, []string{"description", "secret"}, "desc", map[string]string{"description": "description"}},
		{"key bare", `"default": "dev"`, `"default": "dev", <>`, []string{"description"}, "", map[string]string{"description": `"description": `}},
		{"type value", `"type": "string"`, `"type": "<>"`, []string{"string", "aws/region"}, "", nil},
		{"expression", `"${variables.env}-q"`, `"${variables.<>}-q"`, []string{"env"}, "", nil},
		{"spec key", `{"queueName": "${variables.env}-q"}`, `{"queueName": "${variables.env}-q", "<>"}`, []string{"delaySeconds"}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, off := cursor(t, withCursor(t, jsonDoc, tc.old, tc.new))
			items := Completion(res, []byte(text), off, Options{})
			offers(t, items, tc.want, nil)
			if has(labels(items), "type") && tc.name == "key in quotes" {
				t.Errorf("present key offered")
			}
			for _, it := range items {
				if it.Label == tc.want[0] {
					if r := text[it.ReplaceRange.Start:it.ReplaceRange.End]; r != tc.replace {
						t.Errorf("replace covers %q, want %q", r, tc.replace)
					}
				}
				if want, ok := tc.insert[it.Label]; ok && it.InsertText != want {
					t.Errorf("%s inserts %q, want %q", it.Label, it.InsertText, want)
				}
			}
		})
	}
}

func TestDecodeQuoted(t *testing.T) {
	s, m := decodeQuoted(`a\"b`, 10)
	if s != `a"b` {
		t.Fatalf("decoded %q", s)
	}
	if got := m.Range(0, 3); got != source.R(10, 14) {
		t.Errorf("range %v", got)
	}
	if got := m.Source(2); got != 13 {
		t.Errorf("source(2) = %d", got)
	}
}

// TestCompletionDocumentation checks that every item of a completion can
// have its documentation recomputed from its label and kind alone.
func TestCompletionDocumentation(t *testing.T) {
	src := basicSource(t)
	res := analyze(t, "basic.yaml", src)
	checked := 0
	for off := 0; off <= len(src); off += 7 {
		types := 0
		for _, it := range Completion(res, nil, off, Options{}) {
			if it.Detail == resourceTypeDetail {
				// Every 40th of the 1,800 types: resolving opens each.
				if types++; types%40 != 1 {
					continue
				}
			}
			doc, ok := CompletionDocumentation(res, []byte(src), off, it.Label, it.Kind, Options{})
			want := it.Documentation
			if it.Detail == resourceTypeDetail {
				// Resolving a resource type opens it for its full text.
				rt, _ := Options{}.registry().ResourceType(it.Label)
				want = resourceTypeMarkdown(rt)
			}
			if !ok || doc != want {
				t.Fatalf("offset %d, %s (kind %d): got %q, %v; want %q", off, it.Label, it.Kind, doc, ok, want)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d items checked", checked)
	}
	if _, ok := CompletionDocumentation(res, []byte(src), 0, "no-such-item", ItemProperty, Options{}); ok {
		t.Error("an item that is not offered resolved")
	}
}

// TestCompletionCatalogTypes: after `type:` every type of the built-in
// catalog is offered, each documented from the index alone with its
// CloudFormation name and reference page.
func TestCompletionCatalogTypes(t *testing.T) {
	text, off := cursor(t, "version: 2025-11-02\nresources:\n  user:\n    type: aws/<>\n")
	res := analyze(t, "types.yaml", text)
	items := Completion(res, []byte(text), off, Options{})
	if len(items) < 1500 {
		t.Fatalf("%d items", len(items))
	}
	for _, it := range items {
		if it.Label == "aws/iam/user" {
			want := "`AWS::IAM::User` · [AWS documentation](https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-iam-user.html)"
			if it.Documentation != want || it.Detail != "resource type" {
				t.Errorf("aws/iam/user: detail %q, doc %q", it.Detail, it.Documentation)
			}
			return
		}
	}
	t.Error("aws/iam/user not offered")
}

// TestYAMLScalarText: values completion inserts are quoted exactly when
// YAML would read them as something other than the string.
func TestYAMLScalarText(t *testing.T) {
	for in, want := range map[string]string{
		"aws/lambda/functionVersion": "aws/lambda/functionVersion",
		"celerity/handlerConfig":     "celerity/handlerConfig",
		"python3.12":                 "python3.12",
		"Infinity":                   `"Infinity"`,
		"infinity":                   `"infinity"`,
		".inf":                       `".inf"`,
		"1e10":                       `"1e10"`,
		"Yes":                        `"Yes"`,
		"has key":                    "has key",
		"a: b":                       `"a: b"`,
		"":                           `""`,
	} {
		if got := yamlScalarText(in); got != want {
			t.Errorf("yamlScalarText(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestCompletionLabelKeysOrdered: the label keys offered in a link
// selector come in the same order every time (they were read from a
// map, so two completions of the same text could list them differently).
func TestCompletionLabelKeysOrdered(t *testing.T) {
	base := withCursor(t, basicSource(t), "      labels:\n        app: orders\n",
		"      labels:\n        app: orders\n        tier: data\n        team: payments\n        zone: a\n        cost: low\n")
	text, off := cursor(t, withCursor(t, base, "      byLabel:\n        app: orders\n", "      byLabel:\n        <>\n"))
	res := analyze(t, "basic.yaml", base)
	var first []string
	for i := range 20 {
		var labels []string
		for _, it := range Completion(res, []byte(text), off, Options{}) {
			if it.Detail == "label" {
				labels = append(labels, it.Label)
			}
		}
		if i == 0 {
			first = labels
			if want := []string{"app", "cost", "team", "tier", "zone"}; strings.Join(labels, " ") != strings.Join(want, " ") {
				t.Fatalf("label keys %v, want %v", labels, want)
			}
		} else if strings.Join(labels, " ") != strings.Join(first, " ") {
			t.Fatalf("completion %d lists %v, the first %v", i, labels, first)
		}
	}
}
