package ide

import (
	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// SignatureInfo is the signature of the call around the cursor.
type SignatureInfo struct {
	Label         string // name(p1 type, p2 type?) -> result
	Documentation string // markdown
	Params        []ParamInfo
	// ActiveParameter is the index into Params of the argument the cursor
	// is in (the last one for extra variadic arguments).
	ActiveParameter int
}

// ParamInfo is one parameter: its span in Label (byte offsets) and docs.
type ParamInfo struct {
	Label         string
	Start, End    int
	Documentation string
}

// SignatureHelp returns the signature of the innermost call whose
// parentheses hold offset in text. It reads the text again, so calls
// still being typed (`${join(split(v, ","), `) work against an older
// Result; in the Result's own text it reads the scalar from the tree and
// leaves the text unjoined.
func SignatureHelp(res *analysis.Result, text source.Text, offset int, opts Options) *SignatureInfo {
	c := completerOf(res, text, offset, opts)
	if c == nil {
		return nil
	}
	var sc structCtx // read from the text only when the tree has no scalar here
	if _, _, ok := c.treeScalar(); !ok {
		sc = c.structContext()
	}
	prefix, m, field, ok := c.scalarPrefix(sc)
	if !ok || field {
		return nil
	}
	t := subst.ParseTemplate(prefix, &m)
	sub := subst.SubAt(t, offset)
	if sub == nil {
		return nil
	}
	path := exprPath(sub.Expr, offset)
	for i := len(path) - 1; i >= 0; i-- {
		call, ok := path[i].(*subst.Call)
		if !ok {
			continue
		}
		arg := subst.ArgAt(call, offset)
		if arg < 0 {
			continue
		}
		f, ok := opts.funcs().Lookup(call.Name)
		if !ok || f.Signature == nil {
			return nil
		}
		label, spans := signatureLabel(f.Name, f.Signature)
		si := &SignatureInfo{Label: label + " -> " + f.Signature.Result.String(), Documentation: f.Summary}
		for j, sp := range spans {
			pi := ParamInfo{Label: label[sp[0]:sp[1]], Start: sp[0], End: sp[1]}
			if j < len(f.ParamDocs) {
				pi.Documentation = f.ParamDocs[j]
			}
			si.Params = append(si.Params, pi)
		}
		si.ActiveParameter = arg
		if n := len(si.Params); arg >= n && n > 0 && f.Signature.Params[n-1].Variadic {
			si.ActiveParameter = n - 1
		}
		return si
	}
	return nil
}
