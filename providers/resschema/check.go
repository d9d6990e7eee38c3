package resschema

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// Diagnostic codes of the meta-schema and of the shapes it states.
var (
	CodeInvalid = source.NewCode("provider-schema-invalid", source.Error,
		"A resource schema in a providers directory breaks the Resource Provider Definition meta-schema (a keyword it does not know, a value of the wrong type, a required keyword missing).",
		"{\"typeName\": \"Acme::Shop::Widget\", \"properties\": {\"Name\": {\"type\": \"strin\"}}}")
	CodeNotObject = source.NewCode("provider-schema-not-object", source.Error,
		"A resource schema's top level is not a JSON object.",
		"[\"Acme::Shop::Widget\"]")
	CodeTypeName = source.NewCode("provider-schema-type-name", source.Error,
		"A resource schema's typeName is not three segments, Organization::Service::Resource, of 2 to 64 letters and digits each.",
		"\"typeName\": \"Acme::Widget\"")
	CodePermissions = source.NewCode("provider-schema-permissions", source.Error,
		"A handler's permissions are not a list of strings (IAM actions).",
		"\"handlers\": {\"create\": {\"permissions\": \"s3:PutObject\"}}")
	CodeReplacement = source.NewCode("provider-schema-replacement-strategy", source.Error,
		"A resource schema's replacementStrategy is neither create_then_delete nor delete_then_create.",
		"\"replacementStrategy\": \"delete_first\"")
)

// errNoFetch is why a reference outside the embedded meta-schemas fails.
var errNoFetch = errors.New("blueprint-ls fetches no schema from the network")

// Options adjust Check.
type Options struct {
	// Builtin relaxes the rules the redistributed built-in catalog cannot
	// meet: cfn-lint strips every description, which the meta-schema
	// requires at the top level.
	Builtin bool
}

// cfnLintKeywords are the keywords cfn-lint adds to the schemas it
// redistributes (its own validation extensions, and later drafts'
// keywords), which the meta-schema does not know. Built-in data only.
var cfnLintKeywords = map[string]bool{
	"requiredXor": true, "requiredOr": true, "dependentExcluded": true, "dependentRequired": true,
	"relationshipRef": true, "dependencies": true, "if": true, "then": true, "else": true,
	"prefixItems": true, "uniqueKeys": true, "enumCaseInsensitive": true,
}

// Check validates a parsed resource schema. A file with syntax errors
// gets nothing from here (its syntax diagnostics say what is wrong);
// otherwise the result holds the meta-schema's violations and those of
// the rules beside it, sorted by position.
func Check(f *syntax.File, opt Options) []source.Diagnostic {
	if f == nil || f.HasSyntaxErrors() || f.Root == nil {
		return nil
	}
	root, ok := f.Root.(*syntax.Mapping)
	if !ok {
		return []source.Diagnostic{CodeNotObject.New(f.Root.Range(), "a resource schema is a JSON object with typeName and properties; this is a %s", describe(f.Root))}
	}
	var ds []source.Diagnostic
	if sch, err := compiled(); err != nil {
		ds = append(ds, CodeInvalid.New(source.R(root.Rng.Start, root.Rng.Start+1), "the meta-schema could not be compiled: %v", err))
	} else if inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Content())); err == nil {
		var ve *jsonschema.ValidationError
		if err := sch.Validate(inst); errors.As(err, &ve) {
			ds = append(ds, metaDiagnostics(root, ve, opt)...)
		}
	}
	ds = append(ds, rules(root)...)
	source.SortDiagnostics(ds)
	return ds
}

// describe names a node's shape for messages.
func describe(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Mapping:
		return "object"
	case *syntax.Sequence:
		return "array"
	case *syntax.Scalar:
		if n.Tag == syntax.StringTag {
			return "string"
		}
		return n.Tag.String()
	}
	return "value"
}

var printer = message.NewPrinter(language.English)

// leaf is one validator error worth reporting.
type leaf struct {
	loc  []string
	kind jsonschema.ErrorKind
}

// leaves flattens a validator error into the errors to report. Of the
// alternatives of an anyOf or oneOf, only the deepest are kept: the
// branch that got furthest is the one the author meant.
func leaves(e *jsonschema.ValidationError) []leaf {
	if len(e.Causes) == 0 {
		return []leaf{{loc: e.InstanceLocation, kind: e.ErrorKind}}
	}
	var out []leaf
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		deepest := 0
		for _, l := range out {
			deepest = max(deepest, len(l.loc))
		}
		if deepest > len(e.InstanceLocation) {
			out = slices.DeleteFunc(out, func(l leaf) bool { return len(l.loc) < deepest })
		}
		if len(out) > 1 {
			out = out[:1] // one message per alternative set
		}
	}
	return out
}

// metaDiagnostics words the validator's errors, each at the node its
// instance location names.
func metaDiagnostics(root *syntax.Mapping, ve *jsonschema.ValidationError, opt Options) []source.Diagnostic {
	var ds []source.Diagnostic
	seen := map[string]bool{}
	for _, l := range leaves(ve) {
		n, key := syntax.Locate(root, l.loc)
		if s, ok := n.(*syntax.Scalar); ok && s.IsString() && len(l.loc) > 0 && (slices.Contains(pointerLists, l.loc[0]) || Pointer(l.loc) == "/tagging/tagProperty") {
			continue // the pointer rule words it, with what the pointer misses
		}
		code, msg := CodeInvalid, l.kind.LocalizedString(printer)
		rng := n.Range()
		switch k := l.kind.(type) {
		case *kind.Required:
			missing := k.Missing
			if opt.Builtin && len(l.loc) == 0 {
				missing = slices.DeleteFunc(slices.Clone(missing), func(s string) bool { return s == "description" })
			}
			if len(missing) == 0 {
				continue
			}
			rng = opening(n, key)
			msg = fmt.Sprintf("missing required keyword %s", quoteAll(missing))
		case *kind.AdditionalProperties:
			m, _ := n.(*syntax.Mapping)
			for _, p := range k.Properties {
				if opt.Builtin && cfnLintKeywords[p] {
					continue
				}
				if e := m.Entry(p); e != nil {
					ds = appendOnce(ds, seen, CodeInvalid.New(e.Key.Rng, "unknown keyword %q%s", p, where(l.loc)))
				}
			}
			continue
		}
		switch {
		case len(l.loc) == 1 && l.loc[0] == "typeName":
			code, msg = CodeTypeName, fmt.Sprintf("typeName %s is not Organization::Service::Resource (three segments of 2 to 64 letters and digits)", scalarText(n))
		case len(l.loc) == 1 && l.loc[0] == "replacementStrategy":
			code, msg = CodeReplacement, fmt.Sprintf("replacementStrategy %s is neither \"create_then_delete\" nor \"delete_then_create\"", scalarText(n))
		case len(l.loc) >= 3 && l.loc[0] == "handlers" && l.loc[2] == "permissions":
			code, msg = CodePermissions, fmt.Sprintf("the %s handler's permissions are a list of strings (IAM actions): %s", l.loc[1], msg)
		default:
			msg += where(l.loc)
		}
		ds = appendOnce(ds, seen, code.New(rng, "%s", msg))
	}
	return ds
}

func appendOnce(ds []source.Diagnostic, seen map[string]bool, d source.Diagnostic) []source.Diagnostic {
	k := fmt.Sprint(d.Range, d.Code, d.Message)
	if seen[k] {
		return ds
	}
	seen[k] = true
	return append(ds, d)
}

// where names an instance location for a message ("" at the top level).
func where(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return " (at " + Pointer(loc) + ")"
}

// Pointer spells tokens as a JSON pointer.
func Pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func scalarText(n syntax.Node) string {
	if s, ok := n.(*syntax.Scalar); ok {
		return strconv.Quote(s.Value)
	}
	return "(a " + describe(n) + ")"
}

// opening is where a problem with a whole object is reported: its key
// when it has one, else its opening brace.
func opening(n syntax.Node, key *syntax.Scalar) source.Range {
	if key != nil {
		return key.Rng
	}
	r := n.Range()
	return source.R(r.Start, min(r.Start+1, r.End))
}
