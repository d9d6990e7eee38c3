package schema

import (
	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/internal/slab"

	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Load builds the typed view of f and runs every structural rule in one
// pass. All problems are reported, in document order; a missing or
// malformed field is left nil in the view rather than guessed. Syntax
// diagnostics stay in f.Diagnostics and are not repeated here.
func Load(f *File) (*Blueprint, []source.Diagnostic) { return LoadFrom(f, nil) }

// LoadFrom is Load for the next version of prev's document (nil: none):
// the same result, but a resource whose entry is prev's node itself (the
// splice shares the nodes an edit did not touch, and nodes never
// change) takes prev's typed view and diagnostics instead of being
// loaded again (reuse.go).
func LoadFrom(f *File, prev *Blueprint) (*Blueprint, []source.Diagnostic) {
	return load(f, prev, nil)
}

// LoadBeside is Load of a document on two cores (issue 36): beside runs
// the walk of every mapping's keys (duplicates, substitutions in keys)
// on another goroutine while this one builds the typed view, and
// returns a function that waits for it. The result is Load's: the walk
// reports into a list of its own, put before the view's as Load reports
// them, and fills in the records of the resources that Load's walk
// would make, made beforehand so that each side writes fields of its
// own (walkKeysBeside). TestLoadBesideEqualsLoad compares the two.
func LoadBeside(f *File, beside func(func()) (wait func())) (*Blueprint, []source.Diagnostic) {
	return load(f, nil, beside)
}

// ResourceCount returns how many entries f's resources section has,
// before Load (0: none, or no mapping).
func ResourceCount(f *File) int {
	if f == nil {
		return 0
	}
	if sec := resourcesSection(f.Root); sec != nil {
		return len(sec.Entries)
	}
	return 0
}

// load is LoadFrom, the keys walked by beside when it is not nil.
func load(f *File, prev *Blueprint, beside func(func()) func()) (*Blueprint, []source.Diagnostic) {
	bp := &Blueprint{File: f}
	if f == nil || f.Root == nil {
		return bp, nil
	}
	l := &loader{file: f, bp: bp}
	l.planReuse(prev)
	root, ok := f.Root.(*Mapping)
	join := func() {}
	if beside != nil && ok && l.prevBP == nil && l.resources != nil {
		join = l.walkKeysBeside(beside)
	} else {
		l.walkKeys(f.Root)
	}
	if !ok {
		l.report(codeNotMapping.New(f.Root.Range(), "a blueprint must be a mapping with version and resources, found %s", DescribeRoot(f)))
		source.SortDiagnostics(l.diags)
		return bp, l.diags
	}
	bp.Root = root
	l.loadBlueprint(root)
	join()
	l.noteNoisy()
	source.SortDiagnostics(l.diags)
	return bp, l.diags
}

type loader struct {
	file    *File
	bp      *Blueprint
	version string // the declared version when supported, else ""
	diags   []source.Diagnostic
	// resources is this version's resources section mapping and prev
	// what the previous version made of each of its entries (reuse.go).
	resources       *Mapping
	prevBP          *Blueprint
	prev            chunked.Vec[*loaded]
	prevVersion     string
	prevVersionNode *Scalar
	// splice is how the file was spliced from prev's, when it moved
	// the nodes after the edit.
	splice *syntax.Splicing
	// bulk is set when the resources section's keys were taken over in
	// bulk, the entries [editFrom, editTo) re-parsed (bulk.go).
	bulk             bool
	editFrom, editTo int
	movedFrom        []*loaded // by index: prev's record a moved entry's is made from
	twins            twins
	resourceIndex    int // the next entry of the resources section to load
	// fieldSlab is where the view's fields are carved from (field).
	fieldSlab slab.Of[Field]
}

func (l *loader) report(d source.Diagnostic) { l.diags = append(l.diags, d) }

// hasSubst reports whether a scalar contains a ${..} substitution, whose
// content is opaque to structural rules.
func hasSubst(s *Scalar) bool {
	return s != nil && s.Tag == StringTag && strings.Contains(s.Value, "${")
}

func isNullNode(n Node) bool {
	s, ok := n.(*Scalar)
	return ok && s.Tag == NullTag
}

// DescribeRoot names what a document that is not a blueprint holds, for
// messages, without quoting any of it: the file may be anything a path
// named (credentials, a key), and messages end up in CI logs.
func DescribeRoot(f *File) string {
	json := f.Format != YAML
	switch n := f.Root.(type) {
	case *Mapping:
		if json {
			return "a JSON object"
		}
		return "a mapping"
	case *Sequence:
		if json {
			return "a JSON array"
		}
		return "a YAML list"
	case *Scalar:
		switch {
		case n.Tag == NullTag:
			return "an empty file"
		case json && n.Tag == StringTag:
			return "a JSON string"
		case json && n.Tag == BoolTag:
			return "a JSON boolean"
		case json:
			return "a JSON number"
		case n.Tag == StringTag:
			return "a text file"
		default:
			return "a single " + n.Tag.String()
		}
	}
	return "nothing"
}

// describeNode names what a node is, for messages.
func describeNode(n Node) string {
	switch n := n.(type) {
	case *Mapping:
		return "a mapping"
	case *Sequence:
		return "a list"
	case *Scalar:
		switch n.Tag {
		case NullTag:
			return "an empty value"
		case StringTag:
			return fmt.Sprintf("the string %q", clipText(n.Value))
		default:
			return fmt.Sprintf("the %s %s", n.Tag, n.Value)
		}
	}
	return "nothing"
}

func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return s
}

// walkKeysBeside starts walkKeys of the whole tree on beside, for a
// first load whose resources section was found, and returns the
// function that waits for it and puts its diagnostics before the view's.
// The walk records its diagnostics under each entry of the resources
// section with a value (walkEntryKeys), which loadResourceEntry then
// reads: the records are made here first, the walk writing only their
// keys, the view their resource and diagnostics.
func (l *loader) walkKeysBeside(beside func(func()) func()) (join func()) {
	for i, e := range l.resources.Entries {
		if e.Value != nil {
			l.bp.resources.Set(i, &loaded{entry: e})
		}
	}
	k := &loader{file: l.file, bp: l.bp, resources: l.resources}
	wait := beside(func() { k.walkKeys(l.file.Root) })
	return func() {
		wait()
		l.diags = append(k.diags, l.diags...)
	}
}

// walkKeys reports duplicate keys and substitutions in keys anywhere in the
// tree.
func (l *loader) walkKeys(n Node) {
	switch n := n.(type) {
	case *Mapping:
		if n == l.resources && l.bulkKeys(n) {
			return
		}
		// The keys of the resources section are checked only when they
		// are not prev's (keysAsBefore).
		keys := n != l.resources || !l.keysAsBefore()
		plain := keys && l.duplicateKeys(n)
		for i, e := range n.Entries {
			if keys && e.Key != nil && hasSubst(e.Key) {
				l.report(codeSubstNotAllowed.New(e.Key.Rng, "mapping keys cannot contain ${..} substitutions"))
				plain = false
			}
			if e.Value != nil {
				l.walkEntryKeys(n, i, e)
			}
		}
		if keys && n == l.resources {
			l.bp.resourceKeysPlain = plain
		}
	case *Sequence:
		for _, it := range n.Items {
			l.walkKeys(it)
		}
	}
}

// duplicateKeys reports the keys of n that repeat an earlier one; it
// returns whether there were none (and no entry without a key).
func (l *loader) duplicateKeys(n *Mapping) (unique bool) {
	unique = true
	var seen keySet[*Scalar]
	seen.sized(len(n.Entries))
	for _, e := range n.Entries {
		if e.Key == nil {
			unique = false
			continue
		}
		if first, dup := seen.get(e.Key.Value); dup {
			d := codeDuplicateKey.New(e.Key.Rng, "duplicate key %q: keys must be unique within a mapping", e.Key.Value)
			d.Related = []source.Related{{Range: first.Rng, Message: fmt.Sprintf("%q is first defined here", e.Key.Value)}}
			l.report(d)
			unique = false
		} else {
			seen.put(e.Key.Value, e.Key)
		}
	}
	return unique
}

// fields checks a definition mapping against its field table: unknown
// fields, fields of a newer spec version, value shapes and required fields
// (reported at owner, the definition's name). It returns the usable
// entries by name: the first of each key, with the right shape, not null.
func (l *loader) fields(m *Mapping, kind DefKind, what string, owner source.Range) fieldEntries {
	var out fieldEntries
	out.sized(len(m.Entries))
	var present keySet[struct{}]
	present.sized(len(m.Entries))
	for _, e := range m.Entries {
		if e.Key == nil {
			continue
		}
		name := e.Key.Value
		if _, dup := present.get(name); dup {
			continue // a duplicate, reported by walkKeys
		}
		present.put(name, struct{}{})
		spec, ok := LookupField(kind, name)
		if !ok {
			l.unknownField(e.Key, kind, what)
			continue
		}
		if !spec.availableIn(l.version) {
			l.newerField(e.Key, spec, what)
			continue
		}
		if e.Value == nil {
			continue // the parser recovered from an error here
		}
		if isNullNode(e.Value) {
			if spec.Required {
				l.report(codeFieldType.New(e.Key.Rng, "%s of %s must be %s; it is empty", name, what, spec.Shape))
			}
			continue
		}
		if !l.checkShape(e, spec.Shape, what) {
			continue
		}
		out.put(name, e)
	}
	for _, spec := range fieldTable[kind] {
		if kind == KindBlueprint && spec.Name == "version" {
			continue // spec-missing-version, from loadVersion
		}
		if _, ok := present.get(spec.Name); spec.Required && !ok && spec.availableIn(l.version) {
			l.report(codeMissingField.New(owner, "%s is missing its required field %s (%s)", what, spec.Name, strings.TrimSuffix(spec.Doc, ".")))
		}
	}
	return out
}

func (l *loader) unknownField(key *Scalar, kind DefKind, what string) {
	var names []string
	for _, f := range Fields(kind, l.version) {
		names = append(names, f.Name)
	}
	d := codeUnknownField.New(key.Rng, "unknown field %q in %s", key.Value, what)
	if spec, ok := LookupField(kind, key.Value); ok && !spec.availableIn(l.version) {
		d.Message += " (it needs spec version " + spec.Since + ")"
	}
	if best := source.Closest(key.Value, names); len(best) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", best[0])
		for _, b := range best {
			d.Suggestions = append(d.Suggestions, source.Suggestion{
				Title: fmt.Sprintf("Change to %q", b),
				Edits: []source.Edit{{Range: key.ValueRange(), NewText: b}},
			})
		}
	} else {
		d.Message += "; the spec allows " + strings.Join(names, ", ")
	}
	l.report(d)
}

func (l *loader) newerField(key *Scalar, spec FieldSpec, what string) {
	d := codeNewerField.New(key.Rng, "%s of %s needs spec version %s; this document declares %s, where it is an unknown field", spec.Name, what, spec.Since, l.version)
	if v := l.bp.Version.Scalar(); v != nil {
		d.Suggestions = []source.Suggestion{{
			Title: "Change the version to " + spec.Since,
			Edits: []source.Edit{{Range: v.ValueRange(), NewText: spec.Since}},
		}}
	}
	l.report(d)
}

// checkShape reports a value of the wrong shape; it returns false when the
// value must not be used. A non-string scalar where a string is expected
// is used as its text, with a warning.
func (l *loader) checkShape(e *Entry, shape Shape, what string) bool {
	name := e.Key.Value
	v := e.Value
	s, isScalar := v.(*Scalar)
	bad := func() bool {
		l.report(codeFieldType.New(v.Range(), "%s of %s must be %s, found %s", name, what, shape, describeNode(v)))
		return false
	}
	switch shape {
	case ShapeString:
		if !isScalar {
			return bad()
		}
		if !usedAsText(s) {
			l.stringScalar(s, name+" of "+what)
		}
	case ShapeBool:
		if !isScalar {
			return bad()
		}
		if s.Tag != BoolTag && !hasSubst(s) {
			d := codeFieldType.New(v.Range(), "%s of %s must be true or false, found %s", name, what, describeNode(v))
			if s.Tag == StringTag && (strings.EqualFold(s.Value, "true") || strings.EqualFold(s.Value, "false")) {
				d.Suggestions = []source.Suggestion{{Title: "Remove the quotes", Edits: []source.Edit{{Range: s.Rng, NewText: strings.ToLower(s.Value)}}}}
			}
			l.report(d)
			return false
		}
	case ShapeMapping:
		if _, ok := v.(*Mapping); !ok {
			return bad()
		}
	case ShapeSequence:
		if _, ok := v.(*Sequence); !ok {
			return bad()
		}
	case ShapeStringOrSequence:
		switch v := v.(type) {
		case *Scalar:
			if !usedAsText(v) {
				l.stringScalar(v, name+" of "+what)
			}
		case *Sequence:
			for _, it := range v.Items {
				if s, ok := it.(*Scalar); ok && s.Tag != NullTag {
					if !usedAsText(s) {
						l.stringScalar(s, "an item of "+name)
					}
				} else {
					l.report(codeFieldType.New(it.Range(), "the items of %s must be strings, found %s", name, describeNode(it)))
				}
			}
		default:
			return bad()
		}
	case ShapeMappingOrSequence:
		switch v.(type) {
		case *Mapping, *Sequence:
		default:
			return bad()
		}
	}
	return true
}

// stringScalar warns about a number or boolean where a string is expected.
func (l *loader) stringScalar(s *Scalar, what string) {
	if usedAsText(s) {
		return
	}
	d := codeScalarNotString.New(s.Rng, "%s should be a string, found %s; it is used as its text", what, describeNode(s))
	d.Suggestions = []source.Suggestion{quoteFix(s)}
	l.report(d)
}

// usedAsText reports whether s is what stringScalar accepts as it is: a
// string or null. Callers ask first when what takes making.
func usedAsText(s *Scalar) bool { return s.Tag == StringTag || s.Tag == NullTag }

// quoteFix turns a plain scalar into a quoted string.
func quoteFix(s *Scalar) source.Suggestion {
	return source.Suggestion{
		Title: "Quote the value",
		Edits: []source.Edit{{Range: s.Rng, NewText: fmt.Sprintf("%q", s.Value)}},
	}
}

// mappingOf returns the definition mapping, reporting any other shape.
func (l *loader) mappingOf(e *Entry, what string) *Mapping {
	if e.Value == nil {
		return nil
	}
	m, ok := e.Value.(*Mapping)
	if !ok {
		l.report(codeFieldType.New(e.Value.Range(), "%s must be a mapping of its fields, found %s", what, describeNode(e.Value)))
	}
	return m
}

// scalarValues checks that every value of a mapping (annotations, include
// variables) is a scalar; strict also wants strings (labels).
func (l *loader) scalarValues(f *Field, strict bool) {
	m := f.Mapping()
	if m == nil {
		return
	}
	name := f.Key().Value
	for _, e := range m.Entries {
		if e.Value == nil {
			continue
		}
		s, ok := e.Value.(*Scalar)
		if !ok {
			allowed := "a string, integer, float or boolean"
			if strict {
				allowed = "a string"
			}
			l.report(codeFieldType.New(e.Value.Range(), "the values of %s must be %s, found %s", name, allowed, describeNode(e.Value)))
			continue
		}
		if strict && !usedAsText(s) { // before paying for the message
			l.stringScalar(s, fmt.Sprintf("%s %q", name, e.Key.Value))
		}
	}
}

// checkName warns about a definition name that substitutions cannot
// reference.
func (l *loader) checkName(key *Scalar, what string) {
	if hasSubst(key) {
		return // reported by walkKeys
	}
	if key.Value == "" || strings.IndexFunc(key.Value, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
	}) >= 0 {
		l.report(codeInvalidName.New(key.Rng, "%s name %q cannot be referenced: names may only use letters, digits, _, - and .", what, key.Value))
	}
}

// noSubstTree reports every substitution in the scalars of n, a part of
// the document the spec wants written literally.
func (l *loader) noSubstTree(n Node, what string) {
	switch n := n.(type) {
	case *Scalar:
		if hasSubst(n) {
			l.report(codeSubstNotAllowed.New(n.Rng, "%s cannot contain ${..} substitutions; write the value literally", what))
		}
	case *Mapping:
		for _, e := range n.Entries {
			if e.Value != nil {
				l.noSubstTree(e.Value, what)
			}
		}
	case *Sequence:
		for _, it := range n.Items {
			l.noSubstTree(it, what)
		}
	}
}

// description warns about substitutions in a description: the spec allows
// them but does not recommend them.
func (l *loader) description(f *Field, what string) {
	if s := f.Scalar(); hasSubst(s) {
		l.report(codeSubstNotRecommended.New(s.Rng, "substitutions in the description of %s are allowed but not recommended: they make the blueprint harder to read", what))
	}
}

// noSubst reports a substitution in a field that must be a literal; it
// returns false when it did.
func (l *loader) noSubst(f *Field, what string) bool {
	s := f.Scalar()
	if hasSubst(s) {
		l.report(codeSubstNotAllowed.New(s.Rng, "%s cannot contain ${..} substitutions; it must be written literally", what))
		return false
	}
	return true
}
