package analysis

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestComputedMapReferences: a reference into a map field, computed
// (state) or set in the spec, takes any key, quoted or not, and has the
// type of the map's values; a key of a map of objects reads on into the
// object, where a field the object lacks is still an error (at the
// field).
func TestComputedMapReferences(t *testing.T) {
	reg := registry.New()
	err := reg.AddResourceSchema("store.json", []byte(`{"typeName": "Test::Net::Store",
		"properties": {
			"Name": {"type": "string"},
			"Tags": {"type": "object", "patternProperties": {"^.*$": {"type": "string"}}, "additionalProperties": false},
			"IdsByName": {"type": "object", "patternProperties": {"^.*$": {"type": "string"}}, "additionalProperties": false},
			"Endpoints": {"type": "object", "additionalProperties": {"type": "object", "properties": {"Url": {"type": "string"}, "Port": {"type": "integer"}}, "additionalProperties": false}}
		},
		"readOnlyProperties": ["/properties/IdsByName", "/properties/Endpoints"]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		expr, typ string
		want      []string
	}{
		{expr: `resources.store.state.idsByName["anyKeyTheAuthorChose"]`, typ: "string"},
		{expr: `resources.store.state.idsByName.primary`, typ: "string"},
		{expr: `resources.store.state.idsByName`, typ: "map[string]"},
		{expr: `resources.store.spec.tags["team"]`, typ: "string"},
		{expr: `resources.store.state.endpoints["api"].url`, typ: "string"},
		{expr: `resources.store.state.endpoints["api"].port`, typ: "integer"},
		{expr: `resources.store.state.endpoints["api"].host`, typ: "unknown", want: []string{`11:53-11:57 ref-unknown-field`}},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			text := "version: 2025-11-02\nresources:\n  store:\n    type: test/net/store\n    spec:\n      name: s\n      tags: {team: a}\nvalues:\n  v:\n    type: string\n    value: ${" + tt.expr + "}\n"
			r := Analyze(context.Background(), schema.Parse("a.blueprint.yaml", []byte(text)), Options{Registry: reg})
			var got []string
			for _, d := range r.Diagnostics {
				if d.Code == codeUnusedValue.ID || d.Code == codeTypeMismatch.ID {
					continue // the value's own business
				}
				got = append(got, lineSpan(r, d.Range)+" "+d.Code)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s\nall: %s", diff, all(r))
			}
			var typ string
			for _, ref := range r.References() {
				if ref.Target != nil && ref.Target.Name == "store" && ref.Type != nil {
					typ = ref.Type.String()
				}
			}
			if typ != tt.typ {
				t.Errorf("type %s, want %s", typ, tt.typ)
			}
		})
	}
}
