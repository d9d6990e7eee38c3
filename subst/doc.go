// Package subst owns the `${..}` substitution language: its lexer, a
// recovering recursive-descent parser, the AST, a canonical printer and a
// JSON-able dump for goldens and `blueprint-ls inspect subst`.
//
// Input is a string scalar's decoded value plus the source.OffsetMap that
// carries decoded offsets back to the document. ParseTemplate splits it
// into literal text and substitutions; ParseReference parses an export's
// `field`, a plain reference without `${..}` (decision 20).
//
// Invariants:
//
//   - Every range (nodes, accessors, tokens, diagnostics) is a document
//     offset range obtained through the OffsetMap; nothing here knows
//     lines and columns except messages, which format positions through an
//     optional source.Mapper.
//   - Ranges are within the string's document range and nested: a child's
//     range lies within its parent's, a substitution's within the
//     template's, parts and tokens are in order and do not overlap.
//   - Parsing never fails: a syntax error is a diagnostic plus a *BadExpr
//     (or *BadAccessor) and parsing goes on, so every error in a string is
//     reported once and the rest of the tree is usable. Partial input
//     yields a partial tree for completion: `${variables.` is a Ref with an
//     empty Name whose NameRange sits at the cursor, `${trim(` a Call with
//     no arguments and Closed false.
//   - Expressions nest at most MaxDepth deep; past it the rest of the
//     substitution is skipped with one subst-too-deep error, which bounds
//     every later pass that recurses on the tree.
//   - The tree is syntax only. Whether a name exists, a function is known,
//     a path fits a type or a namespace allows accessors at all (a
//     variable's `.host`, a data source's depth) is analysis's business.
//
// Language decisions (spec/decisions.md 5-10, 20): namespace keywords take
// a name accessor directly (`values["x.y"]`); expressions include value
// references, `elem`, `i` and `none`; whitespace and newlines may separate
// any two tokens; array literals parse with a subst-array-literal warning
// and a fix to list(..). A bare name with or without accessors is a
// resource reference (Ref with Bare set); analysis may instead resolve a
// lone bare name to a function used as a value. `[]` is the spec's
// shorthand for the first item. A name in quotes (`["x.y"]`) may also be
// in single quotes (`['x.y']`), as the grammar does not fix the quote
// character; the tree keeps which, so printing keeps the author's. A
// string literal is double-quoted: a single-quoted one is parsed but
// reported (subst-single-quoted-string, with a fix). String literals know
// two escapes, `\"` and `\\`; any other backslash is kept as written. The spec defines no
// escape for a literal `${`, so there is none: `$${x}` is the text `$`
// followed by a substitution. A substitution ends at the first `}` outside
// a string literal; a `${` with no `}` is an error (subst-unterminated),
// never literal text. A template is pure (its value is the expression's,
// not a string) when it is one substitution with only whitespace around
// it (decision 9).
//
// Template.Moved gives a template for the same string at another place
// without parsing it again (a definition after an edit, carried over by
// incremental analysis); a Mover does the same for many templates at
// once, carving the copies from slabs.
package subst
