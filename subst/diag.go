package subst

import "github.com/blueprint-ls/blueprint-ls/source"

// Diagnostic codes owned by the substitution parser. Each is declared
// here once; the constructors in parser.go own the wording.
var (
	CodeUnterminated = source.NewCode("subst-unterminated", source.Error,
		"A `${` has no closing `}`.", "name: ${variables.env")
	CodeUnterminatedString = source.NewCode("subst-unterminated-string", source.Error,
		"A string literal inside a substitution has no closing quote.", `name: ${trim("abc)}`)
	CodeEmpty = source.NewCode("subst-empty", source.Error,
		"A substitution has no expression between `${` and `}`.", "name: ${}")
	CodeUnclosedCall = source.NewCode("subst-unclosed-call", source.Error,
		"A function call is missing its closing `)`.", "name: ${trim(variables.env}")
	CodeUnclosedBracket = source.NewCode("subst-unclosed-bracket", source.Error,
		"An accessor or array literal is missing its closing `]`.", "name: ${values.list[0}")
	CodeUnexpectedToken = source.NewCode("subst-unexpected-token", source.Error,
		"A token appears where the substitution grammar does not allow it.", "name: ${trim(a b)}")
	CodeInvalidChar = source.NewCode("subst-invalid-char", source.Error,
		"A character that no token of the substitution language starts with.", "name: ${*.spec.x}")
	CodeTooDeep = source.NewCode("subst-too-deep", source.Error,
		"An expression nests calls or arrays more than 200 levels deep (subst.MaxDepth); the rest of the substitution is not read.",
		"name: ${trim(trim(trim(... 201 levels ...)))}")
	CodeNested = source.NewCode("subst-nested", source.Error,
		"A `${..}` inside a substitution; substitutions do not nest.", "name: ${trim(${variables.env})}")
	CodeTrailingComma = source.NewCode("subst-trailing-comma", source.Error,
		"A comma after the last argument of a call or item of an array.", "name: ${list(1, 2,)}")
	CodeMissingName = source.NewCode("subst-missing-name", source.Error,
		"A namespace keyword (variables, values, datasources, resources, children) is not followed by a name.", "name: ${variables}")
	CodeInvalidAccessor = source.NewCode("subst-invalid-accessor", source.Error,
		"An accessor is not `.name`, `[\"name\"]`, `['name']`, `[n]` or `[]`.", "name: ${values.list[-1]}")
	CodeInvalidName = source.NewCode("subst-invalid-name", source.Error,
		"A name after `.` does not start with a letter or `_`, or holds a character other than a letter, a digit, `_` or `-`.", "name: ${values.9lives}")
	CodeInvalidQuotedName = source.NewCode("subst-invalid-quoted-name", source.Error,
		"A name in quotes (`[\"name\"]`) holds a character other than a letter, a digit, `_`, `-` or `.`.", `name: ${values["db host"]}`)
	CodeSingleQuotedString = source.NewCode("subst-single-quoted-string", source.Error,
		"A string literal in single quotes; string literals are double-quoted (single quotes only name fields in `['name']`).", `name: ${trim('abc')}`)
	CodeInvalidNumber = source.NewCode("subst-invalid-number", source.Error,
		"A number literal is out of range.", "count: ${99999999999999999999}")
	CodeArrayLiteral = source.NewCode("subst-array-literal", source.Warning,
		"Array literals are not in the spec grammar and not portable; use list(..).", `ports: ${join([8080, 8081], ",")}`)
	CodeExportFieldSubstitution = source.NewCode("subst-export-field-substitution", source.Error,
		"An export field is a plain reference and takes no `${..}`.", "field: ${resources.fn.state.arn}")
	CodeExportFieldCall = source.NewCode("subst-export-field-call", source.Error,
		"An export field is a plain reference; function calls are not allowed there.", "field: trim(resources.fn.state.arn)")
	CodeExportFieldNotReference = source.NewCode("subst-export-field-not-reference", source.Error,
		"An export field must be a reference, not a literal.", `field: "arn"`)
)
