package landscaper

import "github.com/Masterminds/sprig/v3"

// sprigNames are the names of sprig's text functions.
func sprigNames() []string {
	var out []string
	for k := range sprig.TxtFuncMap() {
		out = append(out, k)
	}
	return out
}
