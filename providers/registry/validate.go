package registry

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Diagnostic codes for resource specs, each declared once beside the
// validator that owns its wording.
var (
	CodeUnknownField = source.NewCode("resource-unknown-field", source.Error,
		"The resource spec sets a field its type does not define.",
		"spec:\n  functionNam: orders")
	CodeMissingField = source.NewCode("resource-missing-field", source.Error,
		"The resource spec leaves out a field its type requires.",
		"type: aws/lambda/function\nspec:\n  handler: index.handler")
	CodeFieldType = source.NewCode("resource-field-type", source.Error,
		"A spec field's value has the wrong type (a non-string scalar where a string is expected is a warning: it is used as its text).",
		"spec:\n  timeout: soon")
	CodeEnum = source.NewCode("resource-enum", source.Error,
		"A spec field's value is not one of the values its type allows.",
		"spec:\n  packageType: Tarball")
	CodePattern = source.NewCode("resource-pattern", source.Error,
		"A spec field's value does not match the pattern its type requires.",
		"spec:\n  code:\n    s3Bucket: my.bucket.")
	CodeBounds = source.NewCode("resource-bounds", source.Error,
		"A spec field's value is outside its bounds: minimum/maximum, length, number of items or duplicate items in a set.",
		"spec:\n  memorySize: 64")
	CodeReadOnly = source.NewCode("resource-read-only", source.Error,
		"The resource spec sets a read-only property: it is part of the resource's state, set by the provider.",
		"type: aws/lambda/function\nspec:\n  arn: arn:aws:lambda:eu-west-1:123456789012:function:orders")
	CodeDeprecated = source.NewCode("resource-deprecated", source.Warning,
		"The resource spec sets a deprecated property.",
		"type: aws/rds/dbInstance\nspec:\n  tdeCredentialArn: arn:...")
	CodeConflictingFields = source.NewCode("resource-conflicting-fields", source.Error,
		"The resource spec sets fields that exclude each other.",
		"spec:\n  launchTemplate:\n    launchTemplateId: lt-1\n    launchTemplateName: web\n    version: \"1\"")
)

// maxListed is how many valid names or values a message lists in full.
const maxListed = 12

// ValidateSpec checks a resource spec against the resource type: unknown
// fields, missing required fields, value types, enums, patterns and
// bounds, at the exact node, recursing into nested objects and arrays.
// Read-only properties are errors and deprecated ones warnings. where is
// the range missing top-level fields are reported on (the spec key, or the
// resource name when spec is absent); a nil spec reports only those.
func (rt *ResourceType) ValidateSpec(spec Node, where source.Range) []source.Diagnostic {
	v := &validator{rt: rt, owner: rt.Name}
	if spec == nil {
		v.missing(rt.Schema, nil, nil, where, nil)
	} else {
		v.validate(rt.Schema, spec, make([]string, 0, 16), where)
	}
	ds := dedupe(v.diags)
	if rt.Flawed != "" {
		for i := range ds {
			ds[i].Message += fmt.Sprintf(" (the schema %s has errors of its own: fix it first)", rt.Flawed)
		}
	}
	return ds
}

// Validate checks a value against s with no resource semantics (used
// for annotations, provider-defined objects and tests); owner names the
// thing in messages.
func (s *Schema) Validate(n Node, where source.Range, owner string) []source.Diagnostic {
	v := &validator{owner: owner}
	v.validate(s, n, make([]string, 0, 16), where)
	return dedupe(v.diags)
}

// validator walks a spec. Paths are passed down as a stack: a callee may
// append to the path it is given (writing past the caller's length) but
// keeps no path beyond its return, so one backing array serves the walk.
type validator struct {
	rt    *ResourceType // nil outside resources: no marks
	owner string
	diags []source.Diagnostic
}

func (v *validator) add(d source.Diagnostic) { v.diags = append(v.diags, d) }

func (v *validator) marks(path []string) Mark {
	if v.rt == nil {
		return 0
	}
	return v.rt.Marks(path)
}

// label renders a path for messages: spec.code.s3Bucket, spec.tags[0].key.
func label(path []string) string {
	var b strings.Builder
	b.WriteString("spec")
	for _, seg := range path {
		if isItemSegment(seg) {
			b.WriteString("[" + seg + "]")
			continue
		}
		b.WriteString("." + seg)
	}
	return b.String()
}

func (v *validator) validate(s *Schema, n Node, path []string, where source.Range) {
	if s == nil || n == nil {
		return
	}
	if n.Kind() == ScalarNode && dynamic(n) {
		return
	}
	ok := true
	switch n.Kind() {
	case MappingNode:
		if len(s.Types) > 0 && !s.Allows("object") {
			v.typeError(s, n, path, "object", source.Error)
			ok = false
		}
	case SequenceNode:
		if len(s.Types) > 0 && !s.Allows("array") {
			v.typeError(s, n, path, "array", source.Error)
			ok = false
		}
	case ScalarNode:
		ok = v.scalarType(s, n, path)
	}
	if !ok {
		return
	}
	for _, b := range s.AllOf {
		v.validate(b, n, path, where)
	}
	v.combinator(s.OneOf, true, n, path, where)
	v.combinator(s.AnyOf, false, n, path, where)
	switch n.Kind() {
	case MappingNode:
		v.mapping(s, n, path, where)
	case SequenceNode:
		v.sequence(s, n, path)
	case ScalarNode:
		v.scalar(s, n, path)
	}
}

func (v *validator) typeError(s *Schema, n Node, path []string, got string, sev source.Severity) {
	d := CodeFieldType.New(n.Range(), "%s expects %s, found %s", label(path), s.TypeName(), got)
	if sev == source.Warning {
		d.Message += " (used as its text)"
	}
	d.Severity = sev
	v.add(d)
}

// scalarType checks a scalar's tag against the allowed types; a number
// or boolean where a string is expected is a warning (decision 3).
func (v *validator) scalarType(s *Schema, n Node, path []string) bool {
	if len(s.Types) == 0 {
		return true
	}
	_, tag := scalarOf(n)
	var fits bool
	switch tag {
	case StringTag:
		fits = s.Allows("string")
	case IntTag:
		fits = s.Allows("integer")
	case FloatTag:
		fits = s.Allows("number")
	case BoolTag:
		fits = s.Allows("boolean")
	case NullTag:
		fits = s.Allows("null")
	}
	if fits {
		return true
	}
	if tag != NullTag && tag != StringTag && s.Allows("string") {
		v.typeError(s, n, path, tag.String(), source.Warning)
		return true
	}
	v.typeError(s, n, path, tag.String(), source.Error)
	return false
}

func (v *validator) mapping(s *Schema, n Node, path []string, where source.Range) {
	// The keys present, for the required-field check: a slice scanned by
	// missing costs less than a map built for every object.
	var buf [16]string
	present := buf[:0]
	for i := 0; i < lenOf(n); i++ {
		key, keyRange, value := entryOf(n, i)
		if len(s.Required) > 0 {
			present = append(present, s.canonical(key))
			if r, ok := s.satisfies[key]; ok {
				present = append(present, r)
			}
		}
		sub := append(path, key)
		child, prop, allowed := s.valueSchema(key)
		if (!allowed || child == nil) && prop == nil {
			if bp, ok := s.branchProperty(key); ok {
				child, prop, allowed = bp.Schema, bp, true
			}
		}
		if !allowed {
			v.unknownField(s, key, keyRange, path)
			continue
		}
		m := v.marks(sub)
		if prop != nil && m.Has(ReadOnly) {
			v.add(CodeReadOnly.New(keyRange, "%s is read-only: %s sets it, so it belongs to the resource's state (read it as .state.%s)",
				label(sub), v.owner, strings.Join(sub, ".")))
			continue
		}
		if prop != nil && m.Has(Deprecated) {
			d := CodeDeprecated.New(keyRange, "%s is deprecated in %s", label(sub), v.owner)
			d.Tags = []source.Tag{source.Deprecated}
			v.add(d)
		}
		v.validate(child, value, sub, keyRange)
	}
	v.missing(s, path, present, where, n)
}

// missing reports required fields of s not in present, on where.
func (v *validator) missing(s *Schema, path []string, present []string, where source.Range, n Node) {
	var absent []string
	for _, req := range s.Required {
		if slices.Contains(present, req) {
			continue
		}
		if v.marks(append(path, req)).Has(ReadOnly) {
			continue // a schema may require what the provider sets
		}
		absent = append(absent, req)
	}
	if len(absent) == 0 {
		return
	}
	what := "field"
	if len(absent) > 1 {
		what = "fields"
	}
	in := label(path)
	if len(path) == 0 {
		in = "spec of " + v.owner
	}
	v.add(CodeMissingField.New(where, "%s is missing required %s %s", in, what, quoteList(absent)))
}

func (v *validator) unknownField(s *Schema, key string, keyRange source.Range, path []string) {
	var valid []string
	for _, name := range s.knownNames() {
		if !v.marks(append(path, name)).Has(ReadOnly) {
			valid = append(valid, name)
		}
	}
	in := label(path)
	if len(path) == 0 {
		in = "the spec of " + v.owner
	}
	d := CodeUnknownField.New(keyRange, "unknown field %q in %s", key, in)
	if sugg := Suggest(key, valid); len(sugg) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", sugg[0])
		for _, sg := range sugg {
			d.Suggestions = append(d.Suggestions, source.Suggestion{
				Title: fmt.Sprintf("Change to %q", sg),
				Edits: []source.Edit{{Range: keyRange, NewText: sg}},
			})
		}
	} else if len(valid) > 0 && len(valid) <= maxListed {
		d.Message += "; valid fields: " + strings.Join(valid, ", ")
	}
	v.add(d)
}

func (v *validator) sequence(s *Schema, n Node, path []string) {
	count := lenOf(n)
	if s.MinItems != nil && count < *s.MinItems {
		v.add(CodeBounds.New(n.Range(), "%s needs at least %d %s, found %d", label(path), *s.MinItems, plural(*s.MinItems, "item"), count))
	}
	if s.MaxItems != nil && count > *s.MaxItems {
		v.add(CodeBounds.New(n.Range(), "%s allows at most %d %s, found %d", label(path), *s.MaxItems, plural(*s.MaxItems, "item"), count))
	}
	var seen map[string]int
	if s.UniqueItems {
		seen = map[string]int{}
	}
	for i := 0; i < count; i++ {
		item := itemOf(n, i)
		if item == nil {
			continue
		}
		sub := append(path, strconv.Itoa(i))
		v.validate(s.Items, item, sub, item.Range())
		if seen != nil {
			if key, ok := canonical(item); ok {
				if first, dup := seen[key]; dup {
					v.add(CodeBounds.New(item.Range(), "%s must have unique items: item %d repeats item %d", label(path), i, first))
				} else {
					seen[key] = i
				}
			}
		}
	}
}

// canonical renders a node for the uniqueness check; nodes containing
// substitutions have no known value.
func canonical(n Node) (string, bool) {
	if !known(n) {
		return "", false // most items of a blueprint's lists hold a ${..}
	}
	return render(n)
}

// render is canonical's rendering, false when it meets a missing node or
// a substitution (known tells that beforehand: TestKnownIsRender).
func render(n Node) (string, bool) {
	var b strings.Builder
	var walk func(n Node) bool
	walk = func(n Node) bool {
		if n == nil {
			return false
		}
		switch n.Kind() {
		case ScalarNode:
			if dynamic(n) {
				return false
			}
			val, tag := scalarOf(n)
			if tag == IntTag || tag == FloatTag {
				if f, ok := number(val); ok {
					val = strconv.FormatFloat(f, 'g', -1, 64)
				}
			}
			// What fmt's "%d:%q" writes, without its per-call cost.
			b.WriteString(strconv.Itoa(int(tag)))
			b.WriteByte(':')
			b.WriteString(strconv.Quote(val))
		case SequenceNode:
			b.WriteByte('[')
			for i := 0; i < lenOf(n); i++ {
				if !walk(itemOf(n, i)) {
					return false
				}
				b.WriteByte(',')
			}
			b.WriteByte(']')
		case MappingNode:
			// Order-insensitive: sort entries by key.
			keys := make([]string, 0, lenOf(n))
			vals := map[string]Node{}
			for i := 0; i < lenOf(n); i++ {
				k, _, val := entryOf(n, i)
				keys = append(keys, k)
				vals[k] = val
			}
			sortStrings(keys)
			b.WriteByte('{')
			for _, k := range keys {
				b.WriteString(strconv.Quote(k))
				b.WriteByte(':')
				if !walk(vals[k]) {
					return false
				}
				b.WriteByte(',')
			}
			b.WriteByte('}')
		}
		return true
	}
	if !walk(n) {
		return "", false
	}
	return b.String(), true
}

// known reports whether canonical's walk of n meets neither a missing
// node nor a substitution, without rendering anything: the walk visits
// every item of a sequence and, of a mapping, the last value of each key.
func known(n Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind() {
	case ScalarNode:
		return !dynamic(n)
	case SequenceNode:
		for i := range lenOf(n) {
			if !known(itemOf(n, i)) {
				return false
			}
		}
	case MappingNode:
		for i := range lenOf(n) {
			k, _, val := entryOf(n, i)
			if laterKey(n, i, k) {
				continue // the walk reads the last value of k
			}
			if !known(val) {
				return false
			}
		}
	}
	return true
}

// laterKey reports whether an entry of mapping n after entry i has key k.
func laterKey(n Node, i int, k string) bool {
	for j := i + 1; j < lenOf(n); j++ {
		if kj, _, _ := entryOf(n, j); kj == k {
			return true
		}
	}
	return false
}

func (v *validator) scalar(s *Schema, n Node, path []string) {
	val, tag := scalarOf(n)
	if len(s.Enum) > 0 && !enumContains(s.Enum, val, tag) {
		v.enumError(s, n, val, path)
		return
	}
	if tag == StringTag {
		if s.pattern != nil && !s.pattern.MatchString(val) {
			v.add(CodePattern.New(n.Range(), "%s: %q does not match the pattern %s", label(path), val, s.Pattern))
		}
		length := utf8.RuneCountInString(val)
		if s.MinLength != nil && length < *s.MinLength {
			v.add(CodeBounds.New(n.Range(), "%s must be at least %d %s long, found %d", label(path), *s.MinLength, plural(*s.MinLength, "character"), length))
		}
		if s.MaxLength != nil && length > *s.MaxLength {
			v.add(CodeBounds.New(n.Range(), "%s must be at most %d %s long, found %d", label(path), *s.MaxLength, plural(*s.MaxLength, "character"), length))
		}
	}
	if tag == IntTag || tag == FloatTag {
		f, ok := number(val)
		if !ok {
			return
		}
		switch {
		case s.Minimum != nil && f < *s.Minimum:
			v.add(CodeBounds.New(n.Range(), "%s must be at least %s, found %s", label(path), fmtNum(*s.Minimum), val))
		case s.ExclusiveMinimum != nil && f <= *s.ExclusiveMinimum:
			v.add(CodeBounds.New(n.Range(), "%s must be greater than %s, found %s", label(path), fmtNum(*s.ExclusiveMinimum), val))
		}
		switch {
		case s.Maximum != nil && f > *s.Maximum:
			v.add(CodeBounds.New(n.Range(), "%s must be at most %s, found %s", label(path), fmtNum(*s.Maximum), val))
		case s.ExclusiveMaximum != nil && f >= *s.ExclusiveMaximum:
			v.add(CodeBounds.New(n.Range(), "%s must be less than %s, found %s", label(path), fmtNum(*s.ExclusiveMaximum), val))
		}
	}
}

func (v *validator) enumError(s *Schema, n Node, val string, path []string) {
	allowed := make([]string, 0, len(s.Enum))
	for _, e := range s.Enum {
		allowed = append(allowed, enumText(e))
	}
	d := CodeEnum.New(n.Range(), "%s: %q is not an allowed value", label(path), val)
	sugg := Suggest(val, allowed)
	if len(sugg) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", sugg[0])
		for _, sg := range sugg {
			d.Suggestions = append(d.Suggestions, source.Suggestion{
				Title: fmt.Sprintf("Change to %q", sg),
				Edits: []source.Edit{{Range: n.Range(), NewText: strconv.Quote(sg)}},
			})
		}
	} else if len(allowed) <= maxListed {
		d.Message += "; allowed: " + strings.Join(allowed, ", ")
	} else {
		d.Message += fmt.Sprintf("; allowed: %s, ... (%d values)", strings.Join(allowed[:maxListed], ", "), len(allowed))
	}
	v.add(d)
}

func enumText(e any) string {
	switch e := e.(type) {
	case string:
		return e
	case float64:
		return fmtNum(e)
	case nil:
		return "null"
	}
	return fmt.Sprint(e)
}

func enumContains(enum []any, val string, tag syntax.ScalarTag) bool {
	for _, e := range enum {
		switch e := e.(type) {
		case string:
			if e == val {
				return true
			}
		case float64:
			if f, ok := number(val); ok && (tag == IntTag || tag == FloatTag) && f == e {
				return true
			}
		case bool:
			if tag == BoolTag && strconv.FormatBool(e) == strings.ToLower(val) {
				return true
			}
		case nil:
			if tag == NullTag {
				return true
			}
		default:
			return true // an object or array in an enum: not checked
		}
	}
	return false
}

func number(s string) (float64, bool) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	if i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err == nil {
		return float64(i), true
	}
	return 0, false
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// combinator checks oneOf (exactly one branch) or anyOf (at least one).
// Branches are whole schemas checked against the same node. When none
// fits, branches that only list required fields give one "requires one
// of" message; otherwise the closest branch's problems are reported.
func (v *validator) combinator(group []*Schema, exactlyOne bool, n Node, path []string, where source.Range) {
	if len(group) == 0 {
		return
	}
	passes := 0
	var best []source.Diagnostic
	bestErrs := -1
	for _, b := range group {
		sub := &validator{rt: v.rt, owner: v.owner}
		sub.validate(b, n, path, where)
		errs := 0
		for _, d := range sub.diags {
			if d.Severity == source.Error {
				errs++
			}
		}
		if errs == 0 {
			passes++
			continue
		}
		if bestErrs < 0 || errs < bestErrs {
			best, bestErrs = sub.diags, errs
		}
	}
	requiredOnly := n.Kind() == MappingNode && allRequiredOnly(group)
	switch {
	case passes == 0 && requiredOnly:
		alts := make([]string, len(group))
		for i, b := range group {
			alts[i] = strings.Join(b.Required, " and ")
		}
		in := label(path)
		if len(path) == 0 {
			in = "spec of " + v.owner
		}
		v.add(CodeMissingField.New(where, "%s requires one of: %s", in, strings.Join(alts, "; ")))
	case passes == 0:
		v.diags = append(v.diags, best...)
	case passes > 1 && exactlyOne && requiredOnly:
		alts := make([]string, len(group))
		for i, b := range group {
			alts[i] = strings.Join(b.Required, " and ")
		}
		v.add(CodeConflictingFields.New(n.Range(), "%s may set only one of: %s", label(path), strings.Join(alts, "; ")))
	}
}

// allRequiredOnly reports whether every branch only lists required
// fields (CloudFormation's way of writing "one of these fields").
func allRequiredOnly(group []*Schema) bool {
	for _, b := range group {
		if len(b.Required) == 0 || len(b.Types) > 0 || len(b.Properties) > 0 || b.Items != nil ||
			len(b.OneOf)+len(b.AnyOf)+len(b.AllOf) > 0 || len(b.Enum) > 0 {
			return false
		}
	}
	return true
}

// dedupe drops repeated diagnostics (a property checked by its object and
// again by a combinator branch) and orders the rest.
func dedupe(ds []source.Diagnostic) []source.Diagnostic {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := fmt.Sprintf("%d:%d:%s:%s", d.Range.Start, d.Range.End, d.Code, d.Message)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	source.SortDiagnostics(out)
	return out
}
