package assembly

import "strings"

// Helpers only tests use: kept out of the production build (deadcode,
// scripts/test.sh).

// Unescape decodes the escape sequences of property text, leaving tokens
// and invalid sequences as they are.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			if strings.HasPrefix(s[i+1:], `\`) {
				b.WriteByte('\\')
				i++
				continue
			}
			if strings.HasPrefix(s[i+1:], "${") {
				b.WriteString("${")
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
