package syntax

import "strconv"

// Locate finds the node below root that a JSON pointer's tokens name,
// and the key of the entry holding it (nil for a list item or root
// itself). It stops at the deepest node that exists.
func Locate(root Node, tokens []string) (Node, *Scalar) {
	n, key := root, (*Scalar)(nil)
	for _, t := range tokens {
		switch c := n.(type) {
		case *Mapping:
			e := c.Entry(t)
			if e == nil || e.Value == nil {
				return n, key
			}
			n, key = e.Value, e.Key
		case *Sequence:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c.Items) {
				return n, key
			}
			n, key = c.Items[i], nil
		default:
			return n, key
		}
	}
	return n, key
}
