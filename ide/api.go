package ide

import (
	"sync"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Options are the tables features read besides the Result. The zero value
// means the built-in providers and the core functions (plus the providers'
// functions), the same defaults analysis uses.
type Options struct {
	Registry *registry.Registry
	Funcs    *funcs.Table
	// Snippets says the client accepts snippet syntax in completion items
	// (placeholders for function parameters).
	Snippets bool
	// CreateFiles says a workspace edit may create files: the code
	// actions that write the document in another format are offered.
	CreateFiles bool
}

var tables sync.Map // *registry.Registry → *funcs.Table

func (o Options) registry() *registry.Registry {
	if o.Registry != nil {
		return o.Registry
	}
	return analysis.BuiltinRegistry()
}

func (o Options) funcs() *funcs.Table {
	if o.Funcs != nil {
		return o.Funcs
	}
	reg := o.registry()
	if t, ok := tables.Load(reg); ok {
		return t.(*funcs.Table)
	}
	t, _ := tables.LoadOrStore(reg, analysis.DefaultTable(reg))
	return t.(*funcs.Table)
}

// Location is a range in a document. URI is the Result's URI (for a child
// blueprint loaded from disk, its file path); Mapper converts Range to
// line and column for that document's content.
type Location struct {
	URI    string
	Path   string
	Range  source.Range
	Mapper *source.Mapper
}

func locationOf(res *analysis.Result, r source.Range) Location {
	return Location{URI: res.URI, Path: res.Path, Range: r, Mapper: res.File.Mapper}
}

// WorkspaceEdit is a set of edits per document (keyed by Result URI), with
// the Mapper of the content the edits' offsets refer to.
type WorkspaceEdit struct {
	Changes map[string][]source.Edit
	Mappers map[string]*source.Mapper
	// Creates are new files (by URI) and their text, created before the
	// changes apply; a file that exists makes the client refuse the edit.
	Creates []NewFile
}

// NewFile is a file a workspace edit creates.
type NewFile struct {
	URI  string
	Text string
}

func (w *WorkspaceEdit) add(res *analysis.Result, e source.Edit) {
	if w.Changes == nil {
		w.Changes = map[string][]source.Edit{}
		w.Mappers = map[string]*source.Mapper{}
	}
	for _, have := range w.Changes[res.URI] {
		if have.Range == e.Range {
			return // the same occurrence reached twice
		}
	}
	w.Changes[res.URI] = append(w.Changes[res.URI], e)
	w.Mappers[res.URI] = res.File.Mapper
}

// Markdown helpers shared by hover and completion documentation.
func codeBlock(s string) string { return "```\n" + s + "\n```" }
