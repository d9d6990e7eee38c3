package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	codeNotMapping = source.NewCode("spec-not-mapping", source.Error,
		"The document is not a mapping of blueprint fields.",
		"- version: 2023-04-20")
	codeMissingVersion = source.NewCode("spec-missing-version", source.Error,
		"The blueprint does not declare its spec version.",
		"resources:\n  queue:\n    type: aws/sqs/queue\n    spec: {}")
	codeUnsupportedVersion = source.NewCode("spec-unsupported-version", source.Error,
		"The declared spec version is not one blueprint-ls supports (2023-04-20, 2025-11-02).",
		"version: 2023-01-01")
	codeNoResources = source.NewCode("spec-no-resources", source.Error,
		"The blueprint has neither resources nor included child blueprints.",
		"version: 2023-04-20\nresources: {}")
	codeMissingField = source.NewCode("spec-missing-field", source.Error,
		"A definition lacks a field the spec requires.",
		"resources:\n  queue:\n    type: aws/sqs/queue")
	codeFieldType = source.NewCode("spec-field-type", source.Error,
		"A field's value has the wrong shape (mapping, list, string, boolean).",
		"resources:\n  queue:\n    type: aws/sqs/queue\n    spec: [queueName]")
	codeScalarNotString = source.NewCode("spec-scalar-not-string", source.Warning,
		"A number or boolean is written where the spec expects a string; it is used as its text.",
		"metadata:\n  labels:\n    tier: 1")
	codeUnknownField = source.NewCode("spec-unknown-field", source.Warning,
		"A field the spec does not define; usually a typo.",
		"resourcez: {}")
	codeNewerField = source.NewCode("spec-field-needs-version", source.Warning,
		"A field that only spec version 2025-11-02 defines, in a document of an older version.",
		"version: 2023-04-20\nresources:\n  queue:\n    removalPolicy: retain")
	codeDuplicateKey = source.NewCode("spec-duplicate-key", source.Error,
		"A key appears twice in the same mapping.",
		"resources:\n  queue: ...\n  queue: ...")
	codeSubstNotAllowed = source.NewCode("spec-substitution-not-allowed", source.Error,
		"A ${..} substitution where the spec requires a literal (keys, types, export fields, dependsOn, ...).",
		"exports:\n  arn:\n    type: ${variables.exportType}")
	codeSubstNotRecommended = source.NewCode("spec-substitution-not-recommended", source.Warning,
		"A ${..} substitution in a description: allowed, but the spec recommends against it.",
		"resources:\n  fn:\n    description: Saves ${variables.thing}")
	codeInvalidName = source.NewCode("spec-invalid-name", source.Warning,
		"A definition name with characters that substitutions cannot reference.",
		"values:\n  my value: ...")
)

func (l *loader) loadBlueprint(root *Mapping) {
	bp := l.bp
	l.loadVersion(root)
	fs := l.fields(root, KindBlueprint, "the blueprint", source.Range{})
	if e := fs.at("transform"); e != nil {
		bp.Transform = l.field(e)
		l.loadTransform(bp.Transform)
	}
	if e := fs.at("metadata"); e != nil {
		bp.Metadata = l.field(e)
	}
	// Each section's field, then every definition in it, in order.
	section := func(name string, field **Field, sized func(int), load func(*Entry)) {
		e := fs.at(name)
		if e == nil {
			return
		}
		*field = l.field(e)
		entries := e.Value.(*Mapping).Entries
		sized(len(entries))
		if field == &bp.Resources.Field && e.Value == l.resources && l.bulkLoad(entries) {
			return
		}
		for _, d := range entries {
			load(d)
		}
	}
	section(dialect.Variables.Key(), &bp.Variables.Field, bp.Variables.sized, l.loadVariable)
	section(dialect.Values.Key(), &bp.Values.Field, bp.Values.sized, l.loadValue)
	section(dialect.DataSources.Key(), &bp.DataSources.Field, bp.DataSources.sized, l.loadDataSource)
	if l.prevBP != nil {
		bp.Resources.followPrev(&l.prevBP.Resources)
	}
	section(dialect.Resources.Key(), &bp.Resources.Field, bp.Resources.sized, l.loadResourceEntry)
	bp.Resources.done()
	section(dialect.Include.Key(), &bp.Include.Field, bp.Include.sized, l.loadInclude)
	section(dialect.Exports.Key(), &bp.Exports.Field, bp.Exports.sized, l.loadExport)
	l.checkResourceNames()
	if bp.Resources.Len() == 0 && bp.Include.Len() == 0 {
		r := source.Range{Start: root.Rng.Start, End: root.Rng.Start}
		switch {
		case bp.Resources.Field != nil:
			r = bp.Resources.Field.KeyRange()
		case root.Entry(dialect.Resources.Key()) != nil:
			r = root.Entry(dialect.Resources.Key()).Key.Rng
		}
		l.report(codeNoResources.New(r, "a blueprint needs at least one resource or include"))
	}
}

// loadVersion reads version before anything else: which fields exist
// depends on it. An unsupported version checks fields as the newest one.
func (l *loader) loadVersion(root *Mapping) {
	e := root.Entry("version")
	if e == nil {
		d := codeMissingVersion.New(source.Range{Start: root.Rng.Start, End: root.Rng.Start},
			"the blueprint has no version; the spec requires one of %s", strings.Join(Versions, ", "))
		if !root.Flow {
			d.Suggestions = []source.Suggestion{{
				Title: "Add version: " + Version20251102,
				Edits: []source.Edit{{Range: source.Range{Start: root.Rng.Start, End: root.Rng.Start}, NewText: "version: " + Version20251102 + "\n"}},
			}}
		}
		l.report(d)
		return
	}
	l.bp.Version = l.field(e)
	s, ok := e.Value.(*Scalar)
	if !ok || s.Tag == NullTag {
		if e.Value != nil {
			l.report(codeUnsupportedVersion.New(e.Value.Range(), "version must be one of %s, found %s", strings.Join(Versions, ", "), describeNode(e.Value)))
		}
		return
	}
	for _, v := range Versions {
		if s.Value == v {
			l.version = v
			l.bp.SpecVersion = v
			return
		}
	}
	d := codeUnsupportedVersion.New(s.Rng, "unsupported spec version %q: the supported versions are %s", s.Value, strings.Join(Versions, ", "))
	for i := len(Versions) - 1; i >= 0; i-- {
		d.Suggestions = append(d.Suggestions, source.Suggestion{
			Title: "Change to " + Versions[i],
			Edits: []source.Edit{{Range: s.ValueRange(), NewText: Versions[i]}},
		})
	}
	l.report(d)
}

func (l *loader) loadTransform(f *Field) {
	var items []*Scalar
	switch n := f.Node().(type) {
	case *Scalar:
		items = []*Scalar{n}
	case *Sequence:
		for _, it := range n.Items {
			if s, ok := it.(*Scalar); ok && s.Tag != NullTag {
				items = append(items, s)
			}
		}
	}
	for _, s := range items {
		if hasSubst(s) {
			l.report(codeSubstNotAllowed.New(s.Rng, "transform cannot contain ${..} substitutions; name the transform literally"))
			continue
		}
		l.bp.Transforms = append(l.bp.Transforms, s)
	}
}

// nameFixes offers each candidate as a replacement for s.
func nameFixes(s *Scalar, candidates []string) []source.Suggestion {
	var out []source.Suggestion
	for _, c := range candidates {
		out = append(out, source.Suggestion{
			Title: fmt.Sprintf("Change to %q", c),
			Edits: []source.Edit{{Range: s.ValueRange(), NewText: c}},
		})
	}
	return out
}

// oneOf checks that a literal string field is one of allowed; the
// diagnostic lists what the spec allows and suggests close names.
func (l *loader) oneOf(f *Field, allowed []string, code *source.Code, what string) bool {
	s := f.Scalar()
	if s == nil || !l.noSubst(f, what) {
		return false
	}
	for _, a := range allowed {
		if s.Value == a {
			return true
		}
	}
	d := code.New(s.Rng, "%s %q is not supported: the spec allows %s", what, s.Value, strings.Join(allowed, ", "))
	best := source.Closest(s.Value, allowed)
	if alias := typeAlias(s.Value); len(best) == 0 && slices.Contains(allowed, alias) {
		best = []string{alias}
	}
	if len(best) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", best[0])
		d.Suggestions = nameFixes(s, best)
	}
	l.report(d)
	return false
}
