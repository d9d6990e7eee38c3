package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// The directive of an inline suppression comment.
const ignoreDirective = "blueprint-ls:ignore"

var (
	codeSuppressUnused = source.NewCode("suppress-unused", source.Hint,
		"A blueprint-ls:ignore comment suppresses nothing on its line; remove it or fix its code list.",
		"values:\n  a:\n    type: string\n    value: x # blueprint-ls:ignore cycle\n")
	codeSuppressUnknown = source.NewCode("suppress-unknown-code", source.Warning,
		"A blueprint-ls:ignore comment names a code that does not exist (see this list).",
		"# blueprint-ls:ignore unused-valeu\n")
)

// suppression is one `# blueprint-ls:ignore [codes]` comment.
type suppression struct {
	rng    source.Range // the directive and its code list
	target int          // the zero-based line it applies to
	codes  []string     // empty: every code
	used   map[string]bool
}

// parseSuppressions finds the ignore comments of a YAML or JSONC document.
// A comment after other text on a line applies to that line; a comment
// alone on its line applies to the next line. After the directive come
// codes separated by commas or spaces, optionally followed by " -- reason".
// The scan is textual: a directive inside a string that looks like a
// comment (`"x # blueprint-ls:ignore"`) also counts, which is harmless.
func parseSuppressions(m *source.Mapper) []*suppression {
	content := m.Content()
	if !bytes.Contains(content, []byte(ignoreDirective)) {
		return nil
	}
	var out []*suppression
	for line := 0; line < m.LineCount(); line++ {
		start := m.LineStart(line)
		end := len(content)
		if line+1 < m.LineCount() {
			end = m.LineStart(line + 1)
		}
		text := string(content[start:end])
		text = strings.TrimRight(text, "\r\n")
		at := strings.Index(text, ignoreDirective)
		if at < 0 {
			continue
		}
		before := strings.TrimRight(text[:at], " \t")
		var marker int
		switch {
		case strings.HasSuffix(before, "#"):
			marker = len(before) - 1
		case strings.HasSuffix(before, "//"):
			marker = len(before) - 2
		default:
			continue
		}
		// YAML needs white space before a comment's '#'.
		if marker > 0 && before[marker-1] != ' ' && before[marker-1] != '\t' {
			continue
		}
		rest := text[at+len(ignoreDirective):]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue // blueprint-ls:ignored, blueprint-ls:ignore-foo
		}
		list := rest
		if i := strings.Index(list, "--"); i >= 0 {
			list = list[:i]
		}
		list = strings.TrimRight(list, " \t")
		s := &suppression{rng: source.R(start+at, start+at+len(ignoreDirective)+len(list)), target: line, used: map[string]bool{}}
		if strings.TrimSpace(before[:marker]) == "" {
			s.target = line + 1
		}
		s.codes = strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		out = append(out, s)
	}
	return out
}

// applySuppressions drops the diagnostics a comment suppresses and adds a
// diagnostic for each unknown code and each comment (or code of one) that
// suppressed nothing.
func applySuppressions(m *source.Mapper, diags []source.Diagnostic) []source.Diagnostic {
	sups := parseSuppressions(m)
	if len(sups) == 0 {
		return diags
	}
	byLine := map[int][]*suppression{}
	for _, s := range sups {
		byLine[s.target] = append(byLine[s.target], s)
	}
	kept := diags[:0:0]
	for _, d := range diags {
		suppressed := false
		for _, s := range byLine[m.Line(d.Range.Start)] {
			if len(s.codes) == 0 {
				s.used[""] = true
				suppressed = true
			}
			for _, c := range s.codes {
				if c == d.Code {
					s.used[c] = true
					suppressed = true
				}
			}
		}
		if !suppressed {
			kept = append(kept, d)
		}
	}
	for _, s := range sups {
		if len(s.codes) == 0 {
			if !s.used[""] {
				kept = append(kept, codeSuppressUnused.New(s.rng, "this blueprint-ls:ignore comment suppresses nothing on line %d", s.target+1))
			}
			continue
		}
		var unused []string
		for _, c := range s.codes {
			if _, known := source.LookupCode(c); !known {
				msg := fmt.Sprintf("blueprint-ls:ignore names unknown diagnostic code %q", c)
				if alt := source.Closest(c, codeIDs()); len(alt) > 0 {
					msg += fmt.Sprintf("; did you mean %q?", alt[0])
				}
				kept = append(kept, codeSuppressUnknown.New(s.rng, "%s", msg))
				continue
			}
			if !s.used[c] {
				unused = append(unused, c)
			}
		}
		if len(unused) > 0 {
			kept = append(kept, codeSuppressUnused.New(s.rng, "blueprint-ls:ignore %s suppresses nothing on line %d", strings.Join(unused, ", "), s.target+1))
		}
	}
	return kept
}
