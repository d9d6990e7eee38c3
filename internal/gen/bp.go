package gen

import (
	"bytes"
	"fmt"
	"strings"
)

// declKeywords are the blueprint-language keywords of the sections.
var declKeywords = map[string]string{
	"variables": "variable", "values": "value", "datasources": "data",
	"resources": "resource", "exports": "export",
}

// writeBP writes the document in the blueprint language: each section's
// definitions as declarations, a data source's filter and exports as
// statements, a linkSelector as select by label, strings as strings
// (substitutions stay interpolations).
func writeBP(doc []kv) []byte {
	var buf bytes.Buffer
	for _, sec := range doc {
		kw, ok := declKeywords[sec.k]
		if !ok {
			fmt.Fprintf(&buf, "%s ", sec.k)
			bpValue(&buf, sec.v, 0)
			buf.WriteString("\n\n")
			continue
		}
		for _, d := range sec.v.([]kv) {
			fields := d.v.([]kv)
			fmt.Fprintf(&buf, "%s %s: %s {\n", kw, d.k, fields[0].v)
			for _, f := range fields[1:] {
				bpField(&buf, f)
			}
			buf.WriteString("}\n\n")
		}
	}
	return buf.Bytes()
}

func bpField(buf *bytes.Buffer, f kv) {
	const ind = "    "
	switch f.k {
	case "filter":
		m := f.v.([]kv)
		fmt.Fprintf(buf, "%sfilter %q %s ", ind, m[0].v, m[1].v)
		bpValue(buf, m[2].v, 1)
		buf.WriteByte('\n')
	case "exports":
		for _, x := range f.v.([]kv) {
			m := x.v.([]kv)
			if len(m) > 1 && m[1].k == "aliasFor" {
				fmt.Fprintf(buf, "%sexport %s as %s: %s\n", ind, m[1].v, x.k, m[0].v)
				continue
			}
			fmt.Fprintf(buf, "%sexport %s: %s\n", ind, x.k, m[0].v)
		}
	case "linkSelector":
		fmt.Fprintf(buf, "%sselect by label ", ind)
		bpBlock(buf, f.v.([]kv)[0].v.([]kv), 1, false)
		buf.WriteByte('\n')
	case "metadata", "spec":
		fmt.Fprintf(buf, "%s%s ", ind, f.k)
		bpBlock(buf, f.v.([]kv), 1, false)
		buf.WriteByte('\n')
	default:
		fmt.Fprintf(buf, "%s%s = ", ind, f.k)
		bpValue(buf, f.v, 1)
		buf.WriteByte('\n')
	}
}

// bpBlock writes a block (spec, metadata) or, with object, an object
// value, whose entries the official parser wants separated by commas.
func bpBlock(buf *bytes.Buffer, m []kv, depth int, object bool) {
	ind := strings.Repeat("    ", depth+1)
	buf.WriteString("{\n")
	for i, e := range m {
		buf.WriteString(ind + e.k + " = ")
		bpValue(buf, e.v, depth+1)
		if object && i < len(m)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString(strings.Repeat("    ", depth) + "}")
}

func bpValue(buf *bytes.Buffer, v any, depth int) {
	switch v := v.(type) {
	case []kv:
		bpBlock(buf, v, depth, true)
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteString(", ")
			}
			bpValue(buf, e, depth)
		}
		buf.WriteByte(']')
	case string:
		if strings.Contains(v, "\n") {
			ind := strings.Repeat("    ", depth+1)
			buf.WriteString("\"\"\"\n")
			for _, line := range strings.Split(strings.TrimSuffix(v, "\n"), "\n") {
				buf.WriteString(ind + line + "\n")
			}
			buf.WriteString(ind + "\"\"\"")
			return
		}
		bpString(buf, v)
	default:
		fmt.Fprint(buf, v)
	}
}

// bpString writes a one-line string: a quote outside ${..} is escaped,
// one inside is the substitution's own.
func bpString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$' && i+1 < len(s) && s[i+1] == '{':
			depth++
			buf.WriteString("${")
			i++
			continue
		case c == '}' && depth > 0:
			depth--
		case c == '"' && depth == 0:
			buf.WriteString(`\"`)
			continue
		}
		buf.WriteByte(s[i])
	}
	buf.WriteByte('"')
}
