// Package registry owns what providers offer a blueprint: resource types,
// data source types, custom variable types, provider functions, link
// definitions and transforms; the loading of CloudFormation-format
// resource schemas and of our own provider format (docs/providers.md);
// the embedded built-in providers; and the validation of a resource spec
// against its type, with the diagnostic codes that go with it.
//
// Names: AWS::Lambda::Function is the resource type aws/lambda/function
// and its property FunctionName the spec field functionName (ResourceTypeName,
// LowerCamel); the original names are kept for documentation. A typeName
// already in blueprint form (celerity/handler) is kept as written.
// Provider files may give types and fields other spellings and add
// fields (resourceTypes, overlay.go); both spellings then validate.
//
// Invariants:
//   - The built-in resource types are the embedded catalog
//     (builtin/catalog, format in package internal/catalog): its index is
//     read once per process, a type's schema decompressed and compiled on
//     first use and shared by every registry. Types loaded from files
//     shadow catalog types of the same name. A catalog type's
//     documentation record (AWS service spec text, keyed by JSON pointer
//     into its schema; typedocs.go) is laid over the schema as it is
//     compiled, so descriptions reach Schema.Description and
//     ResourceType.Description like a schema's own.
//   - A Registry is safe for concurrent use. Loading mutates it under one
//     lock; look-ups take the read lock. Indexing a directory checks each
//     file's JSON syntax (json.Valid, no allocation) and reads only each
//     schema's typeName; a resource schema is parsed once, on first
//     look-up (sync.Once per type), so thousands of schemas cost little.
//     A file that does not load is a LoadError, reported on that file
//     (provider-file-invalid); the directory's other files still load.
//   - The built-in provider files are loaded once per process
//     (builtinFiles); NewBuiltin copies their tables.
//   - Every Schema reachable from a ResourceType has its $ref resolved
//     (recursive definitions become pointer cycles; walk with a visited
//     set). Patterns Go's RE2 cannot compile are kept but not checked.
//   - Read-only, write-only, create-only and deprecated semantics are
//     properties of paths, not of shared definitions: ResourceType.Marks.
//   - Validation reads package syntax's tree, the one every layer reads
//     (there is no second node type); string values containing ${..} are
//     checked for structure only.
//   - Provider functions are described here (name, types.Func, docs) and
//     merged with the core function table by the analysis layer; this
//     package does not import funcs.
package registry
