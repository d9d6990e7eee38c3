package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// To writes the blueprint f holds in the target format: the blueprint
// language (syntax.BP), YAML or JSON. Comments go where the target can
// hold them (the language and YAML; JSON has none). A document with
// syntax errors, or one the target cannot say, is an error.
//
// The result is verified: it is parsed in the target format and must hold
// the same tree (keys, lists and scalars) as f; otherwise To refuses, so
// a caller never writes a file that does not parse or means something
// else.
func To(f *syntax.File, target syntax.Format) ([]byte, error) {
	out, err := to(f, target)
	if err != nil {
		return nil, err
	}
	if err := verify(f, out, target); err != nil {
		return nil, err
	}
	return out, nil
}

func to(f *syntax.File, target syntax.Format) ([]byte, error) {
	if f.HasSyntaxErrors() {
		d := f.SyntaxErrors()[0]
		p := f.Mapper.OffsetPosition(d.Range.Start, 0)
		return nil, fmt.Errorf("%d:%d: %s: the document must parse to be converted", p.Line+1, p.Character+1, d.Message)
	}
	if f.Root == nil {
		return nil, fmt.Errorf("the document is empty")
	}
	comments := Comments(f)
	switch target {
	case syntax.BP:
		if f.Format == syntax.BP {
			return bplang.Format(f.Content())
		}
		if err := brokenSubstitution(f); err != nil {
			return nil, err
		}
		return bplang.Emit(f.Root, bplang.EmitOptions{Comments: comments})
	case syntax.YAML:
		w := &yamlWriter{src: f.Content(), comments: comments}
		return w.document(f.Root)
	case syntax.JSON, syntax.JSONC:
		var b bytes.Buffer
		if err := writeJSON(&b, f.Root, 0); err != nil {
			return nil, err
		}
		b.WriteByte('\n')
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown target format %v", target)
}

// brokenSubstitution refuses a string whose ${..} does not parse: the
// blueprint language writes a substitution as an expression, which must
// parse (YAML and JSON hold any string).
func brokenSubstitution(f *syntax.File) error {
	var found error
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		if found != nil {
			return
		}
		switch n := n.(type) {
		case *syntax.Mapping:
			for _, e := range n.Entries {
				walk(e.Key)
				walk(e.Value)
			}
		case *syntax.Sequence:
			for _, it := range n.Items {
				walk(it)
			}
		case *syntax.Scalar:
			if !n.IsString() || !strings.Contains(n.Value, "${") {
				return
			}
			t := subst.ParseTemplate(n.Value, n.OffsetMap())
			for _, d := range t.Diagnostics() {
				if d.Severity == source.Error {
					p := f.Mapper.OffsetPosition(d.Range.Start, 0)
					found = fmt.Errorf("%d:%d: %s: the blueprint language writes a substitution as an expression, which must parse; fix it first", p.Line+1, p.Character+1, d.Message)
					return
				}
			}
		}
	}
	walk(f.Root)
	return found
}

// verify parses out, f converted to target, and refuses it when it has
// syntax errors or holds another tree than f.
func verify(f *syntax.File, out []byte, target syntax.Format) error {
	var g *syntax.File
	switch target {
	case syntax.BP:
		g = bplang.Parse("converted.bp", out)
	case syntax.YAML:
		g = syntax.Parse("converted.yaml", out)
	default:
		g = syntax.Parse("converted.json", out)
	}
	if g.HasSyntaxErrors() {
		d := g.SyntaxErrors()[0]
		p := g.Mapper.OffsetPosition(d.Range.Start, 0)
		return fmt.Errorf("refused: the converted text would not parse (its %d:%d: %s); this is a bug in the conversion, please report it", p.Line+1, p.Character+1, d.Message)
	}
	if d := difference(f.Root, g.Root); d != "" {
		return fmt.Errorf("refused: the converted text would mean something else (%s); this is a bug in the conversion, please report it", d)
	}
	return nil
}

// ParseFormat reads a target name: bp (or blueprint), yaml (yml), json.
func ParseFormat(s string) (syntax.Format, bool) {
	switch strings.ToLower(s) {
	case "bp", "blueprint":
		return syntax.BP, true
	case "yaml", "yml":
		return syntax.YAML, true
	case "json":
		return syntax.JSON, true
	}
	return 0, false
}

// jsonNumber is a number scalar as JSON writes it.
func jsonNumber(s *syntax.Scalar) (string, error) {
	if s.Tag == syntax.IntTag {
		n, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "_", ""), 0, 64)
		if err != nil {
			return "", fmt.Errorf("the integer %s has no JSON form", s.Value)
		}
		return strconv.FormatInt(n, 10), nil
	}
	f, err := strconv.ParseFloat(s.Value, 64)
	if err != nil || f != f || f > 1e308 || f < -1e308 {
		return "", fmt.Errorf("the number %s has no JSON form", s.Value)
	}
	t := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(t, ".") {
		t += ".0" // stays a float
	}
	return t, nil
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func writeJSON(b *bytes.Buffer, n syntax.Node, depth int) error {
	ind := strings.Repeat("  ", depth+1)
	switch n := n.(type) {
	case *syntax.Mapping:
		if len(n.Entries) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{")
		for i, e := range n.Entries {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + ind + jsonString(e.Key.Value) + ": ")
			if err := writeJSON(b, e.Value, depth+1); err != nil {
				return err
			}
		}
		b.WriteString("\n" + strings.Repeat("  ", depth) + "}")
	case *syntax.Sequence:
		if len(n.Items) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[")
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + ind)
			if err := writeJSON(b, it, depth+1); err != nil {
				return err
			}
		}
		b.WriteString("\n" + strings.Repeat("  ", depth) + "]")
	case *syntax.Scalar:
		switch n.Tag {
		case syntax.NullTag:
			b.WriteString("null")
		case syntax.BoolTag:
			b.WriteString(strings.ToLower(n.Value))
		case syntax.IntTag, syntax.FloatTag:
			t, err := jsonNumber(n)
			if err != nil {
				return err
			}
			b.WriteString(t)
		default:
			b.WriteString(jsonString(n.Value))
		}
	case nil:
		b.WriteString("null")
	}
	return nil
}
