package schema

import "github.com/blueprint-ls/blueprint-ls/dialect"

// Shape is the kind of node a field's value must be.
type Shape int

const (
	ShapeAny               Shape = iota // anything; checked by the definition's own rules
	ShapeString                         // a string scalar
	ShapeBool                           // true or false
	ShapeMapping                        // a mapping
	ShapeSequence                       // a list
	ShapeStringOrSequence               // a string or a list of strings
	ShapeMappingOrSequence              // a mapping or a list of mappings
)

func (s Shape) String() string {
	switch s {
	case ShapeString:
		return "a string"
	case ShapeBool:
		return "true or false"
	case ShapeMapping:
		return "a mapping"
	case ShapeSequence:
		return "a list"
	case ShapeStringOrSequence:
		return "a string or a list of strings"
	case ShapeMappingOrSequence:
		return "a mapping or a list of mappings"
	}
	return "a value"
}

// DefKind names a kind of definition the spec describes with a field table.
type DefKind int

const (
	KindBlueprint DefKind = iota
	KindVariable
	KindValue
	KindDataSource
	KindDataSourceMetadata
	KindFilter
	KindDataSourceExport
	KindResource
	KindResourceMetadata
	KindCondition
	KindLinkSelector
	KindInclude
	KindExport
)

var kindNames = map[DefKind]string{
	KindBlueprint:          "blueprint",
	KindVariable:           "variable",
	KindValue:              "value",
	KindDataSource:         "data source",
	KindDataSourceMetadata: "data source metadata",
	KindFilter:             "data source filter",
	KindDataSourceExport:   "data source export",
	KindResource:           "resource",
	KindResourceMetadata:   "resource metadata",
	KindCondition:          "condition",
	KindLinkSelector:       "link selector",
	KindInclude:            "include",
	KindExport:             "export",
}

func (k DefKind) String() string { return kindNames[k] }

// FieldSpec is one row of the spec's field tables. Structural rules,
// completion and hover all read these rows; nothing else lists fields.
type FieldSpec struct {
	Name     string
	Required bool
	Shape    Shape
	Since    string // the first spec version with the field ("" = all)
	Doc      string // one sentence for hover and completion
}

var fieldTable = map[DefKind][]FieldSpec{
	KindBlueprint: {
		{Name: "version", Required: true, Shape: ShapeString, Doc: "The version of the blueprint specification: 2023-04-20 or 2025-11-02."},
		{Name: "transform", Shape: ShapeStringOrSequence, Doc: "One or more transforms applied to the blueprint before it is processed."},
		{Name: dialect.Variables.Key(), Shape: ShapeMapping, Doc: dialect.Variables.Doc()},
		{Name: dialect.Values.Key(), Shape: ShapeMapping, Doc: dialect.Values.Doc()},
		{Name: dialect.DataSources.Key(), Shape: ShapeMapping, Doc: dialect.DataSources.Doc()},
		{Name: dialect.Resources.Key(), Shape: ShapeMapping, Doc: dialect.Resources.Doc()},
		{Name: dialect.Include.Key(), Shape: ShapeMapping, Doc: dialect.Include.Doc()},
		{Name: dialect.Exports.Key(), Shape: ShapeMapping, Doc: dialect.Exports.Doc()},
		{Name: "metadata", Shape: ShapeMapping, Doc: "Free-form metadata about the blueprint."},
	},
	KindVariable: {
		{Name: "type", Required: true, Shape: ShapeString, Doc: "string, integer, float, boolean or a custom {provider}/{type}."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the variable."},
		{Name: "secret", Shape: ShapeBool, Doc: "Whether the variable is a secret to mask in output (default false)."},
		{Name: "default", Shape: ShapeAny, Doc: "The value used when none is provided; must have the variable's type."},
		{Name: "allowedValues", Shape: ShapeSequence, Doc: "The values the variable may take; not supported for booleans."},
	},
	KindValue: {
		{Name: "type", Required: true, Shape: ShapeString, Doc: "string, integer, float, boolean, array or object."},
		{Name: "value", Required: true, Shape: ShapeAny, Doc: "The static or computed (${..}) value."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the value."},
		{Name: "secret", Shape: ShapeBool, Doc: "Whether the value is a secret to mask in output (default false)."},
	},
	KindDataSource: {
		{Name: "type", Required: true, Shape: ShapeString, Doc: "The provider's data source type, such as aws/vpc."},
		{Name: "metadata", Shape: ShapeMapping, Doc: "Display name, annotations and custom metadata."},
		{Name: "filter", Required: true, Shape: ShapeAny, Doc: "Selects the external resource: field, operator and search (2025-11-02: or a list of filters)."},
		{Name: "exports", Required: true, Shape: ShapeAny, Doc: "The fields exported from the data source (2025-11-02: or \"*\" for all)."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the data source."},
	},
	KindDataSourceMetadata: {
		{Name: "displayName", Shape: ShapeString, Doc: "The name shown in UI and CLI tools."},
		{Name: "annotations", Shape: ShapeMapping, Doc: "Extra context for the data source implementation: mapping of scalars."},
		{Name: "custom", Shape: ShapeMapping, Doc: "Metadata outside the scope of the spec."},
	},
	KindFilter: {
		{Name: "field", Required: true, Shape: ShapeString, Doc: "The field of the external resource to compare (dot notation for nested fields)."},
		{Name: "operator", Required: true, Shape: ShapeString, Doc: "=, !=, in, not in, has key, not has key, contains, not contains, starts with, not starts with, ends with or not ends with."},
		{Name: "search", Required: true, Shape: ShapeAny, Doc: "The value or list of values to compare the field with."},
	},
	KindDataSourceExport: {
		{Name: "type", Required: true, Shape: ShapeString, Doc: "string, integer, float, boolean or array (of primitives)."},
		{Name: "aliasFor", Shape: ShapeString, Doc: "The data source field exported under this name."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the exported field."},
	},
	KindResource: {
		{Name: "type", Required: true, Shape: ShapeString, Doc: "The resource type: {provider}/{service}/{resourceType} or {provider}/{resourceType}."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the resource."},
		{Name: "metadata", Shape: ShapeMapping, Doc: "Display name, labels, annotations and custom metadata."},
		{Name: "condition", Shape: ShapeAny, Doc: "Deploy the resource only when this holds: a ${..} boolean or an and/or/not object."},
		{Name: "each", Shape: ShapeString, Doc: "A ${..} list: one resource is created per element (elem, i)."},
		{Name: "linkSelector", Shape: ShapeMapping, Doc: "Links this resource to the resources whose labels match."},
		{Name: "spec", Required: true, Shape: ShapeMapping, Doc: "The resource's specification, as defined by its provider."},
		{Name: "dependsOn", Shape: ShapeStringOrSequence, Since: Version20251102, Doc: "Resources of this blueprint that must be deployed first."},
		{Name: "removalPolicy", Shape: ShapeString, Since: Version20251102, Doc: "delete (default) or retain: what removing the resource from the blueprint does."},
	},
	KindResourceMetadata: {
		{Name: "displayName", Shape: ShapeString, Doc: "The name shown in UI and CLI tools."},
		{Name: "labels", Shape: ShapeMapping, Doc: "Labels that link selectors match: mapping of strings."},
		{Name: "annotations", Shape: ShapeMapping, Doc: "Extra context for links: mapping of scalars."},
		{Name: "custom", Shape: ShapeMapping, Doc: "Metadata outside the scope of the spec."},
	},
	KindCondition: {
		{Name: "and", Shape: ShapeSequence, Doc: "All of these conditions hold."},
		{Name: "or", Shape: ShapeSequence, Doc: "At least one of these conditions holds."},
		{Name: "not", Shape: ShapeAny, Doc: "This condition does not hold."},
	},
	KindLinkSelector: {
		{Name: "byLabel", Shape: ShapeMapping, Doc: "Link to resources that have all of these labels."},
		{Name: "exclude", Shape: ShapeSequence, Since: Version20251102, Doc: "Resources never linked even when their labels match."},
	},
	KindInclude: {
		{Name: "path", Required: true, Shape: ShapeString, Doc: "The path of the child blueprint."},
		{Name: "variables", Shape: ShapeMapping, Doc: "Values for the child blueprint's variables."},
		{Name: "metadata", Shape: ShapeMapping, Doc: "Implementation-specific context, such as a remote source."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the child blueprint."},
	},
	KindExport: {
		{Name: "type", Required: true, Shape: ShapeString, Doc: "string, integer, float, boolean, array or object."},
		{Name: "field", Required: true, Shape: ShapeString, Doc: "The reference to export, without ${}, such as resources.x.state.arn."},
		{Name: "description", Shape: ShapeString, Doc: "A description of the exported field."},
	},
}

// Fields returns the fields a definition kind has in the given spec version
// (every field when version is "" or unsupported).
func Fields(k DefKind, version string) []FieldSpec {
	var out []FieldSpec
	for _, f := range fieldTable[k] {
		if f.availableIn(version) {
			out = append(out, f)
		}
	}
	return out
}

// LookupField returns the row for name in kind's table, in any version.
func LookupField(k DefKind, name string) (FieldSpec, bool) {
	for _, f := range fieldTable[k] {
		if f.Name == name {
			return f, true
		}
	}
	return FieldSpec{}, false
}

func (f FieldSpec) availableIn(version string) bool {
	return f.Since == "" || version == "" || version >= f.Since
}

// The closed sets of names the spec allows in type and operator fields.
var (
	VariableCoreTypes     = []string{"string", "integer", "float", "boolean"}
	ValueTypes            = []string{"string", "integer", "float", "boolean", "array", "object"}
	ExportTypes           = []string{"string", "integer", "float", "boolean", "array", "object"}
	DataSourceExportTypes = []string{"string", "integer", "float", "boolean", "array"}
	FilterOperators       = []string{
		"=", "!=", "in", "not in", "has key", "not has key", "contains",
		"not contains", "starts with", "not starts with", "ends with", "not ends with",
	}
	RemovalPolicies = []string{"delete", "retain"}
)
