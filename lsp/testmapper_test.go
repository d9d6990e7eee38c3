package lsp

import (
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// testMapper computes UTF-16 positions for tests through source.Mapper.
type testMapper struct {
	text string
	m    *source.Mapper
}

func newTestMapper(text string) testMapper {
	return testMapper{text, source.NewMapper([]byte(text))}
}

// snap moves off back to a rune boundary.
func (t testMapper) snap(off int) int {
	for off > 0 && off < len(t.text) && !utf8.RuneStart(t.text[off]) {
		off--
	}
	return off
}

func (t testMapper) pos(off int) protocol.Position {
	return toPosition(t.m, off, source.UTF16)
}

func (t testMapper) offset(p protocol.Position) int {
	off, err := fromPosition(t.m, p, source.UTF16)
	if err != nil {
		panic(err)
	}
	return off
}
