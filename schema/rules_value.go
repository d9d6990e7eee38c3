package schema

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	codeValueInvalidType = source.NewCode("value-invalid-type", source.Error,
		"A value type other than string, integer, float, boolean, array or object.",
		"values:\n  names:\n    type: list\n    value: ${list(\"a\")}")
	codeValueTypeMismatch = source.NewCode("value-type-mismatch", source.Error,
		"A literal value that does not have the value's declared type (arrays and objects only come from ${..}).",
		"values:\n  retries:\n    type: integer\n    value: three")
)

func (l *loader) loadValue(e *Entry) {
	if e.Key == nil {
		return
	}
	what := fmt.Sprintf("value %q", e.Key.Value)
	l.checkName(e.Key, "value")
	v := &Value{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		v.Mapping = m
		fs := l.fields(m, KindValue, what, e.Key.Rng)
		v.Type = l.field(fs.at("type"))
		v.Value = l.field(fs.at("value"))
		v.Description = l.field(fs.at("description"))
		v.Secret = l.field(fs.at("secret"))
		l.description(v.Description, what)
		l.checkValue(v)
	}
	l.bp.Values.add(v.Name, v)
}

func (l *loader) checkValue(v *Value) {
	if v.Type == nil {
		return
	}
	if !l.oneOf(v.Type, ValueTypes, codeValueInvalidType, "value type") {
		return
	}
	t := v.Type.Text()
	n := v.Value.Node()
	if n == nil {
		return
	}
	s, ok := n.(*Scalar)
	if !ok {
		l.report(codeValueTypeMismatch.New(n.Range(), "value must be written as a string, found %s: %s values come only from a ${..} substitution", describeNode(n), withArticle(t)))
		return
	}
	if hasSubst(s) {
		return // computed: checked once substitutions are typed
	}
	if literalFits(s, t) {
		return
	}
	d := codeValueTypeMismatch.New(s.Rng, "value %s does not match the %s type of the value", describeNode(s), t)
	switch t {
	case "array", "object":
		d.Message += fmt.Sprintf(": %s values come only from a ${..} substitution", withArticle(t))
	case "string":
		d.Message += "; quote it to make it a string"
		d.Suggestions = []source.Suggestion{quoteFix(s)}
	}
	l.report(d)
}

// literalFits applies decision 2: a scalar of the declared type as
// written, or a string that parses as that type.
func literalFits(s *Scalar, t string) bool {
	switch t {
	case "string":
		return s.Tag == StringTag
	case "integer":
		return s.Tag == IntTag || s.Tag == StringTag && isIntText(s.Value)
	case "float":
		if s.Tag == IntTag || s.Tag == FloatTag {
			return true
		}
		_, ok := parseNumber(s.Value)
		return s.Tag == StringTag && ok
	case "boolean":
		return s.Tag == BoolTag || s.Tag == StringTag && isBoolText(s.Value)
	}
	return false
}

func withArticle(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}
