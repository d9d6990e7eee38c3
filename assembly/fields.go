package assembly

import (
	"strconv"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// kind is the JSON type a field must have.
type kind int

const (
	kAny kind = iota
	kString
	kObject
	kArray
)

func (k kind) String() string {
	switch k {
	case kString:
		return "a string"
	case kObject:
		return "an object"
	case kArray:
		return "an array"
	}
	return "a value"
}

// field is one row of a schema table: the spec's Key, Type and Required
// columns.
type field struct {
	name     string
	kind     kind
	required bool
}

// The schema tables of the spec, one per JSON object it defines.
var (
	manifestFields = []field{
		{"schema", kString, true},
		{"droplets", kObject, true},
		{"missing", kObject, false},
	}
	dropletFields = []field{
		{"type", kString, true},
		{"environment", kString, true},
		{"dependsOn", kArray, false},
		{"metadata", kObject, false},
		{"properties", kObject, false},
	}
	metadataFields = []field{
		{"kind", kString, true},
		{"value", kAny, true},
	}
	missingFields = []field{
		{"provider", kString, true},
		{"props", kObject, true},
	}
	// The attestation table has no Required column; every field is
	// needed to check anything, so all are required.
	attestationFields = []field{
		{"timestamp", kString, true},
		{"algorithm", kString, true},
		{"nonce", kString, true},
		{"items", kObject, true},
	}
	fileDataFields = []field{
		{"size", kString, true},
		{"hash", kString, true},
	}
)

var (
	codeMissingField = source.NewCode("assembly-missing-field", source.Error,
		"A required field of a Cloud Assembly document (manifest, droplet, metadata, missing entry, attestation) is absent.",
		`{"schema": "cloud-assembly/1.0"}`)
	codeFieldType = source.NewCode("assembly-field-type", source.Error,
		"A field of a Cloud Assembly document has the wrong JSON type.",
		`{"schema": "cloud-assembly/1.0", "droplets": []}`)
	codeUnknownField = source.NewCode("assembly-unknown-field", source.Warning,
		"A field the Cloud Assembly specification does not define; consumers ignore it.",
		`"droplets": {"A": {"type": "npm://p/C", "environment": "aws://123456789012/eu-west-1", "depends": []}}`)
	codeDuplicateKey = source.NewCode("assembly-duplicate-key", source.Warning,
		"A key appears twice in one object; the last value is used.",
		`"droplets": {"A": {...}, "A": {...}}`)
)

func kindOf(n schema.Node) kind {
	switch n := n.(type) {
	case *schema.Mapping:
		return kObject
	case *schema.Sequence:
		return kArray
	case *schema.Scalar:
		if n.IsString() {
			return kString
		}
	}
	return kAny
}

func describe(n schema.Node) string {
	switch n := n.(type) {
	case *schema.Mapping:
		return "an object"
	case *schema.Sequence:
		return "an array"
	case *schema.Scalar:
		switch n.Tag {
		case schema.StringTag:
			return "a string"
		case schema.IntTag, schema.FloatTag:
			return "a number"
		case schema.BoolTag:
			return "a boolean"
		case schema.NullTag:
			return "null"
		}
	}
	return "nothing"
}

// child extends a JSON path with an object key, in dot form when the key
// is an identifier and bracket form otherwise.
func child(path, key string) string {
	ident := key != ""
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// entries returns the last entry of each key of m (the spec prefers the
// latest value), reporting the earlier duplicates.
func (c *checker) entries(m *schema.Mapping, path string) (map[string]*schema.Entry, []string) {
	last := map[string]*schema.Entry{}
	var order []string
	for _, e := range m.Entries {
		if e == nil || e.Key == nil {
			continue
		}
		k := e.Key.Value
		if prev, ok := last[k]; ok {
			d := codeDuplicateKey.New(prev.Key.Rng, "duplicate key %q: the later value is used", k)
			d.Related = []source.Related{{Range: e.Key.Rng, Message: "the value used"}}
			c.add(child(path, k), d)
		} else {
			order = append(order, k)
		}
		last[k] = e
	}
	return last, order
}

// object checks n against a schema table and returns the fields present
// with the right type.
func (c *checker) object(n schema.Node, at source.Range, path string, fields []field) map[string]*schema.Entry {
	m, ok := n.(*schema.Mapping)
	if !ok {
		c.add(path, codeFieldType.New(rangeOf(n, at), "%s must be an object, not %s", pathName(path), describe(n)))
		return nil
	}
	all, order := c.entries(m, path)
	out := map[string]*schema.Entry{}
	known := map[string]bool{}
	for _, f := range fields {
		known[f.name] = true
		e, ok := all[f.name]
		if !ok {
			if f.required {
				c.add(path, codeMissingField.New(keyRange(m, at), "%s is missing the required field %q", pathName(path), f.name))
			}
			continue
		}
		if e.Value == nil {
			continue // a syntax error, reported by the parser
		}
		if f.kind != kAny && kindOf(e.Value) != f.kind {
			c.add(child(path, f.name), codeFieldType.New(rangeOf(e.Value, e.Key.Rng), "%q must be %s, not %s", f.name, f.kind, describe(e.Value)))
			continue
		}
		out[f.name] = e
	}
	for _, k := range order {
		if !known[k] {
			e := all[k]
			d := codeUnknownField.New(e.Key.Rng, "unknown field %q in %s", k, pathName(path))
			if s := source.Closest(k, fieldNames(fields)); len(s) > 0 {
				d.Message += "; did you mean " + strconv.Quote(s[0]) + "?"
			}
			c.add(child(path, k), d)
		}
	}
	return out
}

func fieldNames(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// pathName names a JSON path in a message.
func pathName(path string) string {
	if path == "$" {
		return "the document"
	}
	return path
}

// rangeOf is n's range, or at when n is absent.
func rangeOf(n schema.Node, at source.Range) source.Range {
	if n == nil {
		return at
	}
	return n.Range()
}

// keyRange is where a problem with a whole object is reported: the key
// naming it (at), or its opening brace when it has none.
func keyRange(m *schema.Mapping, at source.Range) source.Range {
	if at.End > at.Start {
		return at
	}
	return source.R(m.Rng.Start, m.Rng.Start+1)
}

func str(e *schema.Entry) string {
	if s, ok := e.Value.(*schema.Scalar); ok {
		return s.Value
	}
	return ""
}
