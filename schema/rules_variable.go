package schema

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	codeVarInvalidType = source.NewCode("var-invalid-type", source.Error,
		"A variable type that is neither a core type (string, integer, float, boolean) nor a custom {provider}/{type}.",
		"variables:\n  port:\n    type: int")
	codeVarDefaultType = source.NewCode("var-default-type", source.Error,
		"A variable's default does not have the variable's type.",
		"variables:\n  port:\n    type: integer\n    default: eighty")
	codeVarScalarAsString = source.NewCode("var-scalar-as-string", source.Warning,
		"A number or boolean default or allowed value of a string variable; it is used as its text.",
		"variables:\n  port:\n    type: string\n    default: 5432")
	codeVarAllowedBoolean = source.NewCode("var-allowed-values-boolean", source.Error,
		"Boolean variables do not support allowed values.",
		"variables:\n  flag:\n    type: boolean\n    allowedValues: [true, false]")
	codeVarAllowedType = source.NewCode("var-allowed-value-type", source.Error,
		"An allowed value does not have the variable's type.",
		"variables:\n  size:\n    type: integer\n    allowedValues: [1, two]")
	codeVarDefaultNotAllowed = source.NewCode("var-default-not-allowed", source.Error,
		"A variable's default is not one of its allowed values.",
		"variables:\n  size:\n    type: string\n    allowedValues: [small, large]\n    default: medium")
)

// varKind is a variable's declared type, reduced to what literal checks need.
type varKind int

const (
	varUnknown varKind = iota // invalid or absent: literals are not checked
	varString
	varInteger
	varFloat
	varBoolean
	varCustom // labels, which are strings
)

// IsCustomType reports whether t has the form {provider}/{type} of a
// custom variable type: two or more segments separated by "/", each a
// letter followed by letters, digits or "-".
func IsCustomType(t string) bool {
	parts := strings.Split(t, "/")
	return len(parts) >= 2 && validSegments(parts)
}

func validSegments(parts []string) bool {
	for _, p := range parts {
		if p == "" || !segLetter(rune(p[0])) {
			return false
		}
		for _, r := range p {
			// '_' too: the official AWS provider registers aws/lambda/function_url.
			if !segLetter(r) && !(r >= '0' && r <= '9') && r != '-' && r != '_' {
				return false
			}
		}
	}
	return true
}

func segLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func (l *loader) loadVariable(e *Entry) {
	if e.Key == nil {
		return
	}
	what := fmt.Sprintf("variable %q", e.Key.Value)
	l.checkName(e.Key, "variable")
	v := &Variable{Def: Def{Name: e.Key.Value, Entry: e}}
	if m := l.mappingOf(e, what); m != nil {
		v.Mapping = m
		fs := l.fields(m, KindVariable, what, e.Key.Rng)
		v.Type = l.field(fs.at("type"))
		v.Description = l.field(fs.at("description"))
		v.Secret = l.field(fs.at("secret"))
		v.Default = l.field(fs.at("default"))
		v.AllowedValues = l.field(fs.at("allowedValues"))
		l.noSubstTree(m, "a variable definition")
		l.checkVariable(v)
	}
	l.bp.Variables.add(v.Name, v)
}

func (l *loader) checkVariable(v *Variable) {
	kind := varUnknown
	if v.Type != nil && !hasSubst(v.Type.Scalar()) { // substitutions: reported for the whole definition
		t := v.Type.Text()
		switch t {
		case "string":
			kind = varString
		case "integer":
			kind = varInteger
		case "float":
			kind = varFloat
		case "boolean":
			kind = varBoolean
		default:
			if IsCustomType(t) {
				kind = varCustom
			} else {
				s := v.Type.Scalar()
				d := codeVarInvalidType.New(s.Rng, "invalid variable type %q: the spec allows string, integer, float, boolean or a custom type {provider}/{type} (such as aws/region)", t)
				if best := source.Closest(t, VariableCoreTypes); len(best) > 0 {
					d.Message += fmt.Sprintf("; did you mean %q?", best[0])
					d.Suggestions = nameFixes(s, best)
				} else if alias := typeAlias(t); alias != "" {
					d.Message += fmt.Sprintf("; did you mean %q?", alias)
					d.Suggestions = nameFixes(s, []string{alias})
				}
				l.report(d)
			}
		}
	}
	tname := v.Type.Text()

	var allowed []*Scalar // the well-typed allowed values; nil when unusable
	allowedOK := v.AllowedValues != nil
	if seq := v.AllowedValues.Sequence(); seq != nil {
		if kind == varBoolean {
			l.report(codeVarAllowedBoolean.New(v.AllowedValues.Range(), "boolean variables do not support allowed values: a boolean is already true or false"))
			allowedOK = false
		} else {
			for _, it := range seq.Items {
				s, ok := l.varLiteral(it, kind, tname, codeVarAllowedType, "allowed value")
				if !ok || s == nil {
					allowedOK = false
					continue
				}
				allowed = append(allowed, s)
			}
		}
	}

	if v.Default == nil {
		return
	}
	def, ok := l.varLiteral(v.Default.Node(), kind, tname, codeVarDefaultType, "default")
	if !ok || def == nil || !allowedOK || len(allowed) == 0 || kind == varUnknown {
		return
	}
	for _, a := range allowed {
		if sameLiteral(def, a, kind) {
			return
		}
	}
	var texts []string
	for _, a := range allowed {
		texts = append(texts, a.Value)
	}
	d := codeVarDefaultNotAllowed.New(def.Rng, "default %q is not one of the allowed values: %s", def.Value, strings.Join(texts, ", "))
	best := source.Closest(def.Value, texts)
	if len(best) == 0 {
		best = texts
	}
	for _, b := range best {
		d.Suggestions = append(d.Suggestions, source.Suggestion{
			Title: fmt.Sprintf("Change to %q", b),
			Edits: []source.Edit{{Range: def.ValueRange(), NewText: b}},
		})
	}
	l.report(d)
}

// typeAlias maps common type names of other languages to the spec's.
func typeAlias(t string) string {
	switch strings.ToLower(t) {
	case "int", "int64", "number", "long":
		return "integer"
	case "double", "decimal", "float64":
		return "float"
	case "bool":
		return "boolean"
	case "str", "text":
		return "string"
	}
	return ""
}

// varLiteral checks a default or allowed value against the variable's
// kind (decision 3). It returns the scalar and whether it has the type;
// a substitution is opaque and returns (nil, true).
func (l *loader) varLiteral(n Node, kind varKind, tname string, code *source.Code, what string) (*Scalar, bool) {
	if n == nil {
		return nil, false
	}
	s, ok := n.(*Scalar)
	if !ok {
		l.report(code.New(n.Range(), "%s must be a single %s value, found %s: variables only hold scalars (pass complex values as JSON strings)", what, orType(tname), describeNode(n)))
		return nil, false
	}
	if s.Tag == NullTag {
		l.report(code.New(s.Rng, "%s must be a %s value; it is empty", what, orType(tname)))
		return nil, false
	}
	if hasSubst(s) {
		return nil, true
	}
	mismatch := func() (*Scalar, bool) {
		d := code.New(s.Rng, "%s must be %s to match the variable's type, found %s", what, withArticle(tname), describeNode(s))
		if s.Tag == StringTag {
			if _, num := parseNumber(s.Value); num && (kind == varFloat || kind == varInteger && isIntText(s.Value)) || kind == varBoolean && isBoolText(s.Value) {
				d.Message += "; write it without quotes"
				d.Suggestions = []source.Suggestion{{Title: "Remove the quotes", Edits: []source.Edit{{Range: s.Rng, NewText: s.Value}}}}
			}
		}
		l.report(d)
		return s, false
	}
	switch kind {
	case varInteger:
		if s.Tag != IntTag {
			return mismatch()
		}
	case varFloat:
		if s.Tag != IntTag && s.Tag != FloatTag {
			return mismatch()
		}
	case varBoolean:
		if s.Tag != BoolTag {
			return mismatch()
		}
	case varString, varCustom:
		if s.Tag != StringTag {
			d := codeVarScalarAsString.New(s.Rng, "%s %s of a %s variable is used as the string %q", what, describeNode(s), tname, s.Value)
			d.Suggestions = []source.Suggestion{quoteFix(s)}
			l.report(d)
		}
	}
	return s, true
}

func orType(t string) string {
	if t == "" {
		return "scalar"
	}
	return t
}

// sameLiteral compares two well-typed literals of a variable.
func sameLiteral(a, b *Scalar, kind varKind) bool {
	switch kind {
	case varInteger, varFloat:
		x, ok1 := parseNumber(a.Value)
		y, ok2 := parseNumber(b.Value)
		return ok1 && ok2 && x == y
	case varBoolean:
		return strings.EqualFold(a.Value, b.Value)
	}
	return a.Value == b.Value
}

// parseNumber parses a YAML 1.2 core or JSON number.
func parseNumber(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case ".inf":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case ".nan":
		return math.NaN(), true
	}
	base := 10
	if u := strings.ToLower(t); strings.HasPrefix(u, "0x") || strings.HasPrefix(u, "0o") {
		base = 0
	}
	if i, err := strconv.ParseInt(t, base, 64); err == nil {
		return float64(i), true
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil && !strings.ContainsAny(strings.ToLower(t), "xnip_")
}

// isInt reports whether s is an integer literal.
func isIntText(s string) bool {
	_, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return err == nil
}

func isBoolText(s string) bool {
	return slices.Contains([]string{"true", "false"}, strings.ToLower(s))
}
