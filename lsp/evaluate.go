package lsp

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// evaluation is a snapshot's dry-run evaluation for inlay hints: one
// eval.Scope over the Result the hints read, with the plan inputs of the
// settings (variables files and values; defaults otherwise), built on the
// first hint request and shared by every later one. Definitions are
// evaluated lazily and memoised by the scope, so a request evaluates only
// the sites in its range and what they read.
type evaluation struct {
	res *analysis.Result

	once  sync.Once
	mu    sync.Mutex // eval.Scope is not safe for concurrent use
	scope *eval.Scope
	hints map[*analysis.Site]hint // memoised, so every request agrees
}

type hint struct {
	text string
	ok   bool
}

// evaluator returns the inlay-hint evaluator for res, the Result the
// snapshot's features read.
func (s *Snapshot) evaluator(res *analysis.Result) ide.Evaluator {
	s.evalOnce.Do(func() { s.eval = &evaluation{res: res} })
	ev := s.eval
	if ev.res != res {
		// The fallback Result changed under us (a newer good Result
		// arrived); rare, so evaluate without sharing.
		ev = &evaluation{res: res}
	}
	return func(site *analysis.Site) (string, bool) { return ev.site(s, site) }
}

// site evaluates one site, once.
func (e *evaluation) site(snap *Snapshot, site *analysis.Site) (string, bool) {
	e.once.Do(func() { e.scope = newEvalScope(snap, e.res) })
	e.mu.Lock()
	defer e.mu.Unlock()
	if h, ok := e.hints[site]; ok {
		return h.text, h.ok
	}
	v, ds := e.scope.Site(site)
	h := hint{text: eval.Plain(v), ok: !failed(v, ds)}
	if e.hints == nil {
		e.hints = map[*analysis.Site]hint{}
	}
	e.hints[site] = h
	return h.text, h.ok
}

// newEvalScope builds the scope: inputs from the settings (files that fail
// to load are skipped; blueprint.plan reports them), the snapshot's
// providers, and an environment with the network off whose file() reads
// only the blueprint's folder — none at all for a document without one.
func newEvalScope(snap *Snapshot, res *analysis.Result) *eval.Scope {
	dir := ""
	if res.Path != "" {
		dir = filepath.Dir(res.Path)
	}
	inputs, _ := planInputs(snap.Settings, dir, snap.roots)
	var env funcs.Env = &funcs.LocalEnv{} // no root: file access off; no Fetch: network off
	if dir != "" {
		env = funcs.DefaultEnv(dir)
	}
	scope, _ := eval.NewScope(snap.ctx, res, inputs, eval.Options{Registry: snap.Registry(), Env: env})
	return scope
}

// failed says a site's value is unknown because evaluating it went wrong
// (a runtime error, a cycle, an erroneous substitution) or because a
// variable it reads has no value, rather than because it is only known
// after deployment: such a site gets no hint (a diagnostic, or the plan
// preview, says what is missing).
func failed(v funcs.Value, ds []source.Diagnostic) bool {
	if !v.IsUnknown() {
		return false
	}
	for _, d := range ds {
		if d.Severity == source.Error {
			return true
		}
	}
	for _, why := range strings.Split(v.UnknownReason(), ", ") {
		if strings.HasSuffix(why, "(failed)") || strings.HasSuffix(why, "(cycle)") ||
			why == "a substitution with errors" || strings.HasPrefix(why, "variables.") {
			return true
		}
	}
	return false
}
