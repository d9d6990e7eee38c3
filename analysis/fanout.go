package analysis

import (
	"runtime"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"

	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// The cold analysis's fan-out (issue 36). A whole analysis (no previous
// version) parses the templates of every resource's sites and validates
// every resource's spec against the registry; both depend on nothing but
// the resource's own nodes and the registry, which is safe for
// concurrent use. fanOut runs them on a bounded pool of workers, chunk by
// chunk of resources, into per-chunk results that the sequential passes
// then consume in symbol order: what a Result holds, diagnostics in
// their order included, is what a sequential run gives
// (TestFanOutEqualsSequential). Incremental analyses touch a few units
// and never fan out.

// fanOutMin is the number of resources from which a whole analysis fans
// out, fanOutChunk the fewest resources one task takes (a document is
// cut into about four tasks per worker: each task's slabs are blocks of
// their own); tests lower both.
var (
	fanOutMin   = 512
	fanOutChunk = 256
)

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
	// slabs are where the chunk's templates were carved from.
	slabs subst.Mover
	// spec[k] are resource lo+k's spec diagnostics (nil: none, or not
	// validated here).
	spec [][]source.Diagnostic
}

// fanOut is the running fan-out of one whole analysis.
type fanOut struct {
	chunks []*resourceChunk
	chunk  int // resources per chunk
	// parsed finishes when every chunk's sites are parsed, validated when
	// every spec is.
	parsed, validated *pool.Pool
	specs             conc.WaitGroup
	// A pool is waited for once: these say whose wait is over.
	parsedDone, specsDone bool
}

// startFanOut starts the fan-out of a whole analysis with enough
// resources: the spec validation in the background at once (nothing
// before checkResources reads it) and the parsing of sites, which
// collectSites waits for. Nil when the analysis does not fan out.
func (a *analyzer) startFanOut() *fanOut {
	if a.reuse != nil || a.ctx.Err() != nil {
		return nil // before Items, which joins the section's chunks
	}
	rs := a.bp.Resources.Items()
	if len(rs) < fanOutMin {
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	f := &fanOut{chunk: max(fanOutChunk, (len(rs)+4*workers-1)/(4*workers))}
	for lo := 0; lo < len(rs); lo += f.chunk {
		f.chunks = append(f.chunks, &resourceChunk{lo: lo, hi: min(lo+f.chunk, len(rs))})
	}
	blk := a.blocks[ResourceSymbol]
	// The symbols of the resources are declared in order, one per
	// resource (declare): symbol blk.lo+k is resource k.
	if blk.hi-blk.lo != len(rs) {
		return nil
	}
	rtypes := make([]*registry.ResourceType, len(rs))
	for k := range rs {
		rtypes[k] = a.rtypes.At(blk.lo + k)
	}
	f.validated = pool.New().WithMaxGoroutines(max(1, workers/2))
	f.specs.Go(func() {
		for _, c := range f.chunks {
			f.validated.Go(func() { c.validate(a, rs, rtypes) })
		}
		f.validated.Wait()
	})
	f.parsed = pool.New().WithMaxGoroutines(workers)
	for _, c := range f.chunks {
		f.parsed.Go(func() { c.parse(a, rs) })
	}
	return f
}

// waitParsed waits for the parsing tasks.
func (f *fanOut) waitParsed() {
	if !f.parsedDone {
		f.parsedDone = true
		f.parsed.Wait()
	}
}

// wait waits for every task, parsing and validation.
func (f *fanOut) wait() {
	if f == nil {
		return
	}
	f.waitParsed()
	if !f.specsDone {
		f.specsDone = true
		f.specs.Wait()
	}
}

// parse finds and parses the sites of the chunk's resources, as
// collectResource would one by one.
func (c *resourceChunk) parse(a *analyzer, rs []*schema.Resource) {
	opts := subst.Options{Mapper: a.res.File.Mapper, Slabs: &c.slabs}
	c.ends = make([]int32, 0, c.hi-c.lo)
	for _, r := range rs[c.lo:c.hi] {
		if a.ctx.Err() == nil {
			resourceSites(r, func(kind SiteKind, n *schema.Scalar) {
				c.sites = append(c.sites, parsedSite{kind, n, subst.ParseTemplateWith(n.Value, n.OffsetMap(), opts)})
			})
		}
		c.ends = append(c.ends, int32(len(c.sites)))
	}
}

// validate validates the spec of each of the chunk's resources whose
// type the registry knows, as checkResources would.
func (c *resourceChunk) validate(a *analyzer, rs []*schema.Resource, rtypes []*registry.ResourceType) {
	c.spec = make([][]source.Diagnostic, c.hi-c.lo)
	for k := c.lo; k < c.hi && a.ctx.Err() == nil; k++ {
		if rt, r := rtypes[k], rs[k]; rt != nil && rt.Err == nil && r.Type != nil {
			if spec := r.Spec.Node(); spec != nil {
				c.spec[k-c.lo] = rt.ValidateSpec(spec, r.Spec.KeyRange())
			}
		}
	}
}

// collectResources adds the sites the fan-out parsed, resource by
// resource in order, as collectResource would have.
func (a *analyzer) collectResources(f *fanOut) {
	f.waitParsed()
	rs := a.bp.Resources.Items()
	for _, c := range f.chunks {
		start := int32(0)
		for k := c.lo; k < c.hi; k++ {
			owner := a.owner(ResourceSymbol, k, rs[k].Name)
			end := c.ends[k-c.lo]
			for _, p := range c.sites[start:end] {
				a.diags = append(a.diags, p.t.Diagnostics()...)
				a.parsedSite(p.kind, p.scalar, p.t, owner)
			}
			start = end
		}
	}
}

// specDiagnostics returns resource symbol i's spec diagnostics, from the
// fan-out when it validated them.
func (a *analyzer) specDiagnostics(i int, rt *registry.ResourceType, r *schema.Resource, spec schema.Node) []source.Diagnostic {
	if f := a.fan; f != nil {
		f.wait()
		k := i - a.blocks[ResourceSymbol].lo
		c := f.chunks[k/f.chunk]
		return c.spec[k-c.lo]
	}
	return rt.ValidateSpec(spec, r.Spec.KeyRange())
}
