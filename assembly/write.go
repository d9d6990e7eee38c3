package assembly

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/engine"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// The further documents of the assemblies Write produces.
const (
	PlanName      = "plan.json"
	BlueprintName = "blueprint.json"
)

// WriteOptions configure Write.
type WriteOptions struct {
	// Environment is every droplet's environment ("aws://123456789012/eu-west-1").
	// Empty: the blueprint's metadata.environment.
	Environment string
	// Blueprint is the materialised blueprint the plan was built from:
	// it supplies the missing inputs, the metadata environment and the
	// blueprint.json document. Nil leaves them out.
	Blueprint *eval.Blueprint
	// SignKeys, when set, sign the assembly: the attestation is
	// clear-signed into signature.asc.
	SignKeys openpgp.EntityList
	// Now is the attestation timestamp; zero means time.Now().
	Now time.Time
}

// ErrNoEnvironment is returned when neither the options nor the
// blueprint's metadata name an environment.
var ErrNoEnvironment = errors.New("no environment for the droplets: pass --environment (such as aws://123456789012/eu-west-1) or set metadata.environment in the blueprint")

// manifestDoc and dropletDoc are the manifest as written; field order is
// the spec's.
type manifestDoc struct {
	Schema   string                 `json:"schema"`
	Droplets orderedMap[dropletDoc] `json:"droplets"`
	Missing  map[string]missingDoc  `json:"missing,omitempty"`
}

type dropletDoc struct {
	Type        string                 `json:"type"`
	Environment string                 `json:"environment"`
	DependsOn   []string               `json:"dependsOn,omitempty"`
	Metadata    map[string]metadataDoc `json:"metadata,omitempty"`
	Properties  json.RawMessage        `json:"properties,omitempty"`
}

type metadataDoc struct {
	Kind  string `json:"kind"`
	Value any    `json:"value"`
}

type missingDoc struct {
	Provider string         `json:"provider"`
	Props    map[string]any `json:"props"`
}

// orderedMap marshals as a JSON object keeping insertion order.
type orderedMap[T any] struct {
	keys []string
	vals map[string]T
}

func (m *orderedMap[T]) set(k string, v T) {
	if m.vals == nil {
		m.vals = map[string]T{}
	}
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m orderedMap[T]) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(m.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// planned is one resource that becomes a droplet.
type planned struct {
	name   string // qualified: child.name for a child's resource
	change *engine.ResourceChange
	child  string // the qualifying prefix ("" or "net.")
}

// collect lists the resources of p and its children that exist after
// deployment: everything but deletions and retentions.
func collect(p *engine.Plan, prefix string, out []planned) []planned {
	for _, r := range p.Resources {
		if r.Action == engine.Delete || r.Action == engine.Retain {
			continue
		}
		out = append(out, planned{name: prefix + r.Name, change: r, child: prefix})
	}
	for _, c := range p.Children {
		if c.Plan != nil {
			out = collect(c.Plan, prefix+c.Name+".", out)
		}
	}
	return out
}

// BuildManifest builds the manifest document of a plan. Logical IDs come from
// LogicalIDs over the qualified resource names, so they are stable for a
// given blueprint.
func BuildManifest(plan *engine.Plan, opts WriteOptions) ([]byte, error) {
	env := opts.Environment
	if env == "" {
		env = metadataEnvironment(opts.Blueprint)
	}
	if env == "" {
		return nil, ErrNoEnvironment
	}
	res := collect(plan, "", nil)
	names := make([]string, len(res))
	for i, r := range res {
		names[i] = r.name
	}
	ids := LogicalIDs(names)
	idOf := map[string]string{}
	for i, n := range names {
		idOf[n] = ids[i]
	}
	doc := manifestDoc{Schema: SchemaVersion}
	for i, r := range res {
		w := &propWriter{idOf: idOf, prefix: r.child}
		props := w.value(r.change.Spec, "")
		d := dropletDoc{
			Type:        BlueprintProtocol + "://" + r.change.Type,
			Environment: env,
			Metadata: map[string]metadataDoc{
				"plan": {Kind: "bluelink/plan", Value: map[string]any{
					"resource": r.name,
					"action":   string(r.change.Action),
					"stage":    r.change.Stage,
				}},
			},
		}
		if props != nil {
			b, err := json.Marshal(props)
			if err != nil {
				return nil, err
			}
			d.Properties = b
		} else {
			d.Properties = json.RawMessage("{}")
		}
		seen := map[string]bool{}
		for _, dep := range r.change.DependsOn {
			for _, id := range depIDs(dep, r.child, res, idOf) {
				if !seen[id] && id != ids[i] {
					seen[id] = true
					d.DependsOn = append(d.DependsOn, id)
				}
			}
		}
		sort.Strings(d.DependsOn)
		for j, note := range w.notes {
			d.Metadata[fmt.Sprintf("warning-%d", j+1)] = metadataDoc{Kind: "warning", Value: note}
		}
		if r.change.Conditional {
			d.Metadata["condition"] = metadataDoc{Kind: "warning", Value: "this resource exists only if its condition, known after deploy, holds"}
		}
		doc.Droplets.set(ids[i], d)
	}
	if opts.Blueprint != nil {
		for _, v := range opts.Blueprint.Variables {
			if v.Value.IsUnknown() && v.Value.UnknownReason() == "variables."+v.Name {
				if doc.Missing == nil {
					doc.Missing = map[string]missingDoc{}
				}
				doc.Missing["variables."+v.Name] = missingDoc{Provider: "bluelink/variable", Props: map[string]any{
					"variable": v.Name,
					"flag":     "--var " + v.Name + "=...",
				}}
			}
		}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// depIDs maps a dependency named by the engine (a resource of the same
// blueprint, or children.x) to droplet IDs.
func depIDs(dep, prefix string, res []planned, idOf map[string]string) []string {
	if child, ok := strings.CutPrefix(dep, "children."); ok {
		var out []string
		p := prefix + child + "."
		for _, r := range res {
			if strings.HasPrefix(r.name, p) {
				out = append(out, idOf[r.name])
			}
		}
		return out
	}
	if id, ok := idOf[prefix+dep]; ok {
		return []string{id}
	}
	// A dependency on an each resource as a whole: all its instances.
	var out []string
	for _, r := range res {
		if r.child == prefix && strings.HasPrefix(r.name, prefix+dep+"[") {
			out = append(out, idOf[r.name])
		}
	}
	return out
}

func metadataEnvironment(bp *eval.Blueprint) string {
	if bp == nil || bp.Result == nil || bp.Result.Blueprint == nil {
		return ""
	}
	m := bp.Result.Blueprint.Metadata.Mapping()
	if m == nil {
		return ""
	}
	if s, ok := m.Get("environment").(*schema.Scalar); ok && s.IsString() {
		return s.Value
	}
	return ""
}

// resourceRef matches the reference an unknown value stands for when it
// is a resource's field: resources.name[.state|.spec]..., or the bare form.
var resourceRef = regexp.MustCompile(`^(?:resources\.)?([A-Za-z_][A-Za-z0-9_-]*(?:\[[0-9]+\])?)\.((?:state|spec)(?:\.|\[).*)$`)

// propWriter converts a materialised spec to droplet properties.
type propWriter struct {
	idOf   map[string]string
	prefix string
	notes  []string
}

// value converts v: strings escaped, a value only known after deployment
// that is a resource's field a ${LogicalId.attribute} token, anything
// else that cannot be written (other unknowns, secrets) the masked form
// eval.JSON gives it, with a warning in the droplet's metadata.
func (w *propWriter) value(v funcs.Value, path string) any {
	if v.Sensitive() {
		w.notes = append(w.notes, fmt.Sprintf("property %s is sensitive and is masked", display(path)))
		return json.RawMessage(eval.JSON(v))
	}
	switch v.Kind() {
	case funcs.KindUnknown:
		why := v.UnknownReason()
		if ps, ok := v.Parts(); ok {
			if s, ok := w.interpolation(ps); ok {
				return s
			}
			w.notes = append(w.notes, fmt.Sprintf("property %s is only known after deploy (%s) and not every part of it is a droplet attribute", display(path), why))
		} else if tok, ok := w.token(why); ok {
			return tok
		} else {
			w.notes = append(w.notes, fmt.Sprintf("property %s is only known after deploy (%s) and is not a droplet attribute", display(path), why))
		}
		// The description may hold "${": escaped, it is not a token.
		return map[string]string{"$unknown": Escape(eval.Describe(v))}
	case funcs.KindString:
		s, _ := v.Str()
		return Escape(s)
	case funcs.KindArray:
		es, _ := v.Elems()
		out := make([]any, 0, len(es))
		for i, e := range es {
			out = append(out, w.value(e, fmt.Sprintf("%s[%d]", path, i)))
		}
		return out
	case funcs.KindMap:
		m, _ := v.Map()
		var om orderedMap[any]
		om.vals = map[string]any{}
		for _, k := range m.Keys() {
			e, _ := m.Get(k)
			if e.IsNone() {
				continue
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			om.set(Escape(k), w.value(e, p))
		}
		return om
	case funcs.KindNone:
		return nil
	}
	return json.RawMessage(eval.JSON(v))
}

// token returns the ${LogicalId.attribute} token for an unknown value
// that stands for a field of a resource of this plan.
func (w *propWriter) token(why string) (string, bool) {
	if m := resourceRef.FindStringSubmatch(why); m != nil {
		if id, ok := w.idOf[w.prefix+m[1]]; ok {
			return Token(id, m[2]), true
		}
	}
	return "", false
}

// interpolation writes a string only partly known before deployment
// (funcs.UnknownString) as property text: its literal parts escaped, its
// unknown parts tokens. It fails when an unknown part is not a droplet
// attribute (a variable without a value, a data source field).
func (w *propWriter) interpolation(parts []funcs.Value) (string, bool) {
	var b strings.Builder
	for _, p := range parts {
		if s, ok := p.Str(); ok {
			b.WriteString(Escape(s))
			continue
		}
		tok, ok := w.token(p.UnknownReason())
		if !ok {
			return "", false
		}
		b.WriteString(tok)
	}
	return b.String(), true
}

func display(path string) string {
	if path == "" {
		return "spec"
	}
	return path
}

// Write writes the assembly of a plan to w: manifest.json, plan.json (the
// plan as engine.JSON renders it), blueprint.json (the materialised
// blueprint, when opts.Blueprint is set) and, with SignKeys, a
// signature.asc clear-signing the attestation of all of them.
func Write(w io.Writer, plan *engine.Plan, opts WriteOptions) error {
	manifest, err := BuildManifest(plan, opts)
	if err != nil {
		return err
	}
	files := map[string][]byte{ManifestName: manifest, PlanName: engine.JSON(plan)}
	if opts.Blueprint != nil {
		files[BlueprintName] = BlueprintJSON(opts.Blueprint)
	}
	if opts.SignKeys != nil {
		now := opts.Now
		if now.IsZero() {
			now = time.Now()
		}
		now = now.UTC().Truncate(time.Second)
		att, err := NewAttestation(files, now)
		if err != nil {
			return err
		}
		sig, err := Sign(att.Marshal(), now, opts.SignKeys)
		if err != nil {
			return err
		}
		files[SignatureName] = sig
	}
	zw := zip.NewWriter(w)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	// manifest.json first, as the entry point; the rest sorted.
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == ManifestName) != (names[j] == ManifestName) {
			return names[i] == ManifestName
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		// A fixed modification time keeps archives of one plan identical
		// apart from the attestation.
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
		if _, err := fw.Write(files[n]); err != nil {
			return err
		}
	}
	return zw.Close()
}

// BlueprintJSON renders a materialised blueprint as JSON, values masked
// and marked as eval.JSON does.
func BlueprintJSON(bp *eval.Blueprint) []byte {
	var b bytes.Buffer
	named := func(key string, items []*eval.Named) {
		var om orderedMap[json.RawMessage]
		om.vals = map[string]json.RawMessage{}
		for _, n := range items {
			om.set(n.Name, eval.JSON(n.Value))
		}
		v, _ := json.Marshal(om)
		fmt.Fprintf(&b, "%q:%s", key, v)
	}
	b.WriteByte('{')
	named(dialect.Variables.Key(), bp.Variables)
	b.WriteByte(',')
	named(dialect.Values.Key(), bp.Values)
	b.WriteByte(',')
	var ds orderedMap[any]
	for _, d := range bp.DataSources {
		var fields orderedMap[json.RawMessage]
		fields.vals = map[string]json.RawMessage{}
		for _, f := range d.Fields {
			fields.set(f.Name, eval.JSON(f.Value))
		}
		ds.set(d.Name, map[string]any{"type": d.Type, "fields": fields})
	}
	v, _ := json.Marshal(ds)
	fmt.Fprintf(&b, "%q:%s,", dialect.DataSources.Key(), v)
	var rs orderedMap[any]
	for _, r := range bp.Resources {
		rs.set(r.Name, map[string]any{
			"type":      r.Type,
			"condition": r.Condition.String(),
			"spec":      json.RawMessage(eval.JSON(r.Spec)),
			"metadata":  json.RawMessage(eval.JSON(r.Metadata)),
			"dependsOn": r.DependsOn,
		})
	}
	v, _ = json.Marshal(rs)
	fmt.Fprintf(&b, "%q:%s,", dialect.Resources.Key(), v)
	named(dialect.Exports.Key(), bp.Exports)
	b.WriteByte('}')
	var out bytes.Buffer
	if json.Indent(&out, b.Bytes(), "", "  ") != nil {
		return append(b.Bytes(), '\n')
	}
	out.WriteByte('\n')
	return out.Bytes()
}
