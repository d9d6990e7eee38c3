package resschema

import (
	"bytes"
	"embed"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The meta-schema files, as published (see THIRD_PARTY_NOTICES.md).
//
//go:embed meta/*.json
var metaFS embed.FS

const (
	metaURL  = metaBase + "provider.definition.schema.v1.json"
	metaBase = "https://schema.cloudformation.us-east-1.amazonaws.com/"
)

var (
	metaOnce   sync.Once
	metaSchema *jsonschema.Schema
	metaErr    error
)

// compiled returns the meta-schema, compiled once per process. The
// draft-07 meta-schema it refers to is built into the validator; nothing
// is fetched.
func compiled() (*jsonschema.Schema, error) {
	metaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		names, _ := fs.Glob(metaFS, "meta/*.json")
		for _, name := range names {
			url := metaBase + path.Base(name)
			data, err := metaFS.ReadFile(name)
			if err != nil {
				metaErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				metaErr = err
				return
			}
			if err := c.AddResource(url, doc); err != nil {
				metaErr = err
				return
			}
		}
		c.UseLoader(noLoader{})
		c.UseRegexpEngine(compileRegexp)
		metaSchema, metaErr = c.Compile(metaURL)
	})
	return metaSchema, metaErr
}

// noLoader refuses every URL that is neither embedded nor built in: no
// network while checking.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, &jsonschema.LoadURLError{URL: url, Err: errNoFetch}
}

// lookahead is a pattern that starts with a negative lookahead of
// literal text, "(?!CloudFormation)^...", which Go's regexp lacks: the
// meta-schema uses one for typeConfiguration's property names.
type lookahead struct {
	src    string
	prefix string // the text the string must not start with
	rest   *regexp.Regexp
}

func (l lookahead) String() string { return l.src }

func (l lookahead) MatchString(s string) bool {
	return !strings.HasPrefix(s, l.prefix) && l.rest.MatchString(s)
}

// compileRegexp is the validator's regexp engine: Go's, plus a leading
// negative lookahead of literal text.
func compileRegexp(src string) (jsonschema.Regexp, error) {
	if body, ok := strings.CutPrefix(src, "(?!"); ok {
		if i := strings.IndexByte(body, ')'); i > 0 && regexp.QuoteMeta(body[:i]) == body[:i] {
			rest, err := regexp.Compile(body[i+1:])
			if err != nil {
				return nil, err
			}
			return lookahead{src: src, prefix: body[:i], rest: rest}, nil
		}
	}
	if re, err := regexp.Compile(src); err == nil {
		return re, nil
	}
	return foreign(src), nil
}

// foreign is a pattern of a resource schema that Go's regexp cannot read
// (lookbehind, \u escapes: CloudFormation's patterns are Java's and
// ECMA-262's). The meta-schema only asks that a pattern be a regex, which
// is not ours to judge; foreign matches everything.
type foreign string

func (f foreign) String() string        { return string(f) }
func (foreign) MatchString(string) bool { return true }
