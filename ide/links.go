package ide

import (
	"path/filepath"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// DocumentLink makes Range open Target (a file path).
type DocumentLink struct {
	Range   source.Range
	Target  string
	Tooltip string
}

// DocumentLinks links include paths to the resolved child files and the
// string-literal arguments of file() to the files they read.
func DocumentLinks(res *analysis.Result) []DocumentLink {
	if res == nil || res.Blueprint == nil {
		return nil
	}
	var out []DocumentLink
	for _, inc := range res.Blueprint.Include.Items() {
		ch := res.Children[inc.Name]
		sc := inc.Path.Scalar()
		if ch == nil || ch.Path == "" || sc == nil {
			continue
		}
		out = append(out, DocumentLink{Range: sc.ValueRange(), Target: ch.Path, Tooltip: "Open child blueprint " + inc.Name})
	}
	dir := ""
	if res.Path != "" {
		dir = filepath.Dir(res.Path)
	}
	for _, c := range fileCalls(res) {
		lit, ok := c.Expr.Args[0].Value.(*subst.StringLit)
		if !ok || lit.Value == "" {
			continue
		}
		p := lit.Value
		if !filepath.IsAbs(p) {
			if dir == "" {
				continue
			}
			p = filepath.Join(dir, p)
		}
		r := lit.Rng
		if r.Len() >= 2 {
			r = source.R(r.Start+1, r.End-1)
		}
		out = append(out, DocumentLink{Range: r, Target: filepath.Clean(p), Tooltip: "Open " + lit.Value})
	}
	return out
}

// fileCalls returns the calls of file() with arguments by where their
// names start (among equal starts, in the order of Calls): picked from
// the joined list and only those sorted, where sorting every call (a
// table over the whole document) cost a link request after each edit
// most of its time.
func fileCalls(res *analysis.Result) []*analysis.Call {
	var out []*analysis.Call
	for _, c := range res.Calls() {
		if c.Expr != nil && c.Expr.Name == "file" && len(c.Expr.Args) > 0 {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Expr.NameRange.Start < out[j].Expr.NameRange.Start })
	return out
}
