package rules

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Options tune Run. The zero value runs every rule with its defaults
// against the built-in providers, one resource after another.
type Options struct {
	Config   *Config
	Registry *registry.Registry // for the write-only marks of provider fields; nil: built-in
	// ForEach, when set, runs do(0) ... do(n-1), in any order and
	// concurrently if it likes: the caller's fan-out (this package starts
	// no goroutines). Nil runs them in order.
	ForEach func(n int, do func(i int))
}

// chunk is how many resources one ForEach task checks.
const chunk = 128

// Run runs the enabled rules of opts.Config (nil: every rule with its
// defaults) over the evaluated blueprint bp and returns their findings as
// diagnostics at each rule's default severity (the project config's
// severity table applies afterwards, like for any code), sorted. Excluded
// resources are skipped; resources whose condition or each list is only
// known after deployment are checked with what is known. The instances
// of an each resource share their source, so a finding they share is
// reported once.
func Run(ctx context.Context, bp *eval.Blueprint, opts Options) []source.Diagnostic {
	return Append(ctx, nil, bp, opts)
}

// Append is Run appending the findings to dst (check's own
// diagnostics), which it leaves as they are: one slice is built for
// both.
func Append(ctx context.Context, dst []source.Diagnostic, bp *eval.Blueprint, opts Options) []source.Diagnostic {
	if bp == nil || bp.Result == nil || bp.Result.Blueprint == nil {
		return dst
	}
	cfg := opts.Config
	parts := make([][]hit, (len(bp.Resources)+chunk-1)/chunk)
	do := func(i int) {
		if ctx.Err() != nil {
			return
		}
		// Each definition's findings (an each resource's instances are
		// next to each other) sorted on their own: the definitions do
		// not overlap, so the whole is sorted with a pass to check it.
		rs := bp.Resources[i*chunk : min((i+1)*chunk, len(bp.Resources))]
		out := make([]hit, 0, 6*len(rs)) // room for what a blueprint written without the rules in mind has
		s := &subject{}
		group, tmpl := 0, ""
		for _, r := range rs {
			if r.Template != tmpl {
				sortHits(out[group:])
				group, tmpl = len(out), r.Template
			}
			out = appendResource(out, s, r, cfg)
		}
		sortHits(out[group:])
		parts[i] = out
	}
	if opts.ForEach != nil {
		opts.ForEach(len(parts), do)
	} else {
		for i := range parts {
			do(i)
		}
	}
	if ctx.Err() != nil {
		return dst
	}
	whole := checkBlueprint(bp, opts)
	source.SortDiagnostics(whole)
	n := len(whole)
	for _, p := range parts {
		n += len(p)
	}
	start := len(dst)
	out := slices.Grow(dst, n)
	for _, p := range parts {
		for _, h := range p {
			out = append(out, source.Diagnostic{Range: h.rng, Severity: h.rule.Code.Severity, Code: h.rule.ID, Message: h.msg, Suggestions: h.fix})
		}
	}
	out = append(out, whole...)
	source.SortDiagnostics(out[start:]) // two sorted runs, unless definitions overlap
	// Sorted, a shared finding of each instances is a run of equal
	// code and range. Nothing is moved before the first repeat (a
	// blueprint without each has none).
	i := min(start+1, len(out))
	for i < len(out) && !sameFinding(&out[i], &out[i-1]) {
		i++
	}
	kept := out[:i]
	for ; i < len(out); i++ {
		if !sameFinding(&out[i], &kept[len(kept)-1]) {
			kept = append(kept, out[i])
		}
	}
	return kept
}

// sameFinding reports whether a and b are one finding of several each
// instances: the same code at the same place.
func sameFinding(a, b *source.Diagnostic) bool {
	return a.Code == b.Code && a.Range == b.Range
}

// hit is a finding of a resource's rule on its way to a diagnostic:
// half its size while the chunks collect and sort them.
type hit struct {
	rng  source.Range
	rule *Rule
	msg  string
	fix  []source.Suggestion
}

// sortHits sorts hs as source.SortDiagnostics sorts their diagnostics.
func sortHits(hs []hit) {
	slices.SortStableFunc(hs, func(a, b hit) int {
		if a.rng.Start != b.rng.Start {
			return cmp.Compare(a.rng.Start, b.rng.Start)
		}
		if a.rng.End != b.rng.End {
			return cmp.Compare(a.rng.End, b.rng.End)
		}
		if a.rule != b.rule {
			return cmp.Compare(a.rule.rank, b.rule.rank) // their ids' order
		}
		return strings.Compare(a.msg, b.msg)
	})
}

// appendResource appends the findings of r's rules to out; s is scratch
// space, reused from one resource to the next.
func appendResource(out []hit, s *subject, r *eval.Resource, cfg *Config) []hit {
	if r.Condition == eval.Excluded || r.Symbol == nil || r.Symbol.Resource == nil {
		return out
	}
	rs := byType[r.Type]
	if len(rs) == 0 {
		return out
	}
	def := r.Symbol.Resource
	suppressed := metadataSuppressions(r.MetadataField("custom"))
	s.setResource(r)
	for _, rule := range rs {
		if !cfg.Enabled(rule) || suppressed[rule.ID] {
			continue
		}
		s.rule, s.params = rule, cfg.params(rule.ID)
		from := len(s.findings)
		rule.check(s)
		for i := from; i < len(s.findings); i++ {
			s.findings[i].rule = rule
		}
	}
	msgs := s.messages(r.Template)
	for i := range s.findings {
		f := &s.findings[i]
		at := locate(def, f.path, f.missing)
		h := hit{rng: at.rng, rule: f.rule, msg: msgs[i]}
		switch lit := at.literal; {
		case lit == nil:
		case f.fixBool != nil && lit.Tag == syntax.BoolTag:
			want := fmt.Sprint(*f.fixBool)
			h.fix = []source.Suggestion{{
				Title: fmt.Sprintf("Set %s to %s", pathText(f.path), want),
				Edits: []source.Edit{{Range: lit.Rng, NewText: want}},
			}}
		case f.fixText != "" && lit.Tag == syntax.StringTag && plainWord(f.fixText):
			// The content only, so the scalar keeps its quotes (JSON,
			// a quoted YAML string) or its plainness.
			h.fix = []source.Suggestion{{
				Title: fmt.Sprintf("Set %s to %s", pathText(f.path), f.fixText),
				Edits: []source.Edit{{Range: lit.ValueRange(), NewText: f.fixText}},
			}}
		}
		out = append(out, h)
	}
	return out
}

// messages returns the messages of a resource's findings ("tmpl:
// detail (rule title)"), cut from one string: one allocation instead of
// one per finding (a large blueprint has tens of thousands), for
// messages that live as long as one another (the editor keeps a
// resource's findings until it checks the resource again). The slice
// is the subject's scratch, valid until the next resource.
func (s *subject) messages(tmpl string) []string {
	fs := s.findings
	n := 0
	for i := range fs {
		n += messageLen(tmpl, &fs[i])
	}
	var b strings.Builder
	b.Grow(n)
	for i := range fs {
		f := &fs[i]
		b.WriteString(tmpl)
		b.WriteString(": ")
		b.WriteString(f.detail)
		b.WriteString(f.tail)
		b.WriteString(" (")
		b.WriteString(f.rule.Title)
		b.WriteString(")")
	}
	all := b.String()
	s.msgs = s.msgs[:0]
	for i := range fs {
		k := messageLen(tmpl, &fs[i])
		s.msgs = append(s.msgs, all[:k])
		all = all[k:]
	}
	return s.msgs
}

func messageLen(tmpl string, f *finding) int {
	return len(tmpl) + len(": ") + len(f.detail) + len(f.tail) + len(" (") + len(f.rule.Title) + len(")")
}

// metadataSuppressions reads the rules a resource's metadata suppresses
// from metadata.custom: suppressedRules (or Guard's
// guard.SuppressedRules), a list of rule ids or equivalents'
// identifiers, or of {rule, reason} or {<rule>: reason} mappings.
func metadataSuppressions(custom funcs.Value) map[string]bool {
	cm, ok := custom.Map()
	if !ok {
		return nil
	}
	list, ok := cm.Get("suppressedRules")
	if !ok {
		if g, ok := cm.Get("guard"); ok {
			if gm, ok := g.Map(); ok {
				list, _ = gm.Get("SuppressedRules")
			}
		}
	}
	es, _ := list.Elems()
	var out map[string]bool
	add := func(name string) {
		for _, r := range resolve(name) {
			if out == nil {
				out = map[string]bool{}
			}
			out[r.ID] = true
		}
	}
	for _, e := range es {
		name, ok := e.Str()
		if em, isMap := e.Map(); isMap {
			var v funcs.Value
			if v, ok = em.Get("rule"); !ok {
				v, ok = em.Get("id")
			}
			if !ok {
				// {RULE: reason}, as Guard registry templates write it.
				for _, k := range em.Keys() {
					add(k)
				}
				continue
			}
			name, ok = v.Str()
		}
		if !ok {
			continue
		}
		add(name)
	}
	return out
}

// plainWord reports whether s can replace a scalar's content in any
// format without quoting or escaping.
func plainWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return s != ""
}
