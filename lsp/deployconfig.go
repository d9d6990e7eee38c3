package lsp

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/ide"

	"github.com/blueprint-ls/blueprint-ls/deployconfig"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// deployConfig finds the deploy configuration governing a blueprint in
// dir (package deployconfig): the settings' explicit file or names, the
// walk bounded by the project root and every read inside the document's
// roots. A document with no folder or no roots has none. A file with
// mistakes is returned too (its diagnostics say what is wrong); problem
// describes one that cannot be found or read.
func deployConfig(st *Settings, dir string, roots *safefs.Roots) (cfg *deployconfig.Config, problem string) {
	if dir == "" || roots == nil || roots.Primary() == "" {
		return nil, ""
	}
	o := deployconfig.Options{Roots: roots, Boundaries: []string{roots.Primary()}}
	if st != nil {
		o.File, o.Names = st.DeployConfigFile, st.DeployConfigFileNames
	}
	cfg, err := deployconfig.Resolve(dir, o)
	if err != nil {
		return nil, err.Error()
	}
	return cfg, ""
}

// addDeployConfig sets the configuration's blueprint variables as inputs
// (before the settings' files and values, which win) and returns the
// problems it has: its errors, with their line and column.
func addDeployConfig(in *eval.Inputs, cfg *deployconfig.Config) (problems []string) {
	if cfg == nil {
		return nil
	}
	for _, d := range cfg.Diagnostics {
		l, c := cfg.Mapper.LineCol(d.Range.Start, source.UTF32)
		problems = append(problems, fmt.Sprintf("deploy config %s:%d:%d: %s", cfg.Path, l, c, d.Message))
	}
	if !cfg.Usable() {
		return problems
	}
	for _, name := range cfg.BlueprintVariables.Names() {
		if in.Vars == nil {
			in.Vars = map[string]eval.Input{}
		}
		in.Vars[name] = eval.Input{Value: cfg.BlueprintVariables[name].Value, Origin: cfg.Path}
	}
	return problems
}

// deployConfigHover appends, to the hover of a variable (its definition
// or a reference to it), the value the deploy configuration gives it.
func deployConfigHover(snap *Snapshot, res *analysis.Result, off int, h *ide.HoverInfo) {
	var sym *analysis.Symbol
	if ref := res.ReferenceAt(off); ref != nil {
		sym = ref.Target
	} else {
		sym = res.SymbolAt(off)
	}
	if sym == nil || sym.Kind != analysis.VariableSymbol || res.Path == "" {
		return
	}
	cfg, _ := deployConfig(snap.Settings, filepath.Dir(res.Path), snap.roots)
	if !cfg.Usable() {
		return
	}
	v, ok := cfg.BlueprintVariables[sym.Name]
	if !ok {
		return
	}
	l, _ := cfg.Mapper.LineCol(v.Range.Start, source.UTF32)
	shown := "`" + string(cfg.Mapper.Content()[v.Range.Start:v.Range.End]) + "`"
	if sym.Secret {
		shown = "set (secret, not shown)"
	}
	h.Markdown += fmt.Sprintf("\n\n---\n\nDeploy configuration ([%s](%s#L%d)): %s", filepath.Base(cfg.Path), uri.File(cfg.Path), l, shown)
}

// deployConfigMarkdown describes, under the plan preview, the deploy
// configuration the plan used: its file, the blueprint variables it set,
// and each provider's and transformer's configuration by name. Values of
// fields whose names say secret (key, secret, token, password,
// credential) are not shown.
func deployConfigMarkdown(cfg *deployconfig.Config) string {
	if !cfg.Usable() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n---\n\n**Deploy configuration** `%s`\n\n", cfg.Path)
	line := func(what string, vs deployconfig.Values) {
		if len(vs) == 0 {
			return
		}
		var parts []string
		for _, n := range vs.Names() {
			v := string(cfg.Mapper.Content()[vs[n].Range.Start:vs[n].Range.End])
			if looksSecret(n) {
				v = "(sensitive)"
			}
			parts = append(parts, fmt.Sprintf("`%s` = `%s`", n, v))
		}
		fmt.Fprintf(&b, "- %s: %s\n", what, strings.Join(parts, ", "))
	}
	line("blueprint variables", cfg.BlueprintVariables)
	line("context variables", cfg.ContextVariables)
	for _, ns := range slices.Sorted(maps.Keys(cfg.Providers)) {
		line("provider `"+ns+"`", cfg.Providers[ns])
	}
	for _, ns := range slices.Sorted(maps.Keys(cfg.Transformers)) {
		line("transformer `"+ns+"`", cfg.Transformers[ns])
	}
	return b.String()
}

// looksSecret reports whether a configuration field's name says it holds
// a credential.
func looksSecret(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"secret", "key", "token", "password", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
