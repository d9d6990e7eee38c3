package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/landscaper"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// commandRender is the Landscaper render preview, beside the plan
// preview: arguments [{"uri": "...", "imports": "file"}], result
// {"markdown": "...", "render": <render JSON or null>}. Without
// "imports", imports.yaml beside the blueprint gives the import values
// when it exists.
const commandRender = "blueprint.render"

// renderResult is the answer of blueprint.render.
type renderResult struct {
	Markdown string          `json:"markdown"`
	Render   json.RawMessage `json:"render"`
}

func (s *server) renderCommand(ctx context.Context, args []protocol.LSPAny) (protocol.LSPAny, error) {
	snap, err := s.commandSnapshot(ctx, args)
	if err != nil {
		return nil, err
	}
	if d := snap.Dialect(); d.Kind != dialect.Landscaper {
		return json.Marshal(renderResult{Markdown: "No render: the document is " + d.Name + ", not a Landscaper blueprint.\n", Render: json.RawMessage("null")})
	}
	var arg struct {
		Imports string `json:"imports"`
	}
	_ = json.Unmarshal(args[0], &arg)
	dir := ""
	if snap.Path != "" {
		dir = filepath.Dir(snap.Path)
	}
	values, problems := renderImports(snap.roots, dir, arg.Imports)
	var out *landscaper.Rendered
	var diags []source.Diagnostic
	if len(problems) == 0 {
		var more []string
		out, diags, more = landscaper.Render(snap.File(), values, landscaper.RenderOptions{Options: landscaper.Options{Dir: dir}})
		problems = append(problems, more...)
	}
	res := renderResult{Render: json.RawMessage("null")}
	var b strings.Builder
	for _, p := range problems {
		fmt.Fprintf(&b, "> **Problem**: %s\n\n", p)
	}
	for _, d := range diags {
		if d.Severity == source.Error {
			pos := snap.Mapper().OffsetPosition(d.Range.Start, source.UTF32)
			fmt.Fprintf(&b, "> **Error** %d:%d %s: %s\n\n", pos.Line+1, pos.Character+1, d.Code, d.Message)
		}
	}
	if out != nil {
		for _, w := range out.Warnings {
			fmt.Fprintf(&b, "> **Warning**: %s\n\n", w)
		}
		y, err := out.YAML()
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "```yaml\n%s```\n", y)
		if res.Render, err = out.JSON(); err != nil {
			return nil, err
		}
	}
	res.Markdown = b.String()
	return json.Marshal(res)
}

// renderImports reads the import values: the named file (relative to
// the blueprint's folder), else imports.yaml there when it exists; files
// are read inside the document's roots only.
func renderImports(roots *safefs.Roots, dir, name string) (map[string]any, []string) {
	explicit := name != ""
	if !explicit {
		name = "imports.yaml"
	}
	if !filepath.IsAbs(name) {
		if dir == "" {
			return map[string]any{}, nil
		}
		name = filepath.Join(dir, name)
	}
	var data []byte
	var err error
	if roots != nil {
		data, err = roots.ReadFile(name, safefs.DefaultDocumentLimit)
	} else {
		err = fmt.Errorf("%s: the document has no folder", name)
	}
	if err != nil {
		if !explicit {
			return map[string]any{}, nil
		}
		return nil, []string{fmt.Sprintf("import values %s: %v", name, err)}
	}
	f := syntax.Parse(name, data)
	v, ok := landscaper.Value(f.Root).(map[string]any)
	if f.HasSyntaxErrors() || !ok {
		return nil, []string{fmt.Sprintf("import values %s: not a mapping of import name to value", name)}
	}
	return v, nil
}
