package analysis

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// Loader loads and analyses child blueprints, caching each by path and
// content so a child included many times (or checked as a file of its own)
// is analysed once. It is safe for concurrent use.
type Loader struct {
	// ReadFile returns a file's contents; the language server puts open
	// buffers first. Nil reads from disk through safefs, within Limit.
	ReadFile func(path string) ([]byte, error)
	// Limit is the size budget of a child read from disk (0: the
	// safefs document default).
	Limit int64
	// Options are used for the children (Loader and Path are set per
	// child).
	Options Options

	mu    sync.Mutex
	cache map[string]*loadEntry
}

// loadEntry is one cached child. done is closed when res is set; until
// then waitsFor names the entry its analysis is blocked on (under the
// loader's lock), so a wait that would close a loop is never started.
type loadEntry struct {
	content  string
	done     chan struct{}
	res      *Result
	waitsFor *loadEntry
}

// NewLoader returns a loader reading files with read (nil: from disk).
func NewLoader(read func(path string) ([]byte, error), opts Options) *Loader {
	return &Loader{ReadFile: read, Options: opts, cache: map[string]*loadEntry{}}
}

// Invalidate drops a cached child, after the file changed.
func (l *Loader) Invalidate(path string) {
	l.mu.Lock()
	delete(l.cache, filepath.Clean(path))
	l.mu.Unlock()
}

// Load returns the analysis of the blueprint at path. stack lists the
// files including it, for cycle detection (the caller reports cycles).
func (l *Loader) Load(ctx context.Context, path string, stack []string) (*Result, error) {
	return l.load(ctx, path, stack, nil, l.Options.Roots)
}

// ReadDisk reads a blueprint from disk within the loader's budget: only a
// regular file, never more than Limit bytes.
func (l *Loader) ReadDisk(path string) ([]byte, error) {
	return safefs.ReadFile(path, l.Limit)
}

// load is Load on behalf of the child analysis from (nil at the top).
// Two files that include each other, checked at once from two parents,
// would each wait for the other: before waiting, load follows the chain
// of waits from the entry it needs, and when the chain leads back to from
// it analyses the file itself instead (the include cycle is then reported
// through the stack as usual).
func (l *Loader) load(ctx context.Context, path string, stack []string, from *loadEntry, roots *safefs.Roots) (*Result, error) {
	path = filepath.Clean(path)
	read := l.ReadFile
	if read == nil {
		read = l.ReadDisk
	}
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.cache == nil {
		l.cache = map[string]*loadEntry{}
	}
	e := l.cache[path]
	if e != nil && e.content == string(data) {
		select {
		case <-e.done:
			l.mu.Unlock()
			return e.res, nil
		default:
		}
		if !l.wouldDeadlock(from, e) {
			if from != nil {
				from.waitsFor = e
			}
			l.mu.Unlock()
			select {
			case <-e.done:
			case <-ctx.Done():
			}
			l.mu.Lock()
			if from != nil {
				from.waitsFor = nil
			}
			l.mu.Unlock()
			if e.res != nil {
				return e.res, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// The analysis we waited for was cancelled by its own caller:
			// nothing was cached, so analyse it for this caller.
			return l.load(ctx, path, stack, from, roots)
		}
		// Waiting would close a loop: analyse a private copy.
		e = &loadEntry{content: string(data), done: make(chan struct{})}
	} else {
		e = &loadEntry{content: string(data), done: make(chan struct{})}
		l.cache[path] = e
	}
	if from != nil {
		from.waitsFor = e
	}
	l.mu.Unlock()

	f := schema.Parse(path, data)
	opts := l.Options
	opts.Loader = l
	opts.Path = path
	opts.Roots = roots
	opts.includeStack = append(append([]string(nil), stack...), path)
	opts.entry = e
	res := Analyze(ctx, f, opts)

	cancelled := ctx.Err() != nil
	l.mu.Lock()
	if !cancelled {
		e.res = res
	} else if l.cache[path] == e {
		delete(l.cache, path) // incomplete: never hand it to anyone
	}
	close(e.done)
	if from != nil {
		from.waitsFor = nil
	}
	l.mu.Unlock()
	if cancelled {
		return nil, ctx.Err()
	}
	return res, nil
}

// wouldDeadlock reports whether waiting for e from the analysis of from
// would wait on itself. Called with l.mu held.
func (l *Loader) wouldDeadlock(from, e *loadEntry) bool {
	if from == nil {
		return false
	}
	for n, steps := e, 0; n != nil && steps < 1000; n, steps = n.waitsFor, steps+1 {
		if n == from {
			return true
		}
	}
	return false
}

// loaded reports whether the child was read and parsed, so its variables
// and exports can be checked against.
func (c *Child) loaded() bool {
	return c != nil && c.Result != nil && c.Result.Blueprint != nil
}

// loadChildren resolves every include before references are checked, so
// children.x.y can be typed.
func (a *analyzer) loadChildren() {
	for _, s := range a.ofKind(ChildSymbol) {
		inc := s.Include
		child := &Child{Symbol: s}
		a.res.Children[s.Name] = child
		if inc.Path == nil || inc.Path.Scalar() == nil {
			continue // missing path: reported by schema
		}
		sc := inc.Path.Scalar()
		rng := sc.ValueRange()
		if inc.Metadata != nil {
			if m := inc.Metadata.Mapping(); m != nil && m.Get("sourceType") != nil {
				a.report(codeIncludeNotChecked.New(rng, "child blueprint %q is remote (metadata.sourceType is set) and was not fetched or checked", s.Name))
				continue
			}
		}
		p := sc.Value
		if strings.Contains(p, "${") {
			resolved, ok := a.staticPath(sc)
			if !ok {
				a.report(codeIncludeNotChecked.New(rng, "the path of child blueprint %q is computed, so the child was not checked", s.Name))
				continue
			}
			p = resolved
		}
		if a.opts.Loader == nil {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.dir(), p)
		}
		p = filepath.Clean(p)
		if err := a.opts.Roots.Check(p); err != nil {
			a.report(codeIncludeOutside.New(rng, "child blueprint %s is outside the project root %s and was not read (a .blueprint-ls.yaml can allow more directories under roots)", sc.Value, a.opts.Roots.Primary()))
			continue
		}
		child.Path = p
		for i, anc := range a.opts.includeStack {
			if anc == p {
				chain := append(append([]string(nil), a.opts.includeStack[i:]...), p)
				for j := range chain {
					chain[j] = filepath.Base(chain[j])
				}
				a.report(codeIncludeCycle.New(rng, "include cycle: %s", strings.Join(chain, " -> ")))
				child.Path = ""
				break
			}
		}
		if child.Path == "" || p == filepath.Clean(a.opts.Path) {
			if p == filepath.Clean(a.opts.Path) {
				a.report(codeIncludeCycle.New(rng, "a blueprint can not include itself"))
			}
			continue
		}
		stack := a.opts.includeStack
		if len(stack) == 0 && a.opts.Path != "" {
			stack = []string{filepath.Clean(a.opts.Path)}
		}
		res, err := a.opts.Loader.load(a.ctx, p, stack, a.opts.entry, a.opts.Roots)
		if err != nil && a.ctx.Err() != nil {
			return // cancelled: the caller discards this Result
		}
		if err != nil {
			shown := sc.Value
			if strings.Contains(shown, "${") {
				shown = fmt.Sprintf("%s (resolved to %s)", shown, p)
			}
			if errors.Is(err, fs.ErrNotExist) {
				a.report(codeIncludeMissing.New(rng, "child blueprint %s does not exist", shown))
			} else {
				a.report(codeIncludeMissing.New(rng, "child blueprint %s can not be read: %v", shown, unwrapPathError(err)))
			}
			continue
		}
		child.Result = res
		if child.loaded() {
			s.Type = childType(res)
		}
		if !child.loaded() || res.Blueprint.Root == nil {
			a.reportNotBlueprint(rng, sc.Value, res)
			continue
		}
		if n := countErrors(res.Diagnostics); n > 0 {
			first := firstError(res.Diagnostics)
			l, c := res.File.Mapper.LineCol(first.Range.Start, source.UTF32)
			d := codeIncludeBroken.New(rng, "child blueprint %s has %d error%s; the first, at %d:%d: %s", sc.Value, n, plural(n), l, c, first.Message)
			d.Related = []source.Related{{URI: res.URI, Range: first.Range, Message: first.Message}}
			a.report(d)
		}
	}
}

// reportNotBlueprint reports an include naming a file that is not a
// blueprint at all: it does not parse, or its top level is not a mapping.
// The message says what was found and where the first error is, never
// what the file says: an include can name any file (credentials, a key)
// and messages end up in CI logs.
func (a *analyzer) reportNotBlueprint(rng source.Range, shown string, res *Result) {
	first := firstError(res.Diagnostics)
	what := "it does not parse"
	if f := res.File; f != nil && f.Root != nil && !f.HasSyntaxErrors() {
		what = "found " + schema.DescribeRoot(f)
	} else if f != nil {
		l, c := f.Mapper.LineCol(first.Range.Start, source.UTF32)
		what = fmt.Sprintf("it does not parse as %s (the first error is at %d:%d)", f.Format, l, c)
	}
	d := codeIncludeBroken.New(rng, "child blueprint %s is not a blueprint: %s", shown, what)
	d.Related = []source.Related{{URI: res.URI, Range: first.Range, Message: "the file " + shown + " starts here"}}
	a.report(d)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// staticPath resolves a computed include path when every substitution is
// a variable with a default or cwd().
func (a *analyzer) staticPath(sc *schema.Scalar) (string, bool) {
	site := a.siteOf(sc)
	if site == nil {
		return "", false
	}
	var b strings.Builder
	// Rebuild from the decoded value, replacing each substitution.
	val := sc.Value
	last := 0
	for _, sub := range site.Template.Subs() {
		start, end := decodedSpan(sc, sub.Rng)
		if start < last || end > len(val) {
			return "", false
		}
		b.WriteString(val[last:start])
		text, ok := a.staticText(sub.Expr)
		if !ok {
			return "", false
		}
		b.WriteString(text)
		last = end
	}
	b.WriteString(val[last:])
	return b.String(), true
}

// decodedSpan maps a document range inside a scalar back to decoded
// offsets (scalars with substitutions in paths are plain in practice).
func decodedSpan(sc *schema.Scalar, r source.Range) (int, int) {
	start, end := -1, -1
	for i := 0; i <= len(sc.Value); i++ {
		o := sc.OffsetMap().Source(i)
		if start < 0 && o >= r.Start {
			start = i
		}
		if o >= r.End {
			end = i
			break
		}
	}
	if end < 0 {
		end = len(sc.Value)
	}
	return start, end
}

func (a *analyzer) staticText(e subst.Expr) (string, bool) {
	switch e := e.(type) {
	case *subst.Ref:
		if e.Namespace == subst.Variables && len(e.Path) == 0 {
			if v := a.lookup(VariableSymbol, e.Name); v != nil && v.Variable.Default != nil {
				return v.Variable.Default.Text(), true
			}
		}
	case *subst.StringLit:
		return e.Value, true
	case *subst.Call:
		if e.Name == "cwd" && len(e.Args) == 0 && len(e.Path) == 0 {
			if a.opts.WorkingDir != "" {
				return a.opts.WorkingDir, true
			}
			if wd, err := os.Getwd(); err == nil {
				return wd, true
			}
		}
	}
	return "", false
}

// childType is the object of a child's exports.
func childType(res *Result) types.Type {
	fieldTypes := map[*Symbol]types.Type{}
	for _, s := range res.Sites() {
		if s.Kind == SiteExportField && s.Owner != nil {
			fieldTypes[s.Owner] = s.Type
		}
	}
	var fs []types.Field
	for _, s := range res.Symbols() {
		if s.Kind == ExportSymbol {
			t := s.Type
			if ft := fieldTypes[s]; ft != nil && !types.IsUnknownOrAny(ft) && t != nil && (t == types.Unknown || refines(ft, t)) {
				t = ft
			}
			fs = append(fs, types.Field{Name: s.Name, Type: t, Doc: s.Doc})
		}
	}
	return types.NewObject(false, fs...)
}

func countErrors(ds []source.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == source.Error {
			n++
		}
	}
	return n
}

func firstError(ds []source.Diagnostic) source.Diagnostic {
	for _, d := range ds {
		if d.Severity == source.Error {
			return d
		}
	}
	return source.Diagnostic{}
}

// checkIncludes checks the variables each include passes against the
// child's variable definitions.
func (a *analyzer) checkIncludes() {
	for _, s := range a.ofKind(ChildSymbol) {
		child := a.res.Children[s.Name]
		if !child.loaded() {
			continue
		}
		cres := child.Result
		passed := map[string]bool{}
		if m := s.Include.Variables.Mapping(); m != nil {
			for _, e := range m.Entries {
				if e.Key == nil {
					continue
				}
				passed[e.Key.Value] = true
				cv := cres.Lookup(VariableSymbol, e.Key.Value)
				if cv == nil {
					d := unknownName(codeIncludeUnknownVariable, e.Key.Rng, "variable", e.Key.Value, cres.names(VariableSymbol))
					d.Message = fmt.Sprintf("child blueprint %q has no variable %q", s.Name, e.Key.Value) + trimPrefixMsg(d.Message)
					a.report(d)
					continue
				}
				if e.Value == nil {
					continue
				}
				var vt types.Type
				if sc, ok := e.Value.(*schema.Scalar); ok {
					vt = a.scalarType(sc)
					if site := a.siteOf(sc); site == nil && sc.Tag == schema.StringTag {
						// A literal string for a number or boolean is read as
						// that type when it parses (as for values).
						if isInt, isFloat := parseNumber(sc.Value); (cv.Type == types.Integer && isInt) || (cv.Type == types.Float && isFloat) || (cv.Type == types.Boolean && (sc.Value == "true" || sc.Value == "false")) {
							continue
						}
					}
				} else {
					vt = a.literalType(e.Value)
				}
				if vt == nil || types.IsUnknownOrAny(vt) || types.IsUnknownOrAny(cv.Type) || vt == types.None {
					continue
				}
				if !strictAssignable(vt, cv.Type) {
					d := codeIncludeVariableType.New(e.Value.Range(), "child variable %q is %s, but %s is passed", e.Key.Value, withArticle(cv.Type.String()), withArticle(vt.String()))
					d.Related = []source.Related{{URI: cres.URI, Range: cv.NameRange, Message: "the child's variable"}}
					a.report(d)
				}
			}
		}
		for _, cv := range cres.Symbols() {
			if cv.Kind != VariableSymbol || passed[cv.Name] || cv.Variable.Default != nil {
				continue
			}
			rng := s.NameRange
			if s.Include.Variables != nil {
				rng = s.Include.Variables.KeyRange()
			}
			d := codeIncludeMissingVariable.New(rng, "child blueprint %q needs variable %q (%s, no default), which the include does not pass", s.Name, cv.Name, cv.Type)
			d.Related = []source.Related{{URI: cres.URI, Range: cv.NameRange, Message: "the child's variable"}}
			a.report(d)
		}
	}
}

func (r *Result) names(k SymbolKind) []string {
	var out []string
	for _, s := range r.Symbols() {
		if s.Kind == k {
			out = append(out, s.Name)
		}
	}
	return out
}
