package framework

import (
	"fmt"
	"slices"
	"strings"

	"github.com/newstack-cloud/bluelink/libs/blueprint/function"
)

type rawParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Optional    bool   `json:"optional,omitempty"`
	Variadic    bool   `json:"variadic,omitempty"`
	Description string `json:"description,omitempty"`
}

type rawFunction struct {
	Description string     `json:"description,omitempty"`
	Params      []rawParam `json:"params"`
	Result      string     `json:"result"`
}

// functionOf writes a plugin function's definition in the provider
// format: its parameters in order with their types in the registry's
// type notation, its result, its documentation. A definition the format
// cannot hold (a parameter without a type, a variadic one not last) is
// an error.
func functionOf(d *function.Definition) (rawFunction, error) {
	rf := rawFunction{Description: firstOf(d.FormattedDescription, d.Description, d.FormattedSummary, d.Summary)}
	for i, p := range d.Parameters {
		if p == nil {
			return rf, fmt.Errorf("parameter %d has no definition", i+1)
		}
		rp := rawParam{Name: p.GetName(), Optional: p.GetOptional(), Description: firstOf(p.GetFormattedDescription(), p.GetDescription())}
		if rp.Name == "" {
			rp.Name = firstOf(p.GetLabel(), fmt.Sprintf("arg%d", i+1))
		}
		if v, ok := p.(*function.VariadicParameter); ok {
			if i != len(d.Parameters)-1 {
				return rf, fmt.Errorf("variadic parameter %d is not the last", i+1)
			}
			rp.Variadic, rp.Optional = true, false
			rp.Type = valueType(v.Type, 0)
		} else {
			rp.Type = typeOf(p)
		}
		rf.Params = append(rf.Params, rp)
	}
	rf.Result = typeOf(d.Return)
	return rf, nil
}

// typeOf is the type of a parameter or return definition in the
// registry's notation (any for what it does not know).
func typeOf(x any) string {
	switch x := x.(type) {
	case *function.ScalarParameter:
		return valueType(x.Type, 0)
	case *function.ScalarReturn:
		return valueType(x.Type, 0)
	case *function.ListParameter:
		return "array[" + valueType(x.ElementType, 0) + "]"
	case *function.ListReturn:
		return "array[" + valueType(x.ElementType, 0) + "]"
	case *function.MapParameter:
		return "map[" + valueType(x.ElementType, 0) + "]"
	case *function.MapReturn:
		return "map[" + valueType(x.ElementType, 0) + "]"
	case *function.ObjectParameter:
		return valueType(x.ObjectValueType, 0)
	case *function.ObjectReturn:
		return valueType(x.ObjectValueType, 0)
	case *function.AnyParameter:
		return unionType(x.UnionTypes)
	case *function.AnyReturn:
		return unionType(x.UnionTypes)
	}
	return "any"
}

// valueType is a framework value type in the registry's notation; what
// it cannot say (functions, too deep a nesting) is any.
func valueType(t function.ValueTypeDefinition, depth int) string {
	if t == nil || depth > maxSchemaDepth {
		return "any"
	}
	switch t := t.(type) {
	case *function.ValueTypeDefinitionList:
		return "array[" + valueType(t.ElementType, depth+1) + "]"
	case *function.ValueTypeDefinitionMap:
		return "map[" + valueType(t.ElementType, depth+1) + "]"
	case *function.ValueTypeDefinitionObject:
		if len(t.AttributeTypes) == 0 {
			return "object"
		}
		var fields []string
		for _, name := range sortedKeys(t.AttributeTypes) {
			if !validName(name) {
				return "object"
			}
			fields = append(fields, name+": "+valueType(t.AttributeTypes[name].Type, depth+1))
		}
		return "object{" + strings.Join(fields, ", ") + "}"
	}
	switch t.GetType() {
	case function.ValueTypeString, function.ValueTypeBytes:
		return "string"
	case function.ValueTypeInt32, function.ValueTypeInt64, function.ValueTypeUint32, function.ValueTypeUint64:
		return "integer"
	case function.ValueTypeFloat32, function.ValueTypeFloat64:
		return "float"
	case function.ValueTypeBool:
		return "boolean"
	case function.ValueTypeList:
		return "array[any]"
	case function.ValueTypeMap:
		return "map[any]"
	case function.ValueTypeObject:
		return "object"
	}
	return "any"
}

// unionType is a | b | ... of the types, or any for none.
func unionType(ts []function.ValueTypeDefinition) string {
	var out []string
	for _, t := range ts {
		if s := valueType(t, 1); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 || slices.Contains(out, "any") {
		return "any"
	}
	return strings.Join(out, " | ")
}
