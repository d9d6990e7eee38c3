package schema

import (
	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// The document tree is package syntax's; schema is the blueprint's typed
// view of it. These names let the blueprint layers say schema.Mapping for
// the tree they load from.
type (
	File      = syntax.File
	Node      = syntax.Node
	Mapping   = syntax.Mapping
	Entry     = syntax.Entry
	Sequence  = syntax.Sequence
	Scalar    = syntax.Scalar
	Format    = syntax.Format
	Kind      = syntax.Kind
	ScalarTag = syntax.ScalarTag
	Style     = syntax.Style
	// Definition is where one definition's text lies (DefinitionAt).
	Definition = syntax.Definition
	// Change is where two versions of a text may differ (SpliceAt).
	Change = syntax.Change
)

const (
	YAML  = syntax.YAML
	JSON  = syntax.JSON
	JSONC = syntax.JSONC
	BP    = syntax.BP

	MappingKind  = syntax.MappingKind
	SequenceKind = syntax.SequenceKind
	ScalarKind   = syntax.ScalarKind

	StringTag = syntax.StringTag
	IntTag    = syntax.IntTag
	FloatTag  = syntax.FloatTag
	BoolTag   = syntax.BoolTag
	NullTag   = syntax.NullTag

	Plain        = syntax.Plain
	SingleQuoted = syntax.SingleQuoted
	DoubleQuoted = syntax.DoubleQuoted
	Literal      = syntax.Literal
	Folded       = syntax.Folded
	JSONString   = syntax.JSONString
	JSONLiteral  = syntax.JSONLiteral
)

// Parse parses a document of any dialect and format: the blueprint
// language (.bp, .blueprint) with bplang.Parse, the rest with
// syntax.Parse.
func Parse(uri string, content []byte) *File {
	if syntax.FormatOf(uri, content) == syntax.BP {
		return bplang.Parse(uri, content)
	}
	return syntax.Parse(uri, content)
}

// ParseMapped is Parse of m's text, m being its mapper, which the File
// keeps (syntax.ParseMapped).
func ParseMapped(uri string, m *source.Mapper) *File {
	if syntax.FormatOf(uri, m.Content()) == syntax.BP {
		return bplang.ParseMapped(uri, m)
	}
	return syntax.ParseMapped(uri, m)
}

// Splice returns the File of content, the next version of prev's text,
// re-parsing only the edited entry (syntax.Splice) or, in the blueprint
// language, the edited statement (bplang.Splice); nil when the edit needs
// a whole parse.
func Splice(prev *File, content []byte) *File {
	if prev != nil && prev.Format == BP {
		return bplang.Splice(prev, content)
	}
	return syntax.Splice(prev, content)
}

// SpliceAt is Splice told where the edit is: prev.Content and content
// are the same outside ch, which may be wider than the bytes that
// differ (syntax.SpliceAt, bplang.SpliceAt). Only the bytes inside ch
// are compared, so finding the edit does not grow with the document.
func SpliceAt(prev *File, content source.Text, ch Change) *File {
	if prev != nil && prev.Format == BP {
		return bplang.SpliceAt(prev, content, ch)
	}
	return syntax.SpliceAt(prev, content, ch)
}

// DefinitionAt returns the definition whose lines hold the bytes [start,
// end) of f, a clean parse: an entry of a section in YAML, a member of
// a section object in JSON and JSONC (syntax.DefinitionAt), a
// declaration's statement in the blueprint language
// (bplang.DefinitionAt).
func DefinitionAt(f *File, start, end int) (Definition, bool) {
	switch {
	case f == nil:
		return Definition{}, false
	case f.Format == BP:
		return bplang.DefinitionAt(f, start, end)
	}
	return syntax.DefinitionAt(f, start, end)
}

// PadPoints returns where the key line of every Open definition of f,
// a clean parse, ends (DefinitionAt), in order: the places the language
// server pads a text that arrives whole. They are read from the parse,
// so padding never lands where it could mean something.
func PadPoints(f *File) []int {
	root, ok := f.Root.(*syntax.Mapping)
	if !ok || len(f.Diagnostics) > 0 || f.HasSyntaxErrors() {
		return nil
	}
	if f.Format != BP {
		return syntax.OpenKeyLineEnds(f)
	}
	var out []int
	for _, sec := range root.Entries {
		section, ok := sec.Value.(*syntax.Mapping)
		if !ok {
			continue
		}
		for _, e := range section.Entries {
			at := e.Key.Rng.Start
			if d, ok := DefinitionAt(f, at, at); ok && d.Open && (len(out) == 0 || out[len(out)-1] < d.KeyLineEnd) {
				out = append(out, d.KeyLineEnd)
			}
		}
	}
	return out
}
