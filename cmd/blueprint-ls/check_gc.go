package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// The collector's pacing in `check` (issue 36). Checking one blueprint
// allocates about 48 bytes per byte of its text and keeps most of it
// until the file's report is written: the tree, the templates, the
// analysis's records and the rules' findings are all alive at the end.
// With the default pacing (GOGC=100) the collector ran seven cycles on
// a 20,000-resource blueprint, each marking everything built so far, for
// a fifth of the process's CPU, and freed almost nothing. So `check`,
// run as its own process, starts with the collector off and a memory
// limit sized to the files being checked: 48 bytes per byte of the
// largest file read, times the files checked at once, plus 64 MiB, at
// most 1 GiB. The first collection (when the heap reaches the limit)
// restores the default pacing and lifts the limit, so a run that
// allocates more than that (a monorepo of thousands of files, whose
// garbage is most of what it allocates) is collected as before, and
// memory never grows past what the default pacing or the limit allow.
// GOGC or GOMEMLIMIT in the environment leave the collector alone.
const (
	gcFloor   = 64 << 20
	gcCeiling = 1 << 30
	gcPerByte = 48
)

// processOwned is set by main: only a command that is the process's own,
// not a test's call of run, changes process-wide settings.
var processOwned bool

// gcPacing is the running check's pacer (nil: the default pacing).
var gcPacing atomic.Pointer[gcPacer]

// gcPacer holds the collector off until the heap reaches its limit.
type gcPacer struct {
	mu       sync.Mutex
	limit    int64
	parallel int64 // files checked at once
	resumed  bool
}

// gcSentinel is dropped as soon as it is made: its cleanup runs after
// the first collection, which means the heap reached the limit.
type gcSentinel struct {
	_ *byte // a pointer, so that it is never a tiny allocation
	_ [8]byte
}

// startGCPacing turns the collector off under a memory limit of gcFloor,
// when the process is the check's own and the environment does not set
// the pacing. It starts before the files are found and planned (the
// collector would otherwise run once or twice over a heap of a few
// megabytes while they are); jobs, once known, says how many files are
// checked at once.
func startGCPacing() {
	if !processOwned || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	p := &gcPacer{limit: gcFloor, parallel: int64(runtime.GOMAXPROCS(0))}
	debug.SetMemoryLimit(p.limit)
	debug.SetGCPercent(-1)
	runtime.AddCleanup(&gcSentinel{}, func(p *gcPacer) { p.resume() }, p)
	gcPacing.Store(p)
}

// jobs lowers the files checked at once to a run's n files.
func (p *gcPacer) jobs(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.parallel = int64(max(1, min(int(p.parallel), n)))
}

// want raises the limit for a file of n bytes about to be checked.
func (p *gcPacer) want(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	need := min(gcFloor+gcPerByte*int64(n)*p.parallel, gcCeiling)
	if !p.resumed && need > p.limit {
		p.limit = need
		debug.SetMemoryLimit(need)
	}
}

// resume restores the default pacing and lifts the limit.
func (p *gcPacer) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.resumed {
		p.resumed = true
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
