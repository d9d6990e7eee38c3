package funcs

import (
	"bytes"
	"fmt"
	"strings"
)

// Markdown renders the reference of every function in t: the source of
// docs/functions.md (regenerate with
// `go test ./funcs -run TestFunctionsDocFresh -update`).
func Markdown(t *Table) []byte {
	var b bytes.Buffer
	b.WriteString("# Core functions\n\n")
	b.WriteString("<!-- Generated from the function table in package funcs; do not edit.\n")
	b.WriteString("     Regenerate: go test ./funcs -run TestFunctionsDocFresh -update -->\n\n")
	b.WriteString("Every function of the `${..}` substitution language, with its signature,\n")
	b.WriteString("summary and examples. `T?` marks an optional parameter, `T...` one that\n")
	b.WriteString("repeats, `func<T>` a generic signature. Unless a function says otherwise,\n")
	b.WriteString("a `none` argument makes the result `none`, and an argument only known after\n")
	b.WriteString("deployment makes the result unknown too; the other arguments must still have\n")
	b.WriteString("the parameters' types. Only `object` reads argument names: elsewhere a named\n")
	b.WriteString("argument (`trim(value = x)`) is passed by position and its name ignored.\n\n")
	all := t.All()
	for _, f := range all {
		fmt.Fprintf(&b, "- [`%s`](#%s) — %s\n", f.Name, anchor(f.Name), f.Summary)
	}
	for _, f := range all {
		fmt.Fprintf(&b, "\n## %s\n\n", f.Name)
		fmt.Fprintf(&b, "```\n%s%s\n```\n\n", f.Name, strings.TrimPrefix(f.Signature.String(), "func"))
		b.WriteString(f.Summary)
		b.WriteString("\n\n")
		if len(f.Signature.Params) > 0 {
			b.WriteString("| parameter | type | |\n|---|---|---|\n")
			for i, p := range f.Signature.Params {
				typ := p.Type.String()
				if p.Optional {
					typ += "?"
				}
				if p.Variadic {
					typ += "..."
				}
				d := ""
				if i < len(f.ParamDocs) {
					d = f.ParamDocs[i]
				}
				fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", p.Name, strings.ReplaceAll(typ, "|", `\|`), strings.ReplaceAll(d, "|", `\|`))
			}
			b.WriteString("\n")
		}
		b.WriteString(f.Doc)
		b.WriteString("\n")
		if fl := f.FlagNames(); len(fl) > 0 {
			fmt.Fprintf(&b, "\n*%s.*\n", strings.Join(fl, ", "))
		}
		if len(f.Examples) > 0 {
			b.WriteString("\nExamples:\n\n```\n")
			for _, e := range f.Examples {
				line := e.Expr
				if !strings.Contains(line, "${") {
					line = "${" + line + "}"
				}
				var notes []string
				if e.Result != "" {
					notes = append(notes, "→ "+e.Result)
				}
				if e.Note != "" {
					notes = append(notes, e.Note)
				}
				if len(notes) > 0 {
					line += "  # " + strings.Join(notes, "; ")
				}
				b.WriteString(line)
				b.WriteString("\n")
			}
			b.WriteString("```\n")
		}
	}
	return b.Bytes()
}

func anchor(name string) string { return strings.ReplaceAll(name, " ", "-") }
