package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// Inputs are everything outside the blueprint that evaluation reads:
// variable values, data source fixtures and the prior state. The zero
// value is valid (defaults only, every data source field unknown, nothing
// deployed).
type Inputs struct {
	// Vars holds variable values by name. Later additions replace earlier
	// ones (AddVarsFile, AddVar), so files then flags gives flags the last
	// word.
	Vars map[string]Input
	// Data holds data source fixtures: data source name → exported field
	// name → value. A field not given is unknown until deployment. The
	// data sources of child blueprints are keyed by the include names
	// and the data source name joined with "/": "core/network" for data
	// source network of the child included as core, "core/net/vpc" one
	// level further down.
	Data map[string]map[string]funcs.Value
	// State is the deployed world a plan is compared against; nil means
	// nothing is deployed.
	State *State
}

// Input is one variable value and where it came from.
type Input struct {
	Value funcs.Value
	// Text is set for values given as text on the command line
	// (--var name=value): they are converted to the variable's declared
	// type (integer, float, boolean) rather than checked as strings.
	Text bool
	// Origin names where the value came from, for messages ("--var",
	// "vars.json").
	Origin string
}

// State is the prior state: what is deployed. Its JSON form is documented
// in docs/plan.md:
//
//	{
//	  "resources": {
//	    "ordersTable": {"type": "aws/dynamodb/table", "spec": {...}, "state": {...}},
//	    "buckets[0]":  {"type": "aws/s3/bucket", "spec": {...}, "removalPolicy": "retain"}
//	  },
//	  "exports": {"tableName": "orders"},
//	  "children": {"core": { ...a nested state... }}
//	}
type State struct {
	Resources map[string]*ResourceState `json:"resources,omitempty"`
	Exports   map[string]funcs.Value    `json:"exports,omitempty"`
	Children  map[string]*State         `json:"children,omitempty"`
}

// ResourceState is one deployed resource (an instance of an `each`
// resource is named name[i]).
type ResourceState struct {
	Type string `json:"type"`
	// Spec is the spec the resource was deployed with.
	Spec funcs.Value `json:"spec"`
	// State holds the provider's fields (ids, ARNs); informational.
	State funcs.Value `json:"state,omitempty"`
	// RemovalPolicy is the policy it was deployed with ("retain" keeps it
	// when it leaves the blueprint).
	RemovalPolicy string `json:"removalPolicy,omitempty"`
}

// ResourceNames returns the names of the deployed resources, sorted.
func (s *State) ResourceNames() []string {
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.Resources))
	for n := range s.Resources {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Child returns the state of a child blueprint (nil when none).
func (s *State) Child(name string) *State {
	if s == nil {
		return nil
	}
	return s.Children[name]
}

// AddVar adds a --var name=value flag: the value is text, converted to
// the declared type when the blueprint is evaluated.
func (in *Inputs) AddVar(flag string) error {
	name, value, ok := strings.Cut(flag, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("--var %q: want name=value", flag)
	}
	in.setVar(name, Input{Value: funcs.String(value), Text: true, Origin: "--var"})
	return nil
}

func (in *Inputs) setVar(name string, v Input) {
	if in.Vars == nil {
		in.Vars = map[string]Input{}
	}
	in.Vars[name] = v
}

// AddVarsFile reads a JSON or YAML file holding a mapping of variable
// names to values; its values replace earlier ones.
func (in *Inputs) AddVarsFile(path string) error {
	m, err := readMapping(path)
	if err != nil {
		return err
	}
	for i := range m.Len() {
		k, v := m.At(i)
		in.setVar(k, Input{Value: v, Origin: path})
	}
	return nil
}

// AddDataFile reads a JSON or YAML data source fixture file: a mapping of
// data source names (include/name for a child blueprint's, see
// Inputs.Data) to mappings of exported field values.
func (in *Inputs) AddDataFile(path string) error {
	m, err := readMapping(path)
	if err != nil {
		return err
	}
	if in.Data == nil {
		in.Data = map[string]map[string]funcs.Value{}
	}
	for i := range m.Len() {
		name, v := m.At(i)
		fields, ok := v.Map()
		if !ok {
			return fmt.Errorf("%s: data source %q: want a mapping of exported fields, got %s", path, name, v.Kind())
		}
		dst := in.Data[name]
		if dst == nil {
			dst = map[string]funcs.Value{}
			in.Data[name] = dst
		}
		for j := range fields.Len() {
			k, fv := fields.At(j)
			dst[k] = fv
		}
	}
	return nil
}

// LoadState reads a state file (JSON, see State).
func LoadState(path string) (*State, error) {
	data, err := safefs.ReadFile(path, safefs.DefaultSchemaLimit) // generated, like a schema
	if err != nil {
		return nil, err
	}
	return ParseState(data)
}

// ParseState decodes a state document.
func ParseState(data []byte) (*State, error) {
	var s State
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		// A syntax error names the character it found: a state file may
		// be anything --state named, so say where, not what.
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("state: not a JSON document (the first error is at byte %d)", se.Offset)
		}
		return nil, fmt.Errorf("state: %w", err)
	}
	for name, r := range s.Resources {
		if r == nil {
			return nil, fmt.Errorf("state: resource %q is null", name)
		}
		if r.Type == "" {
			return nil, fmt.Errorf("state: resource %q has no type", name)
		}
	}
	return &s, nil
}

// readMapping reads a JSON or YAML document whose top level is a mapping.
func readMapping(path string) (*funcs.Map, error) {
	data, err := safefs.ReadFile(path, safefs.DefaultDocumentLimit)
	if err != nil {
		return nil, err
	}
	f := schema.Parse(path, data)
	for _, d := range f.Diagnostics {
		if d.Severity == 1 {
			line, col := f.Mapper.LineCol(d.Range.Start, 0)
			return nil, fmt.Errorf("%s:%d:%d: %s", path, line, col, d.Message)
		}
	}
	v := literal(f.Root)
	m, ok := v.Map()
	if !ok {
		return nil, fmt.Errorf("%s: want a mapping at the top level, got %s", path, v.Kind())
	}
	return m, nil
}

// literal converts a document node to a value without evaluating
// substitutions: scalars by their resolved tag, mappings in order.
func literal(n schema.Node) funcs.Value {
	switch n := n.(type) {
	case *schema.Mapping:
		m := funcs.NewMap(len(n.Entries))
		for _, e := range n.Entries {
			if e.Key != nil {
				m.Set(e.Key.Value, literal(e.Value))
			}
		}
		return funcs.MapValue(m)
	case *schema.Sequence:
		es := make([]funcs.Value, 0, len(n.Items))
		for _, it := range n.Items {
			es = append(es, literal(it))
		}
		return funcs.Array(es)
	case *schema.Scalar:
		return scalarValue(n)
	}
	return funcs.None
}
