package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/providers/resschema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// CodeProviderFile reports a file of a provider directory that could not
// be loaded; the directory's other files still are.
var CodeProviderFile = source.NewCode("provider-file-invalid", source.Error,
	"A `*.json` file in a provider directory is not JSON or not a valid resource schema or provider file; the directory's other files still load.",
	"{\"typeName\": \"Acme::Shop::Widget\", \"properties\": {")

// LoadError is one file of a provider directory whose content could not
// be loaded (not JSON, not a JSON object, not a valid provider file, or
// not readable at all: package safefs refuses devices, FIFOs, links out
// of the directory and files past the size budget). LoadDir joins them
// into its error; LoadErrors takes them out. Only a directory that
// cannot be walked is a plain error.
type LoadError struct {
	Path   string // as walked: under the directory given to LoadDir
	Data   []byte // the content, when it was read
	Offset int    // where in Data the problem is; -1 when unknown
	Err    error
	// Diags, when set, are the file's problems at their positions (the
	// meta-schema check's): the file's types are still loaded.
	Diags []source.Diagnostic
}

func (e *LoadError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// Diagnostics are the problems as diagnostics on the file, with the
// mapper of its content for positions.
func (e *LoadError) Diagnostics() ([]source.Diagnostic, *source.Mapper) {
	if len(e.Diags) > 0 {
		return e.Diags, source.NewMapper(e.Data)
	}
	d, m := e.diagnostic()
	return []source.Diagnostic{d}, m
}

func (e *LoadError) diagnostic() (source.Diagnostic, *source.Mapper) {
	rng := source.R(0, 0)
	if e.Offset >= 0 && e.Offset <= len(e.Data) {
		rng = source.R(e.Offset, min(e.Offset+1, len(e.Data)))
	}
	verb := "load"
	if e.Data == nil {
		verb = "read"
	}
	return CodeProviderFile.New(rng, "cannot %s this provider file: %v; the directory's other files still load", verb, e.Err), source.NewMapper(e.Data)
}

// LoadErrors splits LoadDir's joined error into the files whose content
// could not be loaded and the rest (a file that could not be read, a
// directory that could not be walked), joined; rest is nil when there is
// nothing else.
func LoadErrors(err error) (files []*LoadError, rest error) {
	var others []error
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if le, ok := err.(*LoadError); ok {
			files = append(files, le)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		others = append(others, err)
	}
	walk(err)
	return files, errors.Join(others...)
}

// newLoadError wraps a failure to load the file at p, locating a JSON
// syntax error in data.
func newLoadError(p string, data []byte, err error) *LoadError {
	le := &LoadError{Path: p, Data: data, Offset: -1, Err: err}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		le.Offset = int(se.Offset)
		if le.Offset > 0 && !strings.Contains(se.Error(), "end of JSON input") {
			le.Offset-- // the offset is after the offending byte
		}
	}
	return le
}

// checkJSON reports data that is not JSON, with the position of the
// first syntax error.
func checkJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v json.RawMessage
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return errors.New("not valid JSON")
}

// checkSchema runs the meta-schema check (package resschema) over a
// resource schema read from disk.
func checkSchema(data []byte) []source.Diagnostic {
	return resschema.Check(syntax.ParseJSON(data, false), resschema.Options{})
}

// notObject refuses a JSON file of a provider directory whose top level
// is not an object (nil for an object of no kind of ours, which is
// skipped).
func notObject(data []byte) error {
	f := syntax.ParseJSON(data, false)
	switch f.Root.(type) {
	case *syntax.Mapping, nil:
		return nil
	case *syntax.Sequence:
		return errors.New("its top level is an array; a resource schema or provider file is a JSON object")
	}
	return errors.New("its top level is a single value; a resource schema or provider file is a JSON object")
}

// check runs the meta-schema check of a schema read from disk, once
// (on first use of its type, or from CheckSchemaFiles, whichever comes
// first); data is the file's content, nil to read it.
func (e *resourceEntry) check(data []byte) {
	if e.file == "" {
		return
	}
	e.checked.Do(func() {
		if data == nil {
			var err error
			if data, err = e.read(); err != nil {
				return // reported when the type is used
			}
		}
		if e.problems = checkSchema(data); len(e.problems) > 0 {
			e.data = data
		}
	})
}

// CheckSchemaFiles checks every resource schema LoadDir read from disk
// against the meta-schema and the rules beside it (package resschema),
// on every core, without compiling the types, and returns one LoadError
// per file with problems, holding them as Diags, in load order. The
// files' types stay loaded; the spec checks of their resources name the
// file to fix (ResourceType.Flawed). For `check`: the language server
// checks a type's file when the type is first used.
func (r *Registry) CheckSchemaFiles() []*LoadError {
	r.mu.RLock()
	var files []*resourceEntry
	seen := map[string]bool{}
	for _, e := range r.files {
		if !seen[e.file] {
			seen[e.file] = true
			files = append(files, e)
		}
	}
	r.mu.RUnlock()
	var wg sync.WaitGroup
	next := make(chan *resourceEntry)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range next {
				e.check(nil)
			}
		}()
	}
	for _, e := range files {
		next <- e
	}
	close(next)
	wg.Wait()
	var out []*LoadError
	for _, e := range files {
		if len(e.problems) > 0 {
			out = append(out, &LoadError{Path: e.file, Data: e.data, Offset: -1,
				Err: fmt.Errorf("%d problem(s) against the resource schema meta-schema", len(e.problems)), Diags: e.problems})
		}
	}
	return out
}
