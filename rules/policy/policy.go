package policy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The diagnostic codes of policies.
var (
	CodeInvalid = source.NewCode("policy-invalid", source.Error,
		"A Rego policy file does not parse or compile, or uses a builtin policies may not (http.send, net.lookup_ip_addr, opa.runtime); the project's other policy files still run.",
		"package policies.owner\n\ndeny contains msg if {\n  http.send({\"method\": \"get\", \"url\": \"https://example.com\"})\n}\n")
	CodeDeny = source.NewCode("policy-deny", source.Error,
		"A project policy's deny rule reports this resource (docs/policies.md).", "")
	CodeWarn = source.NewCode("policy-warn", source.Warning,
		"A project policy's warn rule reports this resource (docs/policies.md).", "")
	CodeBudget = source.NewCode("policy-budget", source.Error,
		"A project policy ran past its time budget and was stopped; the other policies still ran.", "")
	CodeFailed = source.NewCode("policy-error", source.Error,
		"A project policy failed while evaluated (a runtime error in the policy).", "")
)

// DefaultBudget is how long one policy rule may run over one blueprint.
const DefaultBudget = 2 * time.Second

// denied are the builtins policies are not compiled with: the ones that
// reach the network or read the host.
var denied = map[string]bool{"http.send": true, "net.lookup_ip_addr": true, "opa.runtime": true}

// Options tune Load.
type Options struct {
	Budget time.Duration // per rule and blueprint; 0: DefaultBudget
	Limit  int64         // the largest policy file read; 0: safefs's default
}

// File is a policy file with its mistakes.
type File struct {
	Path        string
	Mapper      *source.Mapper
	Diagnostics []source.Diagnostic
}

// Set is a loaded folder of policies, ready to run; safe for concurrent
// use.
type Set struct {
	Dir string
	// Problems are the files with mistakes, sorted by path; their rules
	// do not run.
	Problems []File
	queries  []query
	budget   time.Duration
}

// query is one deny or warn rule set of one package.
type query struct {
	name string // data.policies.owner.deny
	file string
	head source.Range // the rule's first head, in file
	warn bool
	pq   rego.PreparedEvalQuery
}

// capabilities are this OPA's, less the denied builtins, with no host
// allowed for network access.
func capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	var keep []*ast.Builtin
	for _, b := range caps.Builtins {
		if !denied[b.Name] {
			keep = append(keep, b)
		}
	}
	caps.Builtins = keep
	caps.AllowNet = []string{}
	return caps
}

// Load reads every .rego file under dir (its _test.rego files aside),
// compiles them and prepares their deny and warn rules. A file with a
// mistake is reported in Problems and left out; the error is for I/O.
func Load(ctx context.Context, dir string, opts Options) (*Set, error) {
	s := &Set{Dir: dir, budget: opts.Budget}
	if s.budget <= 0 {
		s.budget = DefaultBudget
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = safefs.DefaultDocumentLimit
	}
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".rego") && !strings.HasSuffix(p, "_test.rego") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("policies: %w", err)
	}
	sort.Strings(paths)
	caps := capabilities()
	mappers := map[string]*source.Mapper{}
	modules := map[string]*ast.Module{}
	problems := map[string][]source.Diagnostic{}
	for _, p := range paths {
		content, err := safefs.ReadFile(p, limit)
		if err != nil {
			return nil, fmt.Errorf("policies: %w", err)
		}
		m := source.NewMapper(content)
		mappers[p] = m
		mod, err := ast.ParseModuleWithOpts(p, string(content), ast.ParserOptions{RegoVersion: ast.RegoV1, Capabilities: caps})
		if err != nil {
			problems[p] = append(problems[p], astDiagnostics(err, p, m)...)
			continue
		}
		// Compiled alone first, so that one file's mistake stays its own.
		c := ast.NewCompiler().WithCapabilities(caps)
		if c.Compile(map[string]*ast.Module{p: mod}); c.Failed() {
			problems[p] = append(problems[p], astDiagnostics(c.Errors, p, m)...)
			continue
		}
		modules[p] = mod
	}
	compiler := ast.NewCompiler().WithCapabilities(caps)
	if compiler.Compile(modules); compiler.Failed() {
		// Files at odds with each other (the same rule in two packages'
		// files): report every error and run none of them.
		for _, e := range compiler.Errors {
			f := ""
			if e.Location != nil {
				f = e.Location.File
			}
			if m := mappers[f]; m != nil {
				problems[f] = append(problems[f], astDiagnostics(ast.Errors{e}, f, m)...)
			}
		}
		modules = nil
	}
	for _, p := range paths {
		if ds := problems[p]; len(ds) > 0 {
			source.SortDiagnostics(ds)
			s.Problems = append(s.Problems, File{Path: p, Mapper: mappers[p], Diagnostics: ds})
		}
	}
	if modules == nil {
		return s, nil
	}
	for _, p := range paths {
		mod := modules[p]
		if mod == nil {
			continue
		}
		for _, kind := range []string{"deny", "warn"} {
			var head *ast.Rule
			for _, r := range mod.Rules {
				if r.Head.Name.String() == kind || len(r.Head.Reference) > 0 && r.Head.Reference[0].Value.String() == kind {
					head = r
					break
				}
			}
			if head == nil {
				continue
			}
			name := mod.Package.Path.String() + "." + kind
			pq, err := rego.New(
				rego.Query(name),
				rego.Compiler(compiler),
				rego.Capabilities(caps),
				rego.StrictBuiltinErrors(true),
				rego.EnablePrintStatements(false),
			).PrepareForEval(ctx)
			if err != nil {
				s.Problems = append(s.Problems, File{Path: p, Mapper: mappers[p], Diagnostics: astDiagnostics(err, p, mappers[p])})
				continue
			}
			q := query{name: name, file: p, warn: kind == "warn", pq: pq}
			if head.Location != nil {
				q.head = source.R(head.Location.Offset, head.Location.Offset+len(kind))
			}
			s.queries = append(s.queries, q)
		}
	}
	return s, nil
}

// astDiagnostics turns OPA's errors into diagnostics of the file at
// their offsets.
func astDiagnostics(err error, path string, m *source.Mapper) []source.Diagnostic {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		var one *ast.Error
		if errors.As(err, &one) {
			errs = ast.Errors{one}
		}
	}
	if len(errs) == 0 {
		return []source.Diagnostic{CodeInvalid.New(source.Range{}, "%s", err.Error())}
	}
	var out []source.Diagnostic
	for _, e := range errs {
		r := source.Range{}
		if e.Location != nil && (e.Location.File == "" || e.Location.File == path) {
			off := e.Location.Offset
			if off == 0 && e.Location.Row > 1 && m != nil {
				off = m.LineStart(e.Location.Row-1) + max(e.Location.Col-1, 0)
			}
			end := off + max(len(e.Location.Text), 1)
			if m != nil {
				end = min(end, len(m.Content()))
				off = min(off, end)
			}
			r = source.R(off, end)
		}
		out = append(out, CodeInvalid.New(r, "%s", e.Message))
	}
	return out
}

// Check runs every policy over the evaluated blueprint bp (whose text m
// maps) and returns their findings, positioned at the resource field
// each names, sorted.
func (s *Set) Check(ctx context.Context, bp *eval.Blueprint, m *source.Mapper) []source.Diagnostic {
	if s == nil || len(s.queries) == 0 || bp == nil {
		return nil
	}
	input := Input(bp, m)
	var out []source.Diagnostic
	for _, q := range s.queries {
		if ctx.Err() != nil {
			return nil
		}
		qctx, cancel := context.WithTimeout(ctx, s.budget)
		rs, err := q.pq.Eval(qctx, rego.EvalInput(input))
		timedOut := errors.Is(qctx.Err(), context.DeadlineExceeded)
		cancel()
		rel := []source.Related{{URI: q.file, Range: q.head, Message: "the policy rule " + q.name}}
		switch {
		case err != nil && timedOut:
			d := CodeBudget.New(source.Range{}, "policy %s was stopped after %s, its budget", q.name, s.budget)
			d.Related = rel
			out = append(out, d)
			continue
		case err != nil:
			if ctx.Err() != nil {
				return nil
			}
			d := CodeFailed.New(source.Range{}, "policy %s failed: %v", q.name, err)
			d.Related = rel
			out = append(out, d)
			continue
		}
		for _, r := range rs {
			for _, x := range r.Expressions {
				for _, item := range findingsOf(x.Value) {
					out = append(out, s.finding(bp, q, item, rel))
				}
			}
		}
	}
	source.SortDiagnostics(out)
	return out
}

// findingsOf reads a deny or warn set (a set is a JSON array).
func findingsOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

// finding makes one diagnostic of a deny or warn item: a message, or
// {"msg": ..., "resource": name, "path": "spec.x"}.
func (s *Set) finding(bp *eval.Blueprint, q query, item any, rel []source.Related) source.Diagnostic {
	code := CodeDeny
	if q.warn {
		code = CodeWarn
	}
	msg, resource, path := "", "", ""
	switch x := item.(type) {
	case string:
		msg = x
	case map[string]any:
		msg, _ = x["msg"].(string)
		if msg == "" {
			msg, _ = x["message"].(string)
		}
		resource, _ = x["resource"].(string)
		path, _ = x["path"].(string)
	default:
		msg = fmt.Sprint(x)
	}
	var rng source.Range
	if resource != "" {
		for _, r := range bp.Resources {
			if r.Name == resource || r.Template == resource {
				rng = rules.Locate(r, path)
				break
			}
		}
	}
	d := code.New(rng, "%s (policy %s)", msg, strings.TrimPrefix(q.name, "data."))
	d.Related = rel
	return d
}
