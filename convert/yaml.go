package convert

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Comments returns the comments of a document of any format, in order,
// each with its text after the marker: # for the language and YAML, //
// and /* */ for JSONC (a block comment's lines joined by spaces).
func Comments(f *syntax.File) []bplang.Comment {
	var out []bplang.Comment
	switch f.Format {
	case syntax.BP:
		for _, r := range bplang.Comments(f.Content()) {
			out = append(out, bplang.Comment{Range: r, Text: strings.TrimRight(string(f.Content()[r.Start+1:r.End]), " \t\r")})
		}
	case syntax.YAML:
		out = yamlComments(f)
	case syntax.JSON, syntax.JSONC:
		out = jsonComments(f.Content())
	}
	return out
}

// yamlComments finds # comments: a '#' at a line's start or after white
// space, outside every scalar of the tree.
func yamlComments(f *syntax.File) []bplang.Comment {
	var scalars []source.Range
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
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
			scalars = append(scalars, n.Rng)
		}
	}
	walk(f.Root)
	sort.Slice(scalars, func(i, j int) bool { return scalars[i].Start < scalars[j].Start })
	inScalar := func(off int) bool {
		i := sort.Search(len(scalars), func(i int) bool { return scalars[i].Start > off })
		for j := i - 1; j >= 0 && j >= i-4; j-- {
			if scalars[j].Start <= off && off < scalars[j].End {
				return true
			}
		}
		return false
	}
	c := f.Content()
	var out []bplang.Comment
	for i := 0; i < len(c); i++ {
		if c[i] != '#' || i > 0 && c[i-1] != ' ' && c[i-1] != '\t' && c[i-1] != '\n' || inScalar(i) {
			continue
		}
		end := i
		for end < len(c) && c[end] != '\n' {
			end++
		}
		out = append(out, bplang.Comment{Range: source.R(i, end), Text: strings.TrimRight(string(c[i+1:end]), " \t\r")})
		i = end
	}
	return out
}

// jsonComments finds // and /* */ comments outside strings.
func jsonComments(c []byte) []bplang.Comment {
	var out []bplang.Comment
	for i := 0; i < len(c); i++ {
		switch {
		case c[i] == '"':
			for i++; i < len(c) && c[i] != '"' && c[i] != '\n'; i++ {
				if c[i] == '\\' {
					i++
				}
			}
		case c[i] == '/' && i+1 < len(c) && c[i+1] == '/':
			end := i
			for end < len(c) && c[end] != '\n' {
				end++
			}
			out = append(out, bplang.Comment{Range: source.R(i, end), Text: " " + strings.TrimSpace(string(c[i+2:end]))})
			i = end
		case c[i] == '/' && i+1 < len(c) && c[i+1] == '*':
			end := bytes.Index(c[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			text := strings.Join(strings.Fields(string(c[i+2:i+2+end])), " ")
			out = append(out, bplang.Comment{Range: source.R(i, i+4+end), Text: " " + text})
			i += 3 + end
		}
	}
	return out
}

// yamlWriter writes a tree as block YAML, two spaces per level, with the
// comments of the source placed before the item they preceded or after
// the item they followed on its line.
type yamlWriter struct {
	src      []byte
	comments []bplang.Comment
	buf      bytes.Buffer
	lastSrc  int
	err      error
}

func (w *yamlWriter) document(root syntax.Node) ([]byte, error) {
	m, ok := root.(*syntax.Mapping)
	if !ok {
		return nil, fmt.Errorf("the top level is not a mapping")
	}
	w.mapping(m, 0)
	w.flush(-1, 0)
	return w.buf.Bytes(), w.err
}

// flush writes the comments before off (all when off < 0). One on the
// source line where the last item ended trails that item's line (the
// buffer then ends with its line break, which moves after it).
func (w *yamlWriter) flush(off, depth int) {
	for len(w.comments) > 0 && (off < 0 || w.comments[0].Range.Start < off) {
		c := w.comments[0]
		w.comments = w.comments[1:]
		b := w.buf.Bytes()
		if len(b) > 0 && b[len(b)-1] == '\n' && c.Range.Start >= w.lastSrc && !bytes.Contains(w.src[w.lastSrc:c.Range.Start], []byte("\n")) {
			w.buf.Truncate(len(b) - 1)
			w.buf.WriteString(" #" + c.Text + "\n")
			continue
		}
		w.buf.WriteString(strings.Repeat("  ", depth) + "#" + c.Text + "\n")
	}
}

func (w *yamlWriter) mapping(m *syntax.Mapping, depth int) {
	ind := strings.Repeat("  ", depth)
	for i, e := range m.Entries {
		w.flush(min(e.Key.Rng.Start, e.Value.Range().Start), depth)
		if i > 0 || w.buf.Len() == 0 || bytes.HasSuffix(w.buf.Bytes(), []byte("\n")) {
			w.buf.WriteString(ind)
		}
		w.buf.WriteString(w.key(e.Key.Value) + ":")
		w.value(e.Value, depth)
	}
}

func (w *yamlWriter) value(v syntax.Node, depth int) {
	switch v := v.(type) {
	case *syntax.Mapping:
		if len(v.Entries) == 0 {
			w.buf.WriteString(" {}\n")
			w.lastSrc = v.Rng.End
			return
		}
		w.buf.WriteString("\n")
		w.mapping(v, depth+1)
	case *syntax.Sequence:
		if len(v.Items) == 0 {
			w.buf.WriteString(" []\n")
			w.lastSrc = v.Rng.End
			return
		}
		w.buf.WriteString("\n")
		w.sequence(v, depth+1)
	case *syntax.Scalar:
		w.buf.WriteString(" ")
		w.scalar(v, depth)
		w.lastSrc = v.Rng.End
	default:
		w.buf.WriteString(" null\n")
	}
}

func (w *yamlWriter) sequence(s *syntax.Sequence, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, it := range s.Items {
		w.flush(it.Range().Start, depth)
		switch it := it.(type) {
		case *syntax.Mapping:
			if len(it.Entries) == 0 {
				w.buf.WriteString(ind + "- {}\n")
				continue
			}
			w.buf.WriteString(ind + "- ")
			w.mapping(it, depth+1)
		case *syntax.Sequence:
			w.buf.WriteString(ind + "-")
			w.value(it, depth)
		default:
			w.buf.WriteString(ind + "-")
			w.value(it, depth)
		}
	}
}

func (w *yamlWriter) scalar(s *syntax.Scalar, depth int) {
	switch s.Tag {
	case syntax.NullTag:
		w.buf.WriteString("null\n")
		return
	case syntax.BoolTag:
		w.buf.WriteString(strings.ToLower(s.Value) + "\n")
		return
	case syntax.IntTag, syntax.FloatTag:
		t, err := jsonNumber(s)
		if err != nil && w.err == nil {
			w.err = err
		}
		w.buf.WriteString(t + "\n")
		return
	}
	v := s.Value
	if strings.Contains(v, "\n") && !strings.ContainsAny(v, "\r\t") && !strings.HasPrefix(v, " ") && !hasTrailingSpace(v) {
		chomp := "-"
		body := v
		if strings.HasSuffix(v, "\n") {
			chomp = ""
			body = strings.TrimSuffix(v, "\n")
			if strings.HasSuffix(body, "\n") {
				chomp = "+"
			}
		}
		ind := strings.Repeat("  ", depth+1)
		w.buf.WriteString("|" + chomp + "\n")
		for _, l := range strings.Split(body, "\n") {
			if l == "" {
				w.buf.WriteString("\n")
				continue
			}
			w.buf.WriteString(ind + l + "\n")
		}
		return
	}
	w.buf.WriteString(yamlString(v) + "\n")
}

func hasTrailingSpace(v string) bool {
	for _, l := range strings.Split(v, "\n") {
		if strings.HasSuffix(l, " ") {
			return true
		}
	}
	return false
}

func (w *yamlWriter) key(k string) string { return yamlString(k) }

// yamlString writes a string plain when YAML reads it back as the same
// string (the YAML parser decides), double-quoted otherwise.
func yamlString(v string) string {
	if v != "" && !strings.ContainsAny(v, "\n\t\r") && v == strings.TrimSpace(v) {
		f := syntax.ParseYAML([]byte("k: " + v + "\n"))
		if m, ok := f.Root.(*syntax.Mapping); ok && len(f.Diagnostics) == 0 && len(m.Entries) == 1 {
			if s, ok := m.Entries[0].Value.(*syntax.Scalar); ok && s.Tag == syntax.StringTag && s.Style == syntax.Plain && s.Value == v {
				return v
			}
		}
	}
	return jsonString(v) // a JSON string is a valid double-quoted YAML scalar
}
