package landscaper

import (
	"slices"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Options say where a document lives.
type Options struct {
	// Dir is the blueprint's folder, the root every file it references
	// must stay inside ("" when the document has no folder: referenced
	// files are then not checked).
	Dir string
	// Limit bounds the size of a referenced file read (0: 8 MiB).
	Limit int64
}

// Result is the outcome of checking one document.
type Result struct {
	// Kind is the document's kind: "Blueprint" or "InstallationTemplate".
	Kind        string
	Diagnostics []source.Diagnostic
}

// Check checks f, a Landscaper blueprint or installation template: its
// syntax diagnostics, its structure against the published schema, and
// Landscaper's rules.
func Check(f *syntax.File, opts Options) *Result {
	res, _ := check(f, opts)
	return res
}

// check is Check, returning the checker too (render reads its compiled
// schemas and declarations).
func check(f *syntax.File, opts Options) (*Result, *checker) {
	res := &Result{Diagnostics: append([]source.Diagnostic(nil), f.Diagnostics...)}
	root, _ := f.Tree()
	m, _ := root.(*syntax.Mapping)
	c := &checker{opts: opts}
	if m == nil {
		return res, c
	}
	if k, ok := m.Get("kind").(*syntax.Scalar); ok {
		res.Kind = k.Value
		if !slices.Contains(dialect.LandscaperKinds, k.Value) {
			// The apiVersion made it a Landscaper document (dialect.Detect):
			// a kind that misspells one of ours is reported and checked as
			// the kind it meant.
			if near, ok := dialect.NearLandscaperKind(k.Value); ok {
				d := codeKind.New(k.ValueRange(), "kind %q is not a Landscaper Blueprint or InstallationTemplate; did you mean %q?", k.Value, near)
				d.Suggestions = []source.Suggestion{{Title: "Change to " + near, Edits: []source.Edit{{Range: k.ValueRange(), NewText: near}}}}
				c.report(d)
				res.Kind = near
			}
		}
	}
	if c.opts.Limit == 0 {
		c.opts.Limit = 8 << 20
	}
	if opts.Dir != "" {
		c.roots = safefs.NewRoots(opts.Dir)
	}
	if res.Kind == "InstallationTemplate" {
		c.w.walk(m, shape().template, keyRange(m, "kind"))
		c.template(m)
	} else {
		c.w.walk(m, shape().blueprint, keyRange(m, "kind"))
		c.blueprint(m)
	}
	res.Diagnostics = append(res.Diagnostics, c.w.diags...)
	source.SortDiagnostics(res.Diagnostics)
	return res, c
}

// codeKind is a kind that misspells one of the Landscaper kinds this
// tool checks.
var codeKind = source.NewCode("landscaper-kind", source.Error,
	"A Landscaper document's kind misspells Blueprint or InstallationTemplate (its apiVersion says it is a Landscaper document).",
	"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprnt")

// checker holds one check's state.
type checker struct {
	opts       Options
	roots      *safefs.Roots
	w          walker
	unresolved bool     // the information about unresolved references is given
	schemas    *schemas // the blueprint's compiled JSON schemas
	exported   *names   // the blueprint's declared exports
	// fieldSchemas are the schemas of the data imports by name, and
	// localTypes the local types, for the fields templates read.
	fieldSchemas, localTypes map[string]syntax.Node
}

func (c *checker) report(d source.Diagnostic) { c.w.diags = append(c.w.diags, d) }

// keyRange is the range of m's key name, or m's first key, or m's range.
func keyRange(m *syntax.Mapping, name string) source.Range {
	if e := m.Entry(name); e != nil && e.Key != nil {
		return e.Key.Range()
	}
	if len(m.Entries) > 0 && m.Entries[0].Key != nil {
		return m.Entries[0].Key.Range()
	}
	return m.Range()
}

// str is the string value of m's field name, and its node.
func str(m *syntax.Mapping, name string) (string, *syntax.Scalar) {
	if m == nil {
		return "", nil
	}
	s, ok := m.Get(name).(*syntax.Scalar)
	if !ok || s.Tag == syntax.NullTag {
		return "", nil
	}
	return s.Value, s
}

// items are the mappings of the list at m's field name.
func items(m *syntax.Mapping, name string) []*syntax.Mapping {
	if m == nil {
		return nil
	}
	seq, ok := m.Get(name).(*syntax.Sequence)
	if !ok {
		return nil
	}
	var out []*syntax.Mapping
	for _, it := range seq.Items {
		if im, ok := it.(*syntax.Mapping); ok {
			out = append(out, im)
		}
	}
	return out
}

// nameAt is where a problem with a named item is reported: its name's
// value, or its first key.
func nameAt(m *syntax.Mapping) source.Range {
	if _, s := str(m, "name"); s != nil {
		return s.Range()
	}
	return keyRange(m, "name")
}
