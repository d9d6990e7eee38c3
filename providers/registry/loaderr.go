package registry

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// CodeProviderFile reports a file of a provider directory that could not
// be loaded; the directory's other files still are.
var CodeProviderFile = source.NewCode("provider-file-invalid", source.Error,
	"A `*.json` file in a provider directory is not JSON or not a valid resource schema or provider file; the directory's other files still load.",
	"{\"typeName\": \"Acme::Shop::Widget\", \"properties\": {")

// LoadError is one file of a provider directory whose content could not
// be loaded (not JSON, not a valid provider file). LoadDir joins them
// into its error; LoadErrors takes them out. A file that cannot be read
// at all is a plain error (package safefs refuses hostile files).
type LoadError struct {
	Path   string // as walked: under the directory given to LoadDir
	Data   []byte // the content, when it was read
	Offset int    // where in Data the problem is; -1 when unknown
	Err    error
}

func (e *LoadError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// Diagnostic is the problem as a diagnostic on the file, with the mapper
// of its content for positions.
func (e *LoadError) Diagnostic() (source.Diagnostic, *source.Mapper) {
	rng := source.R(0, 0)
	if e.Offset >= 0 && e.Offset <= len(e.Data) {
		rng = source.R(e.Offset, min(e.Offset+1, len(e.Data)))
	}
	return CodeProviderFile.New(rng, "cannot load this provider file: %v; the directory's other files still load", e.Err), source.NewMapper(e.Data)
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
