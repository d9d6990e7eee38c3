package analysis

import "github.com/blueprint-ls/blueprint-ls/source"

// Diagnostic codes owned by analysis. Each is declared once; the functions
// that report them own the wording.
var (
	codeUnknownVariable = source.NewCode("ref-unknown-variable", source.Error,
		"A reference names a variable the blueprint does not define.", "name: ${variables.enviroment}")
	codeUnknownValue = source.NewCode("ref-unknown-value", source.Error,
		"A reference names a value the blueprint does not define.", "name: ${values.nothere}")
	codeUnknownDataSource = source.NewCode("ref-unknown-datasource", source.Error,
		"A reference names a data source the blueprint does not define.", "vpc: ${datasources.netwrk.vpc}")
	codeUnknownResource = source.NewCode("ref-unknown-resource", source.Error,
		"A reference names a resource the blueprint does not define.", "name: ${resources.tabel.spec.tableName}")
	codeUnknownChild = source.NewCode("ref-unknown-child", source.Error,
		"A reference names a child blueprint the blueprint does not include.", "arn: ${children.core.topicArn}")
	codeVariableNested = source.NewCode("ref-variable-nested", source.Error,
		"Variables are primitives: a variable reference takes no fields or indexes.", "host: ${variables.config.host}")
	codeDataSourceField = source.NewCode("ref-datasource-field", source.Error,
		"A data source reference must name one of the data source's exported fields.", "subnets: ${datasources.network.subnets}")
	codeDataSourcePath = source.NewCode("ref-datasource-path", source.Error,
		"A data source field takes at most one index, and only when it is an array.", "id: ${datasources.network.vpc.id}")
	codeResourceProperty = source.NewCode("ref-resource-property", source.Error,
		"Resource fields are read through .spec, .state or .metadata.", "name: ${resources.table.tableName}")
	codeResourceMetadata = source.NewCode("ref-resource-metadata", source.Error,
		"Resource metadata is read through displayName, labels, annotations or custom.", "x: ${resources.table.metadata.owner}")
	codeResourceIndex = source.NewCode("ref-resource-index", source.Error,
		"Only resources with each can be indexed, and they must be indexed before their fields are read.", "name: ${resources.buckets.spec.bucketName}")
	codeUnknownField = source.NewCode("ref-unknown-field", source.Error,
		"A path names a field its type does not have.", "field: resources.table.spec.tableNam")
	codeNotIndexable = source.NewCode("ref-not-indexable", source.Error,
		"Only arrays take [n]; mappings and objects take names; strings, numbers and booleans take neither.", "c: ${values.name[0]}")
	codeElemOutsideEach = source.NewCode("ref-elem-outside-each", source.Error,
		"elem and i are only defined inside a resource that has each.", "mode: ${elem.mode}")
	codeDataSourceDependency = source.NewCode("ref-datasource-dependency", source.Error,
		"Data sources are resolved before resources: they may not reference resources or child blueprints, directly or through a value.", "search: ${resources.fn.state.arn}")
	codeChildExport = source.NewCode("ref-child-export", source.Error,
		"A child blueprint reference must name one of the child's exports.", "arn: ${children.core.topicAr}")

	codeUnknownFunction = source.NewCode("func-unknown", source.Error,
		"A call names a function that is neither a core function nor one a provider offers.", "name: ${trimm(variables.name)}")
	codeArity = source.NewCode("func-arity", source.Error,
		"A call passes too few or too many arguments.", "name: ${substr(variables.name)}")
	codeArgType = source.NewCode("func-arg-type", source.Error,
		"An argument's type can not match the parameter.", "n: ${len(5)}")
	codeNamedArg = source.NewCode("func-named-arg", source.Warning,
		"A named argument outside object(): the name is ignored and the value is passed by position.", `x: ${trim(value = "a")}`)
	codeObjectArg = source.NewCode("func-object-arg", source.Error,
		"object() takes named arguments only, each name once.", `o: ${object(a = 1, a = 2)}`)
	codeFuncValue = source.NewCode("func-value-misuse", source.Error,
		"A function is used where a value is required (call it, or pass it to a higher-order function).", "name: ${to_upper}")
	codeDatetimeFormat = source.NewCode("func-datetime-format", source.Error,
		"datetime takes unix, rfc3339, tag or tagcompact.", `t: ${datetime("iso")}`)
	codeJSONPointer = source.NewCode("func-json-pointer", source.Warning,
		"fromjson takes a JSON pointer starting with '/'; a bare key is read as a top-level key.", `host: ${fromjson(variables.cfg, "host")}`)
	codeLinkArg = source.NewCode("func-link-arg", source.Error,
		"link() takes two resources: references or resource names as string literals.", `l: ${link("nope", resources.b)}`)

	codeInterpolateComplex = source.NewCode("type-interpolate-complex", source.Error,
		"An array, mapping or object can not be interpolated into a string.", "name: items-${values.list}")
	codeTypeMismatch = source.NewCode("type-mismatch", source.Error,
		"An expression's type does not match the type declared or expected where it is used.", "value: ${to_upper(variables.name)}  # type: integer")
	codeConditionType = source.NewCode("type-condition", source.Error,
		"Conditions must be booleans.", `condition: ${variables.name}`)
	codeEachType = source.NewCode("type-each", source.Error,
		"each must be an array.", "each: ${variables.name}")

	codeCycle = source.NewCode("cycle", source.Error,
		"Definitions reference each other in a cycle, so none of them can be resolved first.", "value: ${values.b}  # and b references a")

	codeIncludeMissing = source.NewCode("include-missing", source.Error,
		"The child blueprint file an include names does not exist or can not be read.", "path: ./nothere.blueprint.yaml")
	codeIncludeOutside = source.NewCode("include-outside-project", source.Error,
		"The include path leads outside the project root (the directory of .blueprint-ls.yaml, else the repository): the file is not read. List extra directories under roots in the config.",
		"path: ../../elsewhere/creds")
	codeIncludeBroken = source.NewCode("include-broken", source.Error,
		"The child blueprint has errors of its own.", "path: ./broken.blueprint.yaml")
	codeIncludeNotChecked = source.NewCode("include-not-checked", source.Information,
		"The child blueprint is remote or its path is computed, so it was not checked.", "path: ${variables.childPath}")
	codeIncludeCycle = source.NewCode("include-cycle", source.Error,
		"Blueprints include each other in a cycle.", "path: ./parent.blueprint.yaml")
	codeIncludeUnknownVariable = source.NewCode("include-unknown-variable", source.Error,
		"An include passes a variable the child blueprint does not define.", "variables: {nme: x}")
	codeIncludeMissingVariable = source.NewCode("include-missing-variable", source.Error,
		"A child variable without a default is not passed by the include.", "variables: {}")
	codeIncludeVariableType = source.NewCode("include-variable-type", source.Error,
		"A value passed to a child variable does not match the variable's type.", "variables: {port: abc}")

	codeLinkNoMatch = source.NewCode("link-no-match", source.Warning,
		"A linkSelector selects no resource of the blueprint.", "linkSelector: {byLabel: {app: nothing}}")
	codeLinkUnsupported = source.NewCode("link-unsupported", source.Warning,
		"A linkSelector selects a resource whose type the provider can not link to.", "")

	codeUnusedVariable = source.NewCode("unused-variable", source.Hint,
		"A variable is never referenced.", "")
	codeUnusedValue = source.NewCode("unused-value", source.Hint,
		"A value is never referenced.", "")
	codeUnusedDataSource = source.NewCode("unused-datasource", source.Hint,
		"A data source is never referenced.", "")
	codeSecretLeak = source.NewCode("secret-leak", source.Warning,
		"A secret variable or value flows into an export or a value that is not secret.", "value: ${variables.password}  # in a value without secret: true")

	codeUnknownResourceTypeProvider = source.NewCode("resource-unknown-provider", source.Warning,
		"A resource or data source type belongs to a provider that is not loaded; its spec is not checked.", "type: acme/widget/thing")
	// CodeInternal reports a bug of blueprint-ls caught while checking a file.
	CodeInternal = source.NewCode("internal-error", source.Error,
		"blueprint-ls failed while checking this file; please report it.", "")
)
