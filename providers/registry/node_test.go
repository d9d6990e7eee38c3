package registry

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// tnode is a test implementation of Node built by a small JSON parser
// that keeps byte offsets, so tests state exact ranges.
type tnode struct {
	kind    NodeKind
	rng     source.Range
	value   string
	tag     ScalarTag
	keys    []string
	keyRngs []source.Range
	kids    []*tnode
}

func (n *tnode) Kind() NodeKind      { return n.kind }
func (n *tnode) Range() source.Range { return n.rng }
func (n *tnode) Dynamic() bool       { return n.kind == ScalarNode && strings.Contains(n.value, "${") }
func (n *tnode) Scalar() (string, ScalarTag) {
	if n.kind != ScalarNode {
		return "", NullTag
	}
	return n.value, n.tag
}
func (n *tnode) Len() int { return len(n.kids) }
func (n *tnode) Entry(i int) (string, source.Range, Node) {
	return n.keys[i], n.keyRngs[i], nodeOrNil(n.kids[i])
}
func (n *tnode) Item(i int) Node { return nodeOrNil(n.kids[i]) }

func nodeOrNil(n *tnode) Node {
	if n == nil {
		return nil
	}
	return n
}

// get follows keys (and decimal indexes) to a descendant.
func (n *tnode) get(path ...string) *tnode {
	cur := n
	for _, p := range path {
		found := false
		if cur.kind == SequenceNode {
			var i int
			fmt.Sscan(p, &i)
			cur, found = cur.kids[i], true
		} else {
			for i, k := range cur.keys {
				if k == p {
					cur, found = cur.kids[i], true
					break
				}
			}
		}
		if !found {
			panic("no " + p)
		}
	}
	return cur
}

// keyRange returns the range of the last key in path.
func (n *tnode) keyRange(path ...string) source.Range {
	parent := n.get(path[:len(path)-1]...)
	for i, k := range parent.keys {
		if k == path[len(path)-1] {
			return parent.keyRngs[i]
		}
	}
	panic("no key " + path[len(path)-1])
}

type jparser struct {
	src string
	pos int
}

func parseJSONNode(src string) *tnode {
	p := &jparser{src: src}
	n := p.value()
	p.ws()
	if p.pos != len(src) {
		panic(fmt.Sprintf("trailing input at %d", p.pos))
	}
	return n
}

func (p *jparser) ws() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\r\n", rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *jparser) value() *tnode {
	p.ws()
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		n := &tnode{kind: MappingNode}
		p.pos++
		for {
			p.ws()
			if p.src[p.pos] == '}' {
				p.pos++
				break
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			ks := p.pos
			key := p.str()
			n.keys = append(n.keys, key)
			n.keyRngs = append(n.keyRngs, source.R(ks, p.pos))
			p.ws()
			p.pos++ // ':'
			n.kids = append(n.kids, p.value())
		}
		n.rng = source.R(start, p.pos)
		return n
	case c == '[':
		n := &tnode{kind: SequenceNode}
		p.pos++
		for {
			p.ws()
			if p.src[p.pos] == ']' {
				p.pos++
				break
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			n.kids = append(n.kids, p.value())
		}
		n.rng = source.R(start, p.pos)
		return n
	case c == '"':
		s := p.str()
		return &tnode{kind: ScalarNode, rng: source.R(start, p.pos), value: s, tag: StringTag}
	default:
		for p.pos < len(p.src) && !strings.ContainsRune(",]} \t\r\n", rune(p.src[p.pos])) {
			p.pos++
		}
		text := p.src[start:p.pos]
		tag := IntTag
		switch {
		case text == "true" || text == "false":
			tag = BoolTag
		case text == "null":
			tag = NullTag
		case strings.ContainsAny(text, ".eE"):
			tag = FloatTag
		}
		return &tnode{kind: ScalarNode, rng: source.R(start, p.pos), value: text, tag: tag}
	}
}

// str reads a string; escapes other than \" and \\ are not needed here.
func (p *jparser) str() string {
	p.pos++ // opening quote
	var b strings.Builder
	for p.src[p.pos] != '"' {
		if p.src[p.pos] == '\\' {
			p.pos++
		}
		b.WriteByte(p.src[p.pos])
		p.pos++
	}
	p.pos++
	return b.String()
}

func sourceR(s, e int) source.Range { return source.R(s, e) }

func (s *Schema) rangeForTest() source.Range { return source.R(0, 1) }
