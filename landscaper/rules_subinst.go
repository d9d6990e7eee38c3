package landscaper

import (
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var (
	codeSubinstallationSource = source.NewCode("landscaper-subinstallation-source", source.Error,
		"A Landscaper subinstallation is neither inline nor a file, or both: give file alone, or the template inline.",
		"subinstallations:\n- file: /sub.yaml\n  name: sub")
	codeSubinstallationFile = source.NewCode("landscaper-subinstallation-file", source.Error,
		"A Landscaper subinstallation file is not a readable installation template, or has problems of its own (reported on the file reference, with their place in the file).",
		"subinstallations:\n- file: /sub.yaml   # sub.yaml: kind: Installation")
	codeBlueprintRef = source.NewCode("landscaper-blueprint-ref", source.Error,
		"A Landscaper subinstallation's blueprint is not one well-formed reference (cd://componentReferences/<name>/resources/<name>, cd://resources/<name> or resource://<name>) or inline filesystem.",
		"subinstallations:\n- apiVersion: landscaper.gardener.cloud/v1alpha1\n  kind: InstallationTemplate\n  name: sub\n  blueprint:\n    ref: cd://blueprint")
	codeRefUnresolved = source.NewCode("landscaper-ref-unresolved", source.Information,
		"Component descriptor references (cd://, resource://) are checked for form only: the component descriptor is not fetched, so the referenced blueprint is not checked.",
		"subinstallations:\n- apiVersion: landscaper.gardener.cloud/v1alpha1\n  kind: InstallationTemplate\n  name: sub\n  blueprint:\n    ref: cd://resources/blueprint-sub")
	codeSubinstallationImport = source.NewCode("landscaper-subinstallation-import", source.Error,
		"A Landscaper subinstallation imports a data object or target that is neither an import of its blueprint nor an export of a sibling subinstallation.",
		"imports:\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\nsubinstallations:\n- apiVersion: landscaper.gardener.cloud/v1alpha1\n  kind: InstallationTemplate\n  name: sub\n  blueprint: {ref: cd://resources/sub}\n  imports:\n    targets:\n    - name: cluster\n      target: clustr")
)

var (
	cdRef       = regexp.MustCompile(`^cd://(componentReferences/[^/\s]+/)*resources/[^/\s]+$`)
	resourceRef = regexp.MustCompile(`^resource://[^/\s]+$`)
)

// template is one subinstallation: inline, or read from its file.
type template struct {
	m    *syntax.Mapping
	file *syntax.Scalar // the file reference in the blueprint; nil inline
	rel  string         // the file's name, for messages
	doc  *syntax.File   // the file's parsed text; nil inline
}

// subinstallations checks the blueprint's subinstallations: each alone,
// then their names and the data and targets they import against the
// blueprint's imports and the siblings' exports.
func (c *checker) subinstallations(list []*syntax.Mapping, parentImports *names, dynamic bool) {
	var ts []template
	for _, m := range list {
		file, fs := str(m, "file")
		switch {
		case fs != nil && len(m.Entries) > 1:
			c.report(codeSubinstallationSource.New(keyRange(m, "file"), "a subinstallation with file takes nothing else: the template is in the file"))
		case fs != nil:
			if t, ok := c.loadTemplate(file, fs); ok {
				ts = append(ts, t)
			}
		case m.Get("blueprint") == nil && m.Get("name") == nil:
			c.report(codeSubinstallationSource.New(m.Range(), "a subinstallation needs file, or an inline template with name and blueprint"))
		default:
			c.template(m)
			ts = append(ts, template{m: m})
		}
	}
	seen := newNames("subinstallation")
	exports := map[string]map[string]bool{} // kind (data, target) → name → any sibling exports it
	for _, t := range ts {
		if t.file == nil {
			seen.add(c, t.m)
		} else if name, s := str(t.m, "name"); s != nil {
			if seen.has(name) {
				c.report(codeDuplicateName.New(t.file.Range(), "subinstallation %q (in %s) is declared twice", name, t.rel))
			} else {
				seen.first[name] = t.file
			}
		}
		for _, kind := range []string{"data", "targets"} {
			for _, e := range items(mapping(t.m, "exports"), kind) {
				if ref, _ := str(e, refField(kind)); ref != "" {
					if exports[kind] == nil {
						exports[kind] = map[string]bool{}
					}
					exports[kind][ref] = true
				}
			}
		}
	}
	if dynamic {
		return // subinstallationExecutions may export what a sibling imports
	}
	for _, t := range ts {
		for _, kind := range []string{"data", "targets"} {
			for _, imp := range items(mapping(t.m, "imports"), kind) {
				for _, field := range importRefs[kind] {
					ref, s := str(imp, field)
					if s == nil || parentImports.has(ref) || exports[kind][ref] {
						continue
					}
					msg := fmt.Sprintf("%q is neither an import of the blueprint nor an export of a sibling subinstallation", ref)
					if near := source.Closest(ref, candidates(parentImports, exports[kind])); len(near) > 0 {
						msg += fmt.Sprintf("; did you mean %q?", near[0])
					}
					c.reportIn(t, codeSubinstallationImport.New(s.Range(), "%s", msg))
				}
			}
		}
	}
}

// importRefs are the fields of an installation's data and target imports
// that name an import of the parent or a sibling's export.
var importRefs = map[string][]string{
	"data":    {"dataRef"},
	"targets": {"target", "targetListRef", "targetMapRef"},
}

// refField is the field of an installation import or export that names
// the in-cluster object.
func refField(kind string) string {
	if kind == "targets" {
		return "target"
	}
	return "dataRef"
}

func candidates(n *names, exports map[string]bool) []string {
	var out []string
	for k := range n.first {
		out = append(out, k)
	}
	for k := range exports {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// mapping is m's field name when it is a mapping.
func mapping(m *syntax.Mapping, name string) *syntax.Mapping {
	if m == nil {
		return nil
	}
	v, _ := m.Get(name).(*syntax.Mapping)
	return v
}

// reportIn reports d on a subinstallation: as it is for an inline one;
// on the file reference, with its place in the file, for one in a file.
func (c *checker) reportIn(t template, d source.Diagnostic) {
	if t.file == nil {
		c.report(d)
		return
	}
	pos := t.doc.Mapper.OffsetPosition(d.Range.Start, source.UTF32)
	d.Message = fmt.Sprintf("%s:%d:%d: %s", t.rel, pos.Line+1, pos.Character+1, d.Message)
	d.Range = t.file.Range()
	d.Related = nil
	c.report(d)
}

// loadTemplate reads, parses and checks an installation template file.
func (c *checker) loadTemplate(name string, at *syntax.Scalar) (template, bool) {
	p := c.file(name, at)
	if p == "" {
		return template{}, false
	}
	data, err := safefs.ReadFile(p, c.opts.Limit)
	if err != nil {
		c.report(codeSubinstallationFile.New(at.Range(), "%q cannot be read: %v", name, err))
		return template{}, false
	}
	doc := syntax.Parse(p, data)
	t := template{file: at, rel: filepath.Base(p), doc: doc}
	root, _ := doc.Tree()
	t.m, _ = root.(*syntax.Mapping)
	for _, d := range doc.SyntaxErrors() {
		c.reportIn(t, codeSubinstallationFile.New(d.Range, "%s", d.Message))
	}
	if t.m == nil {
		c.report(codeSubinstallationFile.New(at.Range(), "%q is not a mapping: an installation template is one", name))
		return template{}, false
	}
	if k, _ := str(t.m, "kind"); k != "InstallationTemplate" {
		c.report(codeSubinstallationFile.New(at.Range(), "%q is of kind %q, not InstallationTemplate", name, k))
		return template{}, false
	}
	inner := &checker{opts: c.opts, roots: c.roots, unresolved: c.unresolved}
	inner.w.walk(t.m, shape().template, keyRange(t.m, "kind"))
	inner.template(t.m)
	c.unresolved = inner.unresolved
	for _, d := range inner.w.diags {
		if d.Code == codeRefUnresolved.ID {
			d.Range = at.Range()
			c.report(d)
			continue
		}
		c.reportIn(t, d)
	}
	return t, true
}

// template checks one installation template (inline or a file's): its
// blueprint reference.
func (c *checker) template(m *syntax.Mapping) {
	bp := mapping(m, "blueprint")
	if bp == nil {
		return
	}
	ref, rs := str(bp, "ref")
	hasFS := bp.Get("filesystem") != nil
	switch {
	case rs != nil && hasFS:
		c.report(codeBlueprintRef.New(keyRange(bp, "filesystem"), "blueprint has both ref and filesystem: give one"))
	case rs == nil && !hasFS:
		c.report(codeBlueprintRef.New(keyRange(m, "blueprint"), "blueprint needs ref or filesystem"))
	case rs != nil && !cdRef.MatchString(ref) && !resourceRef.MatchString(ref):
		c.report(codeBlueprintRef.New(rs.Range(), "malformed blueprint reference %q: expected cd://componentReferences/<name>/resources/<name>, cd://resources/<name> or resource://<name>", ref))
	case rs != nil && !c.unresolved:
		c.unresolved = true
		c.report(codeRefUnresolved.New(rs.Range(), "%q is not resolved: component descriptors are not fetched, so the blueprint it names is not checked", ref))
	}
}

// blueprint checks a blueprint's rules.
func (c *checker) blueprint(m *syntax.Mapping) {
	imports := newNames("import")
	c.imports(items(m, "imports"), imports)
	c.exports(items(m, "exports"))
	c.schemas = c.jsonSchemas(m)
	c.templates(m, imports)
	for _, list := range executionLists {
		c.executions(items(m, list), "execution")
	}
	c.subinstallations(items(m, "subinstallations"), imports, m.Get("subinstallationExecutions") != nil)
}
