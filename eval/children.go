package eval

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
)

// childMemo is one include, evaluated once.
type childMemo struct {
	busy, done bool
	child      *Child
	exports    funcs.Value
}

// child evaluates an include: the variables the parent passes, then the
// child blueprint with them as its inputs.
func (e *evaluator) child(name string) *childMemo {
	m := e.children[name]
	if m == nil {
		m = &childMemo{child: &Child{Name: name}, exports: funcs.Unknown("children." + name)}
		e.children[name] = m
	}
	if m.done || m.busy {
		return m
	}
	inc := e.bp.Include.Get(name)
	if inc == nil {
		return m
	}
	m.busy = true
	e.depth++
	defer func() { m.busy, m.done = false, true; e.depth-- }()
	vars := funcs.MapValue(funcs.NewMap(0))
	if inc.Variables != nil {
		vars = e.node(inc.Variables.Node(), nil)
	}
	m.child.Variables = vars
	c := e.res.Children[name]
	if c == nil || c.Result == nil {
		return m
	}
	m.child.Path = c.Path
	in := Inputs{Vars: map[string]Input{}, State: e.in.State.Child(name), Data: childData(e.in.Data, name)}
	if vm, ok := vars.Map(); ok {
		for i := range vm.Len() {
			k, v := vm.At(i)
			in.Vars[k] = Input{Value: v, Origin: "include " + name}
		}
	}
	opts := e.opts
	opts.Lazy = false // the child's Blueprint is read as a whole
	ce := newEvaluator(e.ctx, c.Result, in, opts)
	bp := ce.run()
	m.child.Blueprint = bp
	ex := funcs.NewMap(len(bp.Exports))
	for _, x := range bp.Exports {
		ex.Set(x.Name, x.Value)
	}
	m.exports = funcs.MapValue(ex)
	return m
}

// childData returns the data source fixtures of the child included as
// name: the fixtures keyed "name/..." with that prefix removed, so that
// "core/network" is data source network of child core and "core/net/vpc"
// data source vpc of core's child net. A "/" is not allowed in names, so
// these keys cannot be data sources of the parent.
func childData(data map[string]map[string]funcs.Value, name string) map[string]map[string]funcs.Value {
	var out map[string]map[string]funcs.Value
	for k, fields := range data {
		rest, ok := strings.CutPrefix(k, name+"/")
		if !ok || rest == "" {
			continue
		}
		if out == nil {
			out = map[string]map[string]funcs.Value{}
		}
		out[rest] = fields
	}
	return out
}
