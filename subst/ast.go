package subst

import (
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Node is anything in a parsed template that has a document range.
type Node interface {
	Range() source.Range
	node()
}

// Expr is an expression inside ${..}: *Ref, *Call, *StringLit, *IntLit,
// *FloatLit, *BoolLit, *NoneLit, *ArrayLit or *BadExpr.
type Expr interface {
	Node
	expr()
}

// Accessor is one step of a path after a reference or call: *FieldAccessor
// (.name), *QuotedAccessor (["name"]), *IndexAccessor ([n]) or
// *FirstAccessor ([]), or *BadAccessor after a syntax error.
type Accessor interface {
	Node
	accessor()
}

// Namespace says what a reference refers to.
type Namespace uint8

const (
	Variables   Namespace = iota + 1 // variables.x
	Values                           // values.x
	DataSources                      // datasources.x
	Resources                        // resources.x, or a bare name x
	Children                         // children.x
	Elem                             // elem: the current element of each
	Index                            // i: the index of the current element
)

// namespaceKeywords is the one table of reference keywords.
var namespaceKeywords = map[string]Namespace{
	dialect.Variables.Namespace():   Variables,
	dialect.Values.Namespace():      Values,
	dialect.DataSources.Namespace(): DataSources,
	dialect.Resources.Namespace():   Resources,
	dialect.Include.Namespace():     Children,
	"elem":                          Elem,
	"i":                             Index,
}

// Keyword returns the keyword that introduces the namespace ("i" for
// Index).
func (n Namespace) Keyword() string {
	for k, v := range namespaceKeywords {
		if v == n {
			return k
		}
	}
	return "?"
}

func (n Namespace) String() string { return n.Keyword() }

// NeedsName reports whether the keyword must be followed by a name
// accessor (variables.x); elem and i stand alone.
func (n Namespace) NeedsName() bool { return n != Elem && n != Index }

// Ref is a reference. For the keyword namespaces KeywordRange covers the
// keyword; Name is the referenced item's name, written as .name or
// ["name"] (NameQuoted) right after the keyword. A bare resource name
// (`x.spec.y`) has Bare set, Namespace Resources and an empty KeywordRange
// at the name's start. Elem and Index have no Name.
//
// While the user is typing, Name may be missing: Name is "" and NameRange
// is where it belongs (empty when nothing was typed), so completion can
// offer names there.
//
// A bare name without accessors (`orderApi`, `sum_reducer`) is a Ref too;
// whether it names a resource or a function used as a value is for
// analysis to decide.
type Ref struct {
	Name string
	Path []Accessor
	Rng  source.Range
	// kw and name are KeywordRange and NameRange as offsets from
	// Rng.Start: two ranges were 32 of a reference's 96 bytes (issue 36;
	// a blueprint holds a reference in most of its substitutions).
	kw, name relRange
	// The small fields last, together.
	Namespace  Namespace
	Bare       bool
	NameQuoted bool
	// NameSingle is set when the quoted name is in single quotes
	// (['name']): the grammar's "name in quotes" does not fix the quote
	// character, and the printer keeps the author's.
	NameSingle bool
}

// KeywordRange is the namespace keyword (empty where the name starts for
// a bare reference).
func (r *Ref) KeywordRange() source.Range { return r.kw.from(r.Rng.Start) }

// NameRange is the name itself (inside the quotes when quoted).
func (r *Ref) NameRange() source.Range { return r.name.from(r.Rng.Start) }

// setRanges sets Rng, KeywordRange and NameRange together: the last two
// are kept relative to the first.
func (r *Ref) setRanges(rng, keyword, name source.Range) {
	r.Rng = rng
	r.kw, r.name = relativeTo(rng.Start, keyword), relativeTo(rng.Start, name)
}

// relRange is a range held as 32-bit offsets from the start of the node
// that holds it (its Rng.Start): a node's derived ranges so held take 8
// bytes each instead of 16, and move with the node.
type relRange [2]int32

// relativeTo returns r as offsets from base.
func relativeTo(base int, r source.Range) relRange {
	return relRange{int32(r.Start - base), int32(r.End - base)}
}

// from returns the range o holds, for a node starting at base.
func (o relRange) from(base int) source.Range {
	return source.R(base+int(o[0]), base+int(o[1]))
}

// Call is a function call with optional accessors on its result.
// Rparen is empty and Closed false when the call was not closed.
type Call struct {
	Name      string
	NameRange source.Range
	Lparen    source.Range
	Rparen    source.Range
	Closed    bool
	Args      []*Arg
	Commas    []source.Range // the separators between arguments
	Path      []Accessor
	Rng       source.Range
}

// Arg is one argument of a call; Name is set for a named argument
// (`object(id = "x")`), with NameRange and Equals.
type Arg struct {
	Name      string
	NameRange source.Range
	Equals    source.Range
	Value     Expr
	Rng       source.Range
}

// Range returns the argument's range.
func (a *Arg) Range() source.Range { return a.Rng }
func (a *Arg) node()               {}

// StringLit is a double-quoted string; Value is unescaped (\" and \\;
// any other backslash is kept as written). A single-quoted string in its
// place is reported (the grammar's string literal is double-quoted) and
// parsed as a StringLit too.
type StringLit struct {
	Value string
	Rng   source.Range
}

// IntLit is an integer literal; Text is as written.
type IntLit struct {
	Value int64
	Text  string
	Rng   source.Range
}

// FloatLit is a float literal; Text is as written.
type FloatLit struct {
	Value float64
	Text  string
	Rng   source.Range
}

// BoolLit is true or false.
type BoolLit struct {
	Value bool
	Rng   source.Range
}

// NoneLit is the none literal: the explicit absence of a value.
type NoneLit struct {
	Rng source.Range
}

// ArrayLit is `[a, b]`: not in the spec grammar, parsed with a warning and
// evaluated like list(a, b).
type ArrayLit struct {
	Lbrack source.Range
	Rbrack source.Range
	Closed bool
	Elems  []Expr
	Rng    source.Range
}

// BadExpr stands where an expression could not be parsed; the diagnostic
// has been reported, so nothing downstream reports it again.
type BadExpr struct {
	Rng source.Range
}

// FieldAccessor is `.name`; Name is "" when the name is missing (typing
// `x.`), NameRange then empty after the dot.
type FieldAccessor struct {
	Name      string
	NameRange source.Range
	Rng       source.Range
}

// QuotedAccessor is `["name"]`, or `['name']` with Single set;
// NameRange covers the string token.
type QuotedAccessor struct {
	Name      string
	Single    bool
	NameRange source.Range
	Rng       source.Range
}

// IndexAccessor is `[n]`.
type IndexAccessor struct {
	Index      int
	IndexRange source.Range
	Rng        source.Range
}

// BadAccessor stands where an accessor could not be parsed (`[x]`).
type BadAccessor struct {
	Rng source.Range
}

// FirstAccessor is `[]`, the spec's shorthand for the first item ([0]).
type FirstAccessor struct {
	Rng source.Range
}

func (e *Ref) Range() source.Range       { return e.Rng }
func (e *Call) Range() source.Range      { return e.Rng }
func (e *StringLit) Range() source.Range { return e.Rng }
func (e *IntLit) Range() source.Range    { return e.Rng }
func (e *FloatLit) Range() source.Range  { return e.Rng }
func (e *BoolLit) Range() source.Range   { return e.Rng }
func (e *NoneLit) Range() source.Range   { return e.Rng }
func (e *ArrayLit) Range() source.Range  { return e.Rng }
func (e *BadExpr) Range() source.Range   { return e.Rng }

func (*Ref) node()       {}
func (*Call) node()      {}
func (*StringLit) node() {}
func (*IntLit) node()    {}
func (*FloatLit) node()  {}
func (*BoolLit) node()   {}
func (*NoneLit) node()   {}
func (*ArrayLit) node()  {}
func (*BadExpr) node()   {}

func (*Ref) expr()       {}
func (*Call) expr()      {}
func (*StringLit) expr() {}
func (*IntLit) expr()    {}
func (*FloatLit) expr()  {}
func (*BoolLit) expr()   {}
func (*NoneLit) expr()   {}
func (*ArrayLit) expr()  {}
func (*BadExpr) expr()   {}

func (a *FieldAccessor) Range() source.Range  { return a.Rng }
func (a *QuotedAccessor) Range() source.Range { return a.Rng }
func (a *IndexAccessor) Range() source.Range  { return a.Rng }
func (a *FirstAccessor) Range() source.Range  { return a.Rng }
func (a *BadAccessor) Range() source.Range    { return a.Rng }

func (*FieldAccessor) node()  {}
func (*QuotedAccessor) node() {}
func (*IndexAccessor) node()  {}
func (*FirstAccessor) node()  {}
func (*BadAccessor) node()    {}

func (*FieldAccessor) accessor()  {}
func (*QuotedAccessor) accessor() {}
func (*IndexAccessor) accessor()  {}
func (*FirstAccessor) accessor()  {}
func (*BadAccessor) accessor()    {}

// Part is a piece of a template: *Literal text or a *Sub.
type Part interface {
	Node
	part()
}

// Literal is text outside substitutions; Value is decoded text.
type Literal struct {
	Value string
	Rng   source.Range
}

// Sub is one ${..} substitution. Rng covers `${` through `}` (to the end
// of the input when unterminated, Closed false and Close empty).
type Sub struct {
	Expr Expr
	Rng  source.Range
	// open and close are Open and Close as offsets from Rng.Start: two
	// ranges were 32 of a substitution's 72 bytes (issue 36).
	open, close relRange
	Closed      bool
}

// Open is the range of `${`.
func (s *Sub) Open() source.Range { return s.open.from(s.Rng.Start) }

// Close is the range of `}` (empty at the end when unterminated).
func (s *Sub) Close() source.Range { return s.close.from(s.Rng.Start) }

// setRanges sets Rng, Open and Close together: the last two are kept
// relative to the first.
func (s *Sub) setRanges(rng, open, close source.Range) {
	s.Rng = rng
	s.open, s.close = relativeTo(rng.Start, open), relativeTo(rng.Start, close)
}

func (p *Literal) Range() source.Range { return p.Rng }
func (p *Sub) Range() source.Range     { return p.Rng }
func (*Literal) node()                 {}
func (*Sub) node()                     {}
func (*Literal) part()                 {}
func (*Sub) part()                     {}
