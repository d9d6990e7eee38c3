package landscaper

import (
	"reflect"
	"strings"
	"sync/atomic"
	gotemplate "text/template"
	"text/template/parse"
)

// A template run is stopped at its time budget by making every function
// call fail (guard) once the budget is spent. Two things escape that on
// their own: a loop that calls no function (nested ranges over a list or
// an integer, a template that includes itself), and a single call that
// builds one enormous value before it returns (repeat, indent, replace or
// join over large inputs). The first is closed by a tick call placed at
// the start of every range body and every template body; the second by
// sizing a call's arguments before it runs and its result after.

// tickFunc is the name of the hidden function that only checks the stop
// flag; it writes nothing.
const tickFunc = "blueprintLsTick"

// addTicks puts a call of tickFunc at the start of every template's body
// and every range body of t's templates, so that each loop iteration and
// each template call checks whether the run was stopped.
func addTicks(t *gotemplate.Template) {
	for _, tmpl := range t.Templates() {
		if tmpl.Tree == nil || tmpl.Tree.Root == nil {
			continue
		}
		root := tmpl.Tree.Root
		walkTemplate(root, func(n parse.Node) {
			if r, ok := n.(*parse.RangeNode); ok && r.List != nil {
				r.List.Nodes = append([]parse.Node{tickAction(tmpl.Tree, r.Position())}, r.List.Nodes...)
			}
		})
		root.Nodes = append([]parse.Node{tickAction(tmpl.Tree, root.Position())}, root.Nodes...)
	}
}

// tickAction is the action {{ blueprintLsTick }} at pos.
func tickAction(tr *parse.Tree, pos parse.Pos) *parse.ActionNode {
	ident := parse.NewIdentifier(tickFunc).SetTree(tr).SetPos(pos)
	cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{ident}}
	return &parse.ActionNode{NodeType: parse.NodeAction, Pos: pos, Pipe: &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{cmd}}}
}

// tick is tickFunc: it fails once the run is stopped and writes nothing.
func tick(stop *atomic.Bool) func() string {
	return func() string {
		if stop.Load() {
			panic(errTooLong)
		}
		return ""
	}
}

// amplifiers estimate, from the arguments, the size of what a function
// builds from a count or by repetition, before it builds it.
var amplifiers = map[string]func(args []reflect.Value) int{
	"repeat":       func(a []reflect.Value) int { return intArg(a, 0) * sizeArg(a, 1) },
	"indent":       indentSize,
	"nindent":      indentSize,
	"randAlpha":    countSize,
	"randAlphaNum": countSize,
	"randAscii":    countSize,
	"randNumeric":  countSize,
	// replace old new src: at most one replacement per byte of src (and
	// one more when old is empty).
	"replace":                func(a []reflect.Value) int { return (sizeArg(a, 2)+1)*(sizeArg(a, 1)+1) + sizeArg(a, 2) },
	"regexReplaceAll":        regexReplaceSize,
	"regexReplaceAllLiteral": regexReplaceSize,
	// join sep list: every element plus a separator each.
	"join": func(a []reflect.Value) int { return sizeArg(a, 1) + lenArg(a, 1)*sizeArg(a, 0) },
	// print and println print every argument as %v does, with spaces;
	// printf prints its verbs' arguments, padded to their widths.
	"print":   printSize(1),
	"println": printSize(1),
	"printf":  printfSize,
	// The escapers print their arguments and escape every byte at
	// worst (js: \uXXXX; html: &#34;; urlquery: %XX).
	"html":     printSize(6),
	"js":       printSize(6),
	"urlquery": printSize(6),
}

// maxWidth is the largest width or precision fmt honours (a larger one
// prints %!(BADWIDTH) or %!(BADPREC)).
const maxWidth = 1e6

// printSize estimates the size of the arguments printed with %v, each
// byte escaped into at most factor bytes.
func printSize(factor int) func(a []reflect.Value) int {
	return func(a []reflect.Value) int {
		n := 0
		for _, v := range a {
			n = saturatingAdd(n, printedSize(v)+1)
		}
		return saturatingMul(n, factor)
	}
}

// printfSize estimates printf's result from its format: each verb prints
// its argument (hex and quoting at most four bytes a byte) padded to its
// width and precision, which fmt caps at maxWidth.
func printfSize(a []reflect.Value) int {
	if len(a) == 0 {
		return 0
	}
	format := unwrap(a[0])
	if format.Kind() != reflect.String {
		return printSize(1)(a)
	}
	f, args := format.String(), spread(a[1:])
	total, arg := len(f), 0
	// number reads a width or precision at i: digits, or * taking the
	// next argument.
	number := func(i int) (int, int) {
		if i < len(f) && f[i] == '*' {
			n := 0
			if arg < len(args) {
				n = min(intArg(args, arg), maxWidth)
			}
			arg++
			return n, i + 1
		}
		n := 0
		for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
			n = min(n*10+int(f[i]-'0'), maxWidth+1)
		}
		return n, i
	}
	// index reads an explicit argument index [n] at i.
	index := func(i int) int {
		if i < len(f) && f[i] == '[' {
			j := i + 1
			n := 0
			for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
				n = min(n*10+int(f[j]-'0'), len(args)+1)
			}
			if j < len(f) && f[j] == ']' {
				arg = n - 1
				return j + 1
			}
		}
		return i
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("+-# 0", f[i]) >= 0 {
			i++
		}
		i = index(i)
		var width, prec int
		width, i = number(i)
		if i < len(f) && f[i] == '.' {
			i = index(i + 1)
			prec, i = number(i)
		}
		i = index(i)
		if i >= len(f) {
			break
		}
		if f[i] == '%' {
			continue
		}
		n := 0
		if arg >= 0 && arg < len(args) {
			n = printedSize(args[arg])
			if strings.IndexByte("qxXU", f[i]) >= 0 {
				n = saturatingMul(n, 4)
			}
		}
		arg++
		// A bad verb or argument prints %!verb(type=value).
		total = saturatingAdd(total, saturatingAdd(width+prec+64, n))
	}
	for ; arg < len(args); arg++ {
		total = saturatingAdd(total, printedSize(args[arg])+64)
	}
	return total
}

// spread is the arguments of a variadic call, which reach the guard as
// one list.
func spread(a []reflect.Value) []reflect.Value {
	if len(a) != 1 || a[0].Kind() != reflect.Slice || a[0].Type().Elem().Kind() != reflect.Interface {
		return a
	}
	out := make([]reflect.Value, a[0].Len())
	for i := range out {
		out[i] = a[0].Index(i)
	}
	return out
}

// printedSize is, at most, the length of v printed with %v or %#v: its
// strings quoted, every other value at most 24 bytes (a number, true or
// false), a list or mapping its type and a separator per element.
func printedSize(v reflect.Value) int {
	size := 0
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > maxValueDepth {
			size = saturatingAdd(size, 24)
			return
		}
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), depth+1)
			} else {
				size = saturatingAdd(size, 24)
			}
		case reflect.String:
			size = saturatingAdd(size, v.Len()+2)
		case reflect.Slice, reflect.Array:
			size = saturatingAdd(size, 32)
			if v.Type().Elem().Kind() == reflect.Uint8 {
				size = saturatingAdd(size, saturatingMul(v.Len(), 4))
				return
			}
			for i := 0; i < v.Len() && size < int(^uint32(0)); i++ {
				size = saturatingAdd(size, 2)
				walk(v.Index(i), depth+1)
			}
		case reflect.Map:
			size = saturatingAdd(size, 32)
			it := v.MapRange()
			for it.Next() && size < int(^uint32(0)) {
				size = saturatingAdd(size, 2)
				walk(it.Key(), depth+1)
				walk(it.Value(), depth+1)
			}
		case reflect.Invalid:
			size = saturatingAdd(size, 8)
		default:
			size = saturatingAdd(size, 24)
		}
	}
	walk(v, 0)
	return size
}

func saturatingMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > int(^uint(0)>>1)/b {
		return int(^uint(0) >> 1)
	}
	return a * b
}

// indentSize: indent n text puts n spaces before every line of text.
func indentSize(a []reflect.Value) int { return (intArg(a, 0) + 1) * (sizeArg(a, 1) + 1) }

// countSize: the function builds a string of its count argument's length.
func countSize(a []reflect.Value) int { return intArg(a, 0) }

// regexReplaceSize: regexReplaceAll re src repl matches at most once per
// byte of src (an empty match at every byte).
func regexReplaceSize(a []reflect.Value) int {
	return (sizeArg(a, 1)+1)*(sizeArg(a, 2)+1) + sizeArg(a, 1)
}

// checkSize fails a call of fn whose arguments, or whose estimated result,
// are larger than max bytes; it stops a single call from allocating
// without bound. Arguments are sized by what they hold (a list of a
// thousand references to one string counts the string a thousand times),
// so joining or printing them is bounded too.
func checkSize(name string, args []reflect.Value, max int) {
	total := 0
	for _, a := range args {
		total = saturatingAdd(total, deepSize(a, max-total))
		if total > max {
			panic(errTooLarge)
		}
	}
	if est, ok := amplifiers[name]; ok && est(args) > max {
		panic(errTooLarge)
	}
}

// checkResult fails a call whose result is larger than max bytes (a
// string built by doubling stops at the first call past the budget).
func checkResult(results []reflect.Value, max int) {
	for _, r := range results {
		if deepSize(r, max) > max {
			panic(errTooLarge)
		}
	}
}

// maxValueDepth bounds how deeply a value a template function takes or
// returns may nest (counting the interfaces between a list and its
// items): a list wrapped in a list in a loop nests without bound, and
// printing it (toYaml, toPrettyJson) takes memory and stack with its
// depth. A value that includes itself (set $d "self" $d) is cut here too.
const maxValueDepth = 1000

// deepSize is the size in bytes of what v holds, counting each string's
// length and one byte per other value, each element of a list or map as
// often as it is referenced; it stops counting past limit.
func deepSize(v reflect.Value, limit int) int {
	size := 0
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > maxValueDepth {
			panic(errTooDeep)
		}
		if size > limit {
			size = saturatingAdd(size, 1)
			return
		}
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), depth+1)
			}
		case reflect.String:
			size = saturatingAdd(size, v.Len())
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				size = saturatingAdd(size, v.Len())
				return
			}
			for i := 0; i < v.Len() && size <= limit; i++ {
				walk(v.Index(i), depth+1)
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() && size <= limit {
				walk(it.Key(), depth+1)
				walk(it.Value(), depth+1)
			}
		case reflect.Invalid:
		default:
			size = saturatingAdd(size, 1)
		}
	}
	walk(v, 0)
	return size
}

func saturatingAdd(a, b int) int {
	if s := a + b; s >= a && s >= b {
		return s
	}
	return int(^uint(0) >> 1)
}

// intArg is the integer argument i (0 when it is not an integer; a
// negative count builds nothing).
func intArg(args []reflect.Value, i int) int {
	if i >= len(args) {
		return 0
	}
	v := unwrap(args[i])
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n := v.Int(); n > 0 {
			return int(min(n, int64(^uint32(0))))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int(min(v.Uint(), uint64(^uint32(0))))
	}
	return 0
}

// sizeArg is deepSize of argument i.
func sizeArg(args []reflect.Value, i int) int {
	if i >= len(args) {
		return 0
	}
	return deepSize(args[i], int(^uint32(0)))
}

// lenArg is the number of elements of argument i when it is a list.
func lenArg(args []reflect.Value, i int) int {
	if i >= len(args) {
		return 0
	}
	v := unwrap(args[i])
	if v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
		return v.Len()
	}
	return 0
}

// unwrap is the value an interface argument holds.
func unwrap(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	return v
}
