package syntax

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// Diagnostic codes owned by the parsers. Each is declared once, here, beside
// the functions that word its messages.
var (
	codeYAMLSyntax = source.NewCode("yaml-syntax", source.Error,
		"The document is not valid YAML.", "resources:\n  bucket: [1, 2\n")
	codeYAMLAnchor = source.NewCode("yaml-anchor", source.Error,
		"Blueprints do not allow YAML anchors or aliases.", "a: &shared 1\nb: *shared\n")
	codeYAMLTag = source.NewCode("yaml-tag", source.Error,
		"Blueprints do not allow explicit YAML tags.", "version: !!str 2023-04-20\n")
	codeYAMLMultipleDocuments = source.NewCode("yaml-multiple-documents", source.Error,
		"A blueprint file holds exactly one YAML document.", "version: 2023-04-20\n---\nversion: 2025-11-02\n")
	codeJSONSyntax = source.NewCode("json-syntax", source.Error,
		"The document is not valid JSON (or JSONC).", "{\"version\": \"2023-04-20\",}")
)

// Parse parses a blueprint document. The format comes from the extension of
// uri (.yaml/.yml, .json, .jsonc); for any other name it is sniffed from the
// content: a document whose first significant character is '{' is read as
// JSONC-tolerant JSON, anything else as YAML. The blueprint language (.bp,
// .blueprint) is package bplang's, above this one: schema.Parse dispatches
// to it; here such a name is sniffed like any other. The File keeps
// content, which must not change afterwards.
func Parse(uri string, content []byte) *File { return parseMapped(uri, content, nil) }

// ParseMapped is Parse of m's text, m being its mapper, which the File
// keeps: a server holds the line table of its text already, and a
// large text's is a pass over it and a megabyte or two (issue 36).
func ParseMapped(uri string, m *source.Mapper) *File { return parseMapped(uri, m.Content(), m) }

// parseMapped is Parse with content's mapper when it is made already
// (nil: made here).
func parseMapped(uri string, content []byte, m *source.Mapper) *File {
	var f *File
	format := FormatOf(uri, content)
	if format == BP {
		format = sniff(content)
	}
	switch format {
	case JSON:
		f = parseJSONSplitting(content, m, false, splitMin)
	case JSONC:
		f = parseJSONSplitting(content, m, true, splitMin)
	default:
		f = parseYAMLSplit(content, m, true, splitMin)
	}
	f.URI = uri
	return f
}

// mapperOf returns m, content's mapper made already, or makes it.
func mapperOf(m *source.Mapper, content []byte) *source.Mapper {
	if m != nil {
		return m
	}
	return source.NewMapper(content)
}

// FormatOf reports the format Parse would use for uri and content. A sniffed
// JSON document is reported as JSONC: tolerance costs nothing there.
func FormatOf(uri string, content []byte) Format {
	if f, ok := formatByName(uri); ok {
		return f
	}
	return sniff(content)
}

// FormatOfText is FormatOf of a Text: the name decides, and the text is
// read (joined) only when it does not.
func FormatOfText(uri string, t source.Text) Format {
	if f, ok := formatByName(uri); ok {
		return f
	}
	return sniff(t.Bytes())
}

// formatByName returns the format uri's extension says, if it says one.
func formatByName(uri string) (Format, bool) {
	name := uri
	if i := strings.IndexAny(name, "?#"); i >= 0 {
		name = name[:i]
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".bp", ".blueprint":
		return BP, true
	case ".yaml", ".yml":
		return YAML, true
	case ".json":
		return JSON, true
	case ".jsonc":
		return JSONC, true
	}
	return 0, false
}

func sniff(content []byte) Format {
	if firstSignificant(content) == '{' {
		return JSONC
	}
	return YAML
}

// Assemble is the File of a front end outside this package (the
// blueprint language, package bplang): its tree, every diagnostic, and
// which of them say the text is malformed. Its recovered tree (Tree) is
// root with the lines of those errors as the broken regions, as for JSON.
func Assemble(uri string, format Format, content source.Text, mapper *source.Mapper, root Node, diags, syntaxErrors []source.Diagnostic) *File {
	f := &File{URI: uri, Format: format, Text: content, Mapper: mapper, Root: root}
	f.Diagnostics = diags
	f.syntax = syntaxErrors
	return f
}

// firstSignificant returns the first byte that is neither white space nor
// part of a comment (#, // or /* */), or 0.
func firstSignificant(b []byte) byte {
	b = bytes.TrimPrefix(b, utf8BOM)
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#' || (c == '/' && i+1 < len(b) && b[i+1] == '/'):
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return 0
			}
			i += 2 + end + 2
		default:
			return c
		}
	}
	return 0
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// noteSyntax records which of f's diagnostics say the text is malformed:
// the parsers' syntax errors (and parser failures), not the anchors,
// tags and second documents a whole tree can carry.
func (f *File) noteSyntax() {
	f.syntax = nil
	for _, d := range f.Diagnostics {
		if d.Code == codeYAMLSyntax.ID || d.Code == codeJSONSyntax.ID {
			f.syntax = append(f.syntax, d)
		}
	}
}

// recoverInto turns a panic during parsing into a diagnostic on f, so one
// pathological input never takes the process down. It must be deferred.
func recoverInto(f *File, code *source.Code) {
	if r := recover(); r != nil {
		f.Root = nil
		f.Diagnostics = append(f.Diagnostics, code.New(source.R(0, 0),
			"internal error while parsing (please report): %v", fmt.Sprint(r)))
	}
}
