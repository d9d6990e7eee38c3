// Package bpref is the blueprint language's parser as it was before the
// parse was rebuilt for speed (issue 36, commit 29c27a8): lexer, parser,
// the rendering of expressions and CursorAt, frozen. It is the oracle of
// bplang's differential tests (bplang.TestParseMatchesReference,
// FuzzParseMatchesReference, TestCursorMatchesReference): the fast
// parse must give the very tree and diagnostics this one gives. Nothing but those tests imports it; do not
// change it except to follow a deliberate change of the language, made
// in both.
package bpref
