package policy

import (
	"encoding/json"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Input is the document a policy reads as `input` (docs/policies.md):
//
//	{
//	  "blueprint": {"path": "app.blueprint.yaml"},
//	  "variables": {"env": "dev"},
//	  "resources": [{
//	    "name": "buckets[0]", "resource": "buckets", "index": 0,
//	    "type": "aws/s3/bucket", "condition": "included",
//	    "spec": {...}, "metadata": {"labels": {...}, ...},
//	    "dependsOn": ["queue"],
//	    "unknowns": ["spec.arn"],
//	    "location": {"line": 12, "column": 5}
//	  }]
//	}
//
// Values only known after deployment are {"$unknown": "why"} and are
// listed by path in unknowns; secrets are {"$sensitive": true}.
// Excluded resources (condition false) are left out.
func Input(bp *eval.Blueprint, m *source.Mapper) *Document {
	doc := &Document{Blueprint: BlueprintInfo{Path: bp.Path}, Variables: map[string]any{}, Resources: []Resource{}}
	for _, v := range bp.Variables {
		doc.Variables[v.Name] = plain(v.Value)
	}
	for _, r := range bp.Resources {
		if r.Condition == eval.Excluded {
			continue
		}
		item := Resource{
			Name: r.Name, Resource: r.Template, Index: r.Index, Type: r.Type,
			Condition: r.Condition.String(),
			Spec:      plain(r.FullSpec()), Metadata: plain(r.FullMetadata()),
			DependsOn: stringsOrEmpty(r.DependsOn),
		}
		var unknowns []string
		collectUnknowns(r.FullSpec(), "spec", &unknowns)
		collectUnknowns(r.FullMetadata(), "metadata", &unknowns)
		item.Unknowns = stringsOrEmpty(unknowns)
		if r.Symbol != nil && m != nil {
			l, c := m.LineCol(r.Symbol.NameRange.Start, source.UTF32)
			item.Location = &Location{Line: l, Column: c}
		}
		doc.Resources = append(doc.Resources, item)
	}
	return doc
}

// Document is the input document (its JSON form is documented in
// docs/policies.md).
type Document struct {
	Blueprint BlueprintInfo  `json:"blueprint"`
	Variables map[string]any `json:"variables"`
	Resources []Resource     `json:"resources"`
}

// BlueprintInfo describes the blueprint file.
type BlueprintInfo struct {
	Path string `json:"path"`
}

// Resource is one resource instance as a policy reads it.
type Resource struct {
	Name      string    `json:"name"`     // the instance: name, or name[i] for an each resource
	Resource  string    `json:"resource"` // the resource's name in the blueprint
	Index     int       `json:"index"`    // the each index, -1 without each
	Type      string    `json:"type"`
	Condition string    `json:"condition"` // included, or unknown when only known after deploy
	Spec      any       `json:"spec"`
	Metadata  any       `json:"metadata"`
	DependsOn []string  `json:"dependsOn"`
	Unknowns  []string  `json:"unknowns"` // paths of the values only known after deploy
	Location  *Location `json:"location,omitempty"`
}

// Location is where the resource is defined: 1-based line and column.
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// plain turns an evaluated value into JSON data (secrets masked,
// unknowns marked).
func plain(v funcs.Value) any {
	var out any
	if err := json.Unmarshal(eval.JSON(v), &out); err != nil {
		return nil
	}
	return out
}

func stringsOrEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// collectUnknowns lists the paths of v's values only known after
// deployment.
func collectUnknowns(v funcs.Value, at string, out *[]string) {
	if !v.HasUnknown() {
		return
	}
	if v.IsUnknown() {
		*out = append(*out, at)
		return
	}
	if m, ok := v.Map(); ok {
		for i := 0; i < m.Len(); i++ {
			k, e := m.At(i)
			collectUnknowns(e, at+"."+k, out)
		}
		return
	}
	if es, ok := v.Elems(); ok {
		for i, e := range es {
			collectUnknowns(e, at+"["+itoa(i)+"]", out)
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
