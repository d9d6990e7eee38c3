package assembly

import "strings"

// A Ref is one ${LogicalId.attributeName} token in a property string.
// Start and End are byte offsets in the decoded string, covering the
// whole token from "$" to "}".
type Ref struct {
	ID, Attribute string
	Start, End    int
}

// tokenIssue is a malformed token or escape in a decoded string.
type tokenIssue struct {
	start, end int
	escape     bool // an invalid escape sequence (else a malformed token)
	msg        string
}

// scanTokens finds the references in a decoded property string and the
// problems in it: a "\" that does not start "\\" or "\${", a "${" with no
// closing "}", and a token that is not a Logical ID, a ".", and a
// non-empty attribute name. Escaped text is never a token.
func scanTokens(s string) ([]Ref, []tokenIssue) {
	var refs []Ref
	var issues []tokenIssue
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\':
			switch {
			case strings.HasPrefix(s[i+1:], "\\"):
				i += 2
			case strings.HasPrefix(s[i+1:], "${"):
				i += 3
			default:
				end := i + 1
				if end < len(s) {
					end = i + 1 + runeLen(s[i+1:])
				}
				issues = append(issues, tokenIssue{start: i, end: end, escape: true,
					msg: escapeMessage(s[i+1 : end])})
				i = end
			}
		case strings.HasPrefix(s[i:], "${"):
			j := strings.IndexByte(s[i+2:], '}')
			if j < 0 {
				issues = append(issues, tokenIssue{start: i, end: len(s),
					msg: `"${" has no closing "}" (write "\${" for a literal "${")`})
				return refs, issues
			}
			end := i + 2 + j + 1
			body := s[i+2 : end-1]
			id, attr, dot := strings.Cut(body, ".")
			switch {
			case !dot:
				issues = append(issues, tokenIssue{start: i, end: end,
					msg: "reference " + quote(s[i:end]) + " must have the form ${LogicalId.attributeName}"})
			case id == "" || !validIDChars(id):
				issues = append(issues, tokenIssue{start: i, end: end,
					msg: "reference " + quote(s[i:end]) + " does not start with a valid Logical ID"})
			case attr == "":
				issues = append(issues, tokenIssue{start: i, end: end,
					msg: "reference " + quote(s[i:end]) + " has an empty attribute name"})
			default:
				refs = append(refs, Ref{ID: id, Attribute: attr, Start: i, End: end})
			}
			i = end
		default:
			i++
		}
	}
	return refs, issues
}

func escapeMessage(after string) string {
	if after == "" {
		return `"\" at the end of the string is not an escape sequence (write "\\" for a literal "\")`
	}
	return `"\` + after + `" is not a valid escape sequence: only "\\" and "\${" are (write "\\" for a literal "\")`
}

func validIDChars(id string) bool {
	for i := 0; i < len(id); i++ {
		if !idByte(id[i]) {
			return false
		}
	}
	return true
}

func runeLen(s string) int {
	for i := range s {
		if i > 0 {
			return i
		}
	}
	return len(s)
}

// Escape returns s as literal property text: "\" becomes "\\" and "${"
// becomes "\${", so that no part of s reads as a token.
func Escape(s string) string {
	if !strings.ContainsAny(s, `\$`) {
		return s
	}
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, "${", `\${`)
}

// Token returns the reference token for attribute attr of droplet id.
func Token(id, attr string) string { return "${" + id + "." + attr + "}" }

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return `"` + s + `"`
}
