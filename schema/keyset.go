package schema

// keySetSmall is how many keys a keySet holds before it builds a map.
const keySetSmall = 8

// keySet maps mapping keys to values, first put wins being the caller's
// business. Most mappings in a blueprint have a handful of keys, for which
// a linear scan of a fixed array beats building a map for every mapping;
// larger ones switch to a map. The zero value is empty and ready to use.
type keySet[V any] struct {
	n    int
	keys [keySetSmall]string
	vals [keySetSmall]V
	m    map[string]V
}

// sized prepares s for about n keys, so a large mapping builds its map
// once, at its full size.
func (s *keySet[V]) sized(n int) {
	if n > keySetSmall && s.m == nil && s.n == 0 {
		s.m = make(map[string]V, n)
	}
}

func (s *keySet[V]) get(k string) (V, bool) {
	if s.m != nil {
		v, ok := s.m[k]
		return v, ok
	}
	for i := 0; i < s.n; i++ {
		if s.keys[i] == k {
			return s.vals[i], true
		}
	}
	var zero V
	return zero, false
}

func (s *keySet[V]) put(k string, v V) {
	if s.m == nil && s.n < keySetSmall {
		for i := 0; i < s.n; i++ {
			if s.keys[i] == k {
				s.vals[i] = v
				return
			}
		}
		s.keys[s.n], s.vals[s.n] = k, v
		s.n++
		return
	}
	if s.m == nil {
		s.m = make(map[string]V, 2*keySetSmall)
		for i := 0; i < s.n; i++ {
			s.m[s.keys[i]] = s.vals[i]
		}
	}
	s.m[k] = v
}

// fieldEntries holds a definition's usable entries by field name.
type fieldEntries struct {
	keySet[*Entry]
}

// at returns the entry of field name, or nil.
func (f *fieldEntries) at(name string) *Entry {
	e, _ := f.get(name)
	return e
}
