package project

// The diagnostic codes the tests name (cycle, unused-variable, ...) are
// declared by analysis and the packages below it; a config is validated
// against the codes linked into the program.
import _ "github.com/blueprint-ls/blueprint-ls/analysis"
