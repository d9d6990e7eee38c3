package analysis

import (
	"context"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Transformer runs a blueprint's transforms: the transformer plugins
// the plugin host loaded (pluginhost.Runner). Has says whether a
// transform name has a transformer; Transform runs it over a blueprint
// written in format ("yaml", "jwcc" or "bplang").
type Transformer interface {
	Has(name string) bool
	Transform(ctx context.Context, name, format string, text []byte) *pluginhost.Transformed
}

// Transformed is a blueprint as its transformers made it, analysed, and
// how its resources map back to the source blueprint.
type Transformed struct {
	// Result is the analysis of the transformed blueprint (a JSON
	// document of its own, never shown: its diagnostics reach the user
	// through Map).
	Result *Result
	// Origins maps each resource a transformer made to the abstract
	// resource of the source it came from.
	Origins map[string]string
	// Diagnostics are the transformed blueprint's diagnostics about the
	// resources the transformers made, on the abstract resources they
	// came from, and what the transformers said or why they failed, on
	// the transform field; in source order.
	Diagnostics []source.Diagnostic

	src *schema.Blueprint
}

// CodeTransformFailed is a transformer that could not transform the
// blueprint (it crashed, hung, or answered what is not a blueprint).
var CodeTransformFailed = source.NewCode("transform-failed", source.Error,
	"A transformer plugin could not transform the blueprint (it failed, crashed, did not answer in time or answered what is not a blueprint); the blueprint is checked as written, its abstract resources unexpanded.",
	"transform: celerity-2026-02-27-draft")

// CodeTransformNote is what a transformer plugin reported while
// transforming the blueprint.
var CodeTransformNote = source.NewCode("transform-diagnostic", source.Warning,
	"A diagnostic a transformer plugin reported while transforming the blueprint.",
	"")

// CodeTransformedResource is a problem in a concrete resource a
// transformer made, reported on the abstract resource it came from.
var CodeTransformedResource = source.NewCode("transformed-resource", source.Error,
	"A problem in a resource a transformer made from an abstract resource: reported on the abstract resource, naming the concrete one (its own code in the message).",
	"")

// AnalyzeTransformed runs the transforms of res's blueprint that tr has
// transformers for, in order, and analyses what they made with opts. It
// returns nil when no transform applies (or res has syntax errors): the
// blueprint is then what it says. A transformer that fails is one
// transform-failed diagnostic and a nil Result.
func AnalyzeTransformed(ctx context.Context, res *Result, opts Options, tr Transformer) *Transformed {
	if tr == nil || res == nil || res.Blueprint == nil || res.File == nil || res.File.HasSyntaxErrors() {
		return nil
	}
	bp := res.Blueprint
	var names []*schema.Scalar
	for _, n := range bp.Transforms {
		if n != nil && tr.Has(n.Value) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	out := &Transformed{src: bp, Origins: map[string]string{}}
	format, text := formatName(res.File.Format), res.File.Content()
	for _, n := range names {
		t := tr.Transform(ctx, n.Value, format, text)
		if t == nil || t.Error != "" {
			why := "no answer"
			if t != nil {
				why = t.Error
			}
			out.Diagnostics = append(out.Diagnostics, CodeTransformFailed.New(n.Rng, "transform %s failed: %s", n.Value, why))
			return out
		}
		for _, note := range t.Diagnostics {
			d := CodeTransformNote.New(n.Rng, "transform %s: %s", n.Value, note.Message)
			if note.Error {
				d.Severity = source.Error
			}
			out.Diagnostics = append(out.Diagnostics, d)
		}
		// Chained transforms: an origin of an origin is the source's.
		for concrete, abstract := range t.Origins {
			if first, ok := out.Origins[abstract]; ok {
				abstract = first
			}
			out.Origins[concrete] = abstract
		}
		format, text = "jwcc", t.Blueprint
	}
	// The same path: includes resolve and the plan is named as the
	// source's.
	o := opts
	o.Path, o.Repair = res.Path, false
	out.Result = Analyze(ctx, schema.Parse(res.URI+".transformed.json", text), o)
	out.Diagnostics = append(out.Diagnostics, out.Map(out.Result.Diagnostics)...)
	source.SortDiagnostics(out.Diagnostics)
	return out
}

// formatName is the official loader's name of a document format.
func formatName(f syntax.Format) string {
	switch f {
	case syntax.JSON, syntax.JSONC:
		return "jwcc"
	case syntax.BP:
		return "bplang"
	}
	return "yaml"
}

// Map moves diagnostics of the transformed blueprint (its analysis,
// its evaluation) that lie in a resource a transformer made to the name
// of the abstract resource it came from, the concrete resource named in
// the message; the others concern what the source says itself, checked
// there, and are dropped. Related places and fixes, in a document the
// user never sees, are dropped too.
func (t *Transformed) Map(diags []source.Diagnostic) []source.Diagnostic {
	if t == nil || t.Result == nil || t.Result.Blueprint == nil {
		return nil
	}
	type span struct {
		concrete string
		rng      source.Range
		abstract source.Range
	}
	var spans []span
	for _, r := range t.Result.Blueprint.Resources.Items() {
		from, ok := t.Origins[r.Name]
		if !ok || r.Entry == nil || r.Entry.Key == nil || r.Entry.Value == nil {
			continue
		}
		a := t.src.Resources.Get(from)
		if a == nil {
			continue
		}
		spans = append(spans, span{r.Name, source.Range{Start: r.Entry.Key.Rng.Start, End: r.Entry.Value.Range().End}, a.NameRange()})
	}
	var out []source.Diagnostic
	for _, d := range diags {
		i := slices.IndexFunc(spans, func(s span) bool { return s.rng.ContainsRange(d.Range) })
		if i < 0 {
			continue
		}
		m := CodeTransformedResource.New(spans[i].abstract, "%s (made by the transform): %s [%s]", spans[i].concrete, d.Message, d.Code)
		m.Severity = d.Severity
		out = append(out, m)
	}
	return out
}

// Abstract returns the abstract resource a resource of the transformed
// blueprint came from, and its type; "" for a resource of the source.
func (t *Transformed) Abstract(name string) (abstract, typ string) {
	if t == nil {
		return "", ""
	}
	from, ok := t.Origins[name]
	if !ok {
		return "", ""
	}
	if r := t.src.Resources.Get(from); r != nil {
		typ = r.Type.Text()
	}
	return from, typ
}

// MadeFrom returns the resources of the transformed blueprint made from
// the abstract resource, sorted, each with its type.
func (t *Transformed) MadeFrom(abstract string) (names, types []string) {
	if t == nil || t.Result == nil || t.Result.Blueprint == nil {
		return nil, nil
	}
	for concrete, from := range t.Origins {
		if from == abstract {
			names = append(names, concrete)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		typ := ""
		if r := t.Result.Blueprint.Resources.Get(n); r != nil {
			typ = r.Type.Text()
		}
		types = append(types, typ)
	}
	return names, types
}
