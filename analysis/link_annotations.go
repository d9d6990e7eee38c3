package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// codeLinkAnnotation is a link annotation the link's definition does not
// allow: a value of the wrong type or outside its allowed values, or a
// required one missing.
var codeLinkAnnotation = source.NewCode("link-annotation", source.Error,
	"A link annotation on a linking resource has the wrong type, is not one of its allowed values, or is required and missing (the link's definition in its provider says which).",
	"metadata:\n  annotations:\n    aws.lambda.dynamodb.accessType: everything  # read, write or readwrite\nlinkSelector:\n  byLabel: {app: orders}")

// checkLinkAnnotations checks the annotations the selecting resource s
// carries for its link with resources of type to (its own side of the
// link's definition, either direction), reported on s: each annotation
// the link defines for s's side must have its type and, when the link
// lists them, one of its allowed values; a required one must be there.
// A value holding ${..} is known at deploy time only and is not judged;
// a required one missing is reported at at: the linkSelector's byLabel
// or the reference making the link.
func (a *analyzer) checkLinkAnnotations(s *Symbol, from, to string, at source.Range) []wideDiag {
	var side string
	l, ok := a.reg.Link(from, to)
	if ok {
		side = "from"
	} else if l, ok = a.reg.Link(to, from); ok {
		side = "to"
	} else {
		return nil
	}
	if len(l.Annotations) == 0 {
		return nil
	}
	var given *schema.Mapping
	if md := s.Resource.Metadata; md != nil && md.Annotations != nil {
		given = md.Annotations.Mapping()
	}
	var out []wideDiag
	for _, name := range l.AnnotationNames() {
		def := l.Annotations[name]
		if def.On != side {
			continue
		}
		var value schema.Node
		if given != nil {
			value = given.Get(name)
		}
		if value == nil {
			if def.Required {
				out = append(out, wideDiag{unit: s.index, d: codeLinkAnnotation.New(at,
					"the link between %s and %s requires the annotation %q on %q", l.From, l.To, name, s.Name)})
			}
			continue
		}
		if msg := annotationMismatch(def, value); msg != "" {
			out = append(out, wideDiag{unit: s.index, d: codeLinkAnnotation.New(value.Range(),
				"annotation %q of the link between %s and %s %s", name, l.From, l.To, msg)})
		}
	}
	return out
}

// annotationMismatch says how value breaks def, or "".
func annotationMismatch(def *registry.Annotation, value schema.Node) string {
	sc, ok := value.(*schema.Scalar)
	if !ok {
		return "must be " + article(def.Type) + ", not a list or a mapping"
	}
	if strings.Contains(sc.Value, "${") {
		return ""
	}
	var got types.Type
	switch sc.Tag {
	case schema.BoolTag:
		got = types.Boolean
	case schema.IntTag:
		got = types.Integer
	case schema.FloatTag:
		got = types.Float
	case schema.NullTag:
		return "must be " + article(def.Type) + ", not null"
	default:
		got = types.String
	}
	want := def.Type
	if want != nil && !types.Assignable(got, want) {
		// Annotations are strings in metadata more often than not:
		// "true" and "5" read as what they spell.
		if got != types.String || !spells(sc.Value, want) {
			return fmt.Sprintf("must be %s, not %s", article(want), describeScalar(sc))
		}
	}
	if len(def.AllowedValues) == 0 {
		return ""
	}
	var allowed []string
	for _, v := range def.AllowedValues {
		s := fmt.Sprint(v)
		if s == sc.Value {
			return ""
		}
		allowed = append(allowed, s)
	}
	return fmt.Sprintf("is %q, not one of %s", sc.Value, strings.Join(allowed, ", "))
}

// spells reports whether text reads as a value of type t.
func spells(text string, t types.Type) bool {
	switch {
	case types.Assignable(types.Boolean, t):
		_, err := strconv.ParseBool(text)
		return err == nil
	case types.Assignable(types.Integer, t):
		_, err := strconv.ParseInt(text, 10, 64)
		return err == nil
	case types.Assignable(types.Float, t):
		_, err := strconv.ParseFloat(text, 64)
		return err == nil
	}
	return false
}

func describeScalar(sc *schema.Scalar) string {
	switch sc.Tag {
	case schema.BoolTag:
		return "the boolean " + sc.Value
	case schema.IntTag, schema.FloatTag:
		return "the number " + sc.Value
	}
	return strconv.Quote(sc.Value)
}
