package syntax

import "encoding/binary"

// readerProblem finds the first character yaml.v3's reader refuses in
// src (malformed UTF-8, a surrogate, a control character; not a sequence
// the text's end cuts short), with the
// reader's problem and the offset its error gives; ok is false when
// there is none. yaml.v3 decodes its input 512 bytes ahead of its
// parser, so whether such a character or a syntax error earlier in the
// text is reported first depends on where the 512-byte blocks fall: on a
// document shorter than a block the character always wins, on a longer
// one either may, and text moved by a few bytes (the language server's
// padding, an edit far above) could change the answer. ParseYAML reports
// this character first, always.
// scanForReader turns readerProblem off in tests that compare with what
// yaml.v3 reports by itself.
var scanForReader = true

func readerProblem(src []byte) (off int, problem string, ok bool) {
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3 // a UTF-8 byte order mark, which the reader skips
	}
	for i < len(src) {
		if i+8 <= len(src) && printable8(binary.LittleEndian.Uint64(src[i:])) {
			i += 8
			continue
		}
		c := src[i]
		if c >= 0x20 && c < 0x7F || c == '\n' || c == '\r' || c == '\t' {
			i++
			continue
		}
		width := 0
		switch {
		case c&0x80 == 0:
			width = 1
		case c&0xE0 == 0xC0:
			width = 2
		case c&0xF0 == 0xE0:
			width = 3
		case c&0xF8 == 0xF0:
			width = 4
		default:
			return i, "invalid leading UTF-8 octet", true
		}
		if width > len(src)-i {
			// Cut short by the end of the text: the reader waits for more
			// and reports it only at the end, after anything before it,
			// wherever the blocks fall.
			return 0, "", false
		}
		value := rune(c)
		switch width {
		case 2:
			value = rune(c & 0x1F)
		case 3:
			value = rune(c & 0x0F)
		case 4:
			value = rune(c & 0x07)
		}
		for k := 1; k < width; k++ {
			t := src[i+k]
			if t&0xC0 != 0x80 {
				return i + k, "invalid trailing UTF-8 octet", true
			}
			value = value<<6 + rune(t&0x3F)
		}
		switch {
		case width == 1, width == 2 && value >= 0x80, width == 3 && value >= 0x800, width == 4 && value >= 0x10000:
		default:
			return i, "invalid length of a UTF-8 sequence", true
		}
		if value >= 0xD800 && value <= 0xDFFF || value > 0x10FFFF {
			return i, "invalid Unicode character", true
		}
		switch {
		case value == 0x85, value >= 0xA0 && value <= 0xD7FF, value >= 0xE000 && value <= 0xFFFD, value >= 0x10000:
		default:
			return i, "control characters are not allowed", true
		}
		i += width
	}
	return 0, "", false
}

// printable8 reports whether the eight bytes of w are all printable ASCII
// (0x20 to 0x7E), the text readerProblem skips, as one test rather than
// eight (the scan was a fifth of a YAML parse). A word holding anything
// else (a line break, a tab, a control or non-ASCII byte) is left to the
// byte-by-byte loop.
func printable8(w uint64) bool {
	below := (w - 0x20*ones) & ^w & highs // some byte < 0x20
	del := w ^ 0x7F*ones                  // a zero byte where w's is 0x7F
	isDel := (del - ones) & ^del & highs
	return (w&highs)|below|isDel == 0
}
