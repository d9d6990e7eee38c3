package assembly

import (
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// SchemaVersion is the only manifest schema this package reads and writes.
const SchemaVersion = "cloud-assembly/1.0"

// ManifestName and SignatureName are the reserved entries of an assembly.
const (
	ManifestName  = "manifest.json"
	SignatureName = "signature.asc"
)

// Problem is one diagnostic in one document of an assembly.
type Problem struct {
	// File is the archive entry the problem is in (ManifestName,
	// SignatureName, ...), or "" for a problem of the container itself.
	File string `json:"file,omitempty"`
	// Path is the JSON path of the offending value in File ("$.droplets.A.type"),
	// or "" when the problem is not in a JSON document.
	Path string `json:"path,omitempty"`
	source.Diagnostic
}

// Manifest is a checked manifest: what consumers need of it, each part
// pointing back at its source.
type Manifest struct {
	Mapper   *source.Mapper
	Schema   string
	Droplets []*Droplet // in document order; a duplicated ID keeps its last definition
	Missing  []*Missing

	byID map[string]*Droplet
}

// Droplet is one droplet of a manifest.
type Droplet struct {
	ID          string
	Type        string
	Environment string
	DependsOn   []string // as written, valid or not
	Refs        []Reference
	Metadata    []Metadata
	// Properties is the source text of the properties object (nil when
	// absent).
	Properties []byte
	KeyRange   source.Range
	dependsAt  []source.Range
}

// Reference is a ${LogicalId.attributeName} token in a droplet's properties.
type Reference struct {
	ID, Attribute string
	Path          string       // JSON path of the property string
	Range         source.Range // the token in the manifest
}

// Metadata is one named metadata entry of a droplet.
type Metadata struct {
	Name, Kind string
	Value      []byte // source text
}

// Missing is one entry of the missing section.
type Missing struct {
	Key, Provider string
	Props         []byte // source text
}

// Droplet returns the droplet with the given Logical ID, or nil.
func (m *Manifest) Droplet(id string) *Droplet { return m.byID[id] }

type checker struct {
	file     string
	content  []byte
	problems []Problem
}

func (c *checker) add(path string, d source.Diagnostic) {
	c.problems = append(c.problems, Problem{File: c.file, Path: path, Diagnostic: d})
}

var (
	codeSchemaVersion = source.NewCode("assembly-schema-version", source.Error,
		`The manifest's "schema" is not "cloud-assembly/1.0".`,
		`{"schema": "cloud-assembly/2.0", "droplets": {}}`)
	codeIDEmpty = source.NewCode("assembly-logical-id-empty", source.Error,
		"A Logical ID is the empty string.",
		`"droplets": {"": {...}}`)
	codeIDLength = source.NewCode("assembly-logical-id-length", source.Warning,
		"A Logical ID is longer than 256 characters.", "")
	codeIDChar = source.NewCode("assembly-logical-id-char", source.Error,
		"A Logical ID contains a character outside A-Z, a-z, 0-9, +, -, / and _.",
		`"droplets": {"my stack": {...}}`)
	codeIDDot = source.NewCode("assembly-logical-id-dot", source.Error,
		`A Logical ID contains ".", which separates the ID from the attribute in references.`,
		`"droplets": {"web.api": {...}}`)
	codeDependsUnknown = source.NewCode("assembly-depends-unknown", source.Error,
		"A dependsOn entry names no droplet of the assembly.",
		`"dependsOn": ["Nope"]`)
	codeDependsDuplicate = source.NewCode("assembly-depends-duplicate", source.Warning,
		"A dependsOn entry repeats an earlier one.",
		`"dependsOn": ["A", "A"]`)
	codeMetadataWarning = source.NewCode("assembly-metadata-warning", source.Warning,
		`A droplet carries a "warning" metadata entry from its assembler.`, "")
	codeMetadataError = source.NewCode("assembly-metadata-error", source.Error,
		`A droplet carries an "error" metadata entry from its assembler.`, "")
	codeMetadataValue = source.NewCode("assembly-metadata-value", source.Warning,
		`The value of a "warning" or "error" metadata entry is not a single string.`,
		`{"kind": "warning", "value": 42}`)
	codeMissingContext = source.NewCode("assembly-missing-context", source.Warning,
		"The assembler reported context information it could not obtain.",
		`"missing": {"vpc-id": {"provider": "vpc-provider", "props": {}}}`)
)

// CheckManifest parses and checks a manifest document: its schema,
// Logical IDs, type and environment specifiers, dependsOn entries,
// metadata, the references and escapes in properties, and dependency
// cycles. The Manifest is nil only when the content is not a JSON object.
func CheckManifest(content []byte) (*Manifest, []Problem) {
	c := &checker{file: ManifestName, content: content}
	f := syntax.ParseJSON(content, false)
	for _, d := range f.Diagnostics {
		c.add("", d)
	}
	m := &Manifest{Mapper: f.Mapper, byID: map[string]*Droplet{}}
	if f.Root == nil {
		return nil, c.done()
	}
	if _, ok := f.Root.(*schema.Mapping); !ok {
		c.add("$", codeFieldType.New(f.Root.Range(), "the manifest must be a JSON object, not %s", describe(f.Root)))
		return nil, c.done()
	}
	top := c.object(f.Root, source.Range{}, "$", manifestFields)
	if e := top["schema"]; e != nil {
		m.Schema = str(e)
		if m.Schema != SchemaVersion {
			c.add("$.schema", codeSchemaVersion.New(e.Value.Range(), "schema %q is not supported: it must be %q", m.Schema, SchemaVersion))
		}
	}
	if e := top["droplets"]; e != nil {
		c.droplets(m, e.Value.(*schema.Mapping))
	}
	if e := top["missing"]; e != nil {
		c.missing(m, e.Value.(*schema.Mapping))
	}
	c.references(m)
	c.cycles(m)
	return m, c.done()
}

func (c *checker) done() []Problem {
	sort.SliceStable(c.problems, func(i, j int) bool {
		a, b := c.problems[i], c.problems[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Range.Start != b.Range.Start {
			return a.Range.Start < b.Range.Start
		}
		return a.Code < b.Code
	})
	return c.problems
}

func (c *checker) text(n schema.Node) []byte {
	r := n.Range()
	return c.content[r.Start:r.End]
}

func (c *checker) droplets(m *Manifest, dm *schema.Mapping) {
	all, order := c.entries(dm, "$.droplets")
	for _, id := range order {
		e := all[id]
		path := child("$.droplets", id)
		c.logicalID(id, e.Key, path)
		d := &Droplet{ID: id, KeyRange: e.Key.Rng}
		m.Droplets = append(m.Droplets, d)
		m.byID[id] = d
		fs := c.object(e.Value, e.Key.Rng, path, dropletFields)
		if fs == nil {
			continue
		}
		if f := fs["type"]; f != nil {
			d.Type = str(f)
			c.typeSpecifier(f.Value.(*schema.Scalar), child(path, "type"))
		}
		if f := fs["environment"]; f != nil {
			d.Environment = str(f)
			c.environment(f.Value.(*schema.Scalar), child(path, "environment"))
		}
		if f := fs["dependsOn"]; f != nil {
			seen := map[string]bool{}
			for i, it := range f.Value.(*schema.Sequence).Items {
				ip := index(child(path, "dependsOn"), i)
				s, ok := it.(*schema.Scalar)
				if !ok || !s.IsString() {
					c.add(ip, codeFieldType.New(rangeOf(it, f.Key.Rng), "dependsOn entries must be Logical ID strings, not %s", describe(it)))
					continue
				}
				if seen[s.Value] {
					c.add(ip, codeDependsDuplicate.New(s.Rng, "%q is already listed in dependsOn", s.Value))
					continue
				}
				seen[s.Value] = true
				d.DependsOn = append(d.DependsOn, s.Value)
				d.dependsAt = append(d.dependsAt, s.Rng)
			}
		}
		if f := fs["metadata"]; f != nil {
			c.metadata(d, f.Value.(*schema.Mapping), child(path, "metadata"))
		}
		if f := fs["properties"]; f != nil {
			d.Properties = c.text(f.Value)
			c.properties(d, f.Value, child(path, "properties"))
		}
	}
}

// logicalID reports every rule id breaks, once each.
func (c *checker) logicalID(id string, key *schema.Scalar, path string) {
	if id == "" {
		c.add(path, codeIDEmpty.New(key.Rng, "a Logical ID must not be empty"))
		return
	}
	if n := len([]rune(id)); n > MaxLogicalIDLen {
		c.add(path, codeIDLength.New(key.Rng, "Logical ID is %d characters long; it should not exceed %d", n, MaxLogicalIDLen))
	}
	if i := strings.IndexByte(id, '.'); i >= 0 {
		c.add(path, codeIDDot.New(key.OffsetMap().Range(i, i+1), "Logical ID %q contains \".\", which separates the Logical ID from the attribute name in references", id))
	}
	for i, r := range id {
		if r != '.' && (r >= 0x80 || !idByte(byte(r))) {
			c.add(path, codeIDChar.New(key.OffsetMap().Range(i, i+len(string(r))), "Logical ID %q contains %q: only A-Z, a-z, 0-9, +, -, / and _ are allowed", id, r))
			return
		}
	}
}

func (c *checker) metadata(d *Droplet, mm *schema.Mapping, path string) {
	all, order := c.entries(mm, path)
	for _, name := range order {
		e := all[name]
		p := child(path, name)
		fs := c.object(e.Value, e.Key.Rng, p, metadataFields)
		if fs == nil || fs["kind"] == nil || fs["value"] == nil {
			continue
		}
		md := Metadata{Name: name, Kind: str(fs["kind"]), Value: c.text(fs["value"].Value)}
		d.Metadata = append(d.Metadata, md)
		if md.Kind != "warning" && md.Kind != "error" {
			continue
		}
		v := fs["value"].Value
		s, ok := v.(*schema.Scalar)
		if !ok || !s.IsString() {
			c.add(child(p, "value"), codeMetadataValue.New(v.Range(), "the value of %s metadata should be a single string, not %s", md.Kind, describe(v)))
			continue
		}
		code := codeMetadataWarning
		if md.Kind == "error" {
			code = codeMetadataError
		}
		c.add(child(p, "value"), code.New(v.Range(), "droplet %q: %s", d.ID, s.Value))
	}
}

func (c *checker) missing(m *Manifest, mm *schema.Mapping) {
	all, order := c.entries(mm, "$.missing")
	for _, key := range order {
		e := all[key]
		p := child("$.missing", key)
		fs := c.object(e.Value, e.Key.Rng, p, missingFields)
		if fs == nil {
			continue
		}
		ms := &Missing{Key: key}
		if f := fs["provider"]; f != nil {
			ms.Provider = str(f)
		}
		if f := fs["props"]; f != nil {
			ms.Props = c.text(f.Value)
		}
		m.Missing = append(m.Missing, ms)
		if ms.Provider != "" {
			c.add(p, codeMissingContext.New(e.Key.Rng, "context %q is missing: %s must provide it", key, ms.Provider))
		} else {
			c.add(p, codeMissingContext.New(e.Key.Rng, "context %q is missing", key))
		}
	}
}
