package ide

import (
	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// SelectionRanges returns, for each offset, the ranges that contain it
// from the innermost out: inside ${..} the accessor, the expressions and
// the substitution, then the scalar, each entry and collection up to the
// whole document.
func SelectionRanges(res *analysis.Result, offsets []int) [][]source.Range {
	out := make([][]source.Range, len(offsets))
	if res == nil || res.File == nil || res.File.Root == nil {
		return out
	}
	ix := indexFor(res)
	for i, off := range offsets {
		var chain []source.Range
		push := func(r source.Range) {
			if n := len(chain); n > 0 && chain[n-1] == r {
				return
			}
			if n := len(chain); n > 0 && !r.ContainsRange(chain[n-1]) {
				return
			}
			chain = append(chain, r)
		}
		var inner []source.Range
		if site := ix.siteAt(off); site != nil {
			if sub := subst.SubAt(site.Template, off); sub != nil {
				path := exprPath(sub.Expr, off)
				if n := len(path); n > 0 {
					if a := subst.AccessorAt(path[n-1], off); a != nil {
						if name, r := accessorText(a); name != "" {
							inner = append(inner, r)
						}
						inner = append(inner, a.Range())
					}
					if ref, ok := path[n-1].(*subst.Ref); ok && ref.NameRange().Contains(off) && ref.Name != "" {
						inner = append(inner, ref.NameRange())
					}
				}
				for j := len(path) - 1; j >= 0; j-- {
					inner = append(inner, path[j].Range())
				}
				inner = append(inner, sub.Rng)
			}
		}
		for _, r := range inner {
			push(r)
		}
		tp := treePath(res.File.Root, off)
		for j := len(tp) - 1; j >= 0; j-- {
			st := tp[j]
			if st.OnKey {
				push(st.Entry.Key.ValueRange())
				push(st.Entry.Key.Rng)
			} else if st.Node != nil {
				if sc, ok := st.Node.(*schema.Scalar); ok {
					push(sc.ValueRange())
				}
				push(st.Node.Range())
			}
			if st.Entry != nil {
				push(entryRange(st.Entry))
			}
		}
		push(res.File.Root.Range())
		push(source.R(0, len(res.File.Content())))
		out[i] = chain
	}
	return out
}
