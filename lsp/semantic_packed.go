package lsp

// packedTokens is a semantic token array kept for a later delta
// (tokenResults) in about a quarter of its size: one byte a number, five
// a token. A token with a number over 254 has 255 in its first byte and
// its numbers in wide, by token index. A document of 5,000 resources
// colours 283 k tokens, 5.7 MB as []uint32, and two arrays are kept per
// document (issue 36). The bytes are cut in chunks of packChunk, and an
// array shares with the one kept before it every chunk whose bytes are
// the same at the same place: two requests for one version (1.4 MB at
// 5,000 resources), or an edit that keeps the number of tokens, keep one
// array's bytes and a few chunks, not two arrays.
type packedTokens struct {
	chunks [][]byte
	n      int // the numbers: semTokenLen a token
	wide   map[int][semTokenLen]uint32
}

// packChunk is the bytes of a chunk, whole tokens (800 of them).
const packChunk = 800 * semTokenLen

// wideToken marks a token whose numbers are in packedTokens.wide.
const wideToken = 0xff

// packTokens packs data, whose length is a multiple of semTokenLen,
// sharing prev's chunks that it repeats.
func packTokens(data []uint32, prev packedTokens) packedTokens {
	p := packedTokens{n: len(data), chunks: make([][]byte, 0, (len(data)+packChunk-1)/packChunk)}
	var buf [packChunk]byte
	for at := 0; at < len(data); at += packChunk {
		b := buf[:min(packChunk, len(data)-at)]
		for i := 0; i < len(b); i += semTokenLen {
			t := [semTokenLen]uint32(data[at+i : at+i+semTokenLen])
			if max(t[0], t[1], t[2], t[3], t[4]) >= wideToken {
				if p.wide == nil {
					p.wide = map[int][semTokenLen]uint32{}
				}
				p.wide[(at+i)/semTokenLen] = t
				b[i], b[i+1], b[i+2], b[i+3], b[i+4] = wideToken, 0, 0, 0, 0
				continue
			}
			for k, v := range t {
				b[i+k] = byte(v)
			}
		}
		p.chunks = append(p.chunks, prev.same(len(p.chunks), b))
	}
	return p
}

// same returns p's chunk k when it holds b, a copy of b otherwise. A
// shared chunk may mark wide tokens: their numbers are each array's own
// (wide).
func (p packedTokens) same(k int, b []byte) []byte {
	if k < len(p.chunks) && string(p.chunks[k]) == string(b) {
		return p.chunks[k]
	}
	return append([]byte(nil), b...)
}

// tokens is the number of tokens.
func (p packedTokens) tokens() int { return p.n / semTokenLen }

// token returns the numbers of the i-th token.
func (p packedTokens) token(i int) (t [semTokenLen]uint32) {
	at := i * semTokenLen
	b := p.chunks[at/packChunk][at%packChunk:][:semTokenLen]
	if b[0] == wideToken {
		return p.wide[i]
	}
	for k, v := range b {
		t[k] = uint32(v)
	}
	return t
}

// appendTokens appends the numbers of n tokens from token index at to
// dst: a definition's tokens taken over from an array kept before.
func (p packedTokens) appendTokens(dst []uint32, at, n int) []uint32 {
	for i := at; i < at+n; i++ {
		k := i * semTokenLen
		b := p.chunks[k/packChunk][k%packChunk:][:semTokenLen]
		if b[0] == wideToken {
			w := p.wide[i]
			dst = append(dst, w[:]...)
			continue
		}
		dst = append(dst, uint32(b[0]), uint32(b[1]), uint32(b[2]), uint32(b[3]), uint32(b[4]))
	}
	return dst
}
