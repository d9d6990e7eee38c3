package resschema

// Keyword is one keyword of the meta-schema, with a sentence for
// completion and hover.
type Keyword struct {
	Name string
	Doc  string
}

// TopKeywords are the keywords of a resource schema's top level, in the
// meta-schema's order.
var TopKeywords = []Keyword{
	{"$schema", "The meta-schema this schema is written against."},
	{"type", "Must be `object`: a resource is an object."},
	{"typeName", "The resource type's name, `Organization::Service::Resource` (required); blueprints write it `organization/service/resource`."},
	{"$comment", "A comment for the schema's authors; ignored."},
	{"title", "A short title of the resource type."},
	{"description", "What the resource type is (required): shown on hover of the type in a blueprint."},
	{"sourceUrl", "Where the resource provider's source code lives."},
	{"documentationUrl", "The resource type's documentation page: linked from hover in a blueprint."},
	{"taggable", "Deprecated: use `tagging`. Whether the resource takes tags."},
	{"tagging", "How the resource is tagged: `taggable`, `tagOnCreate`, `tagUpdatable`, `cloudFormationSystemTags`, and `tagProperty`, a pointer to the tags property."},
	{"replacementStrategy", "`create_then_delete` (the default) or `delete_then_create`: how an update that needs replacement proceeds."},
	{"additionalProperties", "Must be `false` (required): a resource has only the properties it lists."},
	{"properties", "The resource's properties, by name (required): each a property schema. Blueprints write their names lowerCamelCase."},
	{"definitions", "Property schemas shared through `$ref` (`#/definitions/Name`)."},
	{"handlers", "The create, read, update, delete and list handlers, each with its IAM `permissions` (a list of strings) and `timeoutInMinutes`."},
	{"remote", "Schemas of other resource types that properties refer to."},
	{"readOnlyProperties", "Pointers to the properties the provider sets (state only): setting one in a spec is an error."},
	{"writeOnlyProperties", "Pointers to the properties never returned by read (spec only)."},
	{"conditionalCreateOnlyProperties", "Pointers to the properties whose change may replace the resource."},
	{"nonPublicProperties", "Pointers to properties hidden from the public schema."},
	{"nonPublicDefinitions", "Pointers to definitions hidden from the public schema."},
	{"createOnlyProperties", "Pointers to the properties whose change replaces the resource."},
	{"deprecatedProperties", "Pointers to deprecated properties: setting one in a spec is a warning."},
	{"primaryIdentifier", "Pointers to the properties that identify a resource (required)."},
	{"additionalIdentifiers", "Lists of pointers, each another set of properties that identify a resource."},
	{"required", "The names of the properties a spec must set."},
	{"allOf", "Schemas the resource's properties must all match."},
	{"anyOf", "Schemas of which the resource's properties must match one or more."},
	{"oneOf", "Schemas of which the resource's properties must match exactly one."},
	{"resourceLink", "A link to the resource's console page: `templateUri` and `mappings`."},
	{"propertyTransform", "Pointers to properties, each mapped to a JSONata expression that transforms the handler's input, to avoid false drift."},
	{"typeConfiguration", "The configuration schema of the type (set per account)."},
}

// PropertyKeywords are the keywords of a property schema (inside
// properties or definitions): the meta-schema's subset of draft-07 and
// CloudFormation's own.
var PropertyKeywords = []Keyword{
	{"type", "The JSON type: `string`, `integer`, `number`, `boolean`, `array`, `object`, `null`, or a list of them."},
	{"description", "What the property is: shown on hover and in completion in a blueprint."},
	{"$ref", "A reference to a shared schema in this file: `#/definitions/Name`."},
	{"$comment", "A comment for the schema's authors; ignored."},
	{"title", "A short title of the property."},
	{"examples", "Example values."},
	{"default", "The value used when the property is not set."},
	{"enum", "The values the property may take."},
	{"const", "The one value the property may take."},
	{"pattern", "A regular expression string values must match."},
	{"format", "A named string format (`uri`, `date-time`, ...)."},
	{"minLength", "The least length of a string value."},
	{"maxLength", "The greatest length of a string value."},
	{"minimum", "The least numeric value."},
	{"maximum", "The greatest numeric value."},
	{"exclusiveMinimum", "A numeric value must be greater than this."},
	{"exclusiveMaximum", "A numeric value must be less than this."},
	{"multipleOf", "A numeric value must be a multiple of this."},
	{"items", "The schema of an array's items."},
	{"minItems", "The least number of items of an array."},
	{"maxItems", "The greatest number of items of an array."},
	{"uniqueItems", "Whether an array's items must differ."},
	{"contains", "A schema at least one item of an array must match."},
	{"insertionOrder", "Arrays only: whether the order of items matters (true, the default) or a reordering is no change."},
	{"arrayType", "Arrays only: `Standard` (primitive items, the default) or `AttributeList` (objects)."},
	{"properties", "The properties of an object value, by name."},
	{"patternProperties", "Schemas of an object's properties whose names match a pattern (user data keys)."},
	{"additionalProperties", "Whether an object may have properties it does not list (false to forbid)."},
	{"required", "The names of the properties an object value must set."},
	{"minProperties", "The least number of properties of an object."},
	{"maxProperties", "The greatest number of properties of an object."},
	{"dependencies", "Properties that require other properties."},
	{"allOf", "Schemas the value must all match."},
	{"anyOf", "Schemas of which the value must match one or more."},
	{"oneOf", "Schemas of which the value must match exactly one."},
}

// KeywordDoc returns the sentence of a keyword at the top level (top) or
// in a property schema.
func KeywordDoc(name string, top bool) (string, bool) {
	list := PropertyKeywords
	if top {
		list = TopKeywords
	}
	for _, k := range list {
		if k.Name == name {
			return k.Doc, true
		}
	}
	return "", false
}
