package main

import (
	"fmt"

	"github.com/blueprint-ls/blueprint-ls/engine"
)

// The colours of plan actions on a terminal, in the manner of
// infrastructure plans: what is added green, changed yellow, replaced
// magenta, removed red. Retained resources leave the blueprint but are
// kept: yellow, as a change of ownership rather than a removal.
var actionColors = map[engine.Action]string{
	engine.Create:  "\x1b[32m",
	engine.Update:  "\x1b[33m",
	engine.Replace: "\x1b[35m",
	engine.Delete:  "\x1b[31m",
	engine.Retain:  "\x1b[33m",
}

// planStyler colours the action-bearing parts of the text plan; the
// reset is check's (check_output.go).
func planStyler(a engine.Action, s string) string {
	c, ok := actionColors[a]
	if !ok {
		return s
	}
	return c + s + ansiReset
}

// checkColorMode rejects a --color value other than auto, always and
// never.
func checkColorMode(mode string) error {
	switch mode {
	case "auto", "always", "never":
		return nil
	}
	return fmt.Errorf("unknown --color %q (want auto, always or never)", mode)
}
