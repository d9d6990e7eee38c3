package registry

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// ParseTypeExpr reads the type notation of the provider format:
// string, integer, float, boolean, binary, any, array[T], map[T],
// object{name: T, ...} (object alone is map[any]) and unions a | b.
// It is the notation types.Type.String renders, so messages and
// provider files read alike.
func ParseTypeExpr(s string) (types.Type, error) {
	p := &typeParser{src: s}
	t, err := p.union()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.src) {
		return nil, fmt.Errorf("type %q: unexpected %q", s, p.src[p.pos:])
	}
	return t, nil
}

type typeParser struct {
	src string
	pos int
}

func (p *typeParser) space() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *typeParser) eat(c byte) bool {
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) ident() string {
	p.space()
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

func (p *typeParser) union() (types.Type, error) {
	var ts []types.Type
	for {
		t, err := p.single()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if !p.eat('|') {
			break
		}
	}
	return types.NewUnion(ts...), nil
}

func (p *typeParser) single() (types.Type, error) {
	name := p.ident()
	switch name {
	case "string":
		return types.String, nil
	case "integer":
		return types.Integer, nil
	case "float":
		return types.Float, nil
	case "boolean":
		return types.Boolean, nil
	case "binary":
		return types.Binary, nil
	case "any":
		return types.Any, nil
	case "array", "map":
		elem := types.Type(types.Any)
		if p.eat('[') {
			var err error
			if elem, err = p.union(); err != nil {
				return nil, err
			}
			if !p.eat(']') {
				return nil, fmt.Errorf("type %q: missing ]", p.src)
			}
		}
		if name == "array" {
			return &types.Array{Elem: elem}, nil
		}
		return &types.Map{Elem: elem}, nil
	case "object":
		if !p.eat('{') {
			return &types.Map{Elem: types.Any}, nil
		}
		var fields []types.Field
		open := false
		for !p.eat('}') {
			if p.pos >= len(p.src) {
				return nil, fmt.Errorf("type %q: missing }", p.src)
			}
			p.space()
			if strings.HasPrefix(p.src[p.pos:], "...") {
				p.pos += 3
				open = true
			} else {
				fname := p.ident()
				if fname == "" || !p.eat(':') {
					return nil, fmt.Errorf("type %q: expected field name and ':'", p.src)
				}
				ft, err := p.union()
				if err != nil {
					return nil, err
				}
				fields = append(fields, types.Field{Name: fname, Type: ft})
			}
			if !p.eat(',') {
				if !p.eat('}') {
					return nil, fmt.Errorf("type %q: expected , or }", p.src)
				}
				break
			}
		}
		return types.NewObject(open, fields...), nil
	case "":
		return nil, fmt.Errorf("type %q: expected a type at offset %d", p.src, p.pos)
	}
	return nil, fmt.Errorf("type %q: unknown type %q", p.src, name)
}
