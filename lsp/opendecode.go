package lsp

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/blueprint-ls/blueprint-ls/internal/jsonscan"
	"go.lsp.dev/protocol"
)

// The text of a didOpen is most of its message: 3–5 MB for a large
// blueprint, a line feed (an escape) every few dozen bytes. The protocol
// library decodes a string with an escape one byte at a time into a
// buffer that doubles, then copies it into a string, which the server
// copied once more into bytes (issue 36: a tenth of the open's time at
// 5,000 resources). decodeDidOpen finds the text in the message, decodes
// it by copying the runs between escapes straight into one buffer of
// its final size, and leaves everything else of the message to the
// library: the library decodes the message with the text's string taken
// out, so the URI, language and version, unknown members and every
// error are exactly the library's. Anything the scan is not sure of
// (a member name with an escape, a text or textDocument given twice, a
// string the library would refuse) is left whole to the library.

// decodeDidOpen decodes the params of a didOpen. It returns them with
// TextDocument.Text empty and the text as bytes of its own, or ok false
// when the caller should decode the params with the library instead.
func decodeDidOpen(params []byte) (p *protocol.DidOpenTextDocumentParams, text []byte, ok bool) {
	return decodeDidOpenWith(params, false)
}

// decodeDidOpenOwned is decodeDidOpen for params that are the caller's
// to overwrite and are read by nothing else afterwards (a large frame's
// own buffer, framing.go): the text is decoded over its own JSON string
// in params and is a slice of them, so the open does not allocate a
// second copy of the document (issue 36). When ok is false, params are
// as they were.
func decodeDidOpenOwned(params []byte) (p *protocol.DidOpenTextDocumentParams, text []byte, ok bool) {
	return decodeDidOpenWith(params, true)
}

func decodeDidOpenWith(params []byte, inPlace bool) (p *protocol.DidOpenTextDocumentParams, text []byte, ok bool) {
	text, start, end, ok := didOpenText(params, inPlace)
	if !ok {
		return nil, nil, false
	}
	rest := make([]byte, 0, len(params)-(end-start)+2)
	rest = append(rest, params[:start]...)
	rest = append(rest, `""`...)
	rest = append(rest, params[end:]...)
	p = new(protocol.DidOpenTextDocumentParams)
	if err := protocol.Unmarshal(rest, p); err != nil {
		return nil, nil, false
	}
	if text == nil {
		// Checked by didOpenText: the decoding cannot fail, and the
		// params are written only now that the library took the rest.
		text = unquoteJSONInPlace(params, start, end)
	}
	return p, text, true
}

// didOpenText finds, in params, the string that is the text member of
// the textDocument member and decodes it: start is its opening quote,
// end the byte after its closing one. ok is false unless each of the
// two members occurs exactly once, with a string and an object value,
// no member name on the way has an escape, and the string decodes.
// With inPlace, a string that unquoteJSONInPlace can decode is only
// checked (text nil), for the caller to decode once it knows the rest of
// the params decode too.
func didOpenText(params []byte, inPlace bool) (text []byte, start, end int, ok bool) {
	docs, texts := 0, 0
	_, ok = eachMember(params, jsonscan.Space(params, 0), func(key []byte, v int) (int, bool) {
		if string(key) != "textDocument" {
			return skipJSONValue(params, v)
		}
		if docs++; docs > 1 {
			return 0, false
		}
		return eachMember(params, v, func(key []byte, v int) (int, bool) {
			if string(key) != "text" {
				return skipJSONValue(params, v)
			}
			if texts++; texts > 1 {
				return 0, false
			}
			var next int
			if next, ok = checkJSONString(params, v); !inPlace || !ok {
				text, next, ok = unquoteJSON(params, v)
			}
			start, end = v, next
			return next, ok
		})
	})
	if !ok || texts != 1 {
		return nil, 0, 0, false
	}
	return text, start, end, true
}

// eachMember calls f for each member of the object at raw[i] with its
// name (not decoded; a name with an escape fails) and the offset of its
// value; f returns the offset after the value. It returns the offset
// after the object, or false for anything that is not a well-formed
// object.
func eachMember(raw []byte, i int, f func(key []byte, v int) (int, bool)) (int, bool) {
	if i >= len(raw) || raw[i] != '{' {
		return 0, false
	}
	i = jsonscan.Space(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return 0, false
		}
		k := i + 1
		for k < len(raw) && raw[k] != '"' && raw[k] != '\\' && raw[k] >= ' ' {
			k++
		}
		if k >= len(raw) || raw[k] != '"' {
			return 0, false
		}
		key := raw[i+1 : k]
		i = jsonscan.Space(raw, k+1)
		if i >= len(raw) || raw[i] != ':' {
			return 0, false
		}
		next, ok := f(key, jsonscan.Space(raw, i+1))
		if !ok {
			return 0, false
		}
		i = jsonscan.Space(raw, next)
		if i >= len(raw) {
			return 0, false
		}
		switch raw[i] {
		case ',':
			i = jsonscan.Space(raw, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// skipJSONValue returns the offset after the value at raw[i].
func skipJSONValue(raw []byte, i int) (int, bool) {
	end := jsonscan.Value(raw, i)
	return end, end >= 0
}

// unquoteJSON decodes the JSON string whose opening quote is raw[i] as
// the protocol library does (its decoder follows jsonwire's
// AllowInvalidUTF8): escapes decoded, a UTF-16 surrogate pair joined, an
// unpaired surrogate and each byte of invalid UTF-8 replaced by U+FFFD.
// It returns the offset after the closing quote; ok is false where the
// library reports an error (a bad escape, a control character, the end
// of raw inside the string).
func unquoteJSON(raw []byte, i int) (out []byte, next int, ok bool) {
	if i >= len(raw) || raw[i] != '"' {
		return nil, 0, false
	}
	// The rest of raw bounds the decoded string (invalid UTF-8 aside,
	// which grows to three bytes a byte): one allocation, no pre-scan.
	return unquoteJSONTo(make([]byte, 0, len(raw)-i-1), raw, i)
}

// unquoteJSONInPlace decodes the JSON string raw[start:end], which
// checkJSONString accepted, over its own encoding and returns it, a
// slice of raw from start. No step writes more bytes than it has read
// (an escape shrinks, other bytes are copied as they are; invalid UTF-8,
// which would grow, is refused by checkJSONString), so the decoding
// never overwrites what it has yet to read.
func unquoteJSONInPlace(raw []byte, start, end int) []byte {
	out, _, _ := unquoteJSONTo(raw[start:start:end], raw, start)
	return out
}

// checkJSONString returns the offset after the JSON string whose opening
// quote is raw[i], with ok false where unquoteJSON refuses it and where
// it holds invalid UTF-8.
func checkJSONString(raw []byte, i int) (next int, ok bool) {
	if i >= len(raw) || raw[i] != '"' {
		return 0, false
	}
	n := i + 1
	for {
		if n = plainRun(raw, n); n >= len(raw) {
			return 0, false
		}
		switch c := raw[n]; {
		case c == '"':
			return n + 1, true
		case c == '\\':
			if len(raw)-n < 2 {
				return 0, false
			}
			switch raw[n+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				n += 2
			case 'u':
				_, m, ok := unicodeEscape(raw, n)
				if !ok {
					return 0, false
				}
				n = m
			default:
				return 0, false
			}
		case c < ' ':
			return 0, false
		default: // c >= utf8.RuneSelf
			r, size := utf8.DecodeRune(raw[n:])
			if r == utf8.RuneError && size == 1 {
				return 0, false
			}
			n += size
		}
	}
}

// unquoteJSONTo is unquoteJSON appending the decoded string to out.
func unquoteJSONTo(out, raw []byte, i int) ([]byte, int, bool) {
	n := i + 1
	for {
		run := plainRun(raw, n)
		out = append(out, raw[n:run]...)
		n = run
		if n >= len(raw) {
			return nil, 0, false
		}
		switch c := raw[n]; {
		case c == '"':
			return out, n + 1, true
		case c == '\\':
			if len(raw)-n < 2 {
				return nil, 0, false
			}
			switch e := raw[n+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, m, ok := unicodeEscape(raw, n)
				if !ok {
					return nil, 0, false
				}
				out = utf8.AppendRune(out, r)
				n = m
				continue
			default:
				return nil, 0, false
			}
			n += 2
		case c < ' ':
			return nil, 0, false
		default: // c >= utf8.RuneSelf
			r, size := utf8.DecodeRune(raw[n:])
			if r == utf8.RuneError && size == 1 {
				if !utf8.FullRune(raw[n:]) {
					return nil, 0, false
				}
				out = append(out, "\uFFFD"...)
				n++
				continue
			}
			out = append(out, raw[n:n+size]...)
			n += size
		}
	}
}

// unicodeEscape decodes the \uXXXX escape at raw[n] (and the low half
// after it, when it is the high half of a surrogate pair); it returns
// the rune and the offset after what it read.
func unicodeEscape(raw []byte, n int) (rune, int, bool) {
	if len(raw)-n < 6 {
		return 0, 0, false
	}
	v1, ok := hex4(raw[n+2 : n+6])
	if !ok {
		return 0, 0, false
	}
	n += 6
	r := rune(v1)
	if !utf16.IsSurrogate(r) {
		return r, n, true
	}
	// An unpaired half is U+FFFD; an escape after it that does not
	// complete the pair is read again on its own.
	if len(raw)-n >= 6 && raw[n] == '\\' && raw[n+1] == 'u' {
		v2, ok := hex4(raw[n+2 : n+6])
		if !ok {
			return 0, 0, false
		}
		if pair := utf16.DecodeRune(r, rune(v2)); pair != utf8.RuneError {
			return pair, n + 6, true
		}
	}
	return utf8.RuneError, n, true
}

// hex4 reads four hexadecimal digits.
func hex4(b []byte) (uint16, bool) {
	var v uint16
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint16(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint16(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | uint16(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// plainRun returns the offset of the first byte at or after n that a
// JSON string cannot copy as it is: a quote, a backslash, a control
// character or a byte of a multi-byte sequence; len(raw) if none. It
// tests eight bytes at a time.
func plainRun(raw []byte, n int) int {
	for ; n+8 <= len(raw); n += 8 {
		w := binary.LittleEndian.Uint64(raw[n:])
		if m := zeroByte(w^(lo8*'"')) | zeroByte(w^(lo8*'\\')) | (w-lo8*0x20)&^w&hi8 | w&hi8; m != 0 {
			return n + bits.TrailingZeros64(m)>>3
		}
	}
	for ; n < len(raw); n++ {
		if c := raw[n]; c == '"' || c == '\\' || c < ' ' || c >= utf8.RuneSelf {
			return n
		}
	}
	return n
}

// zeroByte sets the high bit of the lowest zero byte of w (and maybe of
// bytes above it, through the borrow: only the lowest set bit is read).
func zeroByte(w uint64) uint64 { return (w - lo8) &^ w & hi8 }
