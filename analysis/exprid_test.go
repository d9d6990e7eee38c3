package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

const exprIDSource = `version: 2025-11-02
variables:
  names:
    type: string
values:
  count:
    type: integer
    value: ${len(split(variables.names, ","))}
  label:
    type: string
    value: "${variables.names}-${values.count}"
resources:
  table:
    type: aws/dynamodb/table
    spec:
      tableName: ${values.label}
      billingMode: ${variables.names}
metadata:
  owner: ${to_upper(variables.names)}
`

// exprIDEdit moves every unit down (a comment first, a resource before
// table) and
// rewrites the value label; count, table and the metadata keep their text.
var exprIDEdit = strings.NewReplacer(
	"version:", "# a line that moves everything\nversion:",
	"resources:\n", "resources:\n  first:\n    type: aws/dynamodb/table\n    spec:\n      tableName: ${values.count}\n",
	`"${variables.names}-${values.count}"`, `"${values.count}"`,
)

// TestExprIDs checks that expression types are filed by unit, site ordinal
// and expression ordinal, and that these ids survive a re-parse in which
// the text around an unchanged unit moved.
func TestExprIDs(t *testing.T) {
	before := Analyze(context.Background(), schema.Parse("e.yaml", []byte(exprIDSource)), Options{})
	after := Analyze(context.Background(), schema.Parse("e.yaml", []byte(exprIDEdit.Replace(exprIDSource))), Options{})

	count := UnitID{Kind: ValueSymbol, Name: "count"}
	tests := []struct {
		id   ExprID
		expr string
		want types.Type
	}{
		{ExprID{count, 0, 0}, `len(split(variables.names, ","))`, types.Integer},
		{ExprID{count, 0, 1}, `split(variables.names, ",")`, &types.Array{Elem: types.String}},
		{ExprID{count, 0, 2}, "variables.names", types.String},
		{ExprID{count, 0, 3}, `","`, types.String},
		{ExprID{UnitID{Kind: ResourceSymbol, Name: "table"}, 1, 0}, "variables.names", types.String},
		{ExprID{UnitID{}, 0, 0}, "to_upper(variables.names)", types.String},
	}
	for _, res := range []*Result{before, after} {
		for _, tc := range tests {
			e, got := exprByID(res, tc.id)
			if e == nil {
				t.Fatalf("no expression %+v", tc.id)
			}
			if subst.Print(e) != tc.expr || got == nil || got.String() != tc.want.String() {
				t.Errorf("%+v = %s: %v, want %s: %v", tc.id, subst.Print(e), got, tc.expr, tc.want)
			}
			if id, ok := siteOf(res, tc.id).ID(e); !ok || id != tc.id {
				t.Errorf("ID(%s) = %+v, %v; want %+v", tc.expr, id, ok, tc.id)
			}
		}
	}

	// Every expression of an unchanged unit has the same id, text and type
	// after the edit.
	compared := 0
	for _, s := range before.Sites() {
		if s.Unit() == (UnitID{Kind: ValueSymbol, Name: "label"}) {
			continue
		}
		moved := siteOf(after, ExprID{Unit: s.Unit(), Site: s.Ordinal})
		if moved == nil || moved.Scalar.Rng == s.Scalar.Rng {
			t.Fatalf("site %+v/%d: %v, want it found at a new offset", s.Unit(), s.Ordinal, moved)
		}
		for i, typ := range s.ExprTypes {
			e, got := exprByID(after, ExprID{s.Unit(), s.Ordinal, i})
			old, _ := exprByID(before, ExprID{s.Unit(), s.Ordinal, i})
			if subst.Print(e) != subst.Print(old) || got.String() != typ.String() {
				t.Errorf("%+v/%d/%d: %s: %v after the edit, %s: %v before", s.Unit(), s.Ordinal, i, subst.Print(e), got, subst.Print(old), typ)
			}
			compared++
		}
	}
	if compared != 8 {
		t.Errorf("compared %d expressions, want 8", compared)
	}

	// An expression of another site has no id in this one.
	if _, ok := siteOf(after, tests[0].id).ID(after.Sites()[len(after.Sites())-1].Template.Subs()[0].Expr); ok {
		t.Error("a foreign expression got an id")
	}
}

func siteOf(res *Result, id ExprID) *Site {
	for _, s := range res.Sites() {
		if s.Unit() == id.Unit && s.Ordinal == id.Site {
			return s
		}
	}
	return nil
}

// exprByID returns the expression id names and its recorded type.
func exprByID(res *Result, id ExprID) (subst.Expr, types.Type) {
	s := siteOf(res, id)
	if s == nil {
		return nil, nil
	}
	var found subst.Expr
	n := 0
	subst.WalkTemplate(s.Template, func(e subst.Expr) bool {
		if n == id.Expr {
			found = e
		}
		n++
		return true
	})
	if found == nil {
		return nil, nil
	}
	return found, s.TypeOf(found)
}
