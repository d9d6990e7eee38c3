package registry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// Mark is a set of CloudFormation property semantics for one property
// path.
type Mark uint8

const (
	ReadOnly              Mark = 1 << iota // state only: setting it in spec is an error
	WriteOnly                              // spec only: not readable from state
	CreateOnly                             // changing it replaces the resource
	Deprecated                             // accepted with a warning
	Identifier                             // part of the primary identifier
	ConditionalCreateOnly                  // may force replacement, depending on the provider
	// ComputedWhenOmitted: the user may set it; left out, the provider
	// computes it at deploy time, so a reference to it is known after
	// deploy rather than missing.
	ComputedWhenOmitted
	// ActivatesLink: a reference to another resource placed in the field
	// links the two (when a link type joins their types), as a
	// linkSelector would.
	ActivatesLink
)

// Has reports whether all of o's bits are set in m.
func (m Mark) Has(o Mark) bool { return m&o == o }

// ResourceType is a resource type as the analysis, LSP and plan engine
// see it. Paths are property names in blueprint form, "*" standing for
// the items of an array: []string{"blockDeviceMappings", "*", "noDevice"}.
type ResourceType struct {
	Name        string // blueprint form: aws/lambda/function
	Original    string // CloudFormation form: AWS::Lambda::Function
	Provider    string // first segment of Name: aws
	Description string
	DocsURL     string
	SourceURL   string

	// Schema describes every property, spec and state alike.
	Schema *Schema

	ReadOnlyPaths              [][]string
	WriteOnlyPaths             [][]string
	CreateOnlyPaths            [][]string
	ConditionalCreateOnlyPaths [][]string
	DeprecatedPaths            [][]string
	PrimaryIdentifier          [][]string
	// ComputedWhenOmittedPaths and ActivatingPaths are the fields marked
	// ComputedWhenOmitted and ActivatesLink (by a provider file's
	// overlay or a plugin's schema).
	ComputedWhenOmittedPaths [][]string
	ActivatingPaths          [][]string
	ReplacementStrategy      string // create_then_delete (default) or delete_then_create

	// Err is set when the schema could not be loaded; Schema is then an
	// open object so that one broken file yields one diagnostic.
	Err error
	// Flawed names the schema file when the meta-schema check reported
	// problems in it (package resschema): the type is still loaded where
	// it could be, and the diagnostics its spec check gives say which
	// file to fix.
	Flawed string

	// TypeCut is set when the spec or state type passed maxTypeNodes
	// and was cut there (fields below the cut are typed any).
	TypeCut bool

	marks     map[string]Mark
	specType  types.Type
	stateType types.Type

	// attrDocs holds attributes' own text by mark key, where it differs
	// from the spec property's (typedocs.go).
	attrDocs map[string]string

	// markTails holds the text after the last "/" of every key of marks:
	// a path whose own tail is not there has no marks, which spares
	// building its key (most paths carry none).
	markTails map[string]bool

	// fieldTypes memoises SpecFieldType (see fieldTypeCache).
	fieldTypesOnce sync.Once
	fieldTypes     *fieldTypeCache
}

// Marks returns the semantics recorded for path (items segments in any of
// the forms Lookup accepts).
func (rt *ResourceType) Marks(path []string) Mark {
	if len(path) > 0 && rt.markTails != nil {
		tail := path[len(path)-1]
		if isItemSegment(tail) {
			tail = "*"
		} else if i := strings.LastIndexByte(tail, '/'); i >= 0 {
			tail = tail[i+1:]
		}
		if !rt.markTails[tail] {
			return 0
		}
	}
	if len(rt.marks) == 0 {
		return 0
	}
	var buf [128]byte
	return rt.marks[string(appendMarkKey(buf[:0], path))] // looked up without a string made
}

// indexMarks fills markTails from marks.
func (rt *ResourceType) indexMarks() {
	rt.markTails = make(map[string]bool, len(rt.marks))
	for k := range rt.marks {
		rt.markTails[k[strings.LastIndexByte(k, '/')+1:]] = true
	}
}

// fieldTypeCache maps an encoded spec path to the type SpecFieldType
// found for it. The schemas behind a ResourceType never change once it is
// built, so neither do the answers.
type fieldTypeCache struct {
	mu sync.RWMutex
	m  map[string]fieldType
}

type fieldType struct {
	t  types.Type
	ok bool
}

// SpecFieldType returns the type of the spec field at path, as
// LookupSpec(path) followed by Schema.Type() gives it, remembering the
// answer: analysis asks it for every substitution in every spec, and the
// conversion walks the field's whole schema.
func (rt *ResourceType) SpecFieldType(path []string) (types.Type, bool) {
	rt.fieldTypesOnce.Do(func() { rt.fieldTypes = &fieldTypeCache{m: map[string]fieldType{}} })
	c := rt.fieldTypes
	// Each segment is length-prefixed, so distinct paths never share a key
	// whatever their names hold.
	var buf [128]byte
	key := buf[:0]
	for _, seg := range path {
		key = strconv.AppendInt(key, int64(len(seg)), 10)
		key = append(key, ':')
		key = append(key, seg...)
	}
	c.mu.RLock()
	ft, hit := c.m[string(key)]
	c.mu.RUnlock()
	if hit {
		return ft.t, ft.ok
	}
	if f, ok := rt.LookupSpec(path); ok && f.Schema != nil {
		ft = fieldType{t: f.Schema.Type(), ok: true}
	}
	c.mu.Lock()
	c.m[string(key)] = ft
	c.mu.Unlock()
	return ft.t, ft.ok
}

func markKey(path []string) string { return string(appendMarkKey(nil, path)) }

// appendMarkKey appends the key of path in marks to b: its segments
// joined by '/', items as "*".
func appendMarkKey(b []byte, path []string) []byte {
	for i, seg := range path {
		if i > 0 {
			b = append(b, '/')
		}
		if isItemSegment(seg) {
			seg = "*"
		}
		b = append(b, seg...)
	}
	return b
}

// SpecType is the type of the resource's spec: every property except the
// read-only ones. `resources.x.spec.y` resolves against it.
func (rt *ResourceType) SpecType() types.Type { return rt.specType }

// StateType is the type of the resource's state: every property except
// the write-only ones. `resources.x.state.y` resolves against it.
func (rt *ResourceType) StateType() types.Type { return rt.stateType }

// Field is what hover and completion need about one property.
type Field struct {
	Path     []string // normalised: items as "*"
	Name     string   // last named segment in blueprint form ("" for items)
	Original string   // CloudFormation name
	Schema   *Schema
	Marks    Mark
	Required bool // required by its parent object
}

// LookupSpec finds the field at path in the spec; read-only fields are
// not part of the spec.
func (rt *ResourceType) LookupSpec(path []string) (Field, bool) {
	f, ok := rt.lookup(path)
	if !ok || f.Marks.Has(ReadOnly) {
		return Field{}, false
	}
	return f, true
}

// LookupState finds the field at path in the state; write-only fields are
// not part of the state.
func (rt *ResourceType) LookupState(path []string) (Field, bool) {
	f, ok := rt.lookup(path)
	if !ok || f.Marks.Has(WriteOnly) {
		return Field{}, false
	}
	return f, true
}

// Lookup finds the field at path regardless of read/write semantics.
func (rt *ResourceType) Lookup(path []string) (Field, bool) { return rt.lookup(path) }

func (rt *ResourceType) lookup(path []string) (Field, bool) {
	if len(path) == 0 {
		return Field{Schema: rt.Schema}, true
	}
	parent, _, ok := rt.Schema.Lookup(path[:len(path)-1])
	if !ok {
		return Field{}, false
	}
	s, p, ok := parent.Lookup(path[len(path)-1:])
	if !ok {
		return Field{}, false
	}
	norm := strings.Split(markKey(path), "/")
	f := Field{Path: norm, Schema: s, Marks: rt.markedUnder(norm)}
	if p != nil {
		f.Name, f.Original = p.Name, p.Original
		for _, r := range parent.Required {
			if r == p.Name {
				f.Required = true
			}
		}
	}
	return f, true
}

// ActivatesLinkAt reports whether a reference placed at the spec path
// (items segments in any form) activates a link: the path or one of its
// ancestors is marked ActivatesLink.
func (rt *ResourceType) ActivatesLinkAt(path []string) bool {
	for i := len(path); i > 0 && len(rt.ActivatingPaths) > 0; i-- {
		if rt.Marks(path[:i]).Has(ActivatesLink) {
			return true
		}
	}
	return false
}

// markedUnder returns the marks of path and those inherited from its
// ancestors (a field inside a write-only object is write-only).
func (rt *ResourceType) markedUnder(path []string) Mark {
	var m Mark
	for i := 1; i <= len(path); i++ {
		pm := rt.marks[strings.Join(path[:i], "/")]
		if i < len(path) {
			pm &= ReadOnly | WriteOnly | Deprecated
		}
		m |= pm
	}
	return m
}

// newResourceType builds a ResourceType from a parsed CloudFormation
// schema document.
func newResourceType(doc *rawResource, docs *typeDocs) *ResourceType {
	c := newCompiler(doc)
	root := c.compile(&doc.rawSchema)
	if docs != nil {
		docs.apply(c, root, doc)
	}
	root = c.link(root)
	if len(root.Types) == 0 {
		root.Types = []string{"object"}
	}
	rt := &ResourceType{
		Name:                ResourceTypeName(doc.TypeName),
		Original:            doc.TypeName,
		Description:         doc.Description,
		DocsURL:             doc.DocumentationURL,
		SourceURL:           doc.SourceURL,
		Schema:              root,
		ReplacementStrategy: doc.ReplacementStrategy,
		marks:               map[string]Mark{},
	}
	rt.Provider, _, _ = strings.Cut(rt.Name, "/")
	if rt.DocsURL == "" {
		rt.DocsURL = cfnDocsURL(doc.TypeName)
	}
	add := func(ptrs []string, m Mark) [][]string {
		var out [][]string
		for _, ptr := range ptrs {
			path := pointerPath(root, ptr)
			if len(path) == 0 {
				continue
			}
			out = append(out, path)
			rt.marks[strings.Join(path, "/")] |= m
		}
		return out
	}
	rt.ReadOnlyPaths = add(doc.ReadOnlyProperties, ReadOnly)
	rt.WriteOnlyPaths = add(doc.WriteOnlyProperties, WriteOnly)
	rt.CreateOnlyPaths = add(doc.CreateOnlyProperties, CreateOnly)
	rt.ConditionalCreateOnlyPaths = add(doc.ConditionalCreate, ConditionalCreateOnly)
	rt.DeprecatedPaths = add(doc.DeprecatedProperties, Deprecated)
	rt.PrimaryIdentifier = add(doc.PrimaryIdentifier, Identifier)
	if rt.Provider == "aws" {
		rt.autoNamed(root)
	}
	if docs != nil {
		docs.applyAttributes(rt)
	}
	rt.finish()
	return rt
}

// autoNamed marks ComputedWhenOmitted the fields the official AWS
// provider treats so: the top-level primary identifier fields a spec may
// leave out and may set (bucketName, functionName), which AWS names when
// they are left out.
func (rt *ResourceType) autoNamed(root *Schema) {
	for _, path := range rt.PrimaryIdentifier {
		k := markKey(path)
		if len(path) != 1 || rt.marks[k].Has(ReadOnly) || slices.Contains(root.Required, path[0]) {
			continue
		}
		rt.marks[k] |= ComputedWhenOmitted
		rt.ComputedWhenOmittedPaths = append(rt.ComputedWhenOmittedPaths, path)
	}
}

// finish derives what depends on the schema and marks: the mark index
// and the spec and state types.
func (rt *ResourceType) finish() {
	rt.indexMarks()
	var readOnly, writeOnly []string
	for k, m := range rt.marks {
		if m.Has(ReadOnly) {
			readOnly = append(readOnly, k)
		}
		if m.Has(WriteOnly) {
			writeOnly = append(writeOnly, k)
		}
	}
	spec := newTypeConv(func(p []string) bool { return rt.marks[strings.Join(p, "/")].Has(ReadOnly) }, readOnly)
	state := newTypeConv(func(p []string) bool { return rt.marks[strings.Join(p, "/")].Has(WriteOnly) }, writeOnly)
	rt.specType, _ = spec.typeOf(rt.Schema, nil)
	rt.stateType, _ = state.typeOf(rt.Schema, nil)
	rt.TypeCut = spec.cut || state.cut
}

// brokenResourceType stands in for a schema that failed to load.
func brokenResourceType(name, original string, err error) *ResourceType {
	root := &Schema{Types: []string{"object"}, InsertionOrder: true}
	rt := &ResourceType{Name: name, Original: original, Schema: root, Err: err, marks: map[string]Mark{}}
	rt.indexMarks()
	rt.Provider, _, _ = strings.Cut(name, "/")
	rt.specType = types.NewObject(true)
	rt.stateType = types.NewObject(true)
	return rt
}

// pointerPath converts a CloudFormation property pointer
// (/properties/Code/S3Bucket, /properties/Rules/*/Prefix) to a blueprint
// path (code/s3Bucket, rules/*/prefix), following the schema so that names
// that fold specially keep the spelling they were stored under.
func pointerPath(root *Schema, ptr string) []string {
	ptr = strings.TrimPrefix(ptr, "#")
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if len(segs) < 2 || segs[0] != "properties" {
		return nil
	}
	segs = segs[1:]
	out := make([]string, 0, len(segs))
	cur := root
	for _, seg := range segs {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if seg == "*" {
			out = append(out, "*")
			if cur != nil {
				cur = cur.Items
			}
			continue
		}
		name := LowerCamel(seg)
		var next *Schema
		if cur != nil {
			if cur.Items != nil && cur.Properties == nil {
				// Some pointers skip the "*" of an array of objects.
				out = append(out, "*")
				cur = cur.Items
			}
			if p := findOriginal(cur, seg); p != nil {
				name, next = p.Name, p.Schema
			}
		}
		out = append(out, name)
		cur = next
	}
	return out
}

func findOriginal(s *Schema, orig string) *Property {
	if p, ok := s.Properties[LowerCamel(orig)]; ok && p.Original == orig {
		return p
	}
	for _, p := range s.Properties {
		if p.Original == orig {
			return p
		}
	}
	if p, ok := s.branchProperty(LowerCamel(orig)); ok {
		return p
	}
	return nil
}

// parseDocumentedType parses a schema document and lays the
// documentation record (typedocs.go; nil for none) over it.
func parseDocumentedType(data, docData []byte) (*ResourceType, error) {
	docs, err := parseTypeDocs(docData)
	if err != nil {
		return nil, err
	}
	var doc rawResource
	if err := decodeLenient(data, &doc); err != nil {
		return nil, fmt.Errorf("parse resource schema: %w", err)
	}
	if doc.TypeName == "" {
		return nil, fmt.Errorf("resource schema has no typeName")
	}
	return newResourceType(&doc, docs), nil
}

// cfnDocsURL is the AWS CloudFormation reference page of an AWS:: type
// (the schemas rarely carry documentationUrl): AWS::Lambda::Function is
// aws-resource-lambda-function.html. Other types have none.
func cfnDocsURL(typeName string) string {
	parts := strings.Split(typeName, "::")
	if len(parts) != 3 || parts[0] != "AWS" {
		return ""
	}
	return "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-" +
		strings.ToLower(parts[1]) + "-" + strings.ToLower(parts[2]) + ".html"
}
