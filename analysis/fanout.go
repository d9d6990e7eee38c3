package analysis

import (
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
	"github.com/blueprint-ls/blueprint-ls/types"
)

// The cold analysis's fan-out (issue 36). A whole analysis (no previous
// version) parses the templates of every resource's sites, validates
// every resource's spec against the registry and resolves every
// linkSelector; these depend on nothing but the resources' own nodes,
// the symbols declare made and the registry, which is safe for
// concurrent use. fanOut runs them on bounded pools of workers, chunk by
// chunk of resources, into results that the sequential passes then
// consume in symbol order: what a Result holds, diagnostics in their
// order included, is what a sequential run gives
// (TestFanOutEqualsSequential). Incremental analyses touch a few units
// and never fan out.
//
// The stages are ordered by when the sequential passes need them. The
// parse starts before declare (it reads only the typed view) on every
// core, and collectSites takes each chunk as soon as it is parsed. The
// validation and the link selection start when the parse is done, on
// one core fewer: the sequential passes (checking the sites, then
// checkResources and resolveLinks, which take their results) keep the
// other. Each chunk's validation and the link selection are claimed by
// whoever comes first: the workers take the chunks from the first, and
// the main goroutine, rather than wait for a chunk the workers have not
// finished, validates the unclaimed ones from the last (helpValidate)
// and selects the links itself when no worker has begun to. Who does a
// task changes nothing of its result, which is the chunk's own.

// fanOutMin is the number of resources from which a whole analysis fans
// out, fanOutChunk the fewest resources one task takes (a document is
// cut into about four tasks per worker: each task's slabs are blocks of
// their own); tests lower both.
var (
	fanOutMin   = 512
	fanOutChunk = 256
)

// fanOutLater is how many workers validate the specs and select the
// links once the parse is done: one core fewer than the parse. Tests
// make it 0, leaving every task to the main goroutine.
var fanOutLater = func() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// loadWhole is schema.Load of the document of a whole analysis: on two
// cores (schema.LoadBeside, the keys walked beside the typed view) when
// it has enough resources to fan out, since the typed view is built
// before anything else can start.
func loadWhole(f *schema.File) (*schema.Blueprint, []source.Diagnostic) {
	if schema.ResourceCount(f) < fanOutMin {
		return schema.Load(f)
	}
	return schema.LoadBeside(f, func(walk func()) func() {
		var wg conc.WaitGroup
		wg.Go(walk)
		return wg.Wait
	})
}

// parsedSite is a site found and parsed ahead of collection.
type parsedSite struct {
	kind   SiteKind
	scalar *schema.Scalar
	t      *subst.Template
}

// resourceChunk holds what the fan-out found for resources [lo, hi).
type resourceChunk struct {
	lo, hi int
	// sites are the chunk's resources' sites in collection order; ends[k]
	// is where resource lo+k's end.
	sites []parsedSite
	ends  []int32
	// slabs are where the chunk's templates were carved from, maps
	// the offset map of the one being parsed.
	slabs subst.Mover
	maps  mapScratch
	// spec[k] are resource lo+k's spec diagnostics (nil: none, or not
	// validated here).
	spec [][]source.Diagnostic
	// wants are the sites of the chunk's specs whose field has a known
	// type, in checkSpecSubstitutions' order; wantEnds[k] is where
	// resource lo+k's end. made[j] is the Site collectResources made of
	// sites[j].
	wants    []specWant
	wantEnds []int32
	made     []*Site
	// parsed and validated are closed when the chunk's tasks end; the
	// tasks set parseOK and validateOK last, so that false means the
	// task panicked (the fan-out's wait raises the panic).
	parsed, validated   chan struct{}
	parseOK, validateOK bool
	// claimed is set by whoever validates the chunk (validateChunk).
	claimed atomic.Bool
}

// specWant is a substitution site of a spec whose field has a known
// type: what checkSpecSubstitutions checks the site's type against.
type specWant struct {
	site int32 // in the chunk's sites
	want types.Type
}

// linkSelection is what resolveLinks finds for the resources of a whole
// analysis: the label index and each resource's records (declRecs), by
// its place in the resources' block, its selection's diagnostics
// reported by no one yet.
type linkSelection struct {
	labels map[[2]string][]int
	decl   []*declRecs
}

// fanOut is the running fan-out of one whole analysis.
type fanOut struct {
	rs     []*schema.Resource
	chunks []*resourceChunk
	chunk  int // resources per chunk
	// parse parses the chunks' sites; later runs, once every chunk is
	// parsed, the validation and the link selection (checks: startChecks
	// started them).
	parse  *pool.Pool
	later  conc.WaitGroup
	checks bool
	rtypes []*registry.ResourceType // by place in rs, for the validation
	links  *linkSelection
	linked chan struct{}
	// linksClaimed is set by whoever selects the links (selectLinks).
	linksClaimed atomic.Bool
	// A pool is waited for once: this says whose wait is over.
	parseDone, laterDone bool
}

// startFanOut starts the parsing of the sites of a whole analysis with
// enough resources, which collectSites takes chunk by chunk. Nil when
// the analysis does not fan out.
func (a *analyzer) startFanOut() *fanOut {
	if a.reuse != nil || a.ctx.Err() != nil {
		return nil // before Items, which joins the section's chunks
	}
	rs := a.bp.Resources.Items()
	if len(rs) < fanOutMin {
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	f := &fanOut{rs: rs, chunk: max(fanOutChunk, (len(rs)+4*workers-1)/(4*workers))}
	for lo := 0; lo < len(rs); lo += f.chunk {
		f.chunks = append(f.chunks, &resourceChunk{lo: lo, hi: min(lo+f.chunk, len(rs)),
			parsed: make(chan struct{}), validated: make(chan struct{})})
	}
	f.parse = pool.New().WithMaxGoroutines(workers)
	for _, c := range f.chunks {
		f.parse.Go(func() {
			defer close(c.parsed)
			c.parseSites(a, rs)
			c.parseOK = true
		})
	}
	return f
}

// startChecks starts, after declare, the validation of the specs and the
// link selection, to run once the parse is done.
func (f *fanOut) startChecks(a *analyzer) {
	if f == nil {
		return
	}
	blk := a.blocks[ResourceSymbol]
	// The symbols of the resources are declared in order, one per
	// resource (declare): symbol blk.lo+k is resource k.
	if blk.hi-blk.lo != len(f.rs) {
		return
	}
	f.checks = true
	f.rtypes = make([]*registry.ResourceType, len(f.rs))
	for k := range f.rs {
		f.rtypes[k] = a.rtypes.At(blk.lo + k)
	}
	f.linked = make(chan struct{})
	f.later.Go(func() {
		for _, c := range f.chunks {
			<-c.parsed
		}
		p := pool.New()
		for range fanOutLater() {
			p.Go(func() {
				for _, c := range f.chunks {
					f.validateChunk(a, c)
				}
				f.selectLinks(a)
			})
		}
		p.Wait()
	})
}

// validateChunk validates chunk c unless another goroutine claimed it.
func (f *fanOut) validateChunk(a *analyzer, c *resourceChunk) {
	if !c.claimed.CompareAndSwap(false, true) {
		return
	}
	defer close(c.validated)
	c.validate(a, f.rs, f.rtypes)
	c.validateOK = true
}

// selectLinks makes the link selection unless another goroutine claimed
// it.
func (f *fanOut) selectLinks(a *analyzer) {
	if !f.linksClaimed.CompareAndSwap(false, true) {
		return
	}
	defer close(f.linked)
	f.links = a.selectAllLinks()
}

// helpValidate is the main goroutine's turn when chunk c, which it
// needs, is not validated yet: it validates the chunks no worker has
// claimed, from the last back to c, the workers meanwhile going on from
// the first; then it waits for c. The main goroutine needs the chunks
// in order, so what it takes from the end is what it would have waited
// for last.
func (f *fanOut) helpValidate(a *analyzer, c *resourceChunk) {
	select {
	case <-c.validated:
	default:
		for j := len(f.chunks) - 1; j >= 0 && f.chunks[j] != c; j-- {
			f.validateChunk(a, f.chunks[j])
		}
		f.validateChunk(a, c)
		<-c.validated
	}
	if !c.validateOK {
		f.raise()
	}
}

// awaitParsed waits for chunk c's parse.
func (f *fanOut) awaitParsed(c *resourceChunk) {
	<-c.parsed
	if !c.parseOK {
		f.raise()
	}
}

// raise waits for every task, which raises the panic of one that
// failed; a failed task always has one.
func (f *fanOut) raise() {
	f.wait()
	panic("analysis: a fan-out task ended without finishing")
}

// wait waits for every task, parsing, validation and link selection.
func (f *fanOut) wait() {
	if f == nil {
		return
	}
	if !f.parseDone {
		f.parseDone = true
		f.parse.Wait()
	}
	if !f.laterDone {
		f.laterDone = true
		f.later.Wait()
	}
}

// parseSites finds and parses the sites of the chunk's resources, as
// collectResource would one by one.
func (c *resourceChunk) parseSites(a *analyzer, rs []*schema.Resource) {
	opts := subst.Options{Mapper: a.res.File.Mapper, Slabs: &c.slabs}
	c.ends = make([]int32, 0, c.hi-c.lo)
	for _, r := range rs[c.lo:c.hi] {
		if a.ctx.Err() == nil {
			resourceSites(r, func(kind SiteKind, n *schema.Scalar) {
				c.sites = append(c.sites, parsedSite{kind, n, c.maps.parse(n, opts)})
			})
		}
		c.ends = append(c.ends, int32(len(c.sites)))
	}
}

// validate validates the spec of each of the chunk's resources whose
// type the registry knows, as checkResources would, and finds their
// sites' field types (specWants); it reads the chunk's parsed sites.
func (c *resourceChunk) validate(a *analyzer, rs []*schema.Resource, rtypes []*registry.ResourceType) {
	c.spec = make([][]source.Diagnostic, c.hi-c.lo)
	c.wantEnds = make([]int32, c.hi-c.lo)
	// At most one want per site: sized once rather than grown.
	c.wants = make([]specWant, 0, len(c.sites))
	path := make([]string, 0, 16)
	start := int32(0)
	for k := c.lo; k < c.hi; k++ {
		end := c.ends[k-c.lo]
		if rt, r := rtypes[k], rs[k]; rt != nil && rt.Err == nil && r.Type != nil && a.ctx.Err() == nil {
			if spec := r.Spec.Node(); spec != nil {
				c.spec[k-c.lo] = rt.ValidateSpec(spec, r.Spec.KeyRange())
				w := wantFinder{c: c, rt: rt, lo: start, next: start, end: end}
				w.walk(spec, path)
			}
		}
		c.wantEnds[k-c.lo] = int32(len(c.wants))
		start = end
	}
}

// wantFinder walks a spec as checkSpecSubstitutions does, adding a
// specWant for each site whose field's type is known; the resource's
// sites are the chunk's [lo, end), in document order as the walk meets
// them (next: where to look first).
type wantFinder struct {
	c             *resourceChunk
	rt            *registry.ResourceType
	lo, next, end int32
}

func (w *wantFinder) walk(n schema.Node, path []string) {
	switch n := n.(type) {
	case *schema.Mapping:
		for _, e := range n.Entries {
			if e.Key != nil && e.Value != nil {
				w.walk(e.Value, append(path, e.Key.Value))
			}
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			w.walk(it, append(path, "*"))
		}
	case *schema.Scalar:
		if len(path) == 0 || !n.IsString() || !strings.Contains(n.Value, "${") {
			return
		}
		j := w.site(n)
		if j < 0 {
			return
		}
		want, ok := w.rt.SpecFieldType(path)
		if !ok || want == nil || types.IsUnknownOrAny(want) {
			return
		}
		w.c.wants = append(w.c.wants, specWant{site: j, want: want})
	}
}

// site returns the index of n's site among the resource's, or -1.
func (w *wantFinder) site(n *schema.Scalar) int32 {
	for _, r := range [2][2]int32{{w.next, w.end}, {w.lo, w.next}} {
		for j := r[0]; j < r[1]; j++ {
			if w.c.sites[j].scalar == n {
				w.next = j + 1
				return j
			}
		}
	}
	return -1
}

// collectResources adds the sites the fan-out parsed, resource by
// resource in order, as collectResource would have, each chunk as soon
// as it is parsed.
func (a *analyzer) collectResources(f *fanOut) {
	rs := f.rs
	for _, c := range f.chunks {
		f.awaitParsed(c)
		c.made = make([]*Site, len(c.sites))
		start := int32(0)
		held := make([]*Site, len(c.sites))
		for k := c.lo; k < c.hi; k++ {
			owner := a.owner(ResourceSymbol, k, rs[k].Name)
			end := c.ends[k-c.lo]
			if u := a.recsOf(owner); end > start && cap(u.sites) == 0 {
				// The unit's sites at their final size, from one array
				// per chunk, rather than grown one site at a time (a
				// unit already holding sites, a name declared twice,
				// grows as before).
				u.sites = held[start:start:end]
			}
			for j := start; j < end; j++ {
				p := c.sites[j]
				a.diags = append(a.diags, p.t.Diagnostics()...)
				c.made[j] = a.parsedSite(p.kind, p.scalar, p.t, owner)
			}
			start = end
		}
	}
}

// specDiagnostics returns resource symbol i's spec diagnostics, from the
// fan-out when it validated them.
func (a *analyzer) specDiagnostics(i int, rt *registry.ResourceType, r *schema.Resource, spec schema.Node) []source.Diagnostic {
	if f := a.fan; f != nil && f.checks {
		k := i - a.blocks[ResourceSymbol].lo
		c := f.chunks[k/f.chunk]
		f.helpValidate(a, c)
		return c.spec[k-c.lo]
	}
	return rt.ValidateSpec(spec, r.Spec.KeyRange())
}

// fannedSpecSubstitutions does checkSpecSubstitutions' work for
// resource symbol i, whose spec is spec, with the field types the
// fan-out found; false when it found none (the caller walks the spec).
// specDiagnostics waited for the resource's chunk.
func (a *analyzer) fannedSpecSubstitutions(i int, spec schema.Node) bool {
	f := a.fan
	if f == nil || !f.checks {
		return false
	}
	k := i - a.blocks[ResourceSymbol].lo
	c := f.chunks[k/f.chunk]
	lo := int32(0)
	if k > c.lo {
		lo = c.wantEnds[k-c.lo-1]
	}
	for _, w := range c.wants[lo:c.wantEnds[k-c.lo]] {
		site := c.made[w.site]
		a.checkSpecSite(site, w.want, func() []string { return specPath(spec, site.Scalar) })
	}
	return true
}

// specPath returns the path checkSpecSubstitutions walks to scalar n of
// spec (keys, "*" for items).
func specPath(spec schema.Node, n *schema.Scalar) []string {
	var path []string
	var walk func(schema.Node) bool
	walk = func(m schema.Node) bool {
		switch m := m.(type) {
		case *schema.Mapping:
			for _, e := range m.Entries {
				if e.Key != nil && e.Value != nil {
					path = append(path, e.Key.Value)
					if walk(e.Value) {
						return true
					}
					path = path[:len(path)-1]
				}
			}
		case *schema.Sequence:
			for _, it := range m.Items {
				path = append(path, "*")
				if walk(it) {
					return true
				}
				path = path[:len(path)-1]
			}
		case *schema.Scalar:
			return m == n
		}
		return false
	}
	walk(spec)
	return path
}

// linkSelection returns the link selection of a whole analysis, from the
// fan-out when it made it.
func (a *analyzer) linkSelection() *linkSelection {
	if f := a.fan; f != nil && f.checks {
		f.selectLinks(a)
		<-f.linked
		if f.links == nil {
			f.raise()
		}
		return f.links
	}
	return a.selectAllLinks()
}
