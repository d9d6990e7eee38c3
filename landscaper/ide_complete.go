package landscaper

import (
	"regexp"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// CompletionKind says what a completion offers.
type CompletionKind int

const (
	CompleteField     CompletionKind = iota + 1 // a field of the schema
	CompleteImport                              // an import's name in a template
	CompleteLocalType                           // a local type after local://
	CompleteValue                               // a value from a closed set
)

// Completion is one candidate; Replace is the text it replaces.
type Completion struct {
	Label, Detail, Doc string
	Kind               CompletionKind
	Replace            source.Range
}

// targetTypes are the target types offered for targetType (Landscaper's
// own kubernetes-cluster first; others are written by hand).
var targetTypes = []string{"landscaper.gardener.cloud/kubernetes-cluster"}

var (
	afterGoImports    = regexp.MustCompile(`\.imports\.([A-Za-z0-9_-]*)$`)
	afterGoField      = regexp.MustCompile(`\.imports\.([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_-]+)*)\.([A-Za-z0-9_-]*)$`)
	afterSpiffImports = regexp.MustCompile(`(?:^|[^\w.])imports\.([A-Za-z0-9_-]*)$`)
	afterLocal        = regexp.MustCompile(`local://([A-Za-z0-9_.-]*)$`)
	valueOf           = regexp.MustCompile(`^(\s*)(?:- )?([A-Za-z$][\w$]*):\s+(\S*)$`)
	keyPrefix         = regexp.MustCompile(`^(\s*)(- )?([A-Za-z$][\w$]*)?$`)
)

// Complete offers what may be written at off of a Landscaper document:
// import names after .imports. (GoTemplate) or imports. (Spiff), local
// type names after local://, target, import and execution types as
// values, and the schema's fields as keys.
func Complete(f *syntax.File, off int) []Completion {
	text := string(f.Content())
	off = min(max(off, 0), len(text))
	line := text[lineStart(f.Content(), off):off]
	m := blueprintRoot(f)
	if g := afterGoField.FindStringSubmatch(line); g != nil && strings.Contains(line, "{{") {
		return fieldOfImportCompletions(m, g[1], strings.Split(strings.TrimPrefix(g[2], "."), "."), off, len(g[3]))
	}
	if g := afterGoImports.FindStringSubmatch(line); g != nil && strings.Contains(line, "{{") {
		return importCompletions(m, off, len(g[1]))
	}
	if g := afterSpiffImports.FindStringSubmatch(line); g != nil && strings.Contains(line, "((") {
		return importCompletions(m, off, len(g[1]))
	}
	if g := afterLocal.FindStringSubmatch(line); g != nil {
		var out []Completion
		lt, _ := m.Get("localTypes").(*syntax.Mapping)
		if lt == nil {
			return nil
		}
		for _, e := range lt.Entries {
			if e.Key != nil {
				out = append(out, Completion{Label: e.Key.Value, Detail: "local type", Kind: CompleteLocalType, Replace: source.R(off-len(g[1]), off)})
			}
		}
		sortCompletions(out)
		return out
	}
	if g := valueOf.FindStringSubmatch(line); g != nil {
		return valueCompletions(text, off, len(g[1]), g[2], g[3])
	}
	if g := keyPrefix.FindStringSubmatch(line); g != nil {
		col := len(g[1]) + len(g[2])
		return fieldCompletions(text, off, col, g[2] != "", len(g[3]))
	}
	return nil
}

func importCompletions(m *syntax.Mapping, off, typed int) []Completion {
	var out []Completion
	for name, d := range importDecls(m) {
		t, _ := declType(d)
		out = append(out, Completion{Label: name, Detail: "import (" + t + ")", Kind: CompleteImport, Replace: source.R(off-typed, off)})
	}
	sortCompletions(out)
	return out
}

// fieldOfImportCompletions offers the properties the schema of a data
// import declares at a field path below it (.imports.X.a.).
func fieldOfImportCompletions(m *syntax.Mapping, name string, path []string, off, typed int) []Completion {
	if len(path) == 1 && path[0] == "" {
		path = nil
	}
	props, _ := importSchemaAt(m, name, path).Get("properties").(*syntax.Mapping)
	if props == nil {
		return nil
	}
	var out []Completion
	for _, e := range props.Entries {
		if e.Key == nil {
			continue
		}
		c := Completion{Label: e.Key.Value, Detail: "field of import " + name, Kind: CompleteField, Replace: source.R(off-typed, off)}
		if pm, ok := e.Value.(*syntax.Mapping); ok {
			c.Doc, _ = str(pm, "description")
		}
		out = append(out, c)
	}
	sortCompletions(out)
	return out
}

// importSchemaAt is the schema (local types followed) of a data import
// of blueprint m at a path of fields below it; nil when the schema does
// not say.
func importSchemaAt(m *syntax.Mapping, name string, path []string) *syntax.Mapping {
	d := importDecls(m)[name]
	if d == nil {
		return nil
	}
	local := map[string]syntax.Node{}
	if lt, ok := m.Get("localTypes").(*syntax.Mapping); ok {
		for _, e := range lt.Entries {
			if e.Key != nil {
				local[e.Key.Value] = e.Value
			}
		}
	}
	s := resolveLocal(d.Get("schema"), local, 0)
	for _, field := range path {
		props, _ := s.Get("properties").(*syntax.Mapping)
		if props == nil {
			return nil
		}
		s = resolveLocal(props.Get(field), local, 0)
	}
	return s
}

// valueCompletions offers the closed sets: types and target types.
func valueCompletions(text string, off, indent int, key, typed string) []Completion {
	var values []string
	switch key {
	case "targetType":
		values = targetTypes
	case "type":
		path := yamlPath(text, off, indent, false)
		switch {
		case len(path) >= 2 && strings.HasSuffix(path[0], "Executions"):
			values = executionTypes
		case len(path) >= 2 && path[0] == "imports":
			values = []string{"data", "target", "targetList", "targetMap"}
		case len(path) >= 2 && path[0] == "exports":
			values = []string{"data", "target"}
		}
	}
	var out []Completion
	for _, v := range values {
		out = append(out, Completion{Label: v, Kind: CompleteValue, Replace: source.R(off-len(typed), off)})
	}
	return out
}

// fieldCompletions offers the schema's fields at the cursor's place,
// less those the mapping has.
func fieldCompletions(text string, off, col int, item bool, typed int) []Completion {
	var path []string
	if item { // a new list item: the list's key is at or left of its dash
		path = append(yamlPath(text, off, col-2, true), "-")
	} else {
		path = yamlPath(text, off, col, false)
	}
	s := shape().blueprint
	if strings.Contains(text, "kind: InstallationTemplate") && !strings.Contains(text, "kind: Blueprint") {
		s = shape().template
	}
	for _, seg := range path {
		if s == nil {
			return nil
		}
		switch {
		case seg == "-":
			s = s.Items
		case s.Properties[seg] != nil:
			s = s.Properties[seg]
		default:
			s = s.AdditionalProperties
		}
	}
	if s == nil {
		return nil
	}
	have := siblingKeys(text, off, col, item)
	var out []Completion
	for _, k := range s.keys {
		if have[k] {
			continue
		}
		p := s.Properties[k]
		out = append(out, Completion{Label: k, Detail: typeList(p.types), Doc: p.Description, Kind: CompleteField, Replace: source.R(off-typed, off)})
	}
	return out
}

// yamlPath is the path of keys ("-" for a list item) of the block
// mapping whose keys start at column col on the cursor's line, read from
// the indentation of the lines above. A list may sit at its key's own
// indentation, so after an item the key is looked for at or below it.
func yamlPath(text string, off, col int, inList bool) []string {
	var rev []string // inList: col is a list's dash column
	end := strings.LastIndexByte(text[:off], '\n')
	for end > 0 && (col > 0 || inList) {
		prev := strings.LastIndexByte(text[:end], '\n')
		l := text[prev+1 : end]
		end = prev
		trimmed := strings.TrimLeft(l, " ")
		ind := len(l) - len(trimmed)
		dash := strings.HasPrefix(trimmed, "- ") || trimmed == "-"
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case inList:
			if ind < col || ind == col && !dash {
				if key, ok := keyOf(trimmed); ok {
					rev = append(rev, key)
					col, inList = ind, false
				}
			}
		case ind >= col:
		case dash:
			if key, ok := keyOf(strings.TrimPrefix(trimmed, "- ")); ok && ind+2 < col {
				rev = append(rev, key) // "- key:" holds our mapping
			}
			rev = append(rev, "-")
			col, inList = ind, true
		default:
			if key, ok := keyOf(trimmed); ok {
				rev = append(rev, key)
				col = ind
			}
		}
	}
	out := make([]string, len(rev))
	for i, s := range rev {
		out[len(rev)-1-i] = s
	}
	return out
}

// keyOf is the key a block mapping line starts with.
func keyOf(line string) (string, bool) {
	k, _, ok := strings.Cut(line, ":")
	if !ok || strings.ContainsAny(k, " {[\"'") {
		return "", false
	}
	return k, true
}

// siblingKeys are the keys written at column col in the cursor's block
// (the lines around it at that indentation, up to a shallower one).
func siblingKeys(text string, off, col int, item bool) map[string]bool {
	have := map[string]bool{}
	lines := strings.Split(text, "\n")
	cur := strings.Count(text[:off], "\n")
	scan := func(i int) bool {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " ")
		ind := len(l) - len(trimmed)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			return true
		}
		if ind == col-2 && strings.HasPrefix(trimmed, "- ") {
			if k, ok := keyOf(trimmed[2:]); ok {
				have[k] = true
			}
			return false // the item's first line: the block starts here
		}
		if ind < col {
			return false
		}
		if ind == col {
			if k, ok := keyOf(trimmed); ok {
				have[k] = true
			}
		}
		return true
	}
	if !item {
		for i := cur - 1; i >= 0 && scan(i); i-- {
		}
	}
	for i := cur + 1; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " ")
		if ind := len(l) - len(trimmed); trimmed != "" && (ind < col || ind == col-2) {
			break
		}
		scan(i)
	}
	return have
}

func sortCompletions(cs []Completion) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Label < cs[j-1].Label; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
