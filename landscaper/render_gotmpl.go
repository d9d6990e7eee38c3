package landscaper

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	gotemplate "text/template"
	"text/template/parse"
	"time"

	"github.com/Masterminds/sprig/v3"
	"go.yaml.in/yaml/v3"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// notEvaluated is a template function render does not run: it would
// need a component descriptor or reach a cluster.
type notEvaluated struct{ fn, why string }

func (e *notEvaluated) Error() string { return fmt.Sprintf("%s is not evaluated: %s", e.fn, e.why) }

var (
	errTooLong  = errors.New("stopped: the template ran past its time budget")
	errTooLarge = errors.New("stopped: the template's output passed its size budget")
	errTooDeep  = fmt.Errorf("stopped: a value of the template is nested more than %d levels deep", maxValueDepth)
)

// maxIncludeDepth bounds include within include.
const maxIncludeDepth = 16

// maxSequence bounds the lists until, untilStep and seq build.
const maxSequence = 1 << 20

// goTemplate runs a GoTemplate as Landscaper does (missingkey=zero), with
// a time and an output budget. A run past its time is abandoned: every
// write and function call it makes afterwards fails, which ends it.
func (r *renderer) goTemplate(text string, binding map[string]any) (string, error) {
	var stop atomic.Bool
	w := &budgetWriter{max: r.opts.MaxOutput, stop: &stop}
	type result struct{ err error }
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{fmt.Errorf("the template failed: %v", p)}
			}
		}()
		done <- result{r.executeTemplate(text, binding, w, &stop, 0)}
	}()
	timer := time.NewTimer(r.opts.Timeout)
	defer timer.Stop()
	select {
	case res := <-done:
		if res.err != nil {
			return "", unwrapBudget(res.err)
		}
		return w.buf.String(), nil
	case <-timer.C:
		stop.Store(true)
		return "", fmt.Errorf("%w (%v)", errTooLong, r.opts.Timeout)
	}
}

// unwrapBudget words a budget error plainly, keeps a function render
// does not evaluate as itself, and leaves others as text/template says.
func unwrapBudget(err error) error {
	var ne *notEvaluated
	switch {
	case errors.As(err, &ne):
		return ne
	case errors.Is(err, errTooLarge):
		return errTooLarge
	case errors.Is(err, errTooLong):
		return errTooLong
	case errors.Is(err, errTooDeep):
		return errTooDeep
	}
	return err
}

func (r *renderer) executeTemplate(text string, binding any, w *budgetWriter, stop *atomic.Bool, depth int) error {
	if trees, err := parseTemplate(text); err == nil {
		if n := hugeRange(trees); n != "" {
			return fmt.Errorf("refused: range over %s exceeds the size budget", n)
		}
	}
	t, err := gotemplate.New("execution").Funcs(r.funcs(w, stop, depth)).Option("missingkey=zero").Parse(text)
	if err != nil {
		return err
	}
	addTicks(t)
	return t.Execute(w, binding)
}

// hugeRange names a range over an integer literal past maxSequence.
func hugeRange(trees map[string]*parse.Tree) string {
	found := ""
	for _, tr := range trees {
		walkTemplate(tr.Root, func(n parse.Node) {
			if rn, ok := n.(*parse.RangeNode); ok && rn.Pipe != nil && len(rn.Pipe.Cmds) == 1 && len(rn.Pipe.Cmds[0].Args) == 1 {
				if num, ok := rn.Pipe.Cmds[0].Args[0].(*parse.NumberNode); ok && num.IsInt && num.Int64 > maxSequence {
					found = num.Text
				}
			}
		})
	}
	return found
}

// funcs are sprig's functions without env and expandenv, and
// Landscaper's: those of the blueprint's folder run; those needing a
// component descriptor or a cluster are not evaluated. Every function
// fails once the run is stopped.
func (r *renderer) funcs(w *budgetWriter, stop *atomic.Bool, depth int) gotemplate.FuncMap {
	fm := gotemplate.FuncMap{}
	for k, v := range sprig.TxtFuncMap() {
		if !removedFuncs[k] {
			fm[k] = v
		}
	}
	capSequences(fm)
	// text/template's own text builders are not in the function map, so
	// the guard below would not see them: they are put there, as the
	// same functions, to be guarded like sprig's.
	fm["print"] = fmt.Sprint
	fm["printf"] = fmt.Sprintf
	fm["println"] = fmt.Sprintln
	fm["html"] = gotemplate.HTMLEscaper
	fm["js"] = gotemplate.JSEscaper
	fm["urlquery"] = gotemplate.URLQueryEscaper
	fm["include"] = func(name string, binding any) (string, error) {
		if depth >= maxIncludeDepth {
			return "", fmt.Errorf("include %q: more than %d includes deep", name, maxIncludeDepth)
		}
		data, err := r.readFile(name)
		if err != nil {
			return "", err
		}
		inner := &budgetWriter{max: w.max - w.buf.Len(), stop: stop}
		if err := r.executeTemplate(string(data), binding, inner, stop, depth+1); err != nil {
			return "", err
		}
		return inner.buf.String(), nil
	}
	fm["readFile"] = func(name string) ([]byte, error) { return r.readFile(name) }
	fm["readDir"] = r.readDir
	fm["toYaml"] = toYAML
	fm["fromYaml"] = fromYAML
	fm["parseOCIRef"] = parseOCIRef
	fm["ociRefRepo"] = func(ref string) string { return parseOCIRef(ref)[0] }
	fm["ociRefVersion"] = func(ref string) string { return parseOCIRef(ref)[1] }
	// Functions that return text give a marker in their place, so the
	// rest of the output renders; those that return objects stop the
	// execution (what the template reads from them cannot be known).
	const needsCD, needsCluster = "it reads the component descriptor, which render does not fetch", "it would reach a cluster"
	for _, name := range []string{"getResourceKey", "getResourceContent"} {
		fm[name] = r.marker(name, needsCD)
	}
	for _, name := range []string{"getShootAdminKubeconfig", "getServiceAccountKubeconfig", "getOidcKubeconfig"} {
		fm[name] = r.marker(name, needsCluster)
	}
	for _, name := range []string{"getResource", "getResources", "getComponent", "getRepositoryContext"} {
		fm[name] = refuse(name, needsCD)
	}
	for _, name := range []string{"getShootAdminKubeconfigWithExpirationTimestamp", "getServiceAccountKubeconfigWithExpirationTimestamp"} {
		fm[name] = refuse(name, needsCluster)
	}
	// A value may be larger than one execution's output (the imports
	// are), but not without bound.
	valueBudget := 16 * r.opts.MaxOutput
	for k, v := range fm {
		fm[k] = guard(k, v, stop, valueBudget)
	}
	fm[tickFunc] = tick(stop)
	return fm
}

// marker is a text function that is not evaluated: its result is a
// marker, and the render lists it as unknown.
func (r *renderer) marker(name, why string) func(...any) string {
	return func(...any) string {
		r.mu.Lock()
		r.calls = append(r.calls, fmt.Sprintf("%s is not evaluated: %s", name, why))
		r.mu.Unlock()
		return unknownPrefix + name + ">"
	}
}

// refuse is a function that is not evaluated.
func refuse(name, why string) func(...any) (any, error) {
	return func(...any) (any, error) { return nil, &notEvaluated{fn: name, why: why} }
}

// guard wraps fn, the function name, so that it fails once stop is set
// and whenever its arguments or its result are larger than max bytes
// (see checkSize).
func guard(name string, fn any, stop *atomic.Bool, max int) any {
	v := reflect.ValueOf(fn)
	t := v.Type()
	return reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		if stop.Load() {
			panic(errTooLong)
		}
		checkSize(name, args, max)
		var out []reflect.Value
		if t.IsVariadic() {
			out = v.CallSlice(args)
		} else {
			out = v.Call(args)
		}
		checkResult(out, max)
		return out
	}).Interface()
}

// capSequences makes until, untilStep and seq refuse a list longer than
// maxSequence before building it.
func capSequences(fm gotemplate.FuncMap) {
	check := func(start, stop, step int) {
		if step == 0 {
			step = 1
		}
		if n := (stop - start) / step; n > maxSequence || n < -maxSequence {
			panic(errTooLarge)
		}
	}
	if until, ok := fm["until"].(func(int) []int); ok {
		fm["until"] = func(n int) []int { check(0, n, 1); return until(n) }
	}
	if untilStep, ok := fm["untilStep"].(func(int, int, int) []int); ok {
		fm["untilStep"] = func(a, b, c int) []int { check(a, b, c); return untilStep(a, b, c) }
	}
	if seq, ok := fm["seq"].(func(...int) string); ok {
		fm["seq"] = func(p ...int) string {
			switch len(p) {
			case 1:
				check(1, p[0], 1)
			case 2:
				check(p[0], p[1], 1)
			case 3:
				check(p[0], p[2], p[1])
			}
			return seq(p...)
		}
	}
}

// budgetWriter collects output up to max bytes; it fails once the run is
// stopped.
type budgetWriter struct {
	buf  bytes.Buffer
	max  int
	stop *atomic.Bool
}

func (w *budgetWriter) Write(p []byte) (int, error) {
	if w.stop.Load() {
		return 0, errTooLong
	}
	if w.buf.Len()+len(p) > w.max {
		return 0, errTooLarge
	}
	return w.buf.Write(p)
}

// readFile reads a file of the blueprint's folder, never outside it.
func (r *renderer) readFile(name string) ([]byte, error) {
	if r.c.roots == nil || escapes(name) {
		return nil, fmt.Errorf("%q is outside the blueprint's folder", name)
	}
	return r.c.roots.ReadFile(r.c.pathOf(name), r.c.opts.Limit)
}

// readDir lists a folder of the blueprint's folder.
func (r *renderer) readDir(name string) ([]fs.FileInfo, error) {
	if r.c.roots == nil || escapes(name) {
		return nil, fmt.Errorf("%q is outside the blueprint's folder", name)
	}
	p := r.c.pathOf(name)
	if err := r.c.roots.Check(p); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, err
	}
	var out []fs.FileInfo
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			out = append(out, info)
		}
	}
	return out, nil
}

// toYAML is Landscaper's toYaml: the value as YAML, without the final
// line break.
func toYAML(v any) (string, error) {
	data, err := yaml.Marshal(yamlValue(v))
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(data), "\n"), nil
}

// fromYAML is Landscaper's fromYaml.
func fromYAML(s string) (any, error) {
	f := syntax.Parse("fromYaml.yaml", []byte(s))
	if errs := f.SyntaxErrors(); len(errs) > 0 {
		return nil, errors.New(errs[0].Message)
	}
	return plain(Value(f.Root)), nil
}

// parseOCIRef splits an OCI reference into its repository and its
// version (tag or digest).
func parseOCIRef(ref string) [2]string {
	if i := strings.LastIndex(ref, "@"); i >= 0 {
		return [2]string{ref[:i], ref[i+1:]}
	}
	slash := strings.LastIndex(ref, "/")
	if i := strings.LastIndex(ref, ":"); i > slash {
		return [2]string{ref[:i], ref[i+1:]}
	}
	return [2]string{ref, ""}
}
