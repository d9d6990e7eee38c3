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
// restores the pacing and the limit the process had.
const (
	coldOpenMin = 1 << 20
	coldPerByte = 24
	// coldHoldMax bounds a hold whose analysis never comes (a debounce
	// longer than the user's patience, a client that pulls nothing).
	coldHoldMax = 10 * time.Second
)

// gcPacer is the process's one pacer: servers of one process share it.
var gcPacer gcPacerState

type gcPacerState struct {
	mu      sync.Mutex
	holds   int   // held analyses not yet released
	epoch   int   // counts holds started from none; a resume ends one
	resumed bool  // the epoch's pacing was restored (by a collection)
	base    int64 // memory the process held when the epoch began
	reserve int64 // coldPerByte × the texts held this epoch
	percent int   // the pacing to restore
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
		percent := debug.SetGCPercent(-1)
		if percent < 0 { // off already: leave it to whoever turned it off
			debug.SetGCPercent(percent)
			return nil
		}
		p.epoch++
		p.resumed, p.percent, p.limit = false, percent, debug.SetMemoryLimit(-1)
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

// restore gives the process back its pacing and limit.
func (p *gcPacerState) restore() {
	p.resumed = true
	debug.SetGCPercent(p.percent)
	debug.SetMemoryLimit(p.limit)
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
