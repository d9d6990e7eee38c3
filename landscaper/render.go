package landscaper

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// RenderOptions say where a blueprint lives and bound each execution.
type RenderOptions struct {
	Options
	// Timeout bounds one GoTemplate execution (0: 5 s).
	Timeout time.Duration
	// MaxOutput bounds what one execution writes (0: 4 MiB).
	MaxOutput int
}

// Rendered is what a blueprint deploys for the given import values: the
// output of its executions, merged per kind as Landscaper merges them.
type Rendered struct {
	DeployItems      []any          `json:"deployItems"`
	Exports          map[string]any `json:"exports"`
	Subinstallations []any          `json:"subinstallations"`
	// Unknown lists what render did not evaluate, and why.
	Unknown []Unknown `json:"unknown,omitempty"`
	// Warnings are problems of the output that do not stop it: deploy
	// item configurations that do not match their deployer's schema.
	Warnings []string `json:"warnings,omitempty"`
}

// Unknown is one part of the output render left unevaluated.
type Unknown struct {
	Where  string `json:"where"`
	Reason string `json:"reason"`
}

// Render checks blueprint f, validates the import values (a mapping of
// import name to value) against the imports' declarations and schemas,
// and runs its import, deploy, export and subinstallation executions.
// It returns the blueprint's diagnostics; when one is an error, or the
// values or an execution fail (problems), there is no output.
func Render(f *syntax.File, values map[string]any, opts RenderOptions) (*Rendered, []source.Diagnostic, []string) {
	res, c := check(f, opts.Options)
	for _, d := range res.Diagnostics {
		if d.Severity == source.Error {
			return nil, res.Diagnostics, nil
		}
	}
	root, _ := f.Root.(*syntax.Mapping)
	if root == nil || res.Kind != "Blueprint" || c.schemas == nil {
		return nil, res.Diagnostics, []string{"render takes a Landscaper blueprint (kind: Blueprint)"}
	}
	r := &renderer{c: c, opts: opts, root: root, out: &Rendered{DeployItems: []any{}, Exports: map[string]any{}, Subinstallations: []any{}}}
	if r.opts.Timeout == 0 {
		r.opts.Timeout = 5 * time.Second
	}
	if r.opts.MaxOutput == 0 {
		r.opts.MaxOutput = 4 << 20
	}
	r.imports = r.importValues(items(root, "imports"), values)
	if len(r.problems) > 0 {
		return nil, res.Diagnostics, r.problems
	}
	r.run()
	if len(r.problems) > 0 {
		return nil, res.Diagnostics, r.problems
	}
	r.out.Warnings = checkDeployItems(r.out.DeployItems)
	return r.out, res.Diagnostics, nil
}

// renderer holds one render's state.
type renderer struct {
	c        *checker
	opts     RenderOptions
	root     *syntax.Mapping
	imports  map[string]any // by name, as the templates see them
	out      *Rendered
	problems []string
	mu       sync.Mutex
	calls    []string // the functions of the running execution that gave a marker (under mu: a run past its time may still add)
}

func (r *renderer) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

func (r *renderer) unknown(where, format string, args ...any) {
	r.out.Unknown = append(r.out.Unknown, Unknown{Where: where, Reason: fmt.Sprintf(format, args...)})
}

// importValues validates the given values and returns the imports the
// executions see: given values, else defaults of optional imports.
// Conditional imports count only when their parent has a value.
func (r *renderer) importValues(list []*syntax.Mapping, values map[string]any) map[string]any {
	declared := map[string]bool{}
	out := map[string]any{}
	var walk func([]*syntax.Mapping, bool)
	walk = func(list []*syntax.Mapping, active bool) {
		for _, m := range list {
			name, _ := str(m, "name")
			declared[name] = true
			v, given := values[name]
			if !given && active {
				if def, ok := m.Get("default").(*syntax.Mapping); ok && def.Get("value") != nil {
					v, given = Value(def.Get("value")), true
				}
			}
			required := true
			if _, rs := str(m, "required"); rs != nil && rs.Tag == syntax.BoolTag {
				required = rs.Value == "true"
			}
			switch {
			case given:
				r.validateImport(m, name, v)
				out[name] = v
			case active && required:
				r.problem("import %q is required and has no value", name)
			}
			walk(items(m, "imports"), active && given)
		}
	}
	walk(list, true)
	for name := range values {
		if !declared[name] {
			var names []string
			for k := range declared {
				names = append(names, k)
			}
			sortStrings(names)
			msg := fmt.Sprintf("%q is not an import of the blueprint", name)
			if near := source.Closest(name, names); len(near) > 0 {
				msg += fmt.Sprintf("; did you mean %q?", near[0])
			}
			r.problem("%s", msg)
		}
	}
	return out
}

// validateImport checks one import value against its type and schema.
func (r *renderer) validateImport(m *syntax.Mapping, name string, v any) {
	t, _ := declType(m)
	switch t {
	case "data":
		if sch := r.c.schemas.Imports[name]; sch != nil {
			for _, msg := range validate(sch, v) {
				r.problem("import %q: %s", name, msg)
			}
		}
	case "target", "targetMap":
		if _, ok := v.(map[string]any); !ok {
			r.problem("import %q is a %s: its value is a mapping (a target%s)", name, t, map[bool]string{true: " by key"}[t == "targetMap"])
		}
	case "targetList":
		if _, ok := v.([]any); !ok {
			r.problem("import %q is a targetList: its value is a list of targets", name)
		}
	}
}

// validate returns the messages of v's violations of sch.
func validate(sch *jsonschema.Schema, v any) []string {
	var ve *jsonschema.ValidationError
	if err := sch.Validate(v); !errors.As(err, &ve) {
		return nil
	}
	var out []string
	for _, l := range leaves(ve) {
		out = append(out, l.ErrorKind.LocalizedString(printer)+pointer(l.InstanceLocation))
	}
	return out
}

// run runs the executions in Landscaper's order.
func (r *renderer) run() {
	binding := func() map[string]any {
		return map[string]any{"imports": plain(r.imports), "cd": map[string]any{}, "components": map[string]any{"components": []any{}},
			"blueprint": map[string]any{}, "blueprintDef": map[string]any{}, "componentDescriptorDef": map[string]any{}, "state": nil}
	}
	for _, m := range items(r.root, "importExecutions") {
		out, ok := r.execute("importExecutions", m, binding())
		if !ok {
			continue
		}
		if errs, _ := out["errors"].([]any); len(errs) > 0 {
			for _, e := range errs {
				r.problem("import execution %s: %v", quoted(m), e)
			}
		}
		if b, ok := out["bindings"].(map[string]any); ok {
			for k, v := range b {
				r.imports[k] = v
			}
		}
	}
	for _, m := range items(r.root, "deployExecutions") {
		if out, ok := r.execute("deployExecutions", m, binding()); ok {
			if list, ok := out["deployItems"].([]any); ok {
				r.out.DeployItems = append(r.out.DeployItems, list...)
			}
		}
	}
	for _, m := range items(r.root, "subinstallations") {
		r.staticSubinstallation(m)
	}
	for _, m := range items(r.root, "subinstallationExecutions") {
		if out, ok := r.execute("subinstallationExecutions", m, binding()); ok {
			if list, ok := out["subinstallations"].([]any); ok {
				r.out.Subinstallations = append(r.out.Subinstallations, list...)
			}
		}
	}
	exportExecs := items(r.root, "exportExecutions")
	if len(exportExecs) > 0 {
		r.unknown("exportExecutions", "the values deploy items and subinstallations export come from their deployers and are not known: .values.deployitems, .values.dataobjects and .values.targets are empty")
	}
	for _, m := range exportExecs {
		b := binding()
		values := map[string]any{"deployitems": map[string]any{}, "dataobjects": map[string]any{}, "targets": map[string]any{}}
		b["values"] = values
		for k, v := range values {
			b[k] = v
		}
		out, ok := r.execute("exportExecutions", m, b)
		if !ok {
			continue
		}
		exports, _ := out["exports"].(map[string]any)
		for k, v := range exports {
			if !r.c.exported.has(k) {
				r.problem("export execution %s: %s", quoted(m), undeclaredExport(r.c.exported, k))
				continue
			}
			if sch := r.c.schemas.Exports[k]; sch != nil && !hasUnknown(v) {
				for _, msg := range validate(sch, v) {
					r.problem("export %q: %s", k, msg)
				}
			}
			r.out.Exports[k] = v
		}
	}
}

// staticSubinstallation adds a subinstallation of the blueprint's list:
// inline, or read from its file.
func (r *renderer) staticSubinstallation(m *syntax.Mapping) {
	file, fs := str(m, "file")
	if fs == nil {
		r.out.Subinstallations = append(r.out.Subinstallations, Value(m))
		return
	}
	data, err := r.c.roots.ReadFile(r.c.pathOf(file), r.c.opts.Limit)
	if err != nil {
		r.problem("subinstallation %q: %v", file, err)
		return
	}
	f := syntax.Parse(file, data)
	r.out.Subinstallations = append(r.out.Subinstallations, Value(f.Root))
}

// execute runs one execution and returns its output document.
func (r *renderer) execute(list string, m *syntax.Mapping, binding map[string]any) (map[string]any, bool) {
	ex, ok := r.c.loadExecution(list, m)
	if !ok {
		r.problem("%s %s: its template cannot be read", list, quoted(m))
		return nil, false
	}
	where := list + "/" + ex.name
	var text string
	switch ex.kind {
	case "GoTemplate":
		if strings.Contains(ex.text, ".cd") || strings.Contains(ex.text, ".components") || strings.Contains(ex.text, "componentDescriptorDef") {
			r.unknown(where, "the component descriptor is not fetched: .cd, .components and .componentDescriptorDef are empty")
		}
		r.mu.Lock()
		r.calls = nil
		r.mu.Unlock()
		out, err := r.goTemplate(ex.text, binding)
		r.mu.Lock()
		calls := dedupe(r.calls)
		r.mu.Unlock()
		for _, call := range calls {
			r.unknown(where, "%s", call)
		}
		var ne *notEvaluated
		switch {
		case errors.As(err, &ne):
			r.unknown(where, "%s: its output is left out", ne.Error())
			return nil, false
		case err != nil && list == "exportExecutions" && !errors.Is(err, errTooLong) && !errors.Is(err, errTooLarge):
			r.unknown(where, "the execution fails without the values deploy items export (%v): its exports are left out", err)
			return nil, false
		case err != nil:
			r.problem("%s: %v", where, err)
			return nil, false
		}
		text = out
		if strings.Contains(text, "<no value>") {
			r.unknown(where, "the output has <no value>: the template reads a value render does not have (a component descriptor, a state, an absent import)")
		}
	case "Spiff":
		return r.spiff(ex, where, binding)
	default:
		return nil, false
	}
	f := syntax.Parse(where, []byte(text))
	if errs := f.SyntaxErrors(); len(errs) > 0 {
		pos := f.Mapper.OffsetPosition(errs[0].Range.Start, source.UTF32)
		r.problem("%s: the output is not YAML: %d:%d: %s", where, pos.Line+1, pos.Character+1, errs[0].Message)
		return nil, false
	}
	out, _ := Value(f.Root).(map[string]any)
	return out, true
}

// dedupe is list without repeats, in order.
func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// plain is v as Landscaper's templates see it: decoded from JSON, so
// numbers are float64.
func plain(v any) any {
	return mapNumbers(v, func(n json.Number) any {
		f, _ := n.Float64()
		return f
	})
}
