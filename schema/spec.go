package schema

import (
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The spec versions a blueprint may declare.
const (
	Version20230420 = "2023-04-20"
	Version20251102 = "2025-11-02"
)

// Versions lists the supported spec versions, oldest first.
var Versions = []string{Version20230420, Version20251102}

// Blueprint is the typed view of one document: every definition the spec
// describes, each pointing back into the node tree so diagnostics and
// editor features can reach the exact text. A field the document does not
// set (or sets with the wrong shape) is nil; the view never invents values.
type Blueprint struct {
	File *File
	Root *Mapping // nil when the document is not a mapping

	// SpecVersion is the declared version when it is supported, else "".
	SpecVersion string

	Version     *Field
	Transform   *Field    // a string or a list of strings
	Transforms  []*Scalar // the transform names, in order
	Variables   Section[Variable]
	Values      Section[Value]
	DataSources Section[DataSource]
	Resources   Section[Resource]
	Include     Section[Include]
	Exports     Section[Export]
	Metadata    *Field // mapping[string, any]

	// resources is what Load made of each entry of the resources
	// section, by index, for LoadFrom (reuse.go).
	resources chunked.Vec[*loaded]
	// resourceKeysPlain is set when no key of the resources section
	// repeats another, holds a substitution or is missing.
	resourceKeysPlain bool
	// noisy lists, in order, the indexes of the records in resources
	// that hold diagnostics (bulk.go).
	noisy []int
	// holders lists, in order, the indexes in Resources.Items() of the
	// resources that name other resources (bulk.go).
	holders []int
	// takenOver and movedOver count the resources LoadFrom took over
	// from the previous version, as they were and moved (for tests).
	takenOver, movedOver int
	inBulk               bool // the resources section was taken over in bulk
	bulkFrom, bulkTo     int  // the resources loaded anew when inBulk
}

// Field is one field of a definition as written: its entry (the key and the
// value node). A nil *Field is an absent field; every method is nil-safe.
type Field struct {
	Entry *Entry
}

// field returns the Field of e (nil when e is), carved from the
// loader's slab: a document loads several per definition (issue 36: at
// 5,000 resources, 32,000 allocations of 8 bytes per load).
func (l *loader) field(e *Entry) *Field {
	if e == nil {
		return nil
	}
	f := l.fieldSlab.One()
	f.Entry = e
	return f
}

// Key returns the field's key scalar.
func (f *Field) Key() *Scalar {
	if f == nil || f.Entry == nil {
		return nil
	}
	return f.Entry.Key
}

// Node returns the field's value node.
func (f *Field) Node() Node {
	if f == nil || f.Entry == nil {
		return nil
	}
	return f.Entry.Value
}

// Scalar returns the value when it is a scalar.
func (f *Field) Scalar() *Scalar {
	s, _ := f.Node().(*Scalar)
	return s
}

// Mapping returns the value when it is a mapping.
func (f *Field) Mapping() *Mapping {
	m, _ := f.Node().(*Mapping)
	return m
}

// Sequence returns the value when it is a sequence.
func (f *Field) Sequence() *Sequence {
	s, _ := f.Node().(*Sequence)
	return s
}

// Text returns the decoded text of a scalar value, or "".
func (f *Field) Text() string {
	if s := f.Scalar(); s != nil {
		return s.Value
	}
	return ""
}

// Bool reports whether the value is the boolean true (or the string "true").
func (f *Field) Bool() bool {
	s := f.Scalar()
	return s != nil && strings.EqualFold(s.Value, "true") && (s.Tag == BoolTag || s.Tag == StringTag)
}

// KeyRange returns the range of the field's key.
func (f *Field) KeyRange() source.Range {
	if k := f.Key(); k != nil {
		return k.Rng
	}
	return source.Range{}
}

// ValueRange returns the range of the field's value (the key's range when
// the value is missing).
func (f *Field) ValueRange() source.Range {
	if n := f.Node(); n != nil {
		return n.Range()
	}
	return f.KeyRange()
}

// Range covers the key and the value.
func (f *Field) Range() source.Range {
	return f.KeyRange().Union(f.ValueRange())
}

// Section is an ordered mapping of named definitions, in source order. A
// duplicated name keeps its first definition (the duplicate is reported).
type Section[T any] struct {
	Field *Field // the section's own entry; nil when absent
	// items holds the definitions, or, when LoadFrom took the section
	// over from the previous version in bulk (inVec), vec does: the
	// previous version's chunks but the edited definitions', so that an
	// edit copies no list of every definition. Items joins vec once.
	items  []*T
	vec    chunked.Vec[*T]
	inVec  bool
	joined *joinedItems[T]
	names  []string
	index  map[string]int
	// follow is the previous version's section while the names added
	// so far are its names in order: the two then share names and
	// index, which are never changed once loaded (follow, done).
	follow *Section[T]
	// pos is where add puts the next definition while in vec.
	pos int
	// hint is how many entries the section's mapping has (sized): the
	// index and names add makes are made that large at once.
	hint int
}

// sized tells s how many definitions its mapping holds, before they are
// added.
func (s *Section[T]) sized(n int) { s.hint = n }

// joinedItems is a section's vec joined into a slice, once.
type joinedItems[T any] struct {
	once  sync.Once
	items []*T
}

// Items returns the definitions in source order.
func (s *Section[T]) Items() []*T {
	if !s.inVec {
		return s.items
	}
	s.joined.once.Do(func() {
		s.joined.items = make([]*T, s.vec.Len())
		for i := range s.joined.items {
			s.joined.items[i] = s.vec.At(i)
		}
	})
	return s.joined.items
}

// At returns definition i (in source order).
func (s *Section[T]) At(i int) *T {
	if s.inVec {
		return s.vec.At(i)
	}
	return s.items[i]
}

// Get returns the definition called name, or nil.
func (s *Section[T]) Get(name string) *T {
	if i, ok := s.index[name]; ok {
		return s.At(i)
	}
	return nil
}

// Len returns the number of definitions.
func (s *Section[T]) Len() int {
	if s.inVec {
		return s.vec.Len()
	}
	return len(s.items)
}

// Names returns the definition names in source order.
func (s *Section[T]) Names() []string { return s.names }

// added returns how many definitions were added so far.
func (s *Section[T]) added() int {
	if s.inVec {
		return s.pos
	}
	return len(s.items)
}

// put adds v after the definitions added so far.
func (s *Section[T]) put(v *T) {
	if s.inVec {
		s.vec.Set(s.pos, v)
		s.pos++
		return
	}
	if s.items == nil && s.follow != nil {
		s.items = make([]*T, 0, s.follow.Len()) // as many as before, likely
	}
	s.items = append(s.items, v)
}

func (s *Section[T]) add(name string, v *T) bool {
	if p := s.follow; p != nil {
		if k := s.added(); k < len(p.names) && p.names[k] == name {
			s.put(v)
			return true
		}
		s.unfollow()
	}
	if _, dup := s.index[name]; dup {
		return false
	}
	if s.index == nil {
		s.index = make(map[string]int, s.hint)
		if s.names == nil {
			s.names = make([]string, 0, s.hint)
		}
	}
	s.index[name] = s.added()
	s.put(v)
	s.names = append(s.names, name)
	return true
}

// takeOver makes s, still empty, hold prev's definitions in bulk, those
// [from, to) to be added again (add puts them in place); the others stay
// prev's. It follows prev's names, as followPrev.
func (s *Section[T]) takeOver(prev *Section[T], from, to int) {
	if prev.inVec {
		s.vec = prev.vec.Edit()
	} else {
		// The first version taken over: its list becomes chunks once.
		s.vec = chunked.Make[*T](len(prev.items))
		for i, v := range prev.items {
			s.vec.Set(i, v)
		}
		s.vec = s.vec.Edit()
	}
	s.items, s.inVec, s.joined, s.pos = nil, true, &joinedItems[T]{}, from
	s.followPrev(prev)
}

// skipTo ends taking over: the definitions from i on are prev's. When
// the ones added again were fewer than [from, i) (one made no
// definition), s holds a list instead, as loading entry by entry makes.
func (s *Section[T]) skipTo(prev *Section[T], to int) {
	if s.pos == to {
		s.pos = prev.Len()
		return
	}
	items := make([]*T, 0, prev.Len())
	for i := range s.pos {
		items = append(items, s.vec.At(i))
	}
	for i := to; i < prev.Len(); i++ {
		items = append(items, prev.At(i))
	}
	s.items, s.vec, s.inVec, s.joined = items, chunked.Vec[*T]{}, false, nil
}

// followPrev makes s, still empty, share prev's names and index for as
// long as the definitions added bear prev's names in order: a version
// that keeps every name (an edit inside a definition) builds no index
// of its own. done must be called once the section is loaded.
func (s *Section[T]) followPrev(prev *Section[T]) {
	if prev != nil && len(prev.names) > 0 && s.added() == 0 {
		s.follow = prev
	}
}

// unfollow builds the names and index of the definitions added so far,
// which were prev's first ones.
func (s *Section[T]) unfollow() {
	p := s.follow
	s.follow = nil
	k := s.added()
	if k == 0 {
		return
	}
	s.names = append(make([]string, 0, len(p.names)), p.names[:k]...)
	s.index = make(map[string]int, len(p.names))
	for i, n := range s.names {
		s.index[n] = i
	}
}

// done ends following: the section shares prev's names and index when
// it holds exactly prev's names.
func (s *Section[T]) done() {
	if p := s.follow; p != nil {
		if s.added() == len(p.names) {
			s.names, s.index, s.follow = p.names, p.index, nil
			return
		}
		s.unfollow()
	}
}

// Def is what every named definition shares: its name and its entry in the
// section mapping (Entry.Key is the name, Entry.Value the definition).
type Def struct {
	Name    string
	Entry   *Entry
	Mapping *Mapping // nil when the definition is not a mapping
}

// NameRange returns the range of the definition's name key.
func (d *Def) NameRange() source.Range {
	if d.Entry == nil || d.Entry.Key == nil {
		return source.Range{}
	}
	return d.Entry.Key.Rng
}

// Variable is a variableDefinition.
type Variable struct {
	Def
	Type          *Field // string | integer | float | boolean | {provider}/{type}
	Description   *Field
	Secret        *Field
	Default       *Field
	AllowedValues *Field // a sequence of scalars
}

// Value is a valueDefinition.
type Value struct {
	Def
	Type        *Field // string | integer | float | boolean | array | object
	Value       *Field
	Description *Field
	Secret      *Field
}

// DataSource is a datasourceDefinition.
type DataSource struct {
	Def
	Type        *Field
	Metadata    *DataSourceMetadata
	Filter      *Field    // a mapping, or (2025-11-02) a list of mappings
	Filters     []*Filter // the filters, in order
	Exports     Section[DataSourceExport]
	ExportAll   bool // exports: "*" (2025-11-02)
	Description *Field
}

// DataSourceMetadata is a dataSourceMetadataDefinition.
type DataSourceMetadata struct {
	Field       *Field
	DisplayName *Field
	Annotations *Field // mapping[string, scalar]
	Custom      *Field // mapping[string, any]
}

// Filter is a dataSourceFilterDefinition.
type Filter struct {
	Mapping  *Mapping
	Field    *Field
	Operator *Field
	Search   *Field // a scalar or a list of scalars
}

// DataSourceExport is a dataSourceExportDefinition.
type DataSourceExport struct {
	Def
	Type        *Field // array | string | integer | float | boolean
	AliasFor    *Field
	Description *Field
}

// Resource is a resourceDefinition.
type Resource struct {
	Def
	Type          *Field
	Description   *Field
	Metadata      *ResourceMetadata
	Condition     Condition // nil when absent or malformed at the top
	ConditionNode *Field
	Each          *Field
	LinkSelector  *LinkSelector
	Spec          *Field // a mapping
	DependsOn     *Field // 2025-11-02: a name or a list of names
	DependsOnRefs []*Scalar
	RemovalPolicy *Field // 2025-11-02: delete | retain
}

// ResourceMetadata is a resourceMetadataDefinition.
type ResourceMetadata struct {
	Field       *Field
	DisplayName *Field
	Labels      *Field // mapping[string, string]
	Annotations *Field // mapping[string, scalar]
	Custom      *Field // mapping[string, any]
}

// LinkSelector is a linkSelectorDefinitions.
type LinkSelector struct {
	Field   *Field
	ByLabel *Field // mapping[string, string]
	Exclude *Field // 2025-11-02: a list of resource names
}

// Condition is a resource condition: *ConditionExpr (a ${..} string) or
// *ConditionOp (and, or, not).
type Condition interface {
	Node() Node
	condition()
}

// ConditionExpr is a condition written as a string (normally one ${..}).
type ConditionExpr struct {
	Scalar *Scalar
}

// ConditionOp is a condition object. Op is "and", "or" or "not"; Operands
// holds the nested conditions (one for not). When the object sets more
// than one operator, the first one is kept (the rest are reported).
type ConditionOp struct {
	Mapping  *Mapping
	Op       string
	OpKey    *Scalar
	Operands []Condition
}

func (c *ConditionExpr) Node() Node { return c.Scalar }
func (c *ConditionOp) Node() Node   { return c.Mapping }
func (*ConditionExpr) condition()   {}
func (*ConditionOp) condition()     {}

// Include is an includeDefinition (a child blueprint).
type Include struct {
	Def
	Path        *Field
	Variables   *Field // mapping[string, scalar]
	Metadata    *Field // mapping[string, any]
	Description *Field
}

// Export is an exportDefinition.
type Export struct {
	Def
	Type        *Field // string | integer | float | boolean | array | object
	Field       *Field // a reference path without ${}
	Description *Field
}
