// Package convert writes a parsed blueprint in another format: the
// blueprint language (through bplang's emitter), YAML or JSON, keeping
// comments where the target can hold them (the language and YAML take #
// comments, JSONC's become #; JSON has none). The meaning is kept
// exactly: the tree the target text parses to holds the same sections,
// definitions and values, so analysis and plans agree (the round-trip
// tests). What the target cannot say is an error, never a silent loss.
package convert
