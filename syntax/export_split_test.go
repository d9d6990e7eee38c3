package syntax

// What the external tests of the split parses reach inside for.

// ParseJSONSplitting is parseJSONSplitting.
func ParseJSONSplitting(content []byte, jsonc bool, split int) *File {
	return parseJSONSplitting(content, nil, jsonc, split)
}

// SplitsJSON reports whether parseJSONSplit reads content in two halves.
func SplitsJSON(content []byte, jsonc bool) bool {
	return parseJSONSplit(content, nil, jsonc, 0) != nil
}
