package funcs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// Flags describe how a function behaves beyond its signature.
type Flags uint16

const (
	// EnvDependent functions read the Env (files, network, clock, random
	// numbers, working directory): they are not pure and must not be
	// constant-folded or cached.
	EnvDependent Flags = 1 << iota
	// ReturnsFunc functions return a function value (the _g functions,
	// compose, pipe, getattr, getelem). Such a result can only be passed to
	// a function that takes a function.
	ReturnsFunc
	// HigherOrder functions take function values as arguments.
	HigherOrder
	// HandlesNone functions see none arguments; for all others the call
	// boundary returns none as soon as any argument is none.
	HandlesNone
	// HandlesUnknown functions see unknown arguments; for all others the
	// call boundary returns unknown as soon as any argument is unknown.
	HandlesUnknown
	// NamedArgs functions read argument names (Ctx.Names); for all others
	// names are ignored and arguments are positional.
	NamedArgs
	// ResourceArgs functions take resources: the evaluator passes a
	// resource reference as the resource's name (a string).
	ResourceArgs
)

var flagNames = []struct {
	f    Flags
	name string
}{
	{EnvDependent, "environment-dependent"},
	{ReturnsFunc, "returns a function"},
	{HigherOrder, "higher-order"},
	{HandlesNone, "handles none"},
	{HandlesUnknown, "handles unknown"},
	{NamedArgs, "named arguments"},
	{ResourceArgs, "resource arguments"},
}

// Impl is a function's implementation. args are the positional argument
// values; names of named arguments are in c.Names. An Impl returns a
// *RuntimeError (built with argError or errorf) for a user's mistake.
type Impl func(c *Ctx, args []Value) (Value, error)

// Example is one documented use of a function.
type Example struct {
	Expr   string // the ${..} expression
	Result string // the result as JSON, empty when it depends on inputs
	Note   string // a short explanation (may be empty)
}

// Func is one entry of the function table: everything type checking,
// signature help, hover, completion, documentation and evaluation need.
type Func struct {
	Name      string
	Signature *types.Func
	// ParamDocs describe Signature.Params, one sentence each, in order.
	ParamDocs []string
	Summary   string // one sentence, for completion items
	Doc       string // markdown, for hover and docs/functions.md
	Examples  []Example
	Impl      Impl
	Flags     Flags
	// ResultFn, when set, computes the static result type from argument
	// types and names more precisely than unifying the signature can
	// (object, list, if, first, min, ...).
	ResultFn func(args []types.Type, names []string) types.Type
	// Provider names the provider that contributed the function; empty for
	// core functions.
	Provider string
	// Choose, when set, makes the function lazy in its arguments after
	// the first: given the first argument's value it returns the index of
	// the one argument that is the result (evaluate only that one, and
	// the call is that argument, sensitive when the first one is), or -1
	// when every argument must be evaluated and the function called as
	// usual (an unknown or mistaken first argument). Argument names do
	// not change this (only NamedArgs functions read them). `if`
	// evaluates only the branch it takes, so an error in the other one
	// is never raised.
	Choose func(first Value) int
}

// Has reports whether all of flags are set.
func (f *Func) Has(flags Flags) bool { return f.Flags&flags == flags }

// Pure reports whether the function depends only on its arguments.
func (f *Func) Pure() bool { return f.Flags&EnvDependent == 0 }

// FlagNames lists the set flags for people.
func (f *Func) FlagNames() []string {
	var out []string
	for _, fn := range flagNames {
		if f.Flags&fn.f != 0 {
			out = append(out, fn.name)
		}
	}
	return out
}

// ResultType returns the static result type of a call with the given
// argument types (names parallel to args, "" for positional): ResultFn when
// set, otherwise the signature's result with its type parameters bound by
// unifying each parameter with its argument.
func (f *Func) ResultType(args []types.Type, names []string) types.Type {
	if f.ResultFn != nil {
		return f.ResultFn(args, names)
	}
	return SignatureResult(f.Signature, args)
}

// SignatureResult unifies sig's parameters with args and substitutes the
// bindings into its result.
func SignatureResult(sig *types.Func, args []types.Type) types.Type {
	if len(sig.TypeParams) == 0 {
		return sig.Result
	}
	b := types.Bindings{}
	for i, a := range args {
		p, ok := sig.ParamAt(i)
		if !ok {
			break
		}
		types.Unify(p.Type, a, b)
	}
	return types.Substitute(sig.Result, b)
}

// RuntimeError is a user's mistake found while evaluating a call: a wrong
// argument type, an index out of range, malformed JSON.
type RuntimeError struct {
	Func string // the function called
	Arg  int    // 1-based argument at fault; 0 for the call as a whole
	Msg  string
	Err  error // an underlying error (a nested call's), may be nil

	// sensitive is set when the call had a sensitive argument (the taint
	// travels from the values into the error): Error masks every quoted
	// text and every text of those arguments in secrets.
	sensitive bool
	secrets   []string
	// public is what the message says of the argument it describes when
	// that argument is sensitive (hidden): the kind of mistake only,
	// nothing that depends on the value (not where, not which
	// character). Empty: "was refused".
	public string
	// about is the 1-based argument whose content the message describes
	// when that is not Arg (fromjson's pointer errors describe the
	// document); 0: Arg.
	about int
	// hidden is set by taint when the argument the message describes is
	// sensitive: Error then says public and no more.
	hidden bool
}

// hiddenNote ends the message of an error about a sensitive argument.
const hiddenNote = "; the argument is sensitive, so the message says no more"

func (e *RuntimeError) Error() string {
	var b strings.Builder
	if e.Func != "" {
		b.WriteString(e.Func)
		b.WriteString(": ")
	}
	if e.Arg > 0 {
		fmt.Fprintf(&b, "argument %d: ", e.Arg)
	}
	prefix := b.Len()
	if e.hidden {
		public := e.public
		if public == "" {
			public = SensitiveText + " was refused"
		}
		return b.String() + public + hiddenNote
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		if e.Msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	if e.sensitive {
		s := b.String()
		return s[:prefix] + mask(s[prefix:], e.secrets)
	}
	return b.String()
}

// Sensitive reports whether the call that failed had a sensitive
// argument, so that its message is masked.
func (e *RuntimeError) Sensitive() bool { return e.sensitive }

func (e *RuntimeError) Unwrap() error { return e.Err }

// argError reports a problem with argument i (0-based).
func argError(i int, format string, a ...any) *RuntimeError {
	return &RuntimeError{Arg: i + 1, Msg: fmt.Sprintf(format, a...)}
}

// publicly sets what e says when the argument it describes is
// sensitive (see RuntimeError.public).
func (e *RuntimeError) publicly(msg string) *RuntimeError {
	e.public = msg
	return e
}

// describing says that e describes the content of argument i (0-based)
// though it is about another one.
func (e *RuntimeError) describing(i int) *RuntimeError {
	e.about = i + 1
	return e
}

// errorf reports a problem with the call as a whole.
func errorf(format string, a ...any) *RuntimeError {
	return &RuntimeError{Msg: fmt.Sprintf(format, a...)}
}

// maxDepth bounds nested calls through function values.
const maxDepth = 256

// Ctx is the frame a function runs in: cancellation, the environment, the
// table (for function values) and the names of the current call's
// arguments. A Ctx is used by one evaluation at a time; it is a per-call
// frame like an http.Request, which is why it carries a context.Context.
type Ctx struct {
	Context context.Context
	Env     Env
	Table   *Table
	// Names holds the names of the current call's arguments, parallel to
	// args ("" for positional ones), or nil when none are named.
	Names []string
	depth int
	spent int64 // bytes of text built so far (Charge)
}

// NewCtx returns a frame for evaluating calls against t with env. A nil
// env is a TestEnv with defaults (no files, no network); a nil t is Core().
func NewCtx(ctx context.Context, t *Table, env Env) *Ctx {
	if ctx == nil {
		ctx = context.Background()
	}
	if t == nil {
		t = Core()
	}
	if env == nil {
		env = &TestEnv{}
	}
	return &Ctx{Context: ctx, Env: env, Table: t}
}

// Call looks up name in the frame's table and invokes it.
func (c *Ctx) Call(name string, args []Value, names []string) (Value, error) {
	f, ok := c.Table.Lookup(name)
	if !ok {
		msg := fmt.Sprintf("unknown function %q", name)
		if s := c.Table.Suggest(name); len(s) > 0 {
			msg += fmt.Sprintf(" (did you mean %q?)", s[0])
		}
		return None, &RuntimeError{Msg: msg}
	}
	return c.Invoke(f, args, names)
}

// Invoke calls f at the call boundary: it checks the argument count,
// propagates none and unknown arguments (unless f handles them), recovers
// panics into a RuntimeError naming f, and marks the result sensitive when
// any argument is.
func (c *Ctx) Invoke(f *Func, args []Value, names []string) (res Value, err error) {
	sig := f.Signature
	if n := len(args); n < sig.MinArgs() || (sig.MaxArgs() >= 0 && n > sig.MaxArgs()) {
		return None, &RuntimeError{Func: f.Name, Msg: arityMessage(sig, n)}
	}
	sensitive := false
	anyNone, anyUnknown := false, false
	for i := range args {
		switch args[i].kind {
		case KindNone:
			anyNone = true
		case KindUnknown:
			anyUnknown = true
		}
		if args[i].Sensitive() {
			sensitive = true
		}
	}
	// A none or unknown argument often decides the result without the
	// other arguments being read (here, or in a function that handles
	// them), but those must still fit their parameters, as the checker
	// says.
	if anyNone || anyUnknown {
		if err := checkKinds(sig, args); err != nil {
			err.(*RuntimeError).Func = f.Name
			return None, err
		}
	}
	if anyNone && f.Flags&HandlesNone == 0 {
		return None, nil
	}
	if anyUnknown && f.Flags&HandlesUnknown == 0 {
		return Unknown(f.Name + "(..)").WithSensitive(sensitive), nil
	}
	if c.depth >= maxDepth {
		return None, &RuntimeError{Func: f.Name, Msg: "calls nested too deeply"}
	}
	if err := c.Context.Err(); err != nil {
		return None, err
	}
	prevNames := c.Names
	c.Names = names
	c.depth++
	defer func() {
		c.Names = prevNames
		c.depth--
		if r := recover(); r != nil {
			res, err = None, &RuntimeError{Func: f.Name, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	res, err = f.Impl(c, args)
	if err != nil {
		if re, ok := err.(*RuntimeError); ok {
			if re.Func == "" {
				re.Func = f.Name
			}
		} else if cerr := c.Context.Err(); cerr == nil || !errors.Is(err, cerr) {
			err = &RuntimeError{Func: f.Name, Err: err}
		} else {
			return None, err // cancelled
		}
		if sensitive {
			err = taint(err, f.Name, args)
		}
		return None, err
	}
	if err := CheckSize(res); err != nil {
		return None, &RuntimeError{Func: f.Name, Msg: err.Error()}
	}
	if res.kind == KindString || res.kind == KindBinary {
		if err := c.Charge(len(res.str)); err != nil {
			return None, &RuntimeError{Func: f.Name, Msg: err.Error()}
		}
	}
	if sensitive {
		res = res.WithSensitive(true)
	}
	return res, nil
}

func arityMessage(sig *types.Func, n int) string {
	lo, hi := sig.MinArgs(), sig.MaxArgs()
	var want string
	switch {
	case hi < 0:
		want = fmt.Sprintf("at least %d", lo)
	case lo == hi:
		want = fmt.Sprintf("%d", lo)
	default:
		want = fmt.Sprintf("%d to %d", lo, hi)
	}
	s := "s"
	if (lo == 1 && hi == 1) || (lo == 1 && hi < 0) {
		s = ""
	}
	return fmt.Sprintf("expected %s argument%s, got %d", want, s, n)
}

// Function is a function value: a table function passed by name
// (to_upper), a partial application (trimprefix_g("http://")), or a
// composition. Only higher-order functions call it.
type Function struct {
	Name      string      // how it reads in messages: to_upper, getattr("id")
	Type      *types.Func // its signature; MaxArgs decides optional arguments
	Sensitive bool        // it captured a sensitive value
	// propagate makes CallFunc return none or unknown, without calling,
	// when an argument is none or unknown (table functions passed by name
	// apply their own rules in Invoke instead).
	propagate bool
	call      func(c *Ctx, args []Value) (Value, error)
}

// FuncValue returns the named table function as a function value.
func (t *Table) FuncValue(name string) (Value, bool) {
	f, ok := t.Lookup(name)
	if !ok {
		return None, false
	}
	return FuncValue(&Function{Name: f.Name, Type: f.Signature, call: func(c *Ctx, args []Value) (Value, error) {
		return c.Invoke(f, args, nil)
	}}), true
}

// CallFunc calls the function value fn with args. It recovers panics and
// keeps the result sensitive when fn or an argument is.
func (c *Ctx) CallFunc(fn Value, args ...Value) (res Value, err error) {
	f, ok := fn.Func()
	if !ok {
		return None, errorf("expected a function, got %s", describe(fn))
	}
	if n := len(args); n < f.Type.MinArgs() || (f.Type.MaxArgs() >= 0 && n > f.Type.MaxArgs()) {
		return None, &RuntimeError{Func: f.Name, Msg: arityMessage(f.Type, n)}
	}
	if f.propagate {
		for _, a := range args {
			if a.kind == KindNone {
				return None, nil
			}
		}
		for _, a := range args {
			if a.kind == KindUnknown {
				return Unknown(f.Name + "(..)").WithSensitive(fn.Sensitive() || a.Sensitive()), nil
			}
		}
	}
	if c.depth >= maxDepth {
		return None, &RuntimeError{Func: f.Name, Msg: "calls nested too deeply"}
	}
	c.depth++
	defer func() {
		c.depth--
		if r := recover(); r != nil {
			res, err = None, &RuntimeError{Func: f.Name, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	res, err = f.call(c, args)
	if err != nil {
		if cerr := c.Context.Err(); (cerr == nil || !errors.Is(err, cerr)) && (fn.Sensitive() || slices.ContainsFunc(args, Value.Sensitive)) {
			err = taint(err, f.Name, append([]Value{fn}, args...))
		}
		return None, err
	}
	if fn.Sensitive() {
		res = res.WithSensitive(true)
	}
	return res, nil
}

// Table is the one table of functions: the core functions plus those
// providers register. It drives type checking, signature help, hover,
// completion, documentation and evaluation.
type Table struct {
	mu       sync.RWMutex
	readOnly bool
	byName   map[string]*Func
	sorted   []*Func
	names    []string
}

var (
	coreOnce  sync.Once
	coreTable *Table
)

// Core returns the shared, read-only table of core functions.
func Core() *Table {
	coreOnce.Do(func() {
		t := &Table{byName: map[string]*Func{}}
		for _, f := range coreFuncs() {
			if err := t.Register(f); err != nil {
				panic("funcs: " + err.Error())
			}
		}
		t.readOnly = true
		coreTable = t
	})
	return coreTable
}

// NewTable returns a table holding the core functions that accepts
// provider functions through Register.
func NewTable() *Table {
	core := Core()
	t := &Table{byName: make(map[string]*Func, len(core.byName))}
	for k, v := range core.byName {
		t.byName[k] = v
	}
	t.sorted = slices.Clone(core.sorted)
	t.names = slices.Clone(core.names)
	return t
}

// Register adds a function (a provider's). Names are unique; an entry
// needs a signature, a summary and an implementation.
func (t *Table) Register(f Func) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.readOnly:
		return fmt.Errorf("register %q: the core table is read-only; use NewTable", f.Name)
	case f.Name == "":
		return errors.New("register: function without a name")
	case f.Signature == nil:
		return fmt.Errorf("register %q: no signature", f.Name)
	case f.Impl == nil:
		return fmt.Errorf("register %q: no implementation", f.Name)
	case f.Summary == "":
		return fmt.Errorf("register %q: no summary", f.Name)
	}
	if _, dup := t.byName[f.Name]; dup {
		return fmt.Errorf("register %q: a function with that name exists", f.Name)
	}
	fp := &f
	t.byName[f.Name] = fp
	i := sort.Search(len(t.sorted), func(i int) bool { return t.sorted[i].Name >= f.Name })
	t.sorted = slices.Insert(t.sorted, i, fp)
	t.names = slices.Insert(t.names, i, f.Name)
	return nil
}

// Lookup returns the function called name.
func (t *Table) Lookup(name string) (*Func, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	f, ok := t.byName[name]
	return f, ok
}

// All returns every function sorted by name.
func (t *Table) All() []*Func {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Clone(t.sorted)
}

// Names returns every function name, sorted.
func (t *Table) Names() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Clone(t.names)
}

// Suggest returns the names closest to a misspelt one, best first.
func (t *Table) Suggest(name string) []string {
	return source.Closest(name, t.Names())
}
