package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Diagnostic codes for inputs that do not fit the blueprint's variables.
// Each is reported at the variable's definition, so the editor and the CLI
// show where the requirement comes from.
var (
	CodeMissingVariable = source.NewCode("input-missing-variable", source.Error,
		"A variable without a default was given no value (--var name=value or a --vars file).",
		"variables:\n  databaseHost:\n    type: string")
	CodeVariableType = source.NewCode("input-variable-type", source.Error,
		"A variable's input value does not have the variable's type.",
		"variables:\n  port:\n    type: integer  # --var port=eighty")
	CodeNotAllowed = source.NewCode("input-not-allowed", source.Error,
		"A variable's input value is not one of its allowedValues (or of its custom type's options).",
		"variables:\n  env:\n    type: string\n    allowedValues: [dev, prod]  # --var env=test")
	CodeUnknownVariable = source.NewCode("input-unknown-variable", source.Warning,
		"An input names a variable the blueprint does not declare; it is ignored.",
		"")
)

// scalarValue converts a scalar by its resolved tag.
func scalarValue(s *schema.Scalar) funcs.Value {
	switch s.Tag {
	case schema.NullTag:
		return funcs.None
	case schema.BoolTag:
		return funcs.Bool(strings.EqualFold(s.Value, "true"))
	case schema.IntTag:
		if n, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "0o", "0"), 0, 64); err == nil {
			return funcs.Int(n)
		}
		if f, err := strconv.ParseFloat(s.Value, 64); err == nil {
			return funcs.Float(f)
		}
	case schema.FloatTag:
		switch strings.ToLower(strings.TrimLeft(s.Value, "+")) {
		case ".inf":
			return funcs.Float(math.Inf(1))
		case "-.inf":
			return funcs.Float(math.Inf(-1))
		case ".nan":
			return funcs.Float(math.NaN())
		}
		if f, err := strconv.ParseFloat(s.Value, 64); err == nil {
			return funcs.Float(f)
		}
	}
	return funcs.String(s.Value)
}

// coerce converts v to a core variable or value type. Text (from the
// command line, or a quoted value) is parsed; a non-string scalar given
// for a string is used as its text (decision 3). ok is false when v does
// not fit.
func coerce(v funcs.Value, typ string, text bool) (funcs.Value, bool) {
	if v.IsUnknown() {
		return v, true
	}
	sens := v.Sensitive()
	out, ok := coerce1(v, typ, text)
	return out.WithSensitive(sens || out.Sensitive()), ok
}

func coerce1(v funcs.Value, typ string, text bool) (funcs.Value, bool) {
	s, isStr := v.Str()
	switch typ {
	case "string":
		switch v.Kind() {
		case funcs.KindString:
			return v, true
		case funcs.KindInteger, funcs.KindFloat, funcs.KindBoolean:
			t, _ := funcs.Interpolate(v)
			return funcs.String(t), true
		}
		return v, false
	case "integer":
		if n, ok := v.Int(); ok {
			return funcs.Int(n), true
		}
		if f, ok := v.Float(); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return funcs.Int(int64(f)), true
		}
		if isStr && text {
			if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
				return funcs.Int(n), true
			}
		}
		return v, false
	case "float":
		if f, ok := v.Float(); ok {
			return funcs.Float(f), true
		}
		if isStr && text {
			if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
				return funcs.Float(f), true
			}
		}
		return v, false
	case "boolean":
		if _, ok := v.Bool(); ok {
			return v, true
		}
		if isStr && text {
			if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
				return funcs.Bool(b), true
			}
		}
		return v, false
	case "array":
		return v, v.Kind() == funcs.KindArray
	case "object":
		return v, v.Kind() == funcs.KindMap
	}
	// A custom type: its values are option labels, written as strings.
	return v, isStr
}

// resolveVariables decides every variable's value from the inputs and
// defaults, reporting every missing, mistyped or disallowed one (all of
// them, not only the first).
func resolveVariables(bp *schema.Blueprint, inputs map[string]Input, reg *registry.Registry) (map[string]funcs.Value, []source.Diagnostic) {
	vals := map[string]funcs.Value{}
	var diags []source.Diagnostic
	for _, v := range bp.Variables.Items() {
		typ := v.Type.Text()
		in, given := inputs[v.Name]
		var val funcs.Value
		origin := "the default"
		switch {
		case given:
			val, origin = in.Value, in.Origin
		case v.Default != nil && v.Default.Node() != nil:
			val = literal(v.Default.Node())
			if val.IsNone() {
				goto missing
			}
		default:
			goto missing
		}
		{
			converted, ok := coerce(val, typ, given && in.Text)
			if !ok {
				diags = append(diags, CodeVariableType.New(v.NameRange(), "variable %q is %s, but the value from %s is %s %s %s", v.Name, typ, origin, article(val.Kind().String()), val.Kind(), maskedText(v, val)))
				vals[v.Name] = funcs.Unknown("variables." + v.Name)
				continue
			}
			val = converted
			if d := checkAllowed(v, typ, val, origin, reg); d != nil {
				diags = append(diags, *d)
			}
			if v.Secret.Bool() {
				val = val.WithSensitive(true)
			}
			vals[v.Name] = val
			continue
		}
	missing:
		diags = append(diags, CodeMissingVariable.New(v.NameRange(), "variable %q has no default and no value was given; pass --var %s=... or set it in a --vars file", v.Name, v.Name))
		vals[v.Name] = funcs.Unknown("variables." + v.Name)
	}
	for _, name := range sortedKeys(inputs) {
		if bp.Variables.Get(name) == nil {
			rng := source.Range{}
			if bp.Variables.Field != nil {
				rng = bp.Variables.Field.KeyRange()
			}
			diags = append(diags, CodeUnknownVariable.New(rng, "input %q from %s is not a variable of the blueprint; it is ignored", name, inputs[name].Origin))
		}
	}
	return vals, diags
}

// checkAllowed checks allowedValues and custom type options.
func checkAllowed(v *schema.Variable, typ string, val funcs.Value, origin string, reg *registry.Registry) *source.Diagnostic {
	if seq := v.AllowedValues.Sequence(); seq != nil && len(seq.Items) > 0 {
		var allowed []string
		for _, it := range seq.Items {
			a, _ := coerce(literal(it), typ, true)
			if funcs.Equal(a, val) {
				return nil
			}
			allowed = append(allowed, Text(literal(it)))
		}
		d := CodeNotAllowed.New(v.NameRange(), "variable %q is %s (from %s), which is not one of its allowed values: %s", v.Name, maskedText(v, val), origin, strings.Join(allowed, ", "))
		return &d
	}
	if schema.IsCustomType(typ) && reg != nil {
		ct, ok := reg.CustomVariableType(typ)
		if !ok || len(ct.Options) == 0 {
			return nil
		}
		label, _ := val.Str()
		if _, ok := ct.Option(label); ok {
			return nil
		}
		labels := ct.Labels()
		hint := ""
		if s := source.Closest(label, labels); len(s) > 0 {
			hint = fmt.Sprintf("; did you mean %q?", s[0])
		} else if len(labels) <= 12 {
			hint = "; options: " + strings.Join(labels, ", ")
		}
		d := CodeNotAllowed.New(v.NameRange(), "variable %q is %s (from %s), which is not an option of %s%s", v.Name, maskedText(v, val), origin, typ, hint)
		return &d
	}
	return nil
}

func maskedText(v *schema.Variable, val funcs.Value) string {
	if v.Secret.Bool() {
		return SensitiveText
	}
	return Text(val)
}

func article(kind string) string {
	switch kind {
	case "integer", "array", "unknown":
		return "an"
	}
	return "a"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
