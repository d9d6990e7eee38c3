package analysis

import (
	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// repairBP blanks every top-level statement of a blueprint-language
// document that holds a broken region (the statements as the parser
// resumes: bplang.Statements), so the rest is analysed as it is.
func repairBP(f *schema.File, broken []source.Range) (*schema.File, []source.Range) {
	var cut []source.Range
	for _, st := range bplang.Statements(f.Content()) {
		if overlaps(st.Range, broken) {
			cut = append(cut, st.Range)
		}
	}
	if len(cut) == 0 {
		return nil, nil // the error is before the first statement
	}
	return reparseBlanked(f, cut)
}

// bpSectionsLeftOut names the sections of the statements cut; nil (any)
// when one of them is no declaration (version, transform, metadata).
func bpSectionsLeftOut(f *schema.File, cut []source.Range) map[dialect.Section]bool {
	left := map[dialect.Section]bool{}
	for _, st := range bplang.Statements(f.Content()) {
		if !overlaps(st.Range, cut) {
			continue
		}
		if st.Section == dialect.NoSection {
			return nil
		}
		left[st.Section] = true
	}
	return left
}

// overlaps reports whether r shares a byte with a region.
func overlaps(r source.Range, regions []source.Range) bool {
	for _, c := range regions {
		if r.Start < c.End && c.Start < r.End {
			return true
		}
	}
	return false
}

// blank turns every byte of r but line breaks into a space, so every
// offset after it stays.
func blank(text []byte, r source.Range) {
	for i := r.Start; i < r.End && i < len(text); i++ {
		if text[i] != '\n' && text[i] != '\r' {
			text[i] = ' '
		}
	}
}
