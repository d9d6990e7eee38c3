package ide

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// Evaluator renders the value a site evaluates to for an inlay hint;
// ok is false when it cannot tell. Secrets must come back masked. The
// plan engine plugs its evaluator in; LiteralEvaluator covers defaults
// and literals.
type Evaluator func(site *analysis.Site) (display string, ok bool)

// InlayHint is a label shown after Offset.
type InlayHint struct {
	Offset  int
	Label   string
	Tooltip string
}

// InlayHints shows the evaluated value after each substitution-bearing
// scalar in rng (nil ev: LiteralEvaluator).
func InlayHints(res *analysis.Result, rng source.Range, ev Evaluator) []InlayHint {
	if res == nil || res.File == nil {
		return nil
	}
	if ev == nil {
		ev = LiteralEvaluator(res)
	}
	// The sites of the units in view only: a window asks after each edit.
	var out []InlayHint
	for _, s := range res.SitesIn(rng) {
		if s.Kind == analysis.SiteExportField || s.Kind == analysis.SiteDescription {
			continue
		}
		if p := s.Template.Pure(); p != nil && isLiteral(p.Expr) {
			continue
		}
		text, ok := ev(s)
		if !ok {
			continue
		}
		out = append(out, InlayHint{Offset: s.Scalar.Rng.End, Label: " = " + shorten(text, maxHintLabel), Tooltip: codeBlock(cut(text, maxHintTooltip))})
	}
	return out
}

// A hint's label stays short beside the code; its tooltip shows more.
const (
	maxHintLabel   = 40   // runes
	maxHintTooltip = 2000 // runes
)

// shorten makes text fit on one line of at most max runes: line breaks and
// tabs are shown escaped, and a longer text is cut, on a rune boundary,
// with "…". It reads no more of text than it needs.
func shorten(text string, max int) string {
	rs := make([]rune, 0, min(len(text), max+2))
	for _, r := range text {
		switch r {
		case '\n':
			rs = append(rs, '\\', 'n')
		case '\r':
			rs = append(rs, '\\', 'r')
		case '\t':
			rs = append(rs, '\\', 't')
		default:
			rs = append(rs, r)
		}
		if len(rs) > max {
			return string(rs[:max-1]) + "…"
		}
	}
	return string(rs)
}

// cut returns text's first max runes, with "…" when there were more.
func cut(text string, max int) string {
	n := 0
	for i := range text {
		if n == max {
			return text[:i] + "…"
		}
		n++
	}
	return text
}

func isLiteral(e subst.Expr) bool {
	switch e.(type) {
	case *subst.StringLit, *subst.IntLit, *subst.FloatLit, *subst.BoolLit, *subst.NoneLit:
		return true
	}
	return false
}

// LiteralEvaluator evaluates templates made of literals and references to
// variables with defaults and to literal values (following values that
// are themselves such templates); secrets show as (sensitive).
func LiteralEvaluator(res *analysis.Result) Evaluator {
	ix := indexFor(res)
	var site func(s *analysis.Site, depth int) (string, bool, bool)
	expr := func(e subst.Expr, depth int) (text string, secret, ok bool) {
		switch x := e.(type) {
		case *subst.StringLit:
			return x.Value, false, true
		case *subst.IntLit:
			return x.Text, false, true
		case *subst.FloatLit:
			return x.Text, false, true
		case *subst.BoolLit:
			if x.Value {
				return "true", false, true
			}
			return "false", false, true
		case *subst.Ref:
			if len(x.Path) > 0 || depth > 8 {
				return "", false, false
			}
			switch x.Namespace {
			case subst.Variables:
				v := res.Lookup(analysis.VariableSymbol, x.Name)
				if v == nil || v.Variable.Default == nil {
					return "", false, false
				}
				sc := v.Variable.Default.Scalar()
				if sc == nil {
					return "", false, false
				}
				return sc.Value, v.Secret, true
			case subst.Values:
				v := res.Lookup(analysis.ValueSymbol, x.Name)
				if v == nil || v.Value.Value == nil {
					return "", false, false
				}
				sc := v.Value.Value.Scalar()
				if sc == nil {
					return "", false, false
				}
				if s := ix.siteOf(sc); s != nil {
					t, sec, ok := site(s, depth+1)
					return t, sec || v.Secret, ok
				}
				return sc.Value, v.Secret, true
			}
		}
		return "", false, false
	}
	site = func(s *analysis.Site, depth int) (string, bool, bool) {
		var b strings.Builder
		secret := false
		for _, p := range s.Template.Parts {
			switch p := p.(type) {
			case *subst.Literal:
				b.WriteString(p.Value)
			case *subst.Sub:
				t, sec, ok := expr(p.Expr, depth)
				if !ok {
					return "", false, false
				}
				secret = secret || sec
				b.WriteString(t)
			}
		}
		text := b.String()
		if s.Template.IsPure() {
			text = strings.TrimSpace(text)
		}
		return text, secret, true
	}
	return func(s *analysis.Site) (string, bool) {
		t, secret, ok := site(s, 0)
		if !ok {
			return "", false
		}
		if secret {
			return masked, true
		}
		return t, true
	}
}
