package landscaper

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var (
	codeTemplateSyntax = source.NewCode("landscaper-template-syntax", source.Error,
		"A Landscaper GoTemplate execution does not parse as a Go template, or a Spiff execution has an expression that is never closed.",
		"deployExecutions:\n- name: default\n  type: GoTemplate\n  template: |\n    deployItems: {{ .imports.x }")
	codeTemplateFunction = source.NewCode("landscaper-template-function", source.Error,
		"A Landscaper GoTemplate execution calls a function that is neither Go's, sprig's nor Landscaper's own (env and expandenv are removed by Landscaper).",
		"deployExecutions:\n- name: default\n  type: GoTemplate\n  template: |\n    name: {{ toYml .imports.x }}")
	codeTemplateImport = source.NewCode("landscaper-template-import", source.Error,
		"A Landscaper template refers to an import (.imports.X in a GoTemplate, imports.X in Spiff) the blueprint does not declare.",
		"imports:\n- name: namespace\n  schema: {type: string}\ndeployExecutions:\n- name: default\n  type: GoTemplate\n  template: |\n    ns: {{ .imports.namespce }}")
)

// execution is one template execution with its text.
type execution struct {
	list, name, kind string
	m                *syntax.Mapping
	text             string
	inline           *syntax.Scalar      // the template's scalar; nil for a file or a Spiff mapping
	tree             syntax.Node         // a Spiff template given as YAML; nil otherwise
	file             *syntax.Scalar      // the file reference; nil inline
	rel              string              // the file's name, for messages
	mapper           *source.Mapper      // the file's lines
	at               func(a, b int) span // where text[a:b] is in the blueprint
}

// span is a place in the blueprint and, for text in a referenced file,
// the place in that file to name in the message.
type span struct {
	rng    source.Range
	prefix string
}

// templates checks every execution of blueprint m: GoTemplate text
// parses, calls known functions and refers to declared imports; Spiff
// expressions are closed and refer to declared imports. The bindings of
// import executions are imports to the executions after them: a Spiff
// one's are read from its bindings mapping; a GoTemplate one's cannot
// be known, so imports are then not checked after it.
func (c *checker) templates(m *syntax.Mapping, imports *names) {
	c.fieldSchemas = map[string]syntax.Node{}
	for name, d := range importDecls(m) {
		if t, _ := declType(d); t == "data" && d.Get("schema") != nil {
			c.fieldSchemas[name] = d.Get("schema")
		}
	}
	c.localTypes = map[string]syntax.Node{}
	if lt, ok := m.Get("localTypes").(*syntax.Mapping); ok {
		for _, e := range lt.Entries {
			if e.Key != nil {
				c.localTypes[e.Key.Value] = e.Value
			}
		}
	}
	bound := newNames("import")
	for k, v := range imports.first {
		bound.first[k] = v
	}
	for _, list := range executionLists {
		known := bound
		if list == "importExecutions" {
			known = imports
		}
		for _, em := range items(m, list) {
			ex, ok := c.loadExecution(list, em)
			if !ok {
				if list == "importExecutions" {
					bound = nil // what it binds cannot be known
				}
				continue
			}
			switch ex.kind {
			case "GoTemplate":
				c.goTemplate(ex, known)
			case "Spiff":
				c.spiff(ex, known)
			}
			if list == "importExecutions" && bound != nil {
				bound = ex.bindings(bound)
			}
		}
	}
}

// bindings adds the names an import execution binds to n; nil when they
// cannot be known (a GoTemplate's output).
func (ex *execution) bindings(n *names) *names {
	tree := ex.tree
	if ex.kind != "Spiff" {
		return nil
	}
	if tree == nil {
		tree = syntax.Parse("spiff.yaml", []byte(ex.text)).Root
	}
	root, _ := tree.(*syntax.Mapping)
	if b, ok := root.Get("bindings").(*syntax.Mapping); ok {
		for _, e := range b.Entries {
			if e.Key != nil && n.first[e.Key.Value] == nil {
				n.first[e.Key.Value] = e.Key
			}
		}
	}
	return n
}

// loadExecution reads an execution's template, inline or from its file.
func (c *checker) loadExecution(list string, m *syntax.Mapping) (*execution, bool) {
	kind, _ := str(m, "type")
	name, _ := str(m, "name")
	ex := &execution{list: list, name: name, kind: kind, m: m}
	if file, fs := str(m, "file"); fs != nil {
		if m.Get("template") != nil || c.roots == nil || escapes(file) {
			return nil, false // reported by the execution rules
		}
		data, err := c.roots.ReadFile(c.pathOf(file), c.opts.Limit)
		if err != nil {
			return nil, false // reported by the execution rules
		}
		ex.text, ex.file, ex.rel, ex.mapper = string(data), fs, file, source.NewMapper(data)
		ex.at = func(a, b int) span {
			pos := ex.mapper.OffsetPosition(a, source.UTF32)
			return span{rng: fs.Range(), prefix: fmt.Sprintf("%s:%d:%d: ", strings.TrimPrefix(file, "/"), pos.Line+1, pos.Character+1)}
		}
		return ex, true
	}
	switch t := m.Get("template").(type) {
	case *syntax.Scalar:
		if !t.IsString() {
			return nil, false
		}
		ex.text, ex.inline = t.Value, t
		ex.at = func(a, b int) span { return span{rng: t.OffsetMap().Range(a, b)} }
		return ex, true
	case *syntax.Mapping, *syntax.Sequence:
		if kind == "GoTemplate" {
			c.report(codeTemplateSyntax.New(keyRange(m, "template"), "a GoTemplate template is text: write it as a string (template: |)"))
			return nil, false
		}
		ex.tree = t
		return ex, true
	}
	return nil, false
}

// report reports a problem with text[a:b] of ex.
func (ex *execution) report(c *checker, code *source.Code, a, b int, format string, args ...any) {
	sp := ex.at(a, b)
	c.report(code.New(sp.rng, "%s%s", sp.prefix, fmt.Sprintf(format, args...)))
}

// landscaperFuncs are the functions Landscaper adds to sprig's
// (pkg/landscaper/installations/executions/template/gotemplate/funcs.go
// and the include of its template execution).
var landscaperFuncs = []string{
	"include", "readFile", "readDir", "toYaml", "fromYaml",
	"parseOCIRef", "ociRefRepo", "ociRefVersion",
	"getResourceKey", "getResourceContent", "getResource", "getResources", "getComponent", "getRepositoryContext",
	"getShootAdminKubeconfig", "getShootAdminKubeconfigWithExpirationTimestamp",
	"getServiceAccountKubeconfig", "getServiceAccountKubeconfigWithExpirationTimestamp", "getOidcKubeconfig",
}

// builtinFuncs are text/template's own functions.
var builtinFuncs = []string{"and", "call", "html", "index", "slice", "js", "len", "not", "or", "print", "printf", "println", "urlquery", "eq", "ge", "gt", "le", "lt", "ne"}

// removedFuncs are sprig's functions Landscaper removes (they read the
// environment).
var removedFuncs = map[string]bool{"env": true, "expandenv": true}

// knownFuncs are the names a GoTemplate may call, sorted.
var knownFuncs = sync.OnceValue(func() []string {
	seen := map[string]bool{}
	var out []string
	for _, list := range [][]string{builtinFuncs, landscaperFuncs, sprigNames()} {
		for _, n := range list {
			if !seen[n] && !removedFuncs[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sortStrings(out)
	return out
})

// knownFunc is knownFuncs as a set; both are made on first use (sprig's
// function map is built to list its names).
var knownFunc = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range knownFuncs() {
		m[n] = true
	}
	return m
})

// parseError is text/template's "template: NAME:LINE: message".
var parseError = regexp.MustCompile(`^template: [^:]*:(\d+): (.*)$`)

// parseTemplate parses a GoTemplate as Landscaper does, without checking
// function names (they are checked on the tree, each at its place).
func parseTemplate(text string) (map[string]*parse.Tree, error) {
	t := parse.New("execution")
	t.Mode = parse.SkipFuncCheck | parse.ParseComments
	trees := map[string]*parse.Tree{}
	_, err := t.Parse(text, "", "", trees)
	return trees, err
}

// goTemplate checks one GoTemplate execution.
func (c *checker) goTemplate(ex *execution, imports *names) {
	trees, err := parseTemplate(ex.text)
	if err != nil {
		a, b, msg := errorPlace(ex.text, err.Error())
		ex.report(c, codeTemplateSyntax, a, b, "%s", msg)
		return
	}
	for _, tr := range trees {
		walkTemplate(tr.Root, func(n parse.Node) {
			switch n := n.(type) {
			case *parse.IdentifierNode:
				if knownFunc()[n.Ident] {
					return
				}
				a := int(n.Pos)
				msg := fmt.Sprintf("function %q is not defined", n.Ident)
				if removedFuncs[n.Ident] {
					msg += ": Landscaper removes it (templates do not read the environment)"
				} else if near := source.Closest(n.Ident, knownFuncs()); len(near) > 0 {
					msg += fmt.Sprintf("; did you mean %q?", near[0])
				}
				ex.report(c, codeTemplateFunction, a, a+len(n.Ident), "%s", msg)
			case *parse.CommandNode:
				c.templateFileArg(ex, n)
			case *parse.FieldNode:
				c.importRef(ex, imports, n.Ident, int(n.Pos))
				c.importField(ex, n.Ident, int(n.Pos))
			case *parse.VariableNode:
				if len(n.Ident) > 0 && n.Ident[0] == "$" {
					c.importRef(ex, imports, n.Ident[1:], int(n.Pos))
					c.importField(ex, n.Ident[1:], int(n.Pos))
				}
			}
		})
	}
}

// templateFileArg checks the literal path given to include, readFile or
// readDir: it names a file (a folder for readDir) inside the blueprint's
// folder.
func (c *checker) templateFileArg(ex *execution, cmd *parse.CommandNode) {
	if c.roots == nil || len(cmd.Args) < 2 {
		return
	}
	fn, _ := cmd.Args[0].(*parse.IdentifierNode)
	lit, _ := cmd.Args[1].(*parse.StringNode)
	if fn == nil || lit == nil || (fn.Ident != "include" && fn.Ident != "readFile" && fn.Ident != "readDir") {
		return
	}
	a, b := int(lit.Pos), int(lit.Pos)+len(lit.Quoted)
	p := c.pathOf(lit.Text)
	if escapes(lit.Text) || c.roots.Check(p) != nil {
		ex.report(c, codeFileOutside, a, b, "%s: %q is outside the blueprint's folder", fn.Ident, lit.Text)
		return
	}
	info, err := os.Stat(p)
	switch {
	case err != nil:
		ex.report(c, codeFileMissing, a, b, "%s: %q does not exist in the blueprint's folder", fn.Ident, lit.Text)
	case fn.Ident == "readDir" && !info.IsDir():
		ex.report(c, codeFileMissing, a, b, "readDir: %q is not a folder", lit.Text)
	case fn.Ident != "readDir" && !info.Mode().IsRegular():
		ex.report(c, codeFileMissing, a, b, "%s: %q is not a file", fn.Ident, lit.Text)
	}
}

// importRef checks a field chain ("imports", "X", ...) whose node is at
// offset pos: X is a declared import. The parser places a chain at one
// of its fields, so X is found as the last "imports.X" up to there.
func (c *checker) importRef(ex *execution, imports *names, ident []string, pos int) {
	if imports == nil || len(ident) < 2 || ident[0] != "imports" || imports.has(ident[1]) {
		return
	}
	ref := "imports." + ident[1]
	i := strings.LastIndex(ex.text[:min(len(ex.text), pos+len(ref)+1)], ref)
	if i < 0 {
		return
	}
	c.undeclaredImport(ex, imports, ident[1], i+len("imports."))
}

func (c *checker) undeclaredImport(ex *execution, imports *names, name string, a int) {
	msg := fmt.Sprintf("import %q is not declared", name)
	if near := source.Closest(name, candidates(imports, nil)); len(near) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", near[0])
	}
	ex.report(c, codeTemplateImport, a, a+len(name), "%s", msg)
}

// errorPlace finds where a parse error is: text/template names the line
// only; the token it quotes, when found on that line, narrows it.
func errorPlace(text, msg string) (int, int, string) {
	sm := parseError.FindStringSubmatch(msg)
	if sm == nil {
		return 0, 0, msg
	}
	line, _ := strconv.Atoi(sm[1])
	msg = sm[2]
	start := 0
	for i := 1; i < line && start < len(text); i++ {
		nl := strings.IndexByte(text[start:], '\n')
		if nl < 0 {
			start = len(text)
			break
		}
		start += nl + 1
	}
	end := start + strings.IndexByte(text[start:]+"\n", '\n')
	if q := strings.Index(msg, `"`); q >= 0 {
		if unq, err := strconv.Unquote(msg[q : q+1+strings.Index(msg[q+1:], `"`)+1]); err == nil && unq != "" {
			if i := strings.LastIndex(text[start:end], unq); i >= 0 {
				return start + i, start + i + len(unq), msg
			}
		}
	}
	lineText := text[start:end]
	trimmed := strings.TrimLeft(lineText, " \t")
	a := start + len(lineText) - len(trimmed)
	b := start + len(strings.TrimRight(lineText, " \t\r"))
	if b <= a {
		b = a
	}
	return a, b, msg
}

// walkTemplate calls f on every node below n.
func walkTemplate(n parse.Node, f func(parse.Node)) {
	if n == nil {
		return
	}
	f(n)
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, x := range n.Nodes {
			walkTemplate(x, f)
		}
	case *parse.ActionNode:
		walkTemplate(n.Pipe, f)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, d := range n.Decl {
			walkTemplate(d, f)
		}
		for _, cmd := range n.Cmds {
			walkTemplate(cmd, f)
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkTemplate(a, f)
		}
	case *parse.ChainNode:
		walkTemplate(n.Node, f)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, f)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, f)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, f)
	case *parse.TemplateNode:
		walkTemplate(n.Pipe, f)
	}
}

func walkBranch(b *parse.BranchNode, f func(parse.Node)) {
	walkTemplate(b.Pipe, f)
	if b.List != nil {
		walkTemplate(b.List, f)
	}
	if b.ElseList != nil {
		walkTemplate(b.ElseList, f)
	}
}
