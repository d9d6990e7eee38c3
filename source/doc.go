// Package source owns positions in documents: byte offsets, half-open
// ranges, conversion between offsets and line/character positions in the
// three encodings LSP clients negotiate (UTF-8, UTF-16, UTF-32), the offset
// maps that carry decoded string offsets back to the source text, and the
// Diagnostic type every stage reports with.
//
// Invariants: trees and diagnostics store byte offsets only; line and column
// arithmetic happens here and nowhere else. A Range is half-open,
// Start <= End, both within the document.
package source
