package funcs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"net/netip"
	"strings"
	"unicode/utf8"
)

func dataFuncs() []Func {
	hashFn := func(name, algo string, newHash func() hash.Hash, example, result string) Func {
		return Func{
			Name:      name,
			Signature: sig(tString, param("data", tAny)),
			ParamDocs: []string{"The data to hash."},
			Summary:   "Returns the " + algo + " hash of its input as lower-case hexadecimal.",
			Doc: "Strings are hashed as their UTF-8 bytes and binary data as it is; numbers and booleans as " +
				"their text; arrays and mappings as their compact JSON (mapping keys in order)." + noneNote,
			Examples: []Example{
				{Expr: example},
				{Expr: name + `("Hello World")`, Result: `"` + result + `"`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				if args[0].HasUnknown() {
					return Unknown(name + "(..)"), nil
				}
				data, err := hashInput(args[0])
				if err != nil {
					return None, argError(0, "%s", err.Error())
				}
				h := newHash()
				h.Write([]byte(data))
				return String(hex.EncodeToString(h.Sum(nil))), nil
			},
		}
	}
	return []Func{
		{
			Name:      "fromjson",
			Signature: sig(tAny, param("json", tString), param("pointer", tString)),
			ParamDocs: []string{"The JSON document; its root must be an object.", "A JSON pointer (RFC 6901) such as \"/host\" or \"/ports/0\"."},
			Summary:   "Extracts a value from a JSON string with a JSON pointer.",
			Doc: "Parses the JSON document (whose root must be an object) and returns the value the pointer " +
				"selects: a string, number, boolean, array, mapping, or `none` for JSON null. Pointer tokens " +
				"are separated by `/`; `~1` stands for `/` and `~0` for `~` in a key; array items are " +
				"selected by index from 0. A pointer without the leading `/` is read as a top-level key " +
				"(the checker warns). Malformed JSON, a missing key and an index out of range are errors." + noneNote,
			Examples: []Example{
				{Expr: `fromjson(variables.cacheClusterConfig, "/host")`},
				{Expr: `fromjson(trim(variables.cacheClusterConfig), "/host")`},
				{Expr: `fromjson("{\"host\":\"localhost\"}", "/host")`, Result: `"localhost"`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				doc, p, err := argStrs2(args)
				if err != nil {
					return None, err
				}
				return extractPointer(doc, p)
			},
		},
		{
			Name:      "fromjson_g",
			Signature: sig(fn(tAny, tString), param("pointer", tString)),
			ParamDocs: []string{"A JSON pointer (RFC 6901) such as \"/host\"."},
			Summary:   "Composable fromjson: takes the JSON pointer and returns a function of the JSON string.",
			Doc:       "Returns a function that extracts the value at this pointer from the JSON string it is given.",
			Examples:  []Example{{Expr: `map(values.cacheClusterConfigDefs, fromjson_g("/host"))`}},
			Impl:      gImpl("fromjson_g", "fromjson", tString, tAny),
			Flags:     ReturnsFunc,
		},
		{
			Name:      "jsondecode",
			Signature: sig(tAny, param("json", tString)),
			ParamDocs: []string{"The JSON text to decode."},
			Summary:   "Decodes a JSON string into a value.",
			Doc: "Objects become mappings (keeping their key order), arrays arrays, whole numbers integers, " +
				"other numbers floats and `null` `none`. Malformed JSON is an error that says where (for " +
				"a secret text: only that it is not JSON)." + noneNote,
			Examples: []Example{
				{Expr: `jsondecode(values.cacheClusterConfig)`},
				{Expr: `jsondecode("{\"ports\":[6379,6380]}")`, Result: `{"ports":[6379,6380]}`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				s, err := argStr(args, 0)
				if err != nil {
					return None, err
				}
				v, err := ParseJSON([]byte(s))
				if err != nil {
					return None, argError(0, "%s", err.Error()).publicly(SensitiveText + " is not valid JSON")
				}
				return v, nil
			},
		},
		{
			Name:      "base64encode",
			Signature: sig(tString, param("data", union(tBinary, tString))),
			ParamDocs: []string{"The binary data (or string, as its UTF-8 bytes) to encode."},
			Summary:   "Encodes binary data as standard Base64 with padding (RFC 4648).",
			Doc:       "A string argument is encoded as its UTF-8 bytes." + noneNote,
			Examples: []Example{
				{Expr: `base64encode(file("certificates/server.pem"))`},
				{Expr: `base64encode(http_resource("https://example.com/app.zip"))`},
				{Expr: `base64encode("#!/bin/bash\necho 'Hello World'")`, Result: `"IyEvYmluL2Jhc2gKZWNobyAnSGVsbG8gV29ybGQn"`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				b, err := argBytes(args, 0)
				if err != nil {
					return None, err
				}
				return String(base64.StdEncoding.EncodeToString([]byte(b))), nil
			},
		},
		{
			Name:      "base64decode",
			Signature: sig(tBinary, param("encoded", tString)),
			ParamDocs: []string{"Standard Base64 text (RFC 4648, with padding)."},
			Summary:   "Decodes standard Base64 text (RFC 4648, with padding) into binary data.",
			Doc: "Returns binary data; pass it through `utf8` to use it as text in another function. Used " +
				"directly as a field value it is written as UTF-8 text. Invalid Base64 is an error." + noneNote,
			Examples: []Example{
				{Expr: `base64decode("SGVsbG8gV29ybGQ=")`, Result: `"Hello World"`, Note: "binary data, shown as its text"},
				{Expr: `jsondecode(utf8(base64decode(variables.encodedConfig)))`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				s, err := argStr(args, 0)
				if err != nil {
					return None, err
				}
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return None, argError(0, "invalid Base64: %v", err).publicly(SensitiveText + " is not valid Base64")
				}
				return Binary(b), nil
			},
		},
		{
			Name:      "utf8",
			Signature: sig(tString, param("data", tBinary)),
			ParamDocs: []string{"The binary data to read as UTF-8 text."},
			Summary:   "Converts binary data to UTF-8 text.",
			Doc: "Needed only when binary data from `file`, `http_resource` or `base64decode` is passed to a " +
				"function that expects text; a field takes binary data as it is. Bytes that are not valid " +
				"UTF-8 are an error. A string is returned unchanged." + noneNote,
			Examples: []Example{
				{Expr: `jsondecode(utf8(file("config.json")))`},
				{Expr: `replace(utf8(http_resource("https://example.com/template.txt")), "{{name}}", variables.appName)`},
				{Expr: `sha256(utf8(file("data.txt")))`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				b, err := argBytes(args, 0)
				if err != nil {
					return None, err
				}
				if !utf8.ValidString(b) {
					i := firstInvalidUTF8(b)
					return None, argError(0, "the data is not valid UTF-8 (bad byte 0x%02x at offset %d)", b[i], i).publicly("the data is not valid UTF-8")
				}
				return String(b), nil
			},
		},
		hashFn("sha256", "SHA-256", sha256.New, `sha256(base64decode(datasources.certificate.certificateBody))`,
			"a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e"),
		hashFn("md5", "MD5", md5.New, `md5(file("config.json"))`, "b10a8db164e0754105b7a99be72e3fe5"),
		hashFn("sha1", "SHA-1", sha1.New, `sha1(values.configData)`, "0a4d55a8d778e5022fab701977c5d840bbc486d0"),
		{
			Name:      "cidrsubnet",
			Signature: sig(tString, param("prefix", tString), param("newbits", tInt), param("netnum", tInt)),
			ParamDocs: []string{
				"The CIDR block to divide, such as \"10.0.0.0/16\" (IPv4 or IPv6).",
				"How many bits to add to the prefix length.",
				"Which subnet to return, from 0.",
			},
			Summary: "Calculates a subnet CIDR block within a given block.",
			Doc: "Extends the prefix length by `newbits` and returns subnet number `netnum` of the resulting " +
				"size, as `address/length`. Works for IPv4 and IPv6. The new length may not exceed the " +
				"address size (32 or 128 bits) and `netnum` must fit in `newbits` bits." + noneNote,
			Examples: []Example{
				{Expr: `cidrsubnet("192.168.0.0/16", 8, 1)`, Result: `"192.168.1.0/24"`},
				{Expr: `cidrsubnet("10.0.0.0/8", 4, 2)`, Result: `"10.32.0.0/12"`, Note: "the spec's comment says 10.2.0.0/12, which is not a /12 boundary"},
				{Expr: `cidrsubnet(variables.vpcCidr, 4, variables.subnetIndex)`},
				{Expr: `cidrsubnet("fd00::/48", 16, 5)`, Result: `"fd00:0:0:5::/64"`},
			},
			Impl: implCidrsubnet,
		},
	}
}

func firstInvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return 0
}

// hashInput returns the bytes a hash function digests for v.
func hashInput(v Value) (string, error) {
	switch v.kind {
	case KindString, KindBinary:
		return v.str, nil
	case KindArray, KindMap:
		b, err := v.MarshalJSON()
		return string(b), err
	}
	return Interpolate(v)
}

func implCidrsubnet(c *Ctx, args []Value) (Value, error) {
	s, err := argStr(args, 0)
	if err != nil {
		return None, err
	}
	newbits, err := argInt(args, 1)
	if err != nil {
		return None, err
	}
	netnum, err := argInt(args, 2)
	if err != nil {
		return None, err
	}
	prefix, err := netip.ParsePrefix(strings.TrimSpace(s))
	if err != nil {
		return None, argError(0, "%q is not a CIDR block such as 10.0.0.0/16: %v", s, err).publicly(SensitiveText + " is not a CIDR block such as 10.0.0.0/16")
	}
	prefix = prefix.Masked()
	size := int64(prefix.Addr().BitLen())
	length := int64(prefix.Bits())
	switch {
	case newbits < 0:
		return None, argError(1, "newbits %d is negative", newbits)
	case length+newbits > size:
		return None, argError(1, "not enough address space: /%d plus %d bits is more than the %d bits of an address", length, newbits, size)
	case netnum < 0:
		return None, argError(2, "netnum %d is negative", netnum)
	case newbits < 63 && netnum >= int64(1)<<newbits:
		return None, argError(2, "netnum %d does not fit in %d bits (the largest is %d)", netnum, newbits, int64(1)<<newbits-1)
	}
	b := prefix.Addr().AsSlice()
	for k := int64(0); k < newbits; k++ {
		shift := newbits - 1 - k
		if shift >= 63 || (netnum>>shift)&1 == 0 {
			continue
		}
		pos := length + k
		b[pos/8] |= 0x80 >> (pos % 8)
	}
	addr, _ := netip.AddrFromSlice(b)
	return String(netip.PrefixFrom(addr, int(length+newbits)).String()), nil
}
