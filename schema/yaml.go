package schema

import "github.com/blueprint-ls/blueprint-ls/source"

// ParseYAML parses a YAML document.
func ParseYAML(content []byte) *File {
	return &File{Format: YAML, Content: content, Mapper: source.NewMapper(content)}
}
