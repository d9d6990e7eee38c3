package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Registry holds the providers' resource types, data source types, custom
// variable types, functions, links and transforms. It is safe for
// concurrent use: loading takes the write lock, look-ups the read lock,
// and a resource schema is parsed once, on first look-up.
type Registry struct {
	mu          sync.RWMutex
	resources   map[string]*resourceEntry
	dataSources map[string]*DataSourceType
	customTypes map[string]*CustomVariableType
	functions   map[string]*Function
	links       map[[2]string]*LinkDefinition
	transforms  map[string]*Transform

	// typeAliases maps another spelling of a resource type (a provider's
	// own name) to the type; overlays hold what provider files change
	// about a type; derived memoises the types built with them.
	typeAliases map[string]string
	overlays    map[string]*typeOverlay
	derived     map[string]*resourceEntry

	// builtin is the embedded catalog's resource types, consulted after
	// resources (which loaded files fill), so a user's schema replaces a
	// built-in one of the same name. Nil in a registry made by New.
	builtin *typeSet

	// files are the resource schemas LoadDir read from disk, in load
	// order, for CheckSchemaFiles.
	files []*resourceEntry
}

// resourceEntry indexes one resource schema file; the file is read again
// and parsed on first use so that an index of many schemas stays small.
type resourceEntry struct {
	name     string
	original string
	origin   string // file the schema came from, for messages
	// file is the path of a schema LoadDir read from disk: its schema is
	// checked against the meta-schema when parsed (problems below).
	file     string
	checked  sync.Once
	problems []source.Diagnostic // the meta-schema check's (see check)
	data     []byte              // the content, kept when there are problems
	read     func() ([]byte, error)
	readDoc  func() ([]byte, error) // the documentation record; nil for none
	overlay  *typeOverlay           // applied after parsing (derived entries)
	once     sync.Once
	rt       *ResourceType

	docsOnce sync.Once
	docsURL  string // cfnDocsURL(original), built on first ask
}

// docs returns the reference page of the entry's type, built once.
func (e *resourceEntry) docs() string {
	e.docsOnce.Do(func() { e.docsURL = cfnDocsURL(e.original) })
	return e.docsURL
}

func (e *resourceEntry) get() *ResourceType {
	e.once.Do(func() {
		data, err := e.read()
		var docData []byte
		if err == nil && e.readDoc != nil {
			docData, err = e.readDoc()
		}
		if err == nil {
			e.rt, err = parseDocumentedType(data, docData)
			e.check(data)
		}
		if err != nil {
			e.rt = brokenResourceType(e.name, e.original, fmt.Errorf("%s: %w", e.origin, err))
			return
		}
		if len(e.problems) > 0 {
			e.rt.Flawed = e.file
		}
		if e.overlay != nil {
			e.overlay.apply(e.rt)
		}
		e.rt.Name = e.name
	})
	return e.rt
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{
		resources:   map[string]*resourceEntry{},
		dataSources: map[string]*DataSourceType{},
		customTypes: map[string]*CustomVariableType{},
		functions:   map[string]*Function{},
		links:       map[[2]string]*LinkDefinition{},
		transforms:  map[string]*Transform{},
		typeAliases: map[string]string{},
		overlays:    map[string]*typeOverlay{},
		derived:     map[string]*resourceEntry{},
	}
}

// LoadDir indexes every *.json file under dir (recursively): CloudFormation
// resource schemas (recognised by a top-level typeName) and provider
// files (a top-level provider). Definitions loaded later replace earlier
// ones of the same name, so a directory can override built-ins. Files
// that are neither are skipped; broken files are reported in the
// returned error while the rest still load.
func (r *Registry) LoadDir(dir string) error {
	return r.LoadDirLimit(dir, 0)
}

// LoadDirLimit is LoadDir with a size budget per file (0: the safefs
// schema default). Only regular files are read (a device or FIFO named
// *.json is reported as a LoadError on that file, never opened for
// reading), symbolic links that lead out of dir are refused the same
// way, and the walk does not follow links to directories.
func (r *Registry) LoadDirLimit(dir string, limit int64) error {
	if limit <= 0 {
		limit = safefs.DefaultSchemaLimit
	}
	roots := safefs.NewRoots(dir)
	var errs []error
	walkErr := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		read := func() ([]byte, error) { return roots.ReadFile(p, limit) }
		data, err := read()
		if err != nil {
			errs = append(errs, &LoadError{Path: p, Offset: -1, Err: err})
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if err := r.loadFile(filepath.ToSlash(rel), p, read, data); err != nil {
			errs = append(errs, newLoadError(p, data, err))
		}
		return nil
	})
	if walkErr != nil {
		errs = append(errs, walkErr)
	}
	return errors.Join(errs...)
}

// LoadFS is LoadDir on a file system (the embedded built-ins use it).
func (r *Registry) LoadFS(fsys fs.FS, root string) error {
	var errs []error
	walkErr := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if err := r.loadFile(p, "", func() ([]byte, error) { return fs.ReadFile(fsys, p) }, data); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, err))
		}
		return nil
	})
	if walkErr != nil {
		errs = append(errs, walkErr)
	}
	return errors.Join(errs...)
}

// loadFile indexes the file p holding data; read reads it again later.
// file is its path on disk for LoadDir ("" for embedded files): a
// resource schema from disk is checked against the meta-schema when
// parsed, and a file whose top level is not an object is refused.
func (r *Registry) loadFile(p, file string, read func() ([]byte, error), data []byte) error {
	// A syntax error is reported now, on the file (json.Valid allocates
	// nothing); a resource type the file names is still indexed, so that
	// its uses say its schema is broken rather than that it is unknown.
	syntaxErr := checkJSON(data)
	key, value, ok := scanTopLevel(data, "typeName", "provider")
	if !ok || syntaxErr != nil && key != "typeName" {
		if syntaxErr == nil && file != "" {
			return notObject(data)
		}
		return syntaxErr
	}
	switch key {
	case "typeName":
		if value == "" {
			return fmt.Errorf("typeName is not a string")
		}
		e := &resourceEntry{
			name:     ResourceTypeName(value),
			original: value,
			origin:   p,
			file:     file,
			read:     read,
		}
		r.mu.Lock()
		r.resources[e.name] = e
		if file != "" {
			r.files = append(r.files, e)
		}
		clear(r.derived)
		r.mu.Unlock()
		return syntaxErr
	case "provider":
		prov, err := parseProvider(data)
		if err != nil {
			return err
		}
		r.add(prov)
	}
	return nil
}

// AddResourceSchema adds a CloudFormation resource schema document,
// parsed on first use.
func (r *Registry) AddResourceSchema(origin string, data []byte) error {
	_, value, ok := scanTopLevel(data, "typeName")
	if !ok || value == "" {
		return fmt.Errorf("%s: resource schema has no typeName", origin)
	}
	e := &resourceEntry{name: ResourceTypeName(value), original: value, origin: origin,
		read: func() ([]byte, error) { return data, nil }}
	r.mu.Lock()
	r.resources[e.name] = e
	clear(r.derived)
	r.mu.Unlock()
	return nil
}

// AddProvider adds a provider file in the format of docs/providers.md.
func (r *Registry) AddProvider(data []byte) error {
	prov, err := parseProvider(data)
	if err != nil {
		return err
	}
	r.add(prov)
	return nil
}

func (r *Registry) add(p *provider) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range p.dataSources {
		r.dataSources[d.Name] = d
	}
	for _, c := range p.customTypes {
		r.customTypes[c.Name] = c
	}
	for _, f := range p.functions {
		r.functions[f.Name] = f
	}
	for _, l := range p.links {
		r.links[[2]string{l.From, l.To}] = l
	}
	for _, t := range p.transforms {
		r.transforms[t.Name] = t
	}
	for a, t := range p.typeAliases {
		r.typeAliases[a] = t
	}
	for t, ov := range p.overlays {
		r.overlays[t] = ov
	}
	clear(r.derived)
}

// ResourceType returns the resource type with the blueprint name (such
// as aws/lambda/function), parsing its schema on first use. A schema that
// fails to parse yields a type with Err set.
func (r *Registry) ResourceType(name string) (*ResourceType, bool) {
	e := r.entry(name)
	if e == nil {
		return nil, false
	}
	return e.get(), true
}

// entry finds the entry for a resource type name: a loaded schema, else
// the catalog's; through a type alias, and with the provider files'
// overlay, as an entry of this registry's own.
func (r *Registry) entry(name string) *resourceEntry {
	r.mu.RLock()
	target, aliased := r.typeAliases[name]
	if !aliased {
		target = name
	}
	base, ok := r.resources[target]
	ov := r.overlays[target]
	d := r.derived[name]
	r.mu.RUnlock()
	if !ok {
		base = r.builtin.lookup(target)
	}
	if base == nil || !aliased && ov == nil || d != nil {
		if d != nil {
			return d
		}
		return base
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if d := r.derived[name]; d != nil {
		return d
	}
	// name may be a slice of a document's text: kept as it is, it
	// would keep that whole text alive as long as the registry.
	name = strings.Clone(name)
	d = &resourceEntry{name: name, original: base.original, origin: base.origin, file: base.file, read: base.read, readDoc: base.readDoc, overlay: ov}
	r.derived[name] = d
	return d
}

// TypeSummary is what completion shows of a resource type without
// opening its schema.
type TypeSummary struct {
	Name     string // aws/lambda/function
	Original string // AWS::Lambda::Function
	DocsURL  string // the AWS reference page of an AWS:: type
}

// ResourceTypeSummary describes the resource type from the index alone.
func (r *Registry) ResourceTypeSummary(name string) (TypeSummary, bool) {
	e := r.entry(name)
	if e == nil {
		return TypeSummary{}, false
	}
	return TypeSummary{Name: name, Original: e.original, DocsURL: e.docs()}, true
}

// ResourceTypeByOriginal returns the resource type with the
// CloudFormation name (AWS::Lambda::Function).
func (r *Registry) ResourceTypeByOriginal(original string) (*ResourceType, bool) {
	return r.ResourceType(ResourceTypeName(original))
}

// DataSourceType returns the data source type with the name.
func (r *Registry) DataSourceType(name string) (*DataSourceType, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.dataSources[name]
	return d, ok
}

// CustomVariableType returns the custom variable type with the name.
func (r *Registry) CustomVariableType(name string) (*CustomVariableType, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, ok := r.customTypes[name]
	return c, ok
}

// Function returns the provider function with the name.
func (r *Registry) Function(name string) (*Function, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f, ok := r.functions[name]
	return f, ok
}

// Functions returns every provider function sorted by name.
func (r *Registry) Functions() []*Function {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Function, 0, len(r.functions))
	for _, n := range sortedKeys(r.functions) {
		out = append(out, r.functions[n])
	}
	return out
}

// Link returns the link definition from one resource type to another.
func (r *Registry) Link(from, to string) (*LinkDefinition, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	l, ok := r.links[[2]string{from, to}]
	return l, ok
}

// LinksFrom returns the links whose From is the resource type, sorted by
// To.
func (r *Registry) LinksFrom(from string) []*LinkDefinition {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []*LinkDefinition
	for k, l := range r.links {
		if k[0] == from {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].To < out[j].To })
	return out
}

// Transform returns the transform with the name.
func (r *Registry) Transform(name string) (*Transform, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.transforms[name]
	return t, ok
}

// ResourceTypeNames returns every resource type name, sorted (completion
// lists them without parsing any schema). The slice is the caller's.
func (r *Registry) ResourceTypeNames() []string {
	r.mu.RLock()
	loaded := sortedKeys(r.resources)
	var aliases []string
	hidden := map[string]bool{}
	for a, t := range r.typeAliases {
		if _, ok := r.resources[t]; ok || r.builtin.lookup(t) != nil {
			aliases = append(aliases, a)
			hidden[t] = true
		}
	}
	r.mu.RUnlock()
	sort.Strings(aliases)
	loaded = mergeSorted(loaded, aliases)
	var all []string
	if r.builtin == nil {
		all = loaded
	} else {
		all = mergeSorted(r.builtin.names, loaded)
	}
	if len(hidden) == 0 {
		return all
	}
	// A type with an official alias is offered under that name only.
	return slices.DeleteFunc(all, func(n string) bool { return hidden[n] })
}

// mergeSorted merges two sorted lists into a new one without duplicates.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// DataSourceTypeNames returns every data source type name, sorted.
func (r *Registry) DataSourceTypeNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.dataSources)
}

// CustomVariableTypeNames returns every custom variable type name, sorted.
func (r *Registry) CustomVariableTypeNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.customTypes)
}

// FunctionNames returns every provider function name, sorted.
func (r *Registry) FunctionNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.functions)
}

// TransformNames returns every transform name, sorted.
func (r *Registry) TransformNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.transforms)
}

// Providers returns the provider names (first segments of every name),
// sorted.
func (r *Registry) Providers() []string {
	seen := map[string]bool{}
	if r.builtin != nil {
		for _, p := range r.builtin.providers {
			seen[p] = true
		}
	}
	r.mu.RLock()
	for _, m := range []map[string]bool{keySet(r.resources), keySet(r.dataSources), keySet(r.customTypes)} {
		for n := range m {
			p, _, _ := strings.Cut(n, "/")
			seen[p] = true
		}
	}
	r.mu.RUnlock()
	return sortedKeys(seen)
}

func keySet[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// Suggest returns the candidates close to name, best first: an exact
// match ignoring case first, then by edit distance within the same
// provider. Use it for did-you-mean on any kind of name.
func Suggest(name string, candidates []string) []string {
	for _, c := range candidates {
		if c != name && strings.EqualFold(c, name) {
			return []string{c}
		}
	}
	out := closest(name, candidates)
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// closest compares the last segments of type names too, so that
// aws/lambda/functon finds aws/lambda/function and aws/sqs/queu finds
// aws/sqs/queue even when the full name is long.
func closest(name string, candidates []string) []string {
	best := source.Closest(name, candidates)
	if len(best) > 0 || !strings.Contains(name, "/") {
		return best
	}
	dir, base := path.Split(name)
	var bases []string
	for _, c := range candidates {
		if cd, cb := path.Split(c); cd == dir {
			bases = append(bases, cb)
		}
	}
	var out []string
	for _, b := range source.Closest(base, bases) {
		out = append(out, dir+b)
	}
	return out
}
