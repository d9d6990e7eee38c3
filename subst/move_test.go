package subst

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestMoved parses templates of every expression kind, well-formed and
// broken, at one place and at another, and checks that the first moved
// there is the second, moved alone (Template.Moved) and by one Mover
// moving them all (whose copies share blocks: each must still be right
// once the others are made).
func TestMoved(t *testing.T) {
	var mv Mover
	var shared, wants []*Template
	for _, s := range []string{
		"plain text",
		"${variables.env}",
		"pre-${values.x.y[0]}-${resources.r[].spec[\"a\"].b}-post",
		"${join(list(variables.env, \"app\", 1, 2.5, true, none), \"-\")}",
		"${object(id = \"x\", n = [1, 2])}",
		"${elem.name}-${i}",
		"${bad..}",
		"${unclosed(",
		"${resources.x['q'][2].z}${}",
		"${\"str\" }",
	} {
		const at, elsewhere = 7, 4000
		m1, m2 := source.Identity(at, len(s)), source.Identity(elsewhere, len(s))
		want := ParseTemplateWith(s, &m2, Options{})
		got := ParseTemplateWith(s, &m1, Options{}).Moved(elsewhere-at, &m2)
		byMover := mv.Move(ParseTemplateWith(s, &m1, Options{}), elsewhere-at, &m2)
		shared, wants = append(shared, byMover), append(wants, want)
		// Messages are kept as written; some name the old position.
		for _, t := range []*Template{got, want, byMover} {
			for i := range t.Diagnostics() {
				t.Diagnostics()[i].Message = ""
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: moved\n%#v\nwant\n%#v", s, got, want)
		}
	}
	for i, got := range shared {
		if !reflect.DeepEqual(got, wants[i]) {
			t.Errorf("template %d moved by the shared Mover\n%#v\nwant\n%#v", i, got, wants[i])
		}
	}
}

// TestNodeSizes guards issue 36's cuts: a reference keeps KeywordRange
// and NameRange, a substitution Open and Close, as 32-bit offsets from
// Rng.Start (most substitutions of a blueprint hold a reference).
func TestNodeSizes(t *testing.T) {
	if unsafe.Sizeof(0) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	if n := unsafe.Sizeof(Ref{}); n > 80 {
		t.Errorf("a Ref is %d bytes, want at most 80", n)
	}
	if n := unsafe.Sizeof(Sub{}); n > 56 {
		t.Errorf("a Sub is %d bytes, want at most 56", n)
	}
}
