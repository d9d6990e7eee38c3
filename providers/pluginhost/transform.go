package pluginhost

import (
	"context"
	"fmt"
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
