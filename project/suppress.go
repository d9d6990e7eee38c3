package project

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// The directive of an inline suppression comment.
const ignoreDirective = "blueprint-ls:ignore"

// The diagnostics of the suppression comments themselves.
var (
	CodeSuppressUnused = source.NewCode("suppress-unused", source.Hint,
		"A blueprint-ls:ignore comment suppresses nothing on its line; remove it or fix its code list.",
		"values:\n  a:\n    type: string\n    value: x # blueprint-ls:ignore cycle\n")
	CodeSuppressUnknown = source.NewCode("suppress-unknown-code", source.Warning,
		"A blueprint-ls:ignore comment names a code that does not exist (see this list).",
		"# blueprint-ls:ignore unused-valeu\n")
)

// Suppression is one `# blueprint-ls:ignore [codes]` comment.
type Suppression struct {
	// Range covers the directive and its code list.
	Range source.Range
	// Removal is the text that deleting the comment removes: the comment
	// with the white space before it, or the whole line when the comment
	// stands alone on it.
	Removal source.Range
	// Line is the zero-based line the comment applies to.
	Line int
	// Codes are the codes named; empty means every code.
	Codes []string
	// Reason is the text after the codes (or after "--"): why the
	// problem is accepted.
	Reason string
}

// codeList splits a directive's text (without "--") into its code list
// and the reason that follows: the first word is a code, and so is each
// next word that is a known code, shaped like one (lower-case words
// joined by hyphens, so a misspelt code is still reported) or joined to
// the list by a comma; the first other word starts the reason.
func codeList(text string) (list, reason string) {
	i, first := 0, true
	for i < len(text) {
		j := i
		comma := false
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == ',') {
			comma = comma || text[j] == ','
			j++
		}
		k := j
		for k < len(text) && text[k] != ' ' && text[k] != '\t' && text[k] != ',' {
			k++
		}
		if j == k {
			break
		}
		if !first && !comma && !codeShaped(text[j:k]) {
			return text[:i], strings.TrimSpace(text[j:])
		}
		i, first = k, false
	}
	return text, ""
}

func codeShaped(w string) bool {
	if _, ok := source.LookupCode(w); ok {
		return true
	}
	if !strings.Contains(w, "-") || strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func suppressions(m *source.Mapper) []Suppression {
	content := m.Content()
	var out []Suppression
	for line := 0; line < m.LineCount(); line++ {
		start := m.LineStart(line)
		end := len(content)
		if line+1 < m.LineCount() {
			end = m.LineStart(line + 1)
		}
		text := strings.TrimRight(string(content[start:end]), "\r\n")
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
		list, reason := rest, ""
		if i := strings.Index(list, "--"); i >= 0 {
			list, reason = list[:i], strings.TrimSpace(list[i+2:])
		} else {
			list, reason = codeList(list)
		}
		list = strings.TrimRight(list, " \t")
		s := Suppression{
			Range:   source.R(start+at, start+at+len(ignoreDirective)+len(list)),
			Removal: source.R(start+len(strings.TrimRight(text[:marker], " \t")), start+len(text)),
			Line:    line,
			Codes:   strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }),
			Reason:  reason,
		}
		if strings.TrimSpace(before[:marker]) == "" {
			s.Line = line + 1
			s.Removal = source.R(start, end)
		}
		out = append(out, s)
	}
	return out
}

// suppress drops the diagnostics a comment suppresses and adds a
// diagnostic for each unknown code and each comment (or code of one) that
// suppressed nothing. ds is not modified.
// HasDirective reports whether content holds a suppression comment's
// directive (blueprint-ls:ignore); without one, Apply suppresses nothing.
func HasDirective(content []byte) bool { return bytes.Contains(content, []byte(ignoreDirective)) }

// DirectiveNear reports whether a suppression directive may lie across
// or inside r: it reads only the bytes around r.
func DirectiveNear(t source.Text, r source.Range) bool {
	n := len(ignoreDirective) - 1
	return HasDirective(t.Slice(r.Start-n, r.End+n))
}

func suppress(content []byte, ds []source.Diagnostic) []source.Diagnostic {
	if !HasDirective(content) {
		return ds
	}
	m := source.NewMapper(content)
	sups := suppressions(m)
	if len(sups) == 0 {
		return ds
	}
	used := make([]map[string]bool, len(sups))
	byLine := map[int][]int{}
	for i, s := range sups {
		used[i] = map[string]bool{}
		byLine[s.Line] = append(byLine[s.Line], i)
	}
	kept := make([]source.Diagnostic, 0, len(ds))
	for _, d := range ds {
		suppressed := false
		for _, i := range byLine[m.Line(d.Range.Start)] {
			if len(sups[i].Codes) == 0 {
				used[i][""] = true
				suppressed = true
			}
			for _, c := range sups[i].Codes {
				if c == d.Code {
					used[i][c] = true
					suppressed = true
				}
			}
		}
		if !suppressed {
			kept = append(kept, d)
		}
	}
	for i, s := range sups {
		if len(s.Codes) == 0 {
			if !used[i][""] {
				d := CodeSuppressUnused.New(s.Range, "this blueprint-ls:ignore comment suppresses nothing on line %d", s.Line+1)
				kept = append(kept, unnecessary(d, s, nil))
			}
			continue
		}
		var unused, useful []string
		for _, c := range s.Codes {
			if _, known := source.LookupCode(c); !known {
				msg := fmt.Sprintf("blueprint-ls:ignore names unknown diagnostic code %q", c)
				if alt := source.Closest(c, codeIDs()); len(alt) > 0 {
					msg += fmt.Sprintf("; did you mean %q?", alt[0])
				}
				kept = append(kept, CodeSuppressUnknown.New(s.Range, "%s", msg))
				continue
			}
			if used[i][c] {
				useful = append(useful, c)
			} else {
				unused = append(unused, c)
			}
		}
		if len(unused) > 0 {
			d := CodeSuppressUnused.New(s.Range, "blueprint-ls:ignore %s suppresses nothing on line %d", strings.Join(unused, ", "), s.Line+1)
			kept = append(kept, unnecessary(d, s, useful))
		}
	}
	return kept
}

// unnecessary tags a suppress-unused diagnostic for fading and attaches
// its fix: delete the comment, or, when some of its codes still suppress
// something, keep only those.
func unnecessary(d source.Diagnostic, s Suppression, useful []string) source.Diagnostic {
	d.Tags = []source.Tag{source.Unnecessary}
	if len(useful) == 0 {
		d.Suggestions = []source.Suggestion{{Title: "Remove the unused blueprint-ls:ignore comment",
			Edits: []source.Edit{{Range: s.Removal}}}}
		return d
	}
	d.Suggestions = []source.Suggestion{{Title: "Keep only " + strings.Join(useful, ", ") + " in the blueprint-ls:ignore comment",
		Edits: []source.Edit{{Range: s.Range, NewText: ignoreDirective + " " + strings.Join(useful, ", ")}}}}
	return d
}
