package assembly

import (
	"strconv"
	"strings"
)

// MaxLogicalIDLen is the length a Logical ID should not exceed.
const MaxLogicalIDLen = 256

// idByte reports whether c may appear in a Logical ID:
// /^[A-Za-z0-9+\/_-]$/.
func idByte(c byte) bool {
	switch {
	case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		return true
	}
	return c == '+' || c == '-' || c == '/' || c == '_'
}

// ValidLogicalID reports whether id satisfies every rule for Logical IDs,
// the length limit included.
func ValidLogicalID(id string) bool {
	if id == "" || len(id) > MaxLogicalIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !idByte(id[i]) {
			return false
		}
	}
	return true
}

// LogicalIDs derives a valid, unique Logical ID for each name, in order.
// The derivation is stable: the same names in the same order always give
// the same IDs, and a name that is already a valid ID keeps it. Every
// other byte becomes '-' except that "name[3]" becomes "name-3" and a
// "." (a child blueprint path) becomes "/". IDs are truncated to the
// length limit, and a clash is resolved with a numeric suffix.
func LogicalIDs(names []string) []string {
	ids := make([]string, len(names))
	taken := map[string]bool{}
	// Names that are already valid claim their IDs first, so another
	// name's derivation can never steal them.
	for i, n := range names {
		if ValidLogicalID(n) && !taken[n] {
			ids[i] = n
			taken[n] = true
		}
	}
	for i, n := range names {
		if ids[i] != "" {
			continue
		}
		base := deriveID(n)
		id := base
		for k := 2; taken[id]; k++ {
			suffix := "-" + strconv.Itoa(k)
			b := base
			if len(b)+len(suffix) > MaxLogicalIDLen {
				b = b[:MaxLogicalIDLen-len(suffix)]
			}
			id = b + suffix
		}
		ids[i] = id
		taken[id] = true
	}
	return ids
}

// deriveID maps a name onto the Logical ID alphabet.
func deriveID(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r < 0x80 && idByte(byte(r)):
			b.WriteRune(r)
		case r == '.':
			b.WriteByte('/')
		case r == ']':
			// "name[0]" → "name-0" and "a[0].b" → "a-0/b".
			if i+1 < len(rs) && rs[i+1] != '.' && rs[i+1] != '[' {
				b.WriteByte('-')
			}
		default:
			b.WriteByte('-')
		}
	}
	id := b.String()
	if id == "" {
		id = "droplet"
	}
	if len(id) > MaxLogicalIDLen {
		id = id[:MaxLogicalIDLen]
	}
	return id
}
