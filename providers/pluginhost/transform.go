package pluginhost

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"time"
)

// Transformers returns the loaded transformers by the transform name
// each implements.
func (r *Result) Transformers() map[string]Target {
	out := map[string]Target{}
	for _, p := range r.Plugins {
		if p.Kind == KindTransformer && p.Transform != "" {
			out[p.Transform] = p.Target
		}
	}
	return out
}

// Transform runs the transformer t over a blueprint (written in format:
// "yaml", "jwcc" or "bplang") through the helper. It never fails as a
// whole: a transformer that cannot be run, fails, dies, hangs or answers
// nonsense is the answer's Error, within the launch timeout plus one
// call timeout (and a margin for the helper).
func Transform(ctx context.Context, o Options, t Target, format string, blueprint []byte) *Transformed {
	o = o.withDefaults()
	budget := o.LaunchTimeout + o.CallTimeout + 3*time.Second
	var out Transformed
	req := TransformRequest{Target: t, Format: format, Blueprint: string(blueprint)}
	if _, err := callHelper(ctx, o, "transform", budget, req, &out); err != nil {
		return &Transformed{Error: err.Error()}
	}
	if out.Error == "" && len(out.Blueprint) == 0 {
		return &Transformed{Error: fmt.Sprintf("transformer %s answered no blueprint", t.ID)}
	}
	return &out
}

// Runner runs the loaded transformers (analysis.Transformer), keeping
// the answers for the last blueprints it saw so that a blueprint
// unchanged since its last transform is not transformed again (an
// editor asks at every version). A Runner is safe for concurrent use.
type Runner struct {
	o      Options
	byName map[string]Target

	mu   sync.Mutex
	memo map[[32]byte]*Transformed
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
	return &Runner{o: o, byName: by, memo: map[[32]byte]*Transformed{}}
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
	t, ok := r.byName[name]
	if !ok {
		return &Transformed{Error: "no transformer implements " + name}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", t.Path, name, format)
	h.Write(text)
	var key [32]byte
	h.Sum(key[:0])
	r.mu.Lock()
	out, hit := r.memo[key]
	r.mu.Unlock()
	if hit {
		return out
	}
	out = Transform(ctx, r.o, t, format, text)
	if ctx.Err() != nil {
		return out // cancelled: not an answer to keep
	}
	r.mu.Lock()
	if len(r.memo) >= memoSize {
		clear(r.memo)
	}
	r.memo[key] = out
	r.mu.Unlock()
	return out
}
