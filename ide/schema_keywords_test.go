package ide

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestSchemaKeywordCompletion: the top level's keywords at the top
// level, a property schema's inside a property, nothing in a value; the
// keywords present are left out, and the partial key is replaced.
func TestSchemaKeywordCompletion(t *testing.T) {
	// One schema; each case types at one of the marks (the others vanish).
	const src = "{\"typeName\": \"Acme::Shop::Widget\",\n  @1\n  \"properties\": {\"Name\": {\"type\": \"string\", @2}},\n  \"definitions\": {\"Tag\": {@3}},\n  \"handlers\": {@4}\n}"
	tests := []struct {
		name, mark, typed string
		has, hasNot       []string
	}{
		{"top level", "@1", `"desc`, []string{"description", "primaryIdentifier", "readOnlyProperties"}, []string{"typeName", "properties", "insertionOrder"}},
		{"in a property", "@2", `"`, []string{"insertionOrder", "arrayType", "description", "$ref"}, []string{"type", "primaryIdentifier"}},
		{"in a definition", "@3", `"it`, []string{"type", "items"}, []string{"typeName"}},
		{"in handlers", "@4", `"`, nil, []string{"type", "typeName"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := src
			for _, m := range []string{"@1", "@2", "@3", "@4"} {
				if m != tc.mark {
					text = strings.Replace(text, m, "", 1)
				}
			}
			off := strings.Index(text, tc.mark)
			text = strings.Replace(text, tc.mark, tc.typed, 1)
			off += len(tc.typed)
			labels := map[string]CompletionItem{}
			for _, it := range SchemaKeywordCompletion([]byte(text), off) {
				labels[it.Label] = it
			}
			for _, l := range tc.has {
				it, ok := labels[l]
				if !ok {
					t.Errorf("%s not offered", l)
					continue
				}
				if got := text[it.ReplaceRange.Start:it.ReplaceRange.End]; got != tc.typed || it.InsertText != `"`+l+`"` || it.Documentation == "" {
					t.Errorf("%s replaces %q with %s (doc %q), want %q replaced", l, got, it.InsertText, it.Documentation, tc.typed)
				}
			}
			for _, l := range tc.hasNot {
				if _, ok := labels[l]; ok {
					t.Errorf("%s offered", l)
				}
			}
		})
	}
}

func TestSchemaKeywordHover(t *testing.T) {
	text := `{"typeName": "Acme::Shop::Widget", "properties": {"Name": {"insertionOrder": false}}, "handlers": {"create": {"permissions": []}}}`
	f := syntax.ParseJSON([]byte(text), false)
	tests := []struct {
		at, want string // want: a phrase of the hover; "" for none
	}{
		{`"typeName"`, "Organization::Service::Resource"},
		{`"properties"`, "The resource's properties"},
		{`"insertionOrder"`, "Arrays only"},
		{`"Name"`, ""},        // a property's name, not a keyword
		{`"permissions"`, ""}, // inside handlers
		{`"Acme`, ""},         // a value
	}
	for _, tc := range tests {
		off := strings.Index(text, tc.at) + 2
		h := SchemaKeywordHover(f, off)
		switch {
		case tc.want == "" && h != nil:
			t.Errorf("%s: hover %q", tc.at, h.Markdown)
		case tc.want != "" && (h == nil || !strings.Contains(h.Markdown, tc.want)):
			t.Errorf("%s: hover %v, want %q", tc.at, h, tc.want)
		case h != nil && !strings.HasPrefix(text[h.Range.Start:], tc.at):
			t.Errorf("%s: hover range starts at %q", tc.at, text[h.Range.Start:h.Range.End])
		}
	}
}
