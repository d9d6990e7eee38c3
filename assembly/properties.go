package assembly

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	codeEscape = source.NewCode("assembly-escape", source.Error,
		`A "\" in a property string does not start one of the escape sequences "\\" and "\${".`,
		`"path": "C:\temp"`)
	codeRefMalformed = source.NewCode("assembly-ref-malformed", source.Error,
		`A "${" in a property string does not start a well-formed ${LogicalId.attributeName} token.`,
		`"url": "${Web}"`)
	codeRefUnknownDroplet = source.NewCode("assembly-ref-unknown-droplet", source.Error,
		"A ${LogicalId.attributeName} token names no droplet of the assembly.",
		`"bucket": "${Nope.bucketName}"`)
	codeRefUnknownAttribute = source.NewCode("assembly-ref-unknown-attribute", source.Error,
		"A ${LogicalId.attributeName} token names an attribute the droplet's type does not produce.",
		`"bucket": "${Files.bucket}"`)
)

// properties finds the tokens and escapes in every string value under n.
func (c *checker) properties(d *Droplet, n schema.Node, path string) {
	switch n := n.(type) {
	case *schema.Mapping:
		all, order := c.entries(n, path)
		for _, k := range order {
			if e := all[k]; e.Value != nil {
				c.properties(d, e.Value, child(path, k))
			}
		}
	case *schema.Sequence:
		for i, it := range n.Items {
			c.properties(d, it, index(path, i))
		}
	case *schema.Scalar:
		if !n.IsString() {
			return
		}
		refs, issues := scanTokens(n.Value)
		for _, is := range issues {
			code := codeRefMalformed
			if is.escape {
				code = codeEscape
			}
			c.add(path, code.New(n.OffsetMap().Range(is.start, is.end), "%s", is.msg))
		}
		for _, r := range refs {
			d.Refs = append(d.Refs, Reference{ID: r.ID, Attribute: r.Attribute, Path: path, Range: n.OffsetMap().Range(r.Start, r.End)})
		}
	}
}

// references checks that every token names a droplet and, when the
// droplet's type is one whose attributes are known, one of its attributes.
func (c *checker) references(m *Manifest) {
	ids := make([]string, 0, len(m.Droplets))
	for _, d := range m.Droplets {
		ids = append(ids, d.ID)
	}
	for _, d := range m.Droplets {
		for i, dep := range d.DependsOn {
			if m.byID[dep] == nil {
				c.add(index(child(child("$.droplets", d.ID), "dependsOn"), i),
					withSuggestion(codeDependsUnknown.New(d.dependsAt[i], "dependsOn names %q, which is not a droplet of this assembly", dep), dep, ids))
			}
		}
		for _, r := range d.Refs {
			target := m.byID[r.ID]
			if target == nil {
				c.add(r.Path, withSuggestion(codeRefUnknownDroplet.New(r.Range, "${%s.%s} refers to droplet %q, which is not in this assembly", r.ID, r.Attribute, r.ID), r.ID, ids))
				continue
			}
			attrs, known := AttributesOf(target.Type)
			if known && !attrs.Has(r.Attribute) {
				c.add(r.Path, codeRefUnknownAttribute.New(r.Range, "droplet %q (%s) has no attribute %q; it has %s", r.ID, target.Type, r.Attribute, attrs))
			}
		}
	}
}

func withSuggestion(d source.Diagnostic, name string, candidates []string) source.Diagnostic {
	if s := source.Closest(name, candidates); len(s) > 0 {
		d.Message += "; did you mean \"" + s[0] + "\"?"
	}
	return d
}

// Attributes describes the output attributes of a droplet type: exact
// names, and prefixes under which any non-empty name is an attribute
// ("output." for a stack's outputs).
type Attributes struct {
	Names, Prefixes []string
}

// Has reports whether attr is one of the attributes.
func (a Attributes) Has(attr string) bool {
	for _, n := range a.Names {
		if n == attr {
			return true
		}
	}
	for _, p := range a.Prefixes {
		if len(attr) > len(p) && strings.HasPrefix(attr, p) {
			return true
		}
	}
	return false
}

func (a Attributes) String() string {
	var parts []string
	for _, p := range a.Prefixes {
		parts = append(parts, p+"<name>")
	}
	parts = append(parts, a.Names...)
	return strings.Join(parts, ", ")
}

// droplet types whose attributes are documented: the spec's illustrative
// droplets (under both spellings of the npm specifier the spec uses).
var knownAttributes = map[string]Attributes{
	"npm://@aws-cdk/aws-cloudformation/StackDroplet": {Names: []string{"stackArn"}, Prefixes: []string{"output."}},
	"npm://@aws-cdk/assets/FileDroplet":              {Names: []string{"bucketName", "objectKey"}},
	"npm://@aws-cdk/aws-ecr/DockerImageDroplet":      {Names: []string{"exactImageId", "imageName"}},
}

// AttributesOf returns the attributes of a droplet type when they are
// known. The types this package writes (BlueprintProtocol) expose a
// resource's spec and state fields as "spec.<path>" and "state.<path>".
func AttributesOf(typ string) (Attributes, bool) {
	if strings.HasPrefix(typ, BlueprintProtocol+"://") {
		return Attributes{Prefixes: []string{"spec.", "state."}}, true
	}
	key := typ
	if spec, ok := parseNPM(strings.TrimPrefix(typ, "npm://")); ok && strings.HasPrefix(typ, "npm://") {
		key = "npm://" + spec.namespacePackage() + "/" + spec.class
	}
	a, ok := knownAttributes[key]
	return a, ok
}
