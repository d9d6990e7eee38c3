package resschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

func itoa(i int) string { return fmt.Sprint(i) }

// doc builds a schema whose top level has a description and the given
// members after typeName (one per line, so line numbers are easy: the
// first extra member is on line 3).
func doc(members ...string) string {
	return "{\"typeName\": \"Acme::Shop::Widget\", \"description\": \"d\", \"additionalProperties\": false,\n" +
		" \"properties\": {\"Name\": {\"type\": \"string\"}, \"Tags\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/definitions/Tag\"}}},\n" +
		strings.Join(append(members, ` "definitions": {"Tag": {"type": "object", "properties": {"Key": {"type": "string"}}}}`), ",\n") + "}"
}

// TestRules: every rule, at its exact position (line:column of the
// range start, 1-based, and the text the range covers).
func TestRules(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // line:col:code:covered text
	}{
		{"clean", doc(` "primaryIdentifier": ["/properties/Name"]`, ` "writeOnlyProperties": ["/properties/Tags/*/Key"]`), nil},
		{"issue example", `{"typeName": "Acme::Widget::Thing", "description": "x",
 "properties": {"Name": {"type": "strin"},
                "Size": {"$ref": "#/definitions/Missing"}},
 "primaryIdentifier": ["/properties/Nope"],
 "readOnlyProperties": ["/properties/Gone"],
 "additionalProperties": false}`, []string{
			`2:34:provider-schema-invalid:"strin"`,
			`3:34:provider-schema-ref:"#/definitions/Missing"`,
			`4:24:provider-schema-pointer:"/properties/Nope"`,
			`5:25:provider-schema-pointer:"/properties/Gone"`,
		}},
		{"not an object", `["Acme::Shop::Widget"]`, []string{`1:1:provider-schema-not-object:["Acme::Shop::Widget"]`}},
		{"missing required", `{"typeName": "Acme::Shop::Widget", "properties": {}}`, []string{
			`1:1:provider-schema-invalid:{`,
			`1:50:provider-schema-invalid:{}`,
		}},
		{"unknown keyword", doc(` "primaryIdentifier": ["/properties/Name"]`, ` "primaryIdentifer": []`), []string{
			`4:2:provider-schema-invalid:"primaryIdentifer"`,
		}},
		{"pointer lists", doc(
			` "primaryIdentifier": ["/properties/Name"]`,
			` "additionalIdentifiers": [["/properties/Nam"]]`,
			` "createOnlyProperties": ["/properties/Tags/*/Value"]`,
			` "conditionalCreateOnlyProperties": ["Name"]`,
			` "deprecatedProperties": ["/properties/Old"]`,
			` "writeOnlyProperties": ["/properties/Name"]`,
			` "tagging": {"taggable": true, "tagProperty": "/properties/Tag"}`), []string{
			`4:29:provider-schema-pointer:"/properties/Nam"`,
			`5:27:provider-schema-pointer:"/properties/Tags/*/Value"`,
			`6:38:provider-schema-pointer:"Name"`,
			`7:27:provider-schema-pointer:"/properties/Old"`,
			`9:47:provider-schema-pointer:"/properties/Tag"`,
		}},
		{"type name", strings.Replace(doc(` "primaryIdentifier": ["/properties/Name"]`), "Acme::Shop::Widget", "Acme::Widget", 1), []string{
			`1:14:provider-schema-type-name:"Acme::Widget"`,
		}},
		{"permissions", doc(` "primaryIdentifier": ["/properties/Name"]`, ` "handlers": {"create": {"permissions": "s3:PutObject"}, "read": {"permissions": ["s3:Get", 3]}}`), []string{
			`4:41:provider-schema-permissions:"s3:PutObject"`,
			`4:93:provider-schema-permissions:3`,
		}},
		{"replacement strategy", doc(` "primaryIdentifier": ["/properties/Name"]`, ` "replacementStrategy": "delete_first"`), []string{
			`4:25:provider-schema-replacement-strategy:"delete_first"`,
		}},
		{"array keywords", strings.Replace(doc(` "primaryIdentifier": ["/properties/Name"]`), `"Name": {"type": "string"}`, `"Name": {"type": "string", "insertionOrder": false, "arrayType": "Standard"}`, 1), []string{
			`2:44:provider-schema-array-keyword:"insertionOrder"`,
			`2:69:provider-schema-array-keyword:"arrayType"`,
		}},
		{"ref cycle", strings.Replace(doc(` "primaryIdentifier": ["/properties/Name"]`), `"Tag": {"type": "object", "properties": {"Key": {"type": "string"}}}`, `"Tag": {"$ref": "#/definitions/Loop"}, "Loop": {"$ref": "#/definitions/Tag"}`, 1), []string{
			`4:34:provider-schema-ref-cycle:"#/definitions/Loop"`,
			`4:74:provider-schema-ref-cycle:"#/definitions/Tag"`,
		}},
		{"property transform", doc(` "primaryIdentifier": ["/properties/Name"]`, ` "propertyTransform": {"/properties/Name": "$join([Name, \"T $OR Y\"])", "/properties/Nme": "Nme", "/properties/Tags": 3}`), []string{
			`4:62:provider-schema-transform:$OR`,
			`4:74:provider-schema-pointer:"/properties/Nme"`,
			`4:120:provider-schema-transform:3`,
		}},
		// Definitions each referencing the next twice: 15 levels stand
		// for 98,304 schemas, 16 for 196,608 (past the budget, reported
		// at Root's $ref), 17 for 393,216 (reported at the first $ref
		// to D1, whose own tree passes the budget).
		{"fan-out within the budget", fanOut(15), nil},
		{"fan-out past the budget", fanOut(16), []string{`2:62:provider-schema-ref-expansion:"#/definitions/D0"`}},
		{"fan-out past the budget deeper", fanOut(17), []string{`4:57:provider-schema-ref-expansion:"#/definitions/D1"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := syntax.ParseJSON([]byte(tc.src), false)
			var got []string
			for _, d := range Check(f, Options{}) {
				p := f.Mapper.OffsetPosition(d.Range.Start, 0)
				got = append(got, fmt.Sprintf("%d:%d:%s:%s", p.Line+1, p.Character+1, d.Code, tc.src[d.Range.Start:d.Range.End]))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\n%s", diff, tc.src)
			}
		})
	}
}

// fanOut is a resource schema whose definitions D0..D(n-1) each
// reference the next one twice, one definition a line from line 4.
func fanOut(n int) string {
	var b strings.Builder
	b.WriteString("{\"typeName\": \"Acme::Deep::Thing\", \"description\": \"d\",\n")
	b.WriteString(" \"properties\": {\"Name\": {\"type\": \"string\"}, \"Root\": {\"$ref\": \"#/definitions/D0\"}},\n")
	b.WriteString(" \"definitions\": {\n")
	for i := range n {
		next := `{"type": "string"}`
		if i+1 < n {
			next = fmt.Sprintf(`{"$ref": "#/definitions/D%d"}`, i+1)
		}
		sep := ","
		if i+1 == n {
			sep = ""
		}
		fmt.Fprintf(&b, "  \"D%d\": {\"type\": \"object\", \"properties\": {\"A\": %s, \"B\": %s}}%s\n", i, next, next, sep)
	}
	b.WriteString(" },\n \"primaryIdentifier\": [\"/properties/Name\"], \"additionalProperties\": false}\n")
	return b.String()
}
