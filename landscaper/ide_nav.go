package landscaper

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// The editor features of a Landscaper document, over its syntax tree and
// text (the language server converts them to the protocol).

// Hovered is a hover: markdown about the range it covers.
type Hovered struct {
	Markdown string
	Range    source.Range
}

// Target is where a definition is: a range of the document itself, or
// a file of the blueprint's folder (Path set, Range empty).
type Target struct {
	Path  string
	Range source.Range
}

// importRef is a reference to an import inside a template, and where
// its name is in the document.
type importRef struct {
	name string
	rng  source.Range
}

// goImportRef and spiffImportRef find the import names a template's
// text refers to (group 2 is the name).
var (
	goImportRef    = regexp.MustCompile(`(\$?\.)(?:imports)\.([A-Za-z0-9_-]+)`)
	spiffImportRef = spiffImport
)

// templateScalars calls f on each inline template of blueprint m with its
// execution type.
func templateScalars(m *syntax.Mapping, f func(kind string, sc *syntax.Scalar)) {
	for _, list := range executionLists {
		for _, em := range items(m, list) {
			kind, _ := str(em, "type")
			switch t := em.Get("template").(type) {
			case *syntax.Scalar:
				if t.IsString() {
					f(kind, t)
				}
			case *syntax.Mapping, *syntax.Sequence:
				if kind == "Spiff" {
					spiffScalars(t, func(sc *syntax.Scalar) { f(kind, sc) })
				}
			}
		}
	}
}

// templateImportRefs are the references to imports in the inline templates.
func templateImportRefs(m *syntax.Mapping) []importRef {
	var out []importRef
	templateScalars(m, func(kind string, sc *syntax.Scalar) {
		re := goImportRef
		if kind == "Spiff" {
			re = spiffImportRef
		}
		for _, g := range re.FindAllStringSubmatchIndex(sc.Value, -1) {
			out = append(out, importRef{name: sc.Value[g[4]:g[5]], rng: sc.OffsetMap().Range(g[4], g[5])})
		}
	})
	return out
}

// refAt is the import reference of a template at off, and the
// declaration it names (nil when undeclared).
func refAt(m *syntax.Mapping, decls map[string]*syntax.Mapping, off int) (importRef, *syntax.Mapping, bool) {
	for _, r := range templateImportRefs(m) {
		if within(r.rng, off) {
			return r, decls[r.name], true
		}
	}
	return importRef{}, nil, false
}

// importDecls are the import declarations of blueprint m, nested ones
// included, by name (the first of a name).
func importDecls(m *syntax.Mapping) map[string]*syntax.Mapping {
	out := map[string]*syntax.Mapping{}
	var walk func([]*syntax.Mapping)
	walk = func(list []*syntax.Mapping) {
		for _, im := range list {
			if name, _ := str(im, "name"); name != "" && out[name] == nil {
				out[name] = im
			}
			walk(items(im, "imports"))
		}
	}
	walk(items(m, "imports"))
	return out
}

func blueprintRoot(f *syntax.File) *syntax.Mapping {
	if f == nil {
		return nil
	}
	root, _ := f.Tree()
	m, _ := root.(*syntax.Mapping)
	return m
}

// Hover describes what is at off: a field (its schema description), an
// import used in a template or declared (its declaration).
func Hover(f *syntax.File, off int) *Hovered {
	m := blueprintRoot(f)
	if m == nil {
		return nil
	}
	if h := fieldHover(m, off); h != nil {
		return h
	}
	decls := importDecls(m)
	if r, d, ok := refAt(m, decls, off); ok {
		if d == nil {
			return nil
		}
		return &Hovered{Markdown: describeImport(f, d), Range: r.rng}
	}
	for _, d := range decls {
		if _, s := str(d, "name"); s != nil && within(s.Range(), off) {
			return &Hovered{Markdown: describeImport(f, d), Range: s.Range()}
		}
	}
	s := shape().blueprint
	if k, _ := str(m, "kind"); k == "InstallationTemplate" {
		s = shape().template
	}
	key, field := fieldAt(m, s, off)
	if key == nil || field == nil || field.Description == "" {
		return nil
	}
	return &Hovered{Markdown: fmt.Sprintf("**%s** (%s)\n\n%s", key.Value, typeList(field.types), field.Description), Range: key.Range()}
}

// goFieldChain is .imports.X followed by fields, in a GoTemplate.
var goFieldChain = regexp.MustCompile(`\.imports\.([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_-]+)+)`)

// fieldHover describes a field of a data import a GoTemplate reads
// (.imports.X.a.b), from the property its schema declares.
func fieldHover(m *syntax.Mapping, off int) *Hovered {
	var out *Hovered
	templateScalars(m, func(kind string, sc *syntax.Scalar) {
		if kind != "GoTemplate" || out != nil || !within(sc.Range(), off) {
			return
		}
		for _, g := range goFieldChain.FindAllStringSubmatchIndex(sc.Value, -1) {
			fields := strings.Split(sc.Value[g[4]+1:g[5]], ".")
			at := g[4] + 1
			for i, field := range fields {
				r := sc.OffsetMap().Range(at, at+len(field))
				at += len(field) + 1
				if !within(r, off) {
					continue
				}
				p := importSchemaAt(m, sc.Value[g[2]:g[3]], fields[:i+1])
				if p == nil {
					return
				}
				t, _ := str(p, "type")
				desc, _ := str(p, "description")
				out = &Hovered{Markdown: strings.TrimSpace(fmt.Sprintf("**%s** (%s) of import %s\n\n%s", field, t, sc.Value[g[2]:g[3]], desc)), Range: r}
				return
			}
		}
	})
	return out
}

// fieldAt finds the key at off and its schema, walking n against s.
func fieldAt(n syntax.Node, s *node, off int) (*syntax.Scalar, *node) {
	if s == nil {
		return nil, nil
	}
	switch n := n.(type) {
	case *syntax.Mapping:
		for _, e := range n.Entries {
			if e.Key == nil {
				continue
			}
			p := s.Properties[e.Key.Value]
			if p == nil {
				p = s.AdditionalProperties
			}
			if within(e.Key.Range(), off) {
				return e.Key, p
			}
			if e.Value != nil && within(e.Value.Range(), off) {
				return fieldAt(e.Value, p, off)
			}
		}
	case *syntax.Sequence:
		for _, it := range n.Items {
			if within(it.Range(), off) {
				return fieldAt(it, s.Items, off)
			}
		}
	}
	return nil, nil
}

// describeImport is the markdown of an import declaration: its name,
// type and the declaration's own text.
func describeImport(f *syntax.File, d *syntax.Mapping) string {
	name, _ := str(d, "name")
	t, _ := declType(d)
	required := "required"
	if _, r := str(d, "required"); r != nil && r.Value == "false" {
		required = "optional"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**import %s** (%s, %s)\n\n```yaml\n", name, t, required)
	b.WriteString(strings.TrimRight(dedent(string(f.Content()[lineStart(f.Content(), d.Range().Start):d.Range().End])), "\n"))
	b.WriteString("\n```")
	return b.String()
}

// Definition finds what off refers to: the declaration of an import a
// template uses, the local type a $ref names, or the file an execution,
// a subinstallation or a blueprint:// reference names.
func Definition(f *syntax.File, off int, dir string) []Target {
	m := blueprintRoot(f)
	if m == nil {
		return nil
	}
	if _, d, ok := refAt(m, importDecls(m), off); ok {
		if _, s := str(d, "name"); s != nil {
			return []Target{{Range: s.Range()}}
		}
		return nil
	}
	var out []Target
	c := &checker{opts: Options{Dir: dir}}
	visitScalars(m, func(key string, sc *syntax.Scalar) bool {
		if !within(sc.Range(), off) || !sc.IsString() {
			return true
		}
		switch {
		case key == "file" && dir != "" && !escapes(sc.Value):
			out = append(out, Target{Path: c.pathOf(sc.Value)})
		case key == "$ref" && strings.HasPrefix(sc.Value, "local://"):
			lt, _ := m.Get("localTypes").(*syntax.Mapping)
			if e := lt.Entry(strings.TrimPrefix(sc.Value, "local://")); e != nil && e.Key != nil {
				out = append(out, Target{Range: e.Key.Range()})
			}
		case key == "$ref" && strings.HasPrefix(sc.Value, "blueprint://") && dir != "":
			if name := strings.TrimPrefix(sc.Value, "blueprint://"); !escapes(name) {
				out = append(out, Target{Path: c.pathOf(name)})
			}
		}
		return false
	})
	return out
}

// visitScalars calls f on every scalar value below n with the key that
// holds it, until f returns false.
func visitScalars(n syntax.Node, f func(key string, sc *syntax.Scalar) bool) bool {
	switch n := n.(type) {
	case *syntax.Mapping:
		for _, e := range n.Entries {
			if e.Key == nil {
				continue
			}
			if sc, ok := e.Value.(*syntax.Scalar); ok {
				if !f(e.Key.Value, sc) {
					return false
				}
			} else if !visitScalars(e.Value, f) {
				return false
			}
		}
	case *syntax.Sequence:
		for _, it := range n.Items {
			if !visitScalars(it, f) {
				return false
			}
		}
	}
	return true
}

// within reports whether off is in r, its end included (a cursor just
// after a name is on it).
func within(r source.Range, off int) bool { return off >= r.Start && off <= r.End }

func lineStart(text []byte, off int) int {
	for off > 0 && text[off-1] != '\n' {
		off--
	}
	return off
}

// dedent removes the indentation of the first line from every line, and
// a leading "- " of a list item.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	ind := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	first := strings.TrimLeft(lines[0], " ")
	if strings.HasPrefix(first, "- ") {
		lines[0] = strings.Repeat(" ", ind) + "  " + first[2:]
		ind += 2
	}
	for i, l := range lines {
		if len(l) >= ind && strings.TrimSpace(l[:ind]) == "" {
			lines[i] = l[ind:]
		}
	}
	return strings.Join(lines, "\n")
}
