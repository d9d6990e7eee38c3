package lsp

// packedTokens is a semantic token array kept for a later delta
// (tokenResults) in about a quarter of its size: one byte a number, five
// a token. A token with a number over 254 has 255 in its first byte and
// its numbers in wide, by token index. A document of 5,000 resources
// colours 283 k tokens, 5.7 MB as []uint32, and two arrays are kept per
// document (issue 36).
type packedTokens struct {
	b    []byte
	wide map[int][semTokenLen]uint32
}

// wideToken marks a token whose numbers are in packedTokens.wide.
const wideToken = 0xff

// packTokens packs data, whose length is a multiple of semTokenLen.
func packTokens(data []uint32) packedTokens {
	p := packedTokens{b: make([]byte, len(data))}
	for i := 0; i+semTokenLen <= len(data); i += semTokenLen {
		t := [semTokenLen]uint32(data[i : i+semTokenLen])
		if max(t[0], t[1], t[2], t[3], t[4]) >= wideToken {
			if p.wide == nil {
				p.wide = map[int][semTokenLen]uint32{}
			}
			p.wide[i/semTokenLen] = t
			p.b[i] = wideToken
			continue
		}
		for k, v := range t {
			p.b[i+k] = byte(v)
		}
	}
	return p
}

// tokens is the number of tokens.
func (p packedTokens) tokens() int { return len(p.b) / semTokenLen }

// token returns the numbers of the i-th token.
func (p packedTokens) token(i int) (t [semTokenLen]uint32) {
	b := p.b[i*semTokenLen : (i+1)*semTokenLen]
	if b[0] == wideToken {
		return p.wide[i]
	}
	for k, v := range b {
		t[k] = uint32(v)
	}
	return t
}
