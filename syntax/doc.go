// Package syntax owns documents as written, whatever their dialect:
// position-exact parsing of YAML, JSON and JSONC into one node tree
// (Mapping, Sequence, Scalar, with the File that holds them), the
// decoded→source offset maps of string scalars, and the syntax
// diagnostics. The blueprint's typed view (package schema), the provider
// registry's spec validation and the project config all read this tree.
//
// Every text gives a tree: File.Root is the parser's tree (for YAML nil
// when the text does not parse), File.Tree is never nil and covers every
// well-formed part of any text, with the broken regions it leaves out.
// Whether the text is malformed is the File's to say (HasSyntaxErrors,
// SyntaxErrors), not a matter of diagnostic codes.
//
// Invariants: every node and every mapping key and value carries its exact
// byte range; every string scalar carries a decoded→source OffsetMap, so a
// position inside a decoded value lands on the exact source byte through
// escapes, folding and block indentation. Parsing never panics and reports
// syntax errors at their real position. Only this package imports the YAML
// library. `${..}` text is opaque here; package subst parses it.
//
// Splice (reparse.go, reparse_json.go) builds the next version's File
// from the previous one when an edit stays inside one entry of a
// top-level mapping: only that entry's lines (in JSON, that member of a
// section object) are parsed; the nodes before the edit are shared,
// those after it copied with moved offsets (shared too when the edit
// keeps the text's length; a moved scalar shares its map's segments,
// which are relative to the map's Base). It gives the tree Parse would,
// or nil. The File says how it was spliced (File.Spliced: which entry,
// the length change), so that what is built over the tree (the typed
// view, package schema) can be moved along instead of built again.
// Nodes are carved from slabs (package internal/slab).
//
// A tree is compact (issue 36): the values of scalars that need no
// decoding are substrings of the parsed text itself (never copied: the
// File keeps those bytes as its Text, and they are never written), and a
// Scalar keeps its offset map only when Scalar.OffsetMap cannot derive it
// from ValueRange and Value (anything but the identity; a template
// parsed from a value keeps no identity map either), and ValueRange as
// two small offsets into Rng.
//
// ParseYAML reads the common shape of a blueprint (ASCII, LF, block
// collections, single-line scalars, literal blocks, comments) with its
// own one-pass reader (yaml_fast.go), which builds the same tree as
// yaml.v3's nodes would give and gives up on anything else, leaving it
// to yaml.v3 (TestFastParseAgrees compares the two trees).
//
// DefinitionAt (slack.go, slack_json.go) finds the top-level entry whose
// lines hold an edit, for the padding of the language server's parse;
// OpenKeyLineEnds finds, from a clean parse, where every open entry's key
// line ends (where that padding goes), and PadParsed moves a parse's
// offsets for padding put there (pad.go) instead of parsing again.
package syntax
