package landscaper

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// unknownPrefix starts the text that stands for a value render did not
// evaluate.
const unknownPrefix = "<unknown:"

// spiff evaluates a Spiff execution as far as it is trivial: values that
// are not expressions, and expressions that are a literal or a path
// into the bindings (imports.x.y). Every other expression becomes an
// unknown, listed with its place.
func (r *renderer) spiff(ex *execution, where string, binding map[string]any) (map[string]any, bool) {
	tree := ex.tree
	if tree == nil {
		f := syntax.Parse(where, []byte(ex.text))
		if errs := f.SyntaxErrors(); len(errs) > 0 {
			r.problem("%s: a Spiff template is YAML: %s", where, errs[0].Message)
			return nil, false
		}
		tree = f.Root
	}
	v := r.spiffValue(Value(tree), binding, where, "")
	out, _ := v.(map[string]any)
	return out, true
}

func (r *renderer) spiffValue(v any, binding map[string]any, where, at string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			x := v[k]
			if k == "<<" || k == "<<<" || strings.HasPrefix(strings.TrimSpace(k), "((") {
				r.unknown(where+at+"/"+k, "a Spiff merge or computed key is not evaluated")
				continue
			}
			if x := r.spiffValue(x, binding, where, at+"/"+k); x != (dropped{}) {
				out[k] = x
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(v))
		for i, x := range v {
			if m, ok := x.(map[string]any); ok && (m["<<"] != nil || m["<<<"] != nil) {
				r.unknown(where+at+"/"+strconv.Itoa(i), "a Spiff merge is not evaluated: the item is left out")
				continue
			}
			if x := r.spiffValue(x, binding, where, at+"/"+strconv.Itoa(i)); x != (dropped{}) {
				out = append(out, x)
			}
		}
		return out
	case string:
		t := strings.TrimSpace(v)
		if !strings.HasPrefix(t, "((") || strings.HasPrefix(t, "((!") || !strings.HasSuffix(t, "))") {
			return v
		}
		expr := strings.TrimSpace(t[2 : len(t)-2])
		if x, ok := spiffEval(expr, binding); ok {
			return x
		}
		r.unknown(where+at, "the Spiff expression (( %s )) is not evaluated: render evaluates literals, paths such as imports.x.y, terms side by side and || only", expr)
		return unknownPrefix + "(( " + expr + " ))>"
	}
	return v
}

// dropped is what an expression that leaves its key out (~~) yields.
type dropped struct{}

// spiffEval evaluates the part of Spiff's expression language render
// takes: alternatives joined by ||, the first one defined wins; an
// alternative is one term, or terms side by side (strings and numbers,
// concatenated); a term is a string or number literal, true, false, ~
// (nil), ~~ (the key is left out) or a path into the bindings
// (imports.x.y). ok is false past that, or when no alternative is
// defined.
func spiffEval(expr string, binding map[string]any) (any, bool) {
	toks, ok := spiffTokens(expr)
	if !ok || len(toks) == 0 {
		return nil, false
	}
	var alt []string
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && toks[i] != "||" {
			alt = append(alt, toks[i])
			continue
		}
		if v, ok := spiffAlternative(alt, binding); ok {
			return v, true
		}
		alt = nil
	}
	return nil, false
}

// spiffAlternative evaluates one alternative; ok is false when a path in
// it is not defined.
func spiffAlternative(terms []string, binding map[string]any) (any, bool) {
	if len(terms) == 0 {
		return nil, false
	}
	var vals []any
	for _, t := range terms {
		v, ok := spiffTerm(t, binding)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	if len(vals) == 1 {
		return vals[0], true
	}
	var b strings.Builder
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
		case json.Number:
			b.WriteString(string(v))
		case float64, bool:
			b.WriteString(fmt.Sprint(v))
		default:
			return nil, false // lists and maps side by side: not taken
		}
	}
	return b.String(), true
}

func spiffTerm(t string, binding map[string]any) (any, bool) {
	switch {
	case t[0] == '"':
		s, err := strconv.Unquote(t)
		return s, err == nil
	case t == "true" || t == "false":
		return t == "true", true
	case t == "~" || t == "nil":
		return nil, true
	case t == "~~":
		return dropped{}, true
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return json.Number(t), true
	}
	var cur any = binding
	for _, seg := range strings.Split(t, ".") {
		m, ok := cur.(map[string]any)
		if !ok || seg == "" {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// spiffTokens splits an expression into string literals, ||, ~~, ~ and
// words (numbers, names, paths); ok is false on anything else.
func spiffTokens(expr string) ([]string, bool) {
	var out []string
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '"':
			j := i + 1
			for j < len(expr) && expr[j] != '"' {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(expr) {
				return nil, false
			}
			out = append(out, expr[i:j+1])
			i = j + 1
		case strings.HasPrefix(expr[i:], "||"), strings.HasPrefix(expr[i:], "~~"):
			out = append(out, expr[i:i+2])
			i += 2
		case c == '~':
			out = append(out, "~")
			i++
		case c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(expr) && (expr[j] == '-' || expr[j] == '_' || expr[j] == '.' || expr[j] >= '0' && expr[j] <= '9' || expr[j] >= 'a' && expr[j] <= 'z' || expr[j] >= 'A' && expr[j] <= 'Z') {
				j++
			}
			out = append(out, expr[i:j])
			i = j
		default:
			return nil, false
		}
	}
	return out, true
}

// hasUnknown reports whether v holds a value render did not evaluate.
func hasUnknown(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if hasUnknown(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasUnknown(x) {
				return true
			}
		}
	case string:
		return strings.HasPrefix(v, unknownPrefix)
	}
	return false
}
