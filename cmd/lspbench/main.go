package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

type options struct {
	servers     []serverSpec
	sizes       []int
	clients     []string
	format      string
	edit        string
	edits       int
	completions int
	settle      time.Duration
	timeout     time.Duration
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(2)
	}
}

type serverFlags []serverSpec

func (f *serverFlags) String() string { return fmt.Sprint(len(*f)) }
func (f *serverFlags) Set(s string) error {
	spec, err := parseServer(s)
	if err != nil {
		return err
	}
	*f = append(*f, spec)
	return nil
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lspbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var servers serverFlags
	fs.Var(&servers, "server", "NAME=PATH[,ARG...]: a server to drive over stdio (repeat for several)")
	sizes := fs.String("sizes", "1000,5000", "resources per generated blueprint, comma-separated")
	clients := fs.String("clients", "pull,push", "client kinds: pull (textDocument/diagnostic) and/or push (publishDiagnostics)")
	format := fs.String("format", "yaml", "generated blueprint format: yaml, json or bp (the blueprint language)")
	edit := fs.String("edit", editExport, "where the edits break a reference: export (exports.envName, which every server checks) or resource (the middle resource's tags)")
	edits := fs.Int("edits", 10, "error-adding edits (each followed by the edit removing it) per run")
	completions := fs.Int("completions", 200, "completion requests per run")
	settle := fs.Duration("settle", 500*time.Millisecond, "pause before each edit, longer than any server's debounce, so each edit meets a quiet server")
	timeout := fs.Duration("timeout", 5*time.Minute, "longest wait for any one answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(servers) == 0 {
		return errors.New("no -server given")
	}
	o := options{servers: servers, format: *format, edit: *edit, edits: *edits, completions: *completions, settle: *settle, timeout: *timeout}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 2 {
			return fmt.Errorf("-sizes: %q is not a resource count of at least 2", s)
		}
		o.sizes = append(o.sizes, n)
	}
	for _, c := range strings.Split(*clients, ",") {
		if c != "pull" && c != "push" {
			return fmt.Errorf("-clients: %q is neither pull nor push", c)
		}
		o.clients = append(o.clients, c)
	}
	if o.format != "yaml" && o.format != "json" && o.format != "bp" {
		return fmt.Errorf("-format: %q is not yaml, json or bp", o.format)
	}
	var results []result
	for _, n := range o.sizes {
		doc, err := newDocument(n, o.format, o.edit)
		if err != nil {
			return err
		}
		for _, spec := range o.servers {
			for _, client := range o.clients {
				fmt.Fprintf(stderr, "%s, %d resources, %s client...\n", spec.name, n, client)
				r := measure(spec, client == "pull", doc, o)
				if r.err != nil {
					fmt.Fprintf(stderr, "  %v\n", r.err)
				}
				results = append(results, r)
			}
		}
	}
	writeTable(stdout, results)
	return nil
}

// document is a generated blueprint (spec version 2025-11-02, the one
// every server knows) and the place the edits go: a reference to the
// variable env, where inserting an X makes it the unknown variable envX
// and removing the X makes it whole again. Completion is asked after
// "${variables." in the middle resource.
type document struct {
	resources int
	name      string
	text      []byte
	broken    []byte // text with the X inserted
	line      int    // 0-based line of the edit
	col       int    // where the X goes (after "env")
	compLine  int    // where completion is asked
	compCol   int
}

// marker is the name the broken reference uses; every server's message
// about it names it.
const marker = "envX"

// edit places: where the reference to env that the edits break is.
const (
	editExport   = "export"   // exports.envName's field, the document's last entries
	editResource = "resource" // the middle resource's tags
)

func newDocument(n int, format, place string) (*document, error) {
	text := gen.Blueprint(n, format)
	d := &document{resources: n, name: "bench.blueprint." + format}
	if format == "bp" {
		d.name = "bench.bp"
	}
	for _, v := range []string{"version: '2023-04-20'", `"version": "2023-04-20"`, `version "2023-04-20"`} {
		if i := bytes.Index(text, []byte(v)); i >= 0 {
			text = bytes.Join([][]byte{text[:i], []byte(strings.Replace(v, "2023-04-20", "2025-11-02", 1)), text[i+len(v):]}, nil)
			d.text = text
		}
	}
	if d.text == nil {
		return nil, errors.New("generated blueprint: no version 2023-04-20 to move to 2025-11-02")
	}
	lines := strings.Split(string(text), "\n")
	mid := indexAfter(lines, "r"+strconv.Itoa(n/2), "${variables.env}")
	if mid < 0 {
		return nil, fmt.Errorf("generated blueprint of %d resources: no ${variables.env} in the middle resource", n)
	}
	d.compLine, d.compCol = mid, strings.Index(lines[mid], "${variables.env}")+len("${variables.")
	switch place {
	case editResource:
		d.line, d.col = mid, strings.Index(lines[mid], "${variables.env}")+len("${variables.env")
	case editExport:
		d.line = indexAfter(lines, "envName", "variables.env")
		if d.line < 0 {
			return nil, errors.New("generated blueprint: no export envName with field variables.env")
		}
		d.col = strings.Index(lines[d.line], "variables.env") + len("variables.env")
	default:
		return nil, fmt.Errorf("-edit: %q is neither %s nor %s", place, editExport, editResource)
	}
	lines[d.line] = lines[d.line][:d.col] + "X" + lines[d.line][d.col:]
	d.broken = []byte(strings.Join(lines, "\n"))
	return d, nil
}

// indexAfter returns the first line holding want after the line that
// declares key (a YAML or JSON key, or a blueprint-language declaration
// "resource key: type {"), or -1.
func indexAfter(lines []string, key, want string) int {
	found := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !found {
			found = strings.HasPrefix(t, key+":") || strings.HasPrefix(t, `"`+key+`":`) || strings.Contains(t, " "+key+": ")
			continue
		}
		if strings.Contains(l, want) {
			return i
		}
	}
	return -1
}

// mentions reports whether any diagnostic's message names the marker.
func mentions(ds []diagnostic) bool {
	for _, d := range ds {
		if strings.Contains(d.Message, marker) {
			return true
		}
	}
	return false
}

// result is one (server, size, client) run.
type result struct {
	server      string
	resources   int
	client      string
	skipped     string // why the run does not apply
	open        time.Duration
	openCPU     time.Duration // the server's CPU time over the open
	edits       []time.Duration
	completions []time.Duration
	items       int
	rss         int64
	err         error
}

func measure(spec serverSpec, pull bool, d *document, o options) (r result) {
	r = result{server: spec.name, resources: d.resources, client: "push"}
	if pull {
		r.client = "pull"
	}
	s, err := start(spec, pull, o.timeout)
	if err != nil {
		r.err = err
		return r
	}
	defer s.stop()
	if pull && !s.offers {
		r.skipped = "the server offers no pull diagnostics"
		return r
	}
	before, err := s.cpuTime()
	if err != nil {
		r.err = err
		return r
	}
	open, base, err := s.open(d.name, d.text, o.timeout)
	if err != nil {
		r.err = fmt.Errorf("opening: %w", err)
		return r
	}
	after, err := s.cpuTime()
	if err != nil {
		r.err = err
		return r
	}
	r.open, r.openCPU = open, after-before
	if mentions(base) {
		r.err = fmt.Errorf("the unedited blueprint already has a diagnostic naming %s", marker)
		return r
	}
	shows := mentions
	clean := func(ds []diagnostic) bool { return !mentions(ds) }
	for i := 0; i < o.edits; i++ {
		for _, step := range []struct {
			from, to int
			insert   string
			text     []byte
			want     func([]diagnostic) bool
		}{
			{d.col, d.col, "X", d.broken, shows},
			{d.col, d.col + 1, "", d.text, clean},
		} {
			time.Sleep(o.settle)
			s.c.drain()
			sent, err := s.edit(d.line, step.from, step.to, step.insert, step.text)
			if err != nil {
				r.err = err
				return r
			}
			_, at, err := s.diagnostics(step.want, o.timeout)
			if err != nil {
				r.err = fmt.Errorf("edit %d: %w", i+1, err)
				return r
			}
			r.edits = append(r.edits, at.Sub(sent))
		}
	}
	for i := 0; i < o.completions; i++ {
		lat, n, err := s.complete(d.compLine, d.compCol, o.timeout)
		if err != nil {
			r.err = err
			return r
		}
		r.completions = append(r.completions, lat)
		r.items = n
	}
	r.rss, r.err = s.peakRSS()
	return r
}

// percentile is the nearest-rank percentile p (0-100) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := int(p/100*float64(len(s))+0.999999) - 1
	if k < 0 {
		k = 0
	}
	if k >= len(s) {
		k = len(s) - 1
	}
	return s[k]
}

func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	if v < 1 {
		return strconv.FormatFloat(v, 'f', 2, 64) + " ms"
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
}

func writeTable(w io.Writer, rs []result) {
	fmt.Fprintln(w, "| server | resources | client | open → diagnostics | open CPU | edit → diagnostics, median | p95 | completion p50 | p95 | items | peak RSS |")
	fmt.Fprintln(w, "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		lead := fmt.Sprintf("| %s | %d | %s |", r.server, r.resources, r.client)
		switch {
		case r.skipped != "":
			fmt.Fprintf(w, "%s %s | | | | | | | |\n", lead, r.skipped)
		case r.err != nil:
			fmt.Fprintf(w, "%s failed: %s | | | | | | | |\n", lead, strings.ReplaceAll(r.err.Error(), "|", "/"))
		default:
			fmt.Fprintf(w, "%s %s | %s | %s | %s | %s | %s | %d | %.0f MiB |\n", lead, ms(r.open), ms(r.openCPU),
				ms(percentile(r.edits, 50)), ms(percentile(r.edits, 95)),
				ms(percentile(r.completions, 50)), ms(percentile(r.completions, 95)), r.items, float64(r.rss)/(1<<20))
		}
	}
}
