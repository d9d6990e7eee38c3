package lsp

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The collector during a large document's first analysis (issue 36).
// Opening a blueprint builds its tree, templates and analysis from
// nothing: about 30 bytes allocated per byte of text, most of it alive
// at the end. With the default pacing the collector ran five or six
// cycles during the open of 5,000 resources, each marking what had been
// built so far and freeing little, on the core the analysis could have
// used. So a server that owns its process (Options.PaceCollector) holds
// the collector off from the didOpen of a text of coldOpenMin bytes or
// more until that snapshot's first analysis is done, under a memory
// limit of what the process held at the open plus coldPerByte bytes per
// byte of text: no more than the default pacing lets the heap reach
// after the open anyway. The first collection (the heap reached the
// limit) or the end of the last held analysis (once its diagnostics are
// published, when the full phase ran it: Snapshot.analysisThen)
// restores the pacing and the limit the process had (openPercent while
// the text stays open).
const (
	coldOpenMin = 1 << 20
	coldPerByte = 24
	// coldHoldMax bounds a hold whose analysis never comes (a debounce
	// longer than the user's patience, a client that pulls nothing).
	coldHoldMax = 10 * time.Second
)

// The collector while a large document stays open (issue 36). Under
// the default pacing the heap grows to twice the live heap between
// collections: with the 5,000-resource blueprint open (a live heap of
// about 50 MB) a long editing session takes the heap to about 100 MB,
// above the 75 MB the hold lets the open reach. An edit allocates little
// (0.2 MB at 5,000 resources), so while a text of coldOpenMin bytes or
// more is open, outside the open's hold, the pacing is openPercent: the
// heap's goal is 1.5 times the live heap, a collection every ~100 edits
// instead of every ~200. The open itself is not slowed (the hold keeps
// the collector off), nor are the opens of smaller texts.
const openPercent = 50

// gcPacer is the process's one pacer: servers of one process share it.
var gcPacer gcPacerState

type gcPacerState struct {
	mu      sync.Mutex
	holds   int   // held analyses not yet released
	large   int   // large texts open (paceOpen), over every server
	epoch   int   // counts holds started from none; a resume ends one
	resumed bool  // the epoch's pacing was restored (by a collection)
	base    int64 // memory the process held when the epoch began
	reserve int64 // coldPerByte × the texts held this epoch
	own     int   // the process's own pacing, while holds or large are not 0
	limit   int64 // the limit to restore
}

// holdCollector holds the collector off for a text of n bytes and
// returns the release (idempotent), or nil when nothing is held.
func holdCollector(n int) (release func()) {
	if n < coldOpenMin {
		return nil
	}
	p := &gcPacer
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holds == 0 {
		if percent := debug.SetGCPercent(-1); p.large == 0 {
			p.own = percent
		}
		if p.own < 0 { // off already: leave it to whoever turned it off
			debug.SetGCPercent(p.own)
			return nil
		}
		p.epoch++
		p.resumed, p.limit = false, debug.SetMemoryLimit(-1)
		p.base, p.reserve = heldMemory(), 0
		epoch := p.epoch
		runtime.AddCleanup(&gcSentinel{}, func(epoch int) { resumeCollector(epoch) }, epoch)
	}
	p.holds++
	if !p.resumed {
		p.reserve += coldPerByte * int64(n)
		debug.SetMemoryLimit(min(p.base+p.reserve, p.limit))
	}
	epoch := p.epoch
	var once sync.Once
	timer := time.AfterFunc(coldHoldMax, func() { once.Do(func() { releaseCollector(epoch) }) })
	return func() {
		once.Do(func() {
			timer.Stop()
			releaseCollector(epoch)
		})
	}
}

// gcSentinel is dropped as soon as it is made: its cleanup runs after
// the next collection.
type gcSentinel struct {
	_ *byte // a pointer, so that it is never a tiny allocation
	_ [8]byte
}

// releaseCollector ends one hold of epoch; the last restores the pacing.
func releaseCollector(epoch int) {
	p := &gcPacer
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holds--
	if p.holds == 0 && !p.resumed && p.epoch == epoch {
		p.restore()
	}
}

// resumeCollector restores the pacing after the first collection of
// epoch, while holds remain.
func resumeCollector(epoch int) {
	p := &gcPacer
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.epoch == epoch && !p.resumed && p.holds > 0 {
		p.restore()
	}
}

// restore gives the process back its limit, and its pacing or, while a
// large text is open, openPercent.
func (p *gcPacerState) restore() {
	p.resumed = true
	debug.SetGCPercent(p.pacing())
	debug.SetMemoryLimit(p.limit)
}

// pacing is the GC percent outside a hold: the process's own, lowered
// to openPercent while a large text is open (a collector the process
// turned off stays off).
func (p *gcPacerState) pacing() int {
	if p.large > 0 && p.own > openPercent {
		return openPercent
	}
	return p.own
}

// paceOpen notes that a text of n bytes was opened and returns the
// call that notes its close (idempotent), or nil when n is below
// coldOpenMin: from the open's end until then the heap's goal is
// 1.5 times the live heap (openPercent).
func paceOpen(n int) (closed func()) {
	if n < coldOpenMin {
		return nil
	}
	p := &gcPacer
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.large == 0 && p.holds == 0 {
		p.own = debug.SetGCPercent(-1)
	}
	p.large++
	p.apply()
	var once sync.Once
	return func() { once.Do(paceClosed) }
}

// paceClosed ends one paceOpen; the last gives the process its pacing.
func paceClosed() {
	p := &gcPacer
	p.mu.Lock()
	defer p.mu.Unlock()
	p.large--
	p.apply()
}

// apply sets the pacing outside a hold; a hold in force keeps the
// collector off and restores the pacing when it ends.
func (p *gcPacerState) apply() {
	if p.holds == 0 || p.resumed {
		debug.SetGCPercent(p.pacing())
	}
}

// heldMemory is the memory the runtime holds from the system (mapped
// and not returned), what the memory limit is compared with.
func heldMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return math.MaxInt64 / 2
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// pacedOpen notes (PaceCollector) that the document uri was opened with
// a text of n bytes, ending what an earlier open of it noted. An open
// that comes as the server ends (pacedCloseAll ran or will) is closed
// at once.
func (s *server) pacedOpen(uri string, n int) {
	closed := paceOpen(n)
	s.pacedMu.Lock()
	defer s.pacedMu.Unlock()
	s.endPaced(uri)
	switch {
	case closed == nil:
	case s.ctx.Err() != nil:
		closed()
	default:
		if s.paced == nil {
			s.paced = map[string]func(){}
		}
		s.paced[uri] = closed
	}
}

// pacedClose notes that the document uri was closed.
func (s *server) pacedClose(uri string) {
	s.pacedMu.Lock()
	defer s.pacedMu.Unlock()
	s.endPaced(uri)
}

// endPaced ends what an open of uri noted, if anything; s.pacedMu is
// held.
func (s *server) endPaced(uri string) {
	if closed := s.paced[uri]; closed != nil {
		closed()
		delete(s.paced, uri)
	}
}

// pacedCloseAll notes, as the server ends (its context cancelled), that
// its documents are closed: the process's pacing outlives the server.
func (s *server) pacedCloseAll() {
	s.pacedMu.Lock()
	defer s.pacedMu.Unlock()
	for uri, closed := range s.paced {
		closed()
		delete(s.paced, uri)
	}
}
