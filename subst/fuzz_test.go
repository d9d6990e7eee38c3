package subst

import (
	"testing"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// FuzzParse checks, for any input: no panic; every range within the
// string and nested, both for the identity map and for a map where every
// other byte came from a two-byte escape; printing an error-free template
// and parsing it again gives the same tree; ParseReference does not panic
// and stays in bounds.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"${variables.env}", "arn:${trim(values.x)}-${i}", `${object(id = "x", n = -1.5)}`,
		`${f(x).info["host"][0][]}`, "${elem[\"a.b\"]}", `${[1, none, true]}`, "${trim(",
		"${variables.", `${"\"}`, "${${x}}", "$${x}", "${\n  if(a,\n b)\n}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tpl := ParseTemplate(s, nil)
		checkInvariants(t, tpl, 0, len(s))
		if !tpl.HasErrors() {
			roundTrip(t, tpl)
		}

		// Every even decoded byte is an atomic two-byte escape.
		m := source.OffsetMap{Base: 10}
		src := 10
		for i := 0; i < len(s); i++ {
			n := 1 + (i+1)%2
			m.Segments = append(m.Segments, source.Segment{Dec: i, DecLen: 1, Src: src, SrcLen: n})
			src += n
		}
		m = source.Relative(m.Base, m.Segments)
		tpl2 := ParseTemplate(s, &m)
		checkInvariants(t, tpl2, 10, src)
		if len(tpl2.Diagnostics()) != len(tpl.Diagnostics()) || templateTree(tpl2, false) != templateTree(tpl, false) {
			t.Fatalf("the offset map changed the parse of %q", s)
		}

		e, diags := ParseReference(s, nil)
		if r := e.Range(); r.Start < 0 || r.End > len(s) || r.Start > r.End {
			t.Fatalf("reference range %v out of bounds", r)
		}
		for _, d := range diags {
			if d.Range.Start < 0 || d.Range.End > len(s) || d.Range.Start > d.Range.End {
				t.Fatalf("diagnostic %s range %v out of bounds", d.Code, d.Range)
			}
		}
	})
}
