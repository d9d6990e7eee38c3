package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// commandPlan is the plan-preview command: arguments [{"uri": "..."}],
// result {"markdown": "...", "plan": <plan JSON or null>}.
const commandPlan = "blueprint.plan"

// commands lists every workspace/executeCommand command the server runs.
var commands = []string{commandPlan, commandShowReferences, commandRender}

func (s *server) ExecuteCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	switch p.Command {
	case commandPlan:
		return s.planCommand(ctx, p.Arguments)
	case commandShowReferences:
		return s.showReferencesCommand(ctx, p.Arguments)
	case commandRender:
		return s.renderCommand(ctx, p.Arguments)
	}
	return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "unknown command: "+p.Command)
}

// planResult is the answer of blueprint.plan.
type planResult struct {
	Markdown string          `json:"markdown"`
	Plan     json.RawMessage `json:"plan"`
}

// commandURI reads the document argument: {"uri": "..."} or a bare URI.
func commandURI(args []protocol.LSPAny) (string, error) {
	if len(args) == 0 {
		return "", jsonrpc2.NewError(jsonrpc2.InvalidParams, `want arguments [{"uri": "..."}]`)
	}
	var obj struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(args[0], &obj); err == nil && obj.URI != "" {
		return obj.URI, nil
	}
	var bare string
	if err := json.Unmarshal(args[0], &bare); err == nil && bare != "" {
		return bare, nil
	}
	return "", jsonrpc2.NewError(jsonrpc2.InvalidParams, `want arguments [{"uri": "..."}]`)
}

// commandSnapshot is the snapshot of the document a command's
// arguments name.
func (s *server) commandSnapshot(ctx context.Context, args []protocol.LSPAny) (*Snapshot, error) {
	u, err := commandURI(args)
	if err != nil {
		return nil, err
	}
	return s.snapshot(ctx, u)
}

// planCommand plans the document (its open buffer; children through the
// session's loader) with the plan inputs from the settings.
func (s *server) planCommand(ctx context.Context, args []protocol.LSPAny) (protocol.LSPAny, error) {
	snap, err := s.commandSnapshot(ctx, args)
	if err != nil {
		return nil, err
	}
	if d := snap.Dialect(); !d.Blueprint {
		return json.Marshal(planResult{Markdown: "No plan: the document is " + d.Name + ", not a blueprint.\n", Plan: json.RawMessage("null")})
	}
	inputs, problems := planInputs(snap.Settings, filepath.Dir(snap.Path), snap.roots)
	opts := engine.Options{Roots: snap.roots}
	if snap.ws != nil {
		opts.Registry, opts.Loader = snap.ws.registry, snap.ws.loader
		if snap.ws.transformer != nil {
			opts.Transformer = snap.transformer()
		}
	}
	plan, diags, err := engine.PlanFile(ctx, snap.Path, snap.Content(), inputs, opts)
	if err != nil {
		return nil, err
	}
	md := planMarkdown(snap.Lines(), plan, diags, problems) + rulesMarkdown(snap.Mapper(), snap.ruleDiagnostics())
	if cfg, _ := deployConfig(snap.Settings, filepath.Dir(snap.Path), snap.roots); cfg != nil {
		md += deployConfigMarkdown(cfg)
	}
	res := planResult{Markdown: md, Plan: json.RawMessage("null")}
	if plan != nil {
		res.Plan = engine.JSON(plan)
	}
	return json.Marshal(res)
}

// planInputs gathers the plan inputs: the blueprint variables of the
// deploy configuration found for the blueprint, then those the settings
// name (which win); relative paths are taken from the blueprint's folder. Every file is read inside the
// document's roots only (settings may come from a repository's editor
// configuration, docs/security.md); a document with none reads no file.
// Files that fail to load or lie outside are returned as problems and
// skipped.
func planInputs(st *Settings, dir string, roots *safefs.Roots) (in eval.Inputs, problems []string) {
	cfg, problem := deployConfig(st, dir, roots)
	if problem != "" {
		problems = append(problems, problem)
	}
	problems = append(problems, addDeployConfig(&in, cfg)...)
	if st == nil {
		return in, problems
	}
	// load reads file f with read when it lies inside the roots.
	load := func(what, f string, read func(path string) error) {
		p := f
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		var err error
		switch {
		case roots == nil || roots.Primary() == "":
			err = errors.New("the document has no project folder to read it from")
		default:
			err = roots.Check(p)
		}
		if err == nil {
			err = read(p)
		}
		if err != nil {
			if errors.Is(err, safefs.ErrOutside) {
				err = fmt.Errorf("not read: it is outside the project root %s", roots.Primary())
			}
			problems = append(problems, fmt.Sprintf("%s %s: %v", what, f, err))
		}
	}
	for _, f := range st.PlanInputs {
		load("variables file", f, in.AddVarsFile)
	}
	for name, raw := range st.PlanVariables {
		v, err := funcs.ParseJSON(raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("planVariables.%s: %v", name, err))
			continue
		}
		if in.Vars == nil {
			in.Vars = map[string]eval.Input{}
		}
		in.Vars[name] = eval.Input{Value: v, Origin: "settings"}
	}
	for _, f := range st.PlanDataFiles {
		load("data file", f, in.AddDataFile)
	}
	if st.PlanStateFile != "" {
		load("state file", st.PlanStateFile, func(p string) error {
			state, err := eval.LoadState(p)
			in.State = state
			return err
		})
	}
	return in, problems
}

// planMarkdown puts what stands in the plan's way above the plan: input
// problems and error diagnostics (with line and column).
func planMarkdown(m *source.Mapper, plan *engine.Plan, diags []source.Diagnostic, problems []string) string {
	var b strings.Builder
	for _, p := range problems {
		fmt.Fprintf(&b, "> **Input problem**: %s\n\n", p)
	}
	var errs []source.Diagnostic
	for _, d := range diags {
		if d.Severity == source.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		fmt.Fprintf(&b, "**%d error%s** in the blueprint", len(errs), map[bool]string{true: "s"}[len(errs) > 1])
		if plan != nil {
			b.WriteString("; the plan below may be incomplete")
		}
		b.WriteString(":\n\n")
		for _, d := range errs {
			l, c := m.LineCol(d.Range.Start, source.UTF32)
			fmt.Fprintf(&b, "- %d:%d `%s` %s\n", l, c, d.Code, d.Message)
		}
		b.WriteString("\n")
	}
	if plan == nil {
		b.WriteString("No plan: the blueprint does not parse.\n")
		return b.String()
	}
	b.WriteString(engine.Markdown(plan))
	return b.String()
}
