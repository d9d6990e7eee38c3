// Package catalog is the storage format of the built-in resource type
// catalog: many small JSON documents (one resource schema per type, and
// room for one documentation record per type) kept compressed in the
// binary so that reading one type decompresses only that type.
//
// A catalog is three byte strings:
//
//   - the index, UTF-8 text, one line per type sorted by name:
//     name TAB typeName TAB schemaOffset TAB schemaLength TAB docOffset
//     TAB docLength. name is the blueprint name (aws/lambda/function),
//     typeName the CloudFormation one (AWS::Lambda::Function); the
//     offsets and lengths locate raw DEFLATE streams in the data. A doc
//     length of 0 means the type has no documentation record. Lines
//     starting with # are comments; the first says the format version.
//   - the dictionary: a DEFLATE preset dictionary (at most 32 KiB) shared
//     by every stream, built from text the documents have in common, so
//     that compressing each document alone costs little more than
//     compressing them all together.
//   - the data: the streams, back to back.
//
// Opening a catalog parses the index only; a document is decompressed
// when asked for. The package depends on the standard library only so
// that both the registry (reading) and its generator (writing) share it.
package catalog

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// header is the first line of every index; a reader refuses other
// versions rather than misreading them.
const header = "# blueprint-ls catalog v1: name, typeName, schema offset, schema length, doc offset, doc length"

// Entry is one type of the catalog.
type Entry struct {
	Name     string // blueprint form: aws/lambda/function
	TypeName string // CloudFormation form: AWS::Lambda::Function

	schema, doc span
}

type span struct{ off, n int }

// HasDoc reports whether the type has a documentation record.
func (e *Entry) HasDoc() bool { return e.doc.n > 0 }

// Catalog is an opened catalog. It is immutable and safe for concurrent
// use.
type Catalog struct {
	entries []Entry // sorted by Name
	dict    []byte
	data    string
}

// Open parses the index and keeps the dictionary and data for later
// reads. Strings are not copied: the embedded data stays where the
// linker put it.
func Open(index, dict, data string) (*Catalog, error) {
	c := &Catalog{dict: []byte(dict), data: data}
	lineNo := 0
	for len(index) > 0 {
		var line string
		line, index, _ = strings.Cut(index, "\n")
		lineNo++
		if lineNo == 1 {
			if line != header {
				return nil, fmt.Errorf("catalog index: unknown format %q", line)
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		e, err := parseLine(line, len(data))
		if err != nil {
			return nil, fmt.Errorf("catalog index line %d: %w", lineNo, err)
		}
		if n := len(c.entries); n > 0 && c.entries[n-1].Name >= e.Name {
			return nil, fmt.Errorf("catalog index line %d: %s is out of order", lineNo, e.Name)
		}
		c.entries = append(c.entries, e)
	}
	if lineNo == 0 {
		return nil, fmt.Errorf("catalog index is empty")
	}
	return c, nil
}

func parseLine(line string, dataLen int) (Entry, error) {
	var f [6]string
	n := 0
	for rest, more := line, true; more; n++ {
		if n == len(f) {
			return Entry{}, fmt.Errorf("want 6 tab-separated fields, have more")
		}
		f[n], rest, more = strings.Cut(rest, "\t")
	}
	if n != len(f) || f[0] == "" || f[1] == "" {
		return Entry{}, fmt.Errorf("want 6 tab-separated fields, have %d", n)
	}
	var nums [4]int
	for i := range nums {
		n, err := strconv.Atoi(f[2+i])
		if err != nil || n < 0 {
			return Entry{}, fmt.Errorf("field %d: not an offset: %q", 3+i, f[2+i])
		}
		nums[i] = n
	}
	e := Entry{Name: f[0], TypeName: f[1], schema: span{nums[0], nums[1]}, doc: span{nums[2], nums[3]}}
	for _, s := range []span{e.schema, e.doc} {
		if s.off > dataLen || s.n > dataLen-s.off {
			return Entry{}, fmt.Errorf("%s: span %d+%d is past the data (%d bytes)", e.Name, s.off, s.n, dataLen)
		}
	}
	return e, nil
}

// Len is the number of types.
func (c *Catalog) Len() int { return len(c.entries) }

// Entry returns the i-th type in name order.
func (c *Catalog) Entry(i int) *Entry { return &c.entries[i] }

// Find returns the index of the type with the blueprint name.
func (c *Catalog) Find(name string) (int, bool) {
	i := sort.Search(len(c.entries), func(i int) bool { return c.entries[i].Name >= name })
	return i, i < len(c.entries) && c.entries[i].Name == name
}

// Schema decompresses the resource schema of the i-th type.
func (c *Catalog) Schema(i int) ([]byte, error) {
	return c.inflate(c.entries[i].schema)
}

// Doc decompresses the documentation record of the i-th type; nil when
// it has none.
func (c *Catalog) Doc(i int) ([]byte, error) {
	if !c.entries[i].HasDoc() {
		return nil, nil
	}
	return c.inflate(c.entries[i].doc)
}

func (c *Catalog) inflate(s span) ([]byte, error) {
	r := flate.NewReaderDict(strings.NewReader(c.data[s.off:s.off+s.n]), c.dict)
	defer r.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("catalog: decompress: %w", err)
	}
	return out, nil
}

// Record is one type to write.
type Record struct {
	Name, TypeName string
	Schema         []byte
	Doc            []byte // nil when the type has no documentation record
}

// Build writes a catalog of the records (in any order; names must be
// distinct and free of tabs and newlines) with the dictionary. The
// output depends only on the input, so regenerating unchanged data
// changes no byte.
func Build(records []Record, dict []byte) (index, data []byte, err error) {
	if len(dict) > maxDict {
		return nil, nil, fmt.Errorf("catalog: dictionary of %d bytes exceeds %d", len(dict), maxDict)
	}
	rs := append([]Record(nil), records...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	var idx, out bytes.Buffer
	idx.WriteString(header + "\n")
	for i, r := range rs {
		if i > 0 && rs[i-1].Name == r.Name {
			return nil, nil, fmt.Errorf("catalog: %s and %s share the name %s", rs[i-1].TypeName, r.TypeName, r.Name)
		}
		if strings.ContainsAny(r.Name+r.TypeName, "\t\n") || r.Name == "" || r.TypeName == "" {
			return nil, nil, fmt.Errorf("catalog: bad name %q (%q)", r.Name, r.TypeName)
		}
		schema, err := deflate(&out, r.Schema, dict)
		if err != nil {
			return nil, nil, err
		}
		var doc span
		if len(r.Doc) > 0 {
			if doc, err = deflate(&out, r.Doc, dict); err != nil {
				return nil, nil, err
			}
		}
		fmt.Fprintf(&idx, "%s\t%s\t%d\t%d\t%d\t%d\n", r.Name, r.TypeName, schema.off, schema.n, doc.off, doc.n)
	}
	return idx.Bytes(), out.Bytes(), nil
}

func deflate(out *bytes.Buffer, doc, dict []byte) (span, error) {
	start := out.Len()
	w, err := flate.NewWriterDict(out, flate.BestCompression, dict)
	if err != nil {
		return span{}, err
	}
	if _, err := w.Write(doc); err != nil {
		return span{}, err
	}
	if err := w.Close(); err != nil {
		return span{}, err
	}
	return span{start, out.Len() - start}, nil
}
