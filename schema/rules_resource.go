package schema

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	codeResourceTypeFormat = source.NewCode("resource-type-format", source.Error,
		"A resource type that is not of the form {provider}/{service}/{resourceType} or {provider}/{resourceType}.",
		"resources:\n  queue:\n    type: AWS::SQS::Queue")
	codeConditionExactlyOne = source.NewCode("condition-exactly-one", source.Error,
		"A condition object that does not set exactly one of and, or, not.",
		"condition:\n  and: [${variables.a}]\n  or: [${variables.b}]")
	codeRemovalPolicy = source.NewCode("resource-removal-policy", source.Error,
		"A removalPolicy other than delete or retain.",
		"removalPolicy: keep")
	codeDependsOnUnknown = source.NewCode("resource-depends-on-unknown", source.Error,
		"dependsOn names a resource the blueprint does not define.",
		"dependsOn: [ordersTabel]")
	codeDependsOnSelf = source.NewCode("resource-depends-on-self", source.Error,
		"A resource lists itself in dependsOn.",
		"resources:\n  queue:\n    dependsOn: queue")
	codeExcludeUnknown = source.NewCode("resource-link-exclude-unknown", source.Error,
		"linkSelector.exclude names a resource the blueprint does not define.",
		"linkSelector:\n  exclude: [ordersTabel]")
)

// IsResourceType reports whether t has the form {provider}/{service}/{type}
// or {provider}/{type}: each segment a letter followed by letters, digits
// or "-".
func IsResourceType(t string) bool {
	parts := strings.Split(t, "/")
	return (len(parts) == 2 || len(parts) == 3) && validSegments(parts)
}

func (l *loader) loadResource(e *Entry) *Resource {
	if e.Key == nil {
		return nil
	}
	what := fmt.Sprintf("resource %q", e.Key.Value)
	l.checkName(e.Key, "resource")
	r := &Resource{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		r.Mapping = m
		fs := l.fields(m, KindResource, what, e.Key.Rng)
		r.Type = l.field(fs.at("type"))
		r.Description = l.field(fs.at("description"))
		r.Each = l.field(fs.at("each"))
		r.Spec = l.field(fs.at("spec"))
		r.DependsOn = l.field(fs.at("dependsOn"))
		r.RemovalPolicy = l.field(fs.at("removalPolicy"))
		l.description(r.Description, what)
		if f := l.field(fs.at("metadata")); f != nil {
			r.Metadata = l.loadResourceMetadata(f, what)
		}
		if f := l.field(fs.at("linkSelector")); f != nil {
			ls := &LinkSelector{Field: f}
			lfs := l.fields(f.Mapping(), KindLinkSelector, "the linkSelector of "+what, f.KeyRange())
			ls.ByLabel = l.field(lfs.at("byLabel"))
			ls.Exclude = l.field(lfs.at("exclude"))
			l.scalarValues(ls.ByLabel, true)
			l.noSubstTree(ls.ByLabel.Node(), "a link selector")
			r.LinkSelector = ls
		}
		if f := l.field(fs.at("condition")); f != nil {
			r.ConditionNode = f
			r.Condition = l.loadCondition(f.Node(), f.KeyRange(), "condition")
		}
		l.checkResourceType(r.Type)
		if r.RemovalPolicy != nil {
			l.oneOf(r.RemovalPolicy, RemovalPolicies, codeRemovalPolicy, "removalPolicy")
		}
		r.DependsOnRefs = l.literalNames(r.DependsOn, "dependsOn")
	}
	l.bp.Resources.add(r.Name, r)
	return r
}

func (l *loader) loadResourceMetadata(f *Field, what string) *ResourceMetadata {
	fs := l.fields(f.Mapping(), KindResourceMetadata, "the metadata of "+what, f.KeyRange())
	md := &ResourceMetadata{
		Field:       f,
		DisplayName: l.field(fs.at("displayName")),
		Labels:      l.field(fs.at("labels")),
		Annotations: l.field(fs.at("annotations")),
		Custom:      l.field(fs.at("custom")),
	}
	l.scalarValues(md.Labels, true)
	l.noSubstTree(md.Labels.Node(), "a label")
	l.scalarValues(md.Annotations, false)
	return md
}

func (l *loader) checkResourceType(f *Field) {
	if f == nil || !l.noSubst(f, "a resource type") {
		return
	}
	s := f.Scalar()
	if IsResourceType(s.Value) {
		return
	}
	d := codeResourceTypeFormat.New(s.Rng, "resource type %q must look like {provider}/{service}/{resourceType} or {provider}/{resourceType} (such as aws/lambda/function); each part a letter followed by letters, digits or -", s.Value)
	if fix := fromCloudFormation(s.Value); fix != "" {
		d.Message += fmt.Sprintf("; did you mean %q?", fix)
		d.Suggestions = nameFixes(s, []string{fix})
	}
	l.report(d)
}

// fromCloudFormation converts a CloudFormation type name such as
// AWS::SQS::Queue to the blueprint form aws/sqs/queue: provider and
// service in lower case, the resource type in lowerCamelCase.
func fromCloudFormation(t string) string {
	parts := strings.Split(t, "::")
	if len(parts) != 3 {
		return ""
	}
	out := []string{strings.ToLower(parts[0]), strings.ToLower(parts[1]), lowerCamel(parts[2])}
	if !IsResourceType(strings.Join(out, "/")) {
		return ""
	}
	return strings.Join(out, "/")
}

// lowerCamel lowers a leading run of capitals, keeping the last one of a
// run that starts a new word: DBInstance → dbInstance, Queue → queue.
func lowerCamel(s string) string {
	r := []rune(s)
	for i := 0; i < len(r) && unicode.IsUpper(r[i]); i++ {
		if i > 0 && i+1 < len(r) && unicode.IsLower(r[i+1]) {
			break
		}
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// loadCondition reads a condition: a string or an object with exactly one
// of and, or, not (recursively). at is where a problem with the object as
// a whole is reported (the key that holds it).
func (l *loader) loadCondition(n Node, at source.Range, what string) Condition {
	switch n := n.(type) {
	case *Scalar:
		if n.Tag != StringTag {
			l.report(codeFieldType.New(n.Rng, "%s must be a ${..} boolean expression or an object with and, or, not; found %s", what, describeNode(n)))
			return nil
		}
		return &ConditionExpr{Scalar: n}
	case *Sequence:
		l.report(codeFieldType.New(n.Rng, "%s must be a ${..} boolean expression or an object with one of and, or, not; found a list (wrap it in and: or or:)", what))
		return nil
	case *Mapping:
		fs := l.fields(n, KindCondition, "a condition", at)
		var ops []*Entry // the operators set, well-shaped or not
		seen := map[string]bool{}
		for _, e := range n.Entries {
			if k := e.Key; k != nil && !seen[k.Value] && (k.Value == "and" || k.Value == "or" || k.Value == "not") {
				seen[k.Value] = true
				ops = append(ops, e)
			}
		}
		if len(ops) != 1 {
			l.conditionCount(n, at, ops)
		}
		if len(ops) == 0 || fs.at(ops[0].Key.Value) != ops[0] {
			return nil
		}
		op := ops[0]
		c := &ConditionOp{Mapping: n, Op: op.Key.Value, OpKey: op.Key}
		switch v := op.Value.(type) {
		case *Sequence:
			if c.Op == "not" {
				l.notList(v)
				return c
			}
			if len(v.Items) == 0 {
				l.report(codeFieldType.New(v.Rng, "%s: needs at least one condition", op.Key.Value))
			}
			for _, it := range v.Items {
				if sub := l.loadCondition(it, it.Range(), "a condition in "+op.Key.Value); sub != nil {
					c.Operands = append(c.Operands, sub)
				}
			}
		default:
			if sub := l.loadCondition(op.Value, op.Key.Rng, "not"); sub != nil {
				c.Operands = append(c.Operands, sub)
			}
		}
		return c
	}
	return nil
}

// notList reports a list given to not, which takes one condition (and
// and or take lists). A list of one string gets the fix that unwraps it.
func (l *loader) notList(seq *Sequence) {
	d := codeFieldType.New(seq.Rng, "not takes a single condition, not a list: write the condition directly under not, or combine the list with and: or or: inside it")
	if len(seq.Items) == 1 {
		if sc, ok := seq.Items[0].(*Scalar); ok && sc.Tag == StringTag && sc.Rng.End <= len(l.file.Content()) {
			d.Suggestions = []source.Suggestion{{Title: "Unwrap the single condition", Edits: []source.Edit{{Range: seq.Rng, NewText: string(l.file.Content()[sc.Rng.Start:sc.Rng.End])}}}}
		}
	}
	l.report(d)
}

func (l *loader) conditionCount(n *Mapping, at source.Range, ops []*Entry) {
	if len(ops) == 0 {
		l.report(codeConditionExactlyOne.New(at, "a condition object must set exactly one of and, or, not; this one sets none"))
		return
	}
	var names []string
	var related []source.Related
	for _, e := range ops {
		names = append(names, e.Key.Value)
		related = append(related, source.Related{Range: e.Key.Rng, Message: e.Key.Value + " is set here"})
	}
	d := codeConditionExactlyOne.New(at, "a condition object may set only one of and, or, not; this one sets %s (nest them, e.g. and: [.., {or: [..]}])", strings.Join(names, " and "))
	d.Related = related
	l.report(d)
}

// literalNames reads a name or list of names that must be written
// literally (dependsOn, linkSelector.exclude).
func (l *loader) literalNames(f *Field, what string) []*Scalar {
	var items []Node
	switch n := f.Node().(type) {
	case *Scalar:
		items = []Node{n}
	case *Sequence:
		items = n.Items
	}
	var out []*Scalar
	for _, it := range items {
		s, ok := it.(*Scalar)
		if !ok || s.Tag == NullTag {
			continue // reported by the shape check
		}
		if hasSubst(s) {
			l.report(codeSubstNotAllowed.New(s.Rng, "%s cannot contain ${..} substitutions; name the resources literally", what))
			continue
		}
		out = append(out, s)
	}
	return out
}

// checkResourceNames checks the names in dependsOn and linkSelector.exclude
// once every resource is known.
func (l *loader) checkResourceNames() {
	names := l.bp.Resources.Names()
	check := func(s *Scalar, self string, code *source.Code, what string) {
		if s.Value == self && code == codeDependsOnUnknown {
			l.report(codeDependsOnSelf.New(s.Rng, "resource %q cannot depend on itself", self))
			return
		}
		if l.bp.Resources.Get(s.Value) != nil {
			return
		}
		d := code.New(s.Rng, "%s names %q, which is not a resource of this blueprint", what, s.Value)
		if best := source.Closest(s.Value, names); len(best) > 0 {
			d.Message += fmt.Sprintf("; did you mean %q?", best[0])
			d.Suggestions = nameFixes(s, best)
		}
		l.report(d)
	}
	for _, i := range l.nameHolders() {
		r := l.bp.Resources.At(i)
		for _, s := range r.DependsOnRefs {
			check(s, r.Name, codeDependsOnUnknown, "dependsOn")
		}
		if r.LinkSelector != nil {
			for _, s := range l.literalNames(r.LinkSelector.Exclude, "linkSelector.exclude") {
				check(s, r.Name, codeExcludeUnknown, "linkSelector.exclude")
			}
		}
	}
}

// namesResources reports whether r names other resources (dependsOn,
// linkSelector.exclude).
func namesResources(r *Resource) bool {
	return len(r.DependsOnRefs) > 0 || r.LinkSelector != nil && r.LinkSelector.Exclude != nil
}
