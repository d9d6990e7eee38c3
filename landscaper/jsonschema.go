package landscaper

import (
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var (
	codeSchemaInvalid = source.NewCode("landscaper-schema-invalid", source.Error,
		"A JSON schema of a Landscaper import, export or local type is not valid JSON Schema for the blueprint's jsonSchemaVersion (draft-07 when none is given).",
		"imports:\n- name: replicas\n  schema: {type: integr}")
	codeSchemaRef = source.NewCode("landscaper-schema-ref", source.Error,
		"A $ref in a Landscaper JSON schema names a local type that is not declared under localTypes, or uses a scheme Landscaper does not resolve (it resolves local://, blueprint:// and cd://).",
		"localTypes:\n  mytype: {type: string}\nimports:\n- name: a\n  schema: {$ref: 'local://mytpe'}")
	codeSchemaVersion = source.NewCode("landscaper-schema-version", source.Warning,
		"A Landscaper blueprint's jsonSchemaVersion names no JSON Schema draft this checker knows (draft-04, -06, -07, 2019-09, 2020-12); its schemas are checked as draft-07.",
		"jsonSchemaVersion: https://json-schema.org/draft-99/schema")
	codeDefaultInvalid = source.NewCode("landscaper-default-invalid", source.Error,
		"A Landscaper import's default value does not match the import's schema.",
		"imports:\n- name: replicas\n  required: false\n  schema: {type: integer}\n  default: {value: three}")
)

// printer words the validator's messages.
var printer = message.NewPrinter(language.English)

// drafts are the JSON Schema versions a jsonSchemaVersion may name, by
// the part of its URL that tells them apart.
var drafts = []struct {
	mark  string
	draft *jsonschema.Draft
}{
	{"draft-04", jsonschema.Draft4}, {"draft-06", jsonschema.Draft6}, {"draft-07", jsonschema.Draft7},
	{"2019-09", jsonschema.Draft2019}, {"2020-12", jsonschema.Draft2020},
}

// schemas compiles and checks a blueprint's JSON schemas: those of its
// imports (nested ones included), exports and localTypes.
type schemas struct {
	c        *checker
	compiler *jsonschema.Compiler
	local    map[string]syntax.Node // localTypes by name
	roots    map[string]syntax.Node // a compiled resource's URL → its node in the blueprint
	seen     map[string]bool        // diagnostics given (by range and message)
	// Imports and Exports are the compiled schemas by name (an import or
	// export whose schema does not compile has none).
	Imports, Exports map[string]*jsonschema.Schema
}

// jsonSchemas checks every JSON schema of blueprint m and validates the
// imports' defaults against theirs.
func (c *checker) jsonSchemas(m *syntax.Mapping) *schemas {
	s := &schemas{c: c, compiler: jsonschema.NewCompiler(), local: map[string]syntax.Node{}, roots: map[string]syntax.Node{},
		seen: map[string]bool{}, Imports: map[string]*jsonschema.Schema{}, Exports: map[string]*jsonschema.Schema{}}
	s.compiler.DefaultDraft(s.draft(m))
	s.compiler.UseLoader(loader{s})
	lt, _ := m.Get("localTypes").(*syntax.Mapping)
	if lt != nil {
		for _, e := range lt.Entries {
			if e.Key != nil && s.local[e.Key.Value] == nil {
				s.local[e.Key.Value] = e.Value
				s.roots["local://"+e.Key.Value] = e.Value
			}
		}
		for _, e := range lt.Entries {
			if e.Key != nil && s.local[e.Key.Value] == e.Value {
				s.refs(e.Value)
				s.compile("local://"+e.Key.Value, e.Value, e.Key.Range())
			}
		}
	}
	var imports func([]*syntax.Mapping)
	imports = func(list []*syntax.Mapping) {
		for _, im := range list {
			if sch := s.declared(im, "imports"); sch != nil {
				if name, _ := str(im, "name"); name != "" {
					s.Imports[name] = sch
				}
				s.defaultValue(im, sch)
			}
			imports(items(im, "imports"))
		}
	}
	imports(items(m, "imports"))
	for _, ex := range items(m, "exports") {
		if sch := s.declared(ex, "exports"); sch != nil {
			if name, _ := str(ex, "name"); name != "" {
				s.Exports[name] = sch
			}
		}
	}
	return s
}

// draft is the JSON Schema version the blueprint declares.
func (s *schemas) draft(m *syntax.Mapping) *jsonschema.Draft {
	v, vs := str(m, "jsonSchemaVersion") // not the older jsonSchema: Landscaper drops it
	if vs == nil {
		return jsonschema.Draft7
	}
	for _, d := range drafts {
		if strings.Contains(v, d.mark) {
			return d.draft
		}
	}
	s.c.report(codeSchemaVersion.New(vs.Range(), "unknown JSON Schema version %q: schemas are checked as draft-07", v))
	return jsonschema.Draft7
}

// declared checks and compiles the schema of one import or export.
func (s *schemas) declared(m *syntax.Mapping, list string) *jsonschema.Schema {
	e := m.Entry("schema")
	if e == nil || e.Key == nil || e.Value == nil {
		return nil
	}
	if sc, ok := e.Value.(*syntax.Scalar); ok && sc.Tag == syntax.NullTag {
		return nil
	}
	s.refs(e.Value)
	url := fmt.Sprintf("mem:///%s/%d", list, e.Key.Range().Start)
	s.roots[url] = e.Value
	return s.compile(url, e.Value, e.Key.Range())
}

// compile compiles the schema at node n under url; a problem that has no
// node of its own is reported at `at`.
func (s *schemas) compile(url string, n syntax.Node, at source.Range) *jsonschema.Schema {
	if err := s.compiler.AddResource(url, schemaValue(Value(n))); err != nil {
		s.add(codeSchemaInvalid.New(at, "%v", err))
		return nil
	}
	sch, err := s.compiler.Compile(url)
	if err == nil {
		return sch
	}
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	var le *jsonschema.LoadURLError
	switch {
	case errors.As(err, &sve) && errors.As(sve.Err, &ve):
		root := s.roots[strings.TrimSuffix(sve.URL, "#")]
		if root == nil {
			s.add(codeSchemaInvalid.New(at, "the schema %s is not valid JSON Schema: %s", sve.URL, firstLine(ve.Error())))
			break
		}
		for _, l := range leaves(ve) {
			node, _ := syntax.Locate(root, l.InstanceLocation)
			s.add(codeSchemaInvalid.New(node.Range(), "not valid JSON Schema: %s", l.ErrorKind.LocalizedString(printer)))
		}
	case errors.As(err, &le):
		// an unresolvable $ref: reported where it is written (refs)
	default:
		s.add(codeSchemaInvalid.New(at, "the schema does not compile: %s", firstLine(err.Error())))
	}
	return nil
}

// defaultValue validates an import's default value against its schema.
func (s *schemas) defaultValue(m *syntax.Mapping, sch *jsonschema.Schema) {
	def, _ := m.Get("default").(*syntax.Mapping)
	e := def.Entry("value")
	if e == nil || e.Value == nil {
		return
	}
	var ve *jsonschema.ValidationError
	if err := sch.Validate(Value(e.Value)); errors.As(err, &ve) {
		for _, l := range leaves(ve) {
			node, _ := syntax.Locate(e.Value, l.InstanceLocation)
			s.add(codeDefaultInvalid.New(node.Range(), "default of import %s: %s%s", quoted(m), l.ErrorKind.LocalizedString(printer), pointer(l.InstanceLocation)))
		}
	}
}

// add reports d once.
func (s *schemas) add(d source.Diagnostic) {
	k := fmt.Sprintf("%d:%d:%s", d.Range.Start, d.Range.End, d.Message)
	if !s.seen[k] {
		s.seen[k] = true
		s.c.report(d)
	}
}

// refs checks every $ref below n: a local type that exists, a blueprint
// file inside the folder, a component-descriptor reference left
// unresolved (said once), a pointer into the same schema.
func (s *schemas) refs(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.Sequence:
		for _, it := range n.Items {
			s.refs(it)
		}
	case *syntax.Mapping:
		for _, e := range n.Entries {
			if e.Key == nil {
				continue
			}
			if sc, ok := e.Value.(*syntax.Scalar); ok && e.Key.Value == "$ref" && sc.IsString() {
				s.ref(sc)
				continue
			}
			s.refs(e.Value)
		}
	}
}

func (s *schemas) ref(sc *syntax.Scalar) {
	ref, _, _ := strings.Cut(sc.Value, "#")
	switch {
	case ref == "":
		// a pointer into the same schema: the compiler checks it
	case strings.HasPrefix(ref, "local://"):
		name := strings.TrimPrefix(ref, "local://")
		if s.local[name] != nil {
			return
		}
		msg := fmt.Sprintf("local type %q is not declared under localTypes", name)
		var names []string
		for k := range s.local {
			names = append(names, k)
		}
		sortStrings(names)
		if near := source.Closest(name, names); len(near) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", near[0])
		}
		s.add(codeSchemaRef.New(sc.Range(), "%s", msg))
	case strings.HasPrefix(ref, "blueprint://"):
		s.c.file(strings.TrimPrefix(ref, "blueprint://"), sc)
	case strings.HasPrefix(ref, "cd://"):
		if !s.c.unresolved {
			s.c.unresolved = true
			s.c.report(codeRefUnresolved.New(sc.Range(), "%q is not resolved: component descriptors are not fetched, so the schema it names is not checked (any value passes it)", sc.Value))
		}
	default:
		s.add(codeSchemaRef.New(sc.Range(), "%q is not resolved: Landscaper resolves local://, blueprint:// and cd:// references only, and nothing is fetched", sc.Value))
	}
}

// loader serves the schema URLs Landscaper knows without the network:
// local types and files of the blueprint's folder.
type loader struct{ s *schemas }

var errNotResolved = errors.New("not resolved")

func (l loader) Load(url string) (any, error) {
	switch {
	case strings.HasPrefix(url, "local://"):
		if n := l.s.local[strings.TrimSuffix(strings.TrimPrefix(url, "local://"), "/")]; n != nil {
			return schemaValue(Value(n)), nil
		}
	case strings.HasPrefix(url, "blueprint://"):
		if v, ok := l.s.file(strings.TrimPrefix(url, "blueprint://")); ok {
			return schemaValue(v), nil
		}
	}
	return nil, &jsonschema.LoadURLError{URL: url, Err: errNotResolved}
}

// file reads a schema file of the blueprint's folder (JSON or YAML).
func (s *schemas) file(name string) (any, bool) {
	if s.c.roots == nil || escapes(name) {
		return nil, false
	}
	p := s.c.pathOf(name)
	data, err := s.c.roots.ReadFile(p, s.c.opts.Limit)
	if err != nil {
		return nil, false
	}
	f := syntax.Parse(p, data)
	if f.Root == nil || f.HasSyntaxErrors() {
		return nil, false
	}
	return Value(f.Root), true
}

// schemaValue drops the component-descriptor references from a schema
// (they are not resolved: what they name accepts any value), in place.
func schemaValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok && strings.HasPrefix(r, "cd://") {
			delete(v, "$ref")
		}
		for _, x := range v {
			schemaValue(x)
		}
	case []any:
		for _, x := range v {
			schemaValue(x)
		}
	}
	return v
}

// leaves flattens a validator error into its innermost causes. Of the
// alternatives of an anyOf or oneOf only one is kept: the deepest, and
// of those one that is not a plain type mismatch (the branch the value
// has the type of says more).
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		best := out[0]
		for _, l := range out[1:] {
			_, lt := l.ErrorKind.(*kind.Type)
			_, bt := best.ErrorKind.(*kind.Type)
			if len(l.InstanceLocation) > len(best.InstanceLocation) || len(l.InstanceLocation) == len(best.InstanceLocation) && bt && !lt {
				best = l
			}
		}
		out = []*jsonschema.ValidationError{best}
	}
	return out
}

// pointer spells an instance location for messages ("" at the root).
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	return " (at /" + strings.Join(tokens, "/") + ")"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
