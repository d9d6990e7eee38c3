package syntax

import (
	"reflect"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/internal/slab"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestOffsetMapKept holds what a scalar's map promises now that most
// scalars keep none (issue 36): OffsetMap gives the map the builder set,
// the same pointer on every call for a kept map, a map kept only when it
// is not derivable, and a splice's
// moved copy the original's map moved.
func TestOffsetMapKept(t *testing.T) {
	var docs []*File
	for _, n := range []int{3, 40} {
		docs = append(docs, ParseYAML(gen.Blueprint(n, "yaml")), ParseJSON(gen.Blueprint(n, "json"), false))
	}
	docs = append(docs, ParseYAML([]byte("a: 'it''s'\nb: \"x\\ty ${v}\"\nc: |\n  one\n  two\nd: ${x}\ne:\nf: \"\"\n")))
	kept, derived := 0, 0
	for _, f := range docs {
		eachScalar(f.Root, func(s *Scalar) {
			m := s.OffsetMap()
			if s.omap == nil {
				derived++
				want := source.Identity(s.ValueRange().Start, len(s.Value))
				if !reflect.DeepEqual(*m, want) {
					t.Errorf("%q at %v: derived map %+v, want the identity %+v", s.Value, s.ValueRange(), *m, want)
				}
			} else {
				kept++
				if s.derivable(*m) {
					t.Errorf("%q at %v keeps a map OffsetMap would derive: %+v", s.Value, s.ValueRange(), *m)
				}
			}
			if s.omap != nil && s.OffsetMap() != m {
				t.Errorf("%q: a kept map is not the same on each call", s.Value)
			}
			// SetOffsetMap of what OffsetMap gives is the same scalar.
			c := *s
			c.SetOffsetMap(*m)
			if !reflect.DeepEqual(&c, s) {
				t.Errorf("%q: SetOffsetMap(OffsetMap()) changed the scalar", s.Value)
			}
			// A moved copy maps every offset moved.
			var sh shifter
			mv := sh.scalar(s, 7)
			for i := 0; i <= len(s.Value); i++ {
				if got, want := mv.OffsetMap().Source(i), m.Source(i)+7; got != want {
					t.Fatalf("%q moved by 7: Source(%d) = %d, want %d", s.Value, i, got, want)
				}
			}
		})
	}
	if kept == 0 || derived == 0 {
		t.Fatalf("kept %d maps and derived %d: the cases are not all covered", kept, derived)
	}
}

func eachScalar(n Node, f func(*Scalar)) {
	switch n := n.(type) {
	case *Mapping:
		for _, e := range n.Entries {
			f(e.Key)
			eachScalar(e.Value, f)
		}
	case *Sequence:
		for _, it := range n.Items {
			eachScalar(it, f)
		}
	case *Scalar:
		f(n)
	}
}

// TestValueRangeWide: a value range whose ends are too far from Rng's to
// be placed in it (issue 36 keeps two small offsets) is kept in the
// scalar's map, and moves with a splice's copy.
func TestValueRangeWide(t *testing.T) {
	var s Scalar
	s.Value = "abc"
	rng, vr := source.R(10, 100_000), source.R(20, 23)
	s.SetRanges(rng, vr)
	if s.to != wideRange || s.ValueRange() != vr || s.Rng != rng {
		t.Fatalf("wide: Rng %v ValueRange %v (to %d), want %v %v", s.Rng, s.ValueRange(), s.to, rng, vr)
	}
	if m := s.OffsetMap(); !reflect.DeepEqual(*m, source.Identity(20, 3)) {
		t.Errorf("wide map before the builder sets it = %+v, want the identity at 20", *m)
	}
	s.SetOffsetMap(source.Identity(20, 3))
	if s.omap == nil || s.ValueRange() != vr {
		t.Errorf("a derivable map dropped the kept range: %+v", s)
	}
	var maps slab.Of[scalarMap]
	moved := s
	moved.Rng = s.Rng.Moved(5)
	moved.moveMap(&s, 5, &maps)
	if moved.ValueRange() != vr.Moved(5) || moved.OffsetMap().Base != 25 || s.ValueRange() != vr {
		t.Errorf("moved: %v base %d (original %v), want %v base 25", moved.ValueRange(), moved.OffsetMap().Base, s.ValueRange(), vr.Moved(5))
	}
	var n Scalar
	n.SetRanges(source.R(4, 9), source.R(5, 8))
	if n.to == wideRange || n.ValueRange() != source.R(5, 8) {
		t.Errorf("narrow: %v (to %d), want [5,8)", n.ValueRange(), n.to)
	}
}
