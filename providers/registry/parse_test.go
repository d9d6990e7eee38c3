package registry

// parseResourceType parses a CloudFormation resource schema document with no
// documentation record; only tests parse a schema without one.
func parseResourceType(data []byte) (*ResourceType, error) {
	return parseDocumentedType(data, nil)
}
