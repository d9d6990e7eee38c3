package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc"
)

// progressDelay is how long a run goes before it shows progress; quick
// runs (pre-commit on a few files) never print it.
const progressDelay = 2 * time.Second

// progress shows "checked N/M files" on standard error while a long run
// goes on, when standard error is a terminal; the line is erased at the
// end so output and exit status are unaffected.
type progress struct {
	done  atomic.Int64
	total int
	quit  chan struct{}
	wg    conc.WaitGroup
}

func startProgress(stderr io.Writer, total int) *progress {
	p := &progress{total: total, quit: make(chan struct{})}
	f, ok := stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return p
	}
	p.wg.Go(func() {
		defer func() { _ = recover() }() // progress is cosmetic: never take the run down
		select {
		case <-p.quit:
			return
		case <-time.After(progressDelay):
		}
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			fmt.Fprintf(f, "\r\x1b[Kblueprint-ls check: %d/%d files", p.done.Load(), p.total)
			select {
			case <-p.quit:
				fmt.Fprint(f, "\r\x1b[K")
				return
			case <-t.C:
			}
		}
	})
	return p
}

func (p *progress) tick() { p.done.Add(1) }

func (p *progress) stop() {
	close(p.quit)
	p.wg.Wait()
}
