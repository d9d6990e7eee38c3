package landscaper

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var (
	codeExecutionType = source.NewCode("landscaper-execution-type", source.Error,
		"A Landscaper execution's type is neither GoTemplate nor Spiff.",
		"deployExecutions:\n- name: default\n  type: Helm\n  file: /deploy.yaml")
	codeExecutionSource = source.NewCode("landscaper-execution-source", source.Error,
		"A Landscaper execution has both file and template, or neither: it needs exactly one.",
		"deployExecutions:\n- name: default\n  type: GoTemplate")
	codeFileMissing = source.NewCode("landscaper-file-missing", source.Error,
		"A file a Landscaper blueprint references (an execution's or a subinstallation's file) does not exist in the blueprint's folder.",
		"deployExecutions:\n- name: default\n  type: GoTemplate\n  file: /deploy-execution.yaml")
	codeFileOutside = source.NewCode("landscaper-file-outside", source.Error,
		"A file a Landscaper blueprint references lies outside the blueprint's folder (by .. or a symbolic link); Landscaper sees only the folder.",
		"deployExecutions:\n- name: default\n  type: GoTemplate\n  file: ../shared/deploy.yaml")
)

// executionLists are the blueprint's template execution lists.
var executionLists = []string{"importExecutions", "deployExecutions", "exportExecutions", "subinstallationExecutions"}

// executionTypes are the template engines Landscaper runs.
var executionTypes = []string{"GoTemplate", "Spiff"}

// executions checks one execution list.
func (c *checker) executions(list []*syntax.Mapping, what string) {
	seen := newNames(what)
	for _, m := range list {
		seen.add(c, m)
		if t, ts := str(m, "type"); ts != nil && t != executionTypes[0] && t != executionTypes[1] {
			d := codeExecutionType.New(ts.Range(), "unknown execution type %q: GoTemplate or Spiff", t)
			if near := source.Closest(t, executionTypes); len(near) > 0 {
				d.Message += `; did you mean "` + near[0] + `"?`
				d.Suggestions = []source.Suggestion{{Title: "Change to " + near[0], Edits: []source.Edit{{Range: ts.ValueRange(), NewText: near[0]}}}}
			}
			c.report(d)
		}
		file, fs := str(m, "file")
		hasTemplate := m.Get("template") != nil
		switch {
		case fs != nil && hasTemplate:
			c.report(codeExecutionSource.New(keyRange(m, "template"), "execution %s has both file and template: give one", quoted(m)))
		case fs == nil && !hasTemplate:
			c.report(codeExecutionSource.New(nameAt(m), "execution %s has neither file nor template", quoted(m)))
		case fs != nil:
			c.file(file, fs)
		}
	}
}

// file checks that a referenced file exists inside the blueprint's folder
// and returns its absolute path ("" when it does not, or when the
// document has no folder). Landscaper resolves the name in the
// blueprint's own file system, so "/x" and "x" both name dir/x.
func (c *checker) file(name string, at *syntax.Scalar) string {
	if c.roots == nil {
		return ""
	}
	if escapes(name) {
		c.report(codeFileOutside.New(at.Range(), "%q is outside the blueprint's folder", name))
		return ""
	}
	p := c.pathOf(name)
	if err := c.roots.Check(p); err != nil {
		c.report(codeFileOutside.New(at.Range(), "%q is outside the blueprint's folder", name))
		return ""
	}
	f, _, err := safefs.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			c.report(codeFileMissing.New(at.Range(), "%q does not exist in the blueprint's folder", name))
		} else {
			c.report(codeFileMissing.New(at.Range(), "%q cannot be read: %v", name, err))
		}
		return ""
	}
	f.Close()
	return p
}

// pathOf is where a file the blueprint names lies: Landscaper resolves
// the name in the blueprint's own file system, so "/x" and "x" both name
// dir/x.
func (c *checker) pathOf(name string) string {
	return filepath.Join(c.opts.Dir, filepath.FromSlash(path.Clean("/"+name)))
}

// escapes reports whether a slash-separated name climbs above its root.
func escapes(name string) bool {
	depth := 0
	for _, seg := range strings.Split(strings.ReplaceAll(name, `\`, "/"), "/") {
		switch seg {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}
