package pluginhost

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Transformers returns the loaded transformers by the transform name
// each implements.
func (r *Result) Transformers() map[string]*Plugin {
	out := map[string]*Plugin{}
	for _, p := range r.Plugins {
		if p.Kind == KindTransformer && p.Transform != "" {
			out[p.Transform] = p
		}
	}
	return out
}

// Transform runs the transformer t over a blueprint (written in format:
// "yaml", "jwcc" or "bplang") through the helper. It never fails as a
// whole: a transformer that cannot be run, fails, dies, hangs or answers
// nonsense is the answer's Error, within the launch timeout plus one
// call timeout (and a margin for the helper).
func Transform(ctx context.Context, o Options, req TransformRequest) *Transformed {
	o = o.withDefaults()
	budget := o.LaunchTimeout + o.CallTimeout + 3*time.Second
	var out Transformed
	if _, err := callHelper(ctx, o, "transform", budget, req, &out); err != nil {
		return &Transformed{Error: err.Error()}
	}
	if out.Error == "" && len(out.Blueprint) == 0 {
		return &Transformed{Error: fmt.Sprintf("transformer %s answered no blueprint", req.Target.ID)}
	}
	return &out
}

// Runner runs the loaded transformers (analysis.Transformer), keeping
// the answers for the last blueprints it saw so that a blueprint
// unchanged since its last transform is not transformed again (an
// editor asks at every version). A Runner is safe for concurrent use.
type Runner struct {
	o      Options
	byName map[string]*Plugin
	params Params
	memo   *memo
}

// memo is the answers a Runner (and those With made of it) keeps.
type memo struct {
	mu sync.Mutex
	m  map[[32]byte]*Transformed
}

// memoSize bounds the answers a Runner keeps.
const memoSize = 64

// NewRunner returns the runner of r's transformers, or nil when r has
// none.
func NewRunner(r *Result, o Options) *Runner {
	if r == nil {
		return nil
	}
	by := r.Transformers()
	if len(by) == 0 {
		return nil
	}
	return &Runner{o: o, byName: by, memo: &memo{m: map[[32]byte]*Transformed{}}}
}

// With returns a runner that runs the same transformers with p (the
// deploy configuration's), sharing r's answers.
func (r *Runner) With(p Params) *Runner {
	if r == nil {
		return nil
	}
	c := *r
	c.params = p
	return &c
}

// Has reports whether a transformer implements the transform name.
func (r *Runner) Has(name string) bool {
	if r == nil {
		return false
	}
	_, ok := r.byName[name]
	return ok
}

// Transform runs the transformer of name over text (see Transform).
func (r *Runner) Transform(ctx context.Context, name, format string, text []byte) *Transformed {
	p, ok := r.byName[name]
	if !ok {
		return &Transformed{Error: "no transformer implements " + name}
	}
	req := TransformRequest{Target: p.Target, Format: format, Blueprint: string(text), Namespace: p.Namespace, Params: r.params}
	data, err := json.Marshal(req)
	if err != nil { // a value JSON cannot hold (NaN): not kept
		return Transform(ctx, r.o, req)
	}
	key := sha256.Sum256(data)
	r.memo.mu.Lock()
	out, hit := r.memo.m[key]
	r.memo.mu.Unlock()
	if hit {
		return out
	}
	out = Transform(ctx, r.o, req)
	if ctx.Err() != nil {
		return out // cancelled: not an answer to keep
	}
	r.memo.mu.Lock()
	if len(r.memo.m) >= memoSize {
		clear(r.memo.m)
	}
	r.memo.m[key] = out
	r.memo.mu.Unlock()
	return out
}
