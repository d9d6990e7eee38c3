package ide

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// PrepareRename returns the range of the renamable name at offset and its
// current text, or ok false when nothing there can be renamed.
func PrepareRename(res *analysis.Result, offset int) (rng source.Range, placeholder string, ok bool) {
	t, r, ok := targetAt(res, offset)
	if !ok {
		return source.Range{}, "", false
	}
	// The range is the name under the cursor without quotes.
	if s := string(res.File.Content()[r.Start:r.End]); len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		r = source.R(r.Start+1, r.End-1)
	}
	return r, t.sym.Name, true
}

// RenameError is a rename the new name or the definition does not allow.
type RenameError struct{ Msg string }

func (e *RenameError) Error() string { return e.Msg }

// validName reports whether name can be referenced with a dot
// (`variables.name`): a letter or _, then letters, digits, _ or -.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c == '-' || c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

var reservedNames = map[string]bool{dialect.Variables.Namespace(): true, dialect.Values.Namespace(): true, dialect.DataSources.Namespace(): true,
	dialect.Resources.Namespace(): true, dialect.Include.Namespace(): true, "elem": true, "i": true, "true": true, "false": true, "none": true}

// Rename renames the definition at offset to newName: its key and every
// reference in res and the open Results (a child's export in parents'
// children.x.export, a child's variable in parents' include variables, a
// resource in dependsOn, linkSelector.exclude and link("name")).
func Rename(res *analysis.Result, offset int, newName string, open []*analysis.Result, opts Options) (*WorkspaceEdit, error) {
	t, _, ok := targetAt(res, offset)
	if !ok {
		return nil, &RenameError{"nothing to rename here"}
	}
	if !validName(newName) {
		return nil, &RenameError{fmt.Sprintf("%q is not a valid name: use a letter or _, then letters, digits, _ or -", newName)}
	}
	if newName == t.sym.Name {
		return &WorkspaceEdit{}, nil
	}
	if reservedNames[newName] {
		return nil, &RenameError{fmt.Sprintf("%q is a keyword of the substitution language", newName)}
	}
	if t.sym.Kind == analysis.DataSourceFieldSymbol {
		for _, s := range t.res.Symbols() {
			if s.Kind == t.sym.Kind && s.Parent == t.sym.Parent && s.Name == newName {
				return nil, &RenameError{fmt.Sprintf("data source %q already exports %q", t.sym.Parent.Name, newName)}
			}
		}
	} else if t.res.Lookup(t.sym.Kind, newName) != nil {
		return nil, &RenameError{fmt.Sprintf("%s %q already exists", t.sym.Kind, newName)}
	}
	if t.sym.Kind == analysis.ResourceSymbol {
		if _, isFunc := opts.funcs().Lookup(newName); isFunc {
			return nil, &RenameError{fmt.Sprintf("%q is a function name; a bare reference to the resource would call it", newName)}
		}
	}
	w := &WorkspaceEdit{}
	for _, o := range occurrences(t, append([]*analysis.Result{res}, open...)) {
		text := newName
		if s := string(o.res.File.Content()[o.rng.Start:o.rng.End]); len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
			text = s[:1] + newName + s[:1] // keep the author's quotes
		}
		w.add(o.res, source.Edit{Range: o.rng, NewText: text})
	}
	return w, nil
}
