package resschema

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKeywordsMatchMetaSchema keeps the completion lists equal to the
// embedded meta-schema's keywords: the top level's properties, and the
// subset of draft-07 a property schema may use.
func TestKeywordsMatchMetaSchema(t *testing.T) {
	var meta struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	data, _ := metaFS.ReadFile("meta/provider.definition.schema.v1.json")
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	var base struct {
		Definitions struct {
			Properties struct {
				AllOf []struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"allOf"`
			} `json:"properties"`
		} `json:"definitions"`
	}
	data, _ = metaFS.ReadFile("meta/base.definition.schema.v1.json")
	if err := json.Unmarshal(data, &base); err != nil {
		t.Fatal(err)
	}
	var prop []string
	for _, a := range base.Definitions.Properties.AllOf {
		for k := range a.Properties {
			prop = append(prop, k)
		}
	}
	for _, tc := range []struct {
		name string
		list []Keyword
		want []string
	}{
		{"top level", TopKeywords, keysOf(meta.Properties)},
		{"property", PropertyKeywords, prop},
	} {
		var got []string
		for _, k := range tc.list {
			got = append(got, k.Name)
		}
		slices.Sort(got)
		slices.Sort(tc.want)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s keywords (-meta-schema +ours):\n%s", tc.name, diff)
		}
	}
}

func keysOf(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
