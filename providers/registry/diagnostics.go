package registry

import (
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// Diagnostic codes for names the registry resolves. The analysis layer
// calls the constructors below; the wording lives here.
var (
	CodeUnknownResourceType = source.NewCode("resource-unknown-type", source.Error,
		"No loaded provider offers the resource type.",
		"type: aws/lambda/functon")
	CodeSchemaError = source.NewCode("resource-schema-error", source.Error,
		"The resource type's schema file could not be loaded, so its spec is not checked.",
		"")
	CodeUnknownDataSourceType = source.NewCode("datasource-unknown-type", source.Error,
		"No loaded provider offers the data source type.",
		"type: aws/vcp")
	CodeUnknownExport = source.NewCode("datasource-unknown-export", source.Error,
		"The data source type does not export the field (the export name, or its aliasFor).",
		"exports:\n  vpc:\n    type: string\n    aliasFor: vpcIdentifier")
	CodeExportMismatch = source.NewCode("datasource-export-mismatch", source.Error,
		"A data source export declares a type other than the one the data source type gives the field.",
		"exports:\n  vpcId:\n    type: integer")
	CodeUnknownFilterField = source.NewCode("datasource-unknown-filter-field", source.Warning,
		"The data source type does not document the filter field (providers may still accept it).",
		"filter:\n  field: tagz")
	CodeUnknownCustomType = source.NewCode("var-unknown-custom-type", source.Error,
		"No loaded provider offers the custom variable type.",
		"type: aws/regoin")
	CodeCustomTypeOption = source.NewCode("var-custom-type-option", source.Error,
		"A default or allowed value of a custom-typed variable is not one of the type's option labels.",
		"type: aws/region\ndefault: eu-west-9")
	CodeUnknownTransform = source.NewCode("transform-unknown", source.Warning,
		"No loaded provider implements the transform.",
		"transform: celerity-2020-01-01")
)

func suggestionDiag(c *source.Code, r source.Range, name string, candidates []string, format string, args ...any) source.Diagnostic {
	d := c.New(r, format, args...)
	sugg := Suggest(name, candidates)
	if len(sugg) > 0 {
		d.Message += fmt.Sprintf("; did you mean %q?", sugg[0])
	}
	for _, s := range sugg {
		d.Suggestions = append(d.Suggestions, source.Suggestion{
			Title: fmt.Sprintf("Change to %q", s),
			Edits: []source.Edit{{Range: r, NewText: s}},
		})
	}
	return d
}

// UnknownResourceType reports a resource type no provider offers, with
// did-you-mean suggestions whose edits replace r (the type's value
// range). A CloudFormation name (AWS::SQS::Queue) is answered with its
// blueprint form when that exists.
func (r *Registry) UnknownResourceType(name string, rng source.Range) source.Diagnostic {
	if strings.Contains(name, "::") {
		if conv := ResourceTypeName(name); conv != name {
			if _, ok := r.ResourceType(conv); ok {
				d := CodeUnknownResourceType.New(rng, "unknown resource type %q; blueprints write CloudFormation types as %q", name, conv)
				d.Suggestions = []source.Suggestion{{Title: fmt.Sprintf("Change to %q", conv), Edits: []source.Edit{{Range: rng, NewText: conv}}}}
				return d
			}
		}
	}
	return suggestionDiag(CodeUnknownResourceType, rng, name, r.ResourceTypeNames(), "unknown resource type %q", name)
}

// SchemaError reports a resource type whose schema failed to load.
func SchemaError(rt *ResourceType, rng source.Range) source.Diagnostic {
	return CodeSchemaError.New(rng, "the schema of %s could not be loaded, so its spec is not checked: %v", rt.Name, rt.Err)
}

// UnknownDataSourceType reports a data source type no provider offers.
func (r *Registry) UnknownDataSourceType(name string, rng source.Range) source.Diagnostic {
	return suggestionDiag(CodeUnknownDataSourceType, rng, name, r.DataSourceTypeNames(), "unknown data source type %q", name)
}

// UnknownCustomVariableType reports a {provider}/{type} variable type no
// provider offers.
func (r *Registry) UnknownCustomVariableType(name string, rng source.Range) source.Diagnostic {
	return suggestionDiag(CodeUnknownCustomType, rng, name, r.CustomVariableTypeNames(), "unknown custom variable type %q", name)
}

// UnknownTransform reports a transform no provider implements
// (decision 25: a warning).
func (r *Registry) UnknownTransform(name string, rng source.Range) source.Diagnostic {
	return suggestionDiag(CodeUnknownTransform, rng, name, r.TransformNames(), "unknown transform %q", name)
}

// CheckOption reports a default or allowed value that is not one of the
// custom type's labels (decision 26: blueprints write labels); nil when
// it is one.
func (c *CustomVariableType) CheckOption(label string, rng source.Range) *source.Diagnostic {
	if _, ok := c.Option(label); ok {
		return nil
	}
	labels := c.Labels()
	d := suggestionDiag(CodeCustomTypeOption, rng, label, labels, "%q is not an option of %s", label, c.Name)
	if len(d.Suggestions) == 0 && len(labels) <= maxListed {
		d.Message += "; options: " + strings.Join(labels, ", ")
	}
	return &d
}

// CheckExport checks one export of a data source: the exported field
// name (aliasFor when set, else the export's key) must be exported by the
// type, and the declared type must match. declared may be nil when the
// export has no valid type. rng is where to report (aliasFor's value or
// the key), typeRange the declared type's value.
func (d *DataSourceType) CheckExport(field string, declared types.Type, rng, typeRange source.Range) []source.Diagnostic {
	f, ok := d.Export(field)
	if !ok {
		diag := suggestionDiag(CodeUnknownExport, rng, field, d.ExportNames(), "%s does not export %q", d.Name, field)
		if len(diag.Suggestions) == 0 && len(d.Exports) <= maxListed {
			diag.Message += "; it exports " + strings.Join(d.ExportNames(), ", ")
		}
		return []source.Diagnostic{diag}
	}
	if declared == nil || declared == types.Any || types.IsUnknownOrAny(f.Type) {
		return nil
	}
	if exportCompatible(f.Type, declared) {
		return nil
	}
	return []source.Diagnostic{CodeExportMismatch.New(typeRange, "%s exports %q as %s, not %s", d.Name, field, f.Type, declared)}
}

// exportCompatible compares a field's type with an export's declared one,
// where a declared "array" means an array of anything.
func exportCompatible(have, declared types.Type) bool {
	if a, ok := declared.(*types.Array); ok && types.IsUnknownOrAny(a.Elem) {
		_, isArr := have.(*types.Array)
		return isArr
	}
	return types.Assignable(have, declared)
}

// CheckFilterField warns about a filter field the data source type does
// not document; nil when it is documented or the type documents none.
func (d *DataSourceType) CheckFilterField(field string, rng source.Range) *source.Diagnostic {
	if len(d.FilterFields) == 0 {
		return nil
	}
	if _, ok := d.FilterField(field); ok {
		return nil
	}
	diag := suggestionDiag(CodeUnknownFilterField, rng, field, d.FilterFieldNames(), "%s does not document the filter field %q", d.Name, field)
	if len(diag.Suggestions) == 0 && len(d.FilterFields) <= maxListed {
		diag.Message += "; documented fields: " + strings.Join(d.FilterFieldNames(), ", ")
	}
	return &diag
}
