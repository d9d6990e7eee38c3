package lsp

import (
	"bytes"
	"strconv"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// diagnostics is the push pipeline. Every new snapshot gets two phases,
// both started as soon as the edit arrives: the syntax phase (parse
// diagnostics) and the full phase (everything), unless the user's
// debounceMs setting delays the full phase. A newer snapshot cancels the
// older one's context, which the analysis checks between entries, so a
// burst of edits leaves only the newest version's work running. A phase
// publishes only if its snapshot is still the document's current one, and
// only if the set differs from what the client already shows. Publishing
// for one document is serialised, so an older set can never overtake a
// newer one.
//
// When the client pulls diagnostics (textDocument/diagnostic) nothing is
// pushed; the full phase still starts at the edit (with no debounce), and
// the pull handler answers from that same computation
// (Snapshot.Analysis runs once per snapshot); see diagnostics_pull.go.
type diagnostics struct {
	s *server

	mu      sync.Mutex
	stopped bool
	timers  map[string]stopper    // pending full phase, by canonical URI
	docs    map[string]*published // by canonical URI; kept across close/reopen

	// after arms the debounce timer: time.AfterFunc, replaced by tests
	// with a fake clock.
	after func(time.Duration, func()) stopper
}

// stopper is an armed timer.
type stopper interface{ Stop() bool }

func realAfter(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// published is what the client last received for one document.
type published struct {
	mu        sync.Mutex
	seq       uint64 // snapshot of the last publish decision
	full      bool   // that decision was a full-phase one
	sent      bool   // key is on the client
	key       []byte // encoded diagnostics last sent
	syntaxSet bool   // the client shows a syntax-phase set with problems
	count     int    // publishDiagnostics sent so far, ever (for tests)
}

type phase int

const (
	syntaxPhase phase = iota
	fullPhase
)

func newDiagnostics(s *server) *diagnostics {
	return &diagnostics{s: s, timers: map[string]stopper{}, docs: map[string]*published{}, after: realAfter}
}

func (d *diagnostics) doc(uri string) *published {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.docs[uri]
	if p == nil {
		p = &published{}
		d.docs[uri] = p
	}
	return p
}

// changed starts both phases for a new snapshot.
func (d *diagnostics) changed(snap *Snapshot) {
	delay := snap.Settings.Debounce()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	if d.s.caps.pullDiagnostics {
		if delay <= 0 {
			// Warm the analysis the client is about to pull.
			d.s.goSafe("full analysis", func() {
				if !snap.superseded() {
					snap.Analysis()
				}
			})
		}
		return
	}
	d.s.goSafe("syntax diagnostics", func() {
		if snap.superseded() {
			return
		}
		snap.Lines() // beside the parse, which the full phase runs
		d.publish(snap, snap.syntaxDiagnostics(), syntaxPhase)
	})
	if t := d.timers[snap.URI]; t != nil {
		t.Stop()
		delete(d.timers, snap.URI)
	}
	if delay <= 0 {
		d.s.goSafe("full diagnostics", func() { d.full(snap) })
		return
	}
	uri := snap.URI
	d.timers[uri] = d.after(delay, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.stopped {
			return
		}
		delete(d.timers, uri)
		// The newest snapshot, whichever edit armed the timer.
		if cur := d.s.session.current().snaps[uri]; cur != nil {
			d.s.goSafe("full diagnostics", func() { d.full(cur) })
		}
	})
}

// full runs the full phase of snap and publishes it. The checks before
// and after the analysis skip work and publishes of superseded versions;
// inside, the analysis stops at the next entry once snap's context is
// cancelled.
func (d *diagnostics) full(snap *Snapshot) {
	if snap.superseded() {
		return
	}
	a, then := snap.analysisThen()
	defer then() // once published
	if snap.superseded() {
		return
	}
	count := d.publish(snap, a.Diagnostics, fullPhase)
	if h := d.s.hooks.settled; h != nil && count >= 0 {
		h(snap.URI, snap.Version, snap.seq, count)
	}
}

// publish sends ds for snap if snap is current and the set is new. It
// returns the document's publish count afterwards, or -1 when snap was
// no longer current.
func (d *diagnostics) publish(snap *Snapshot, ds []source.Diagnostic, ph phase) int {
	p := d.doc(snap.URI)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !d.s.session.isCurrent(snap) {
		return -1
	}
	ds = snap.projectDiagnostics(ds, ph == fullPhase)
	if ph == syntaxPhase {
		if p.seq == snap.seq && p.full {
			return p.count // the full phase already answered for this version
		}
		if len(ds) == 0 && !p.syntaxSet {
			// Keep showing the last full set until the full phase
			// replaces it: no flicker while typing.
			return p.count
		}
	}
	pds := d.convert(snap, ds)
	msg, key, err := publishParams(snap.ClientURI, snap.Version, pds)
	if err != nil {
		d.s.log.Error("encoding diagnostics", "err", err)
		return p.count
	}
	p.seq, p.full = snap.seq, ph == fullPhase
	p.syntaxSet = ph == syntaxPhase && len(ds) > 0
	if p.sent && bytes.Equal(key, p.key) {
		return p.count
	}
	// The diagnostics are sent as encoded for the comparison: a large
	// set is encoded once per version, not twice (issue 32).
	err = d.s.conn.Notify(d.s.ctx, protocol.MethodTextDocumentPublishDiagnostics, msg)
	if err != nil {
		d.s.log.Debug("publishDiagnostics failed", "err", err)
		return p.count
	}
	p.sent, p.key = true, key
	p.count++
	return p.count
}

// marshalDiagnostics is protocol.Marshal(pds), a diagnostic at a time
// (marshalStructSlice).
func marshalDiagnostics(pds []protocol.Diagnostic) ([]byte, error) {
	b, _, err := marshalStructSlice(make([]byte, 0, diagnosticsSize(pds)), pds)
	return b, err
}

// diagnosticsSize is room for the encoding of pds: a diagnostic with a
// code and its documentation link takes about 400 bytes, and the
// protocol's writer asks for 549 free before each.
func diagnosticsSize(pds []protocol.Diagnostic) int { return 448*len(pds) + 1024 }

// publishParams encodes the PublishDiagnosticsParams of a version of the
// document clientURI with diagnostics pds, and returns it with the
// diagnostics' part of it (diags), which publish compares with the last
// set sent: the set is encoded once, in place, not encoded and then
// copied into the message.
func publishParams(clientURI string, version int32, pds []protocol.Diagnostic) (msg jsonrpc2.RawMessage, diags []byte, err error) {
	u, _ := protocol.Marshal(clientURI) // a string encodes
	b := make([]byte, 0, len(u)+48+diagnosticsSize(pds))
	b = append(append(append(b, `{"uri":`...), u...), `,"version":`...)
	b = strconv.AppendInt(b, int64(version), 10)
	b = append(b, `,"diagnostics":`...)
	start := len(b)
	if b, _, err = marshalStructSlice(b, pds); err != nil {
		return nil, nil, err
	}
	return append(b, '}'), b[start:len(b):len(b)], nil
}

// convert turns ds, with the project config applied, into protocol
// diagnostics for snap's document.
func (d *diagnostics) convert(snap *Snapshot, ds []source.Diagnostic) []protocol.Diagnostic {
	pds := toDiagnostics(snap.Mapper(), snap.ClientURI, ds, d.s.enc, snap.Settings, d.s.documents(snap))
	if src := snap.Dialect().Source; src != "" {
		setSource(pds, src)
	}
	return pds
}

// closed clears the document's diagnostics. It runs on the read loop so
// that a reopen that follows cannot be overtaken by the clearing.
func (d *diagnostics) closed(old *Snapshot) {
	ruleMemos.Delete(old.URI) // rules.go: a reopened document starts afresh
	d.mu.Lock()
	if t := d.timers[old.URI]; t != nil {
		t.Stop()
		delete(d.timers, old.URI)
	}
	d.mu.Unlock()
	p := d.doc(old.URI)
	p.mu.Lock()
	defer p.mu.Unlock()
	// The encoded diagnostics of a large document are megabytes: a
	// closed document keeps none (issue 36).
	p.seq, p.full, p.sent, p.key, p.syntaxSet = 0, false, false, nil, false
	if d.s.caps.pullDiagnostics {
		return
	}
	err := d.s.client.PublishDiagnostics(d.s.ctx, &protocol.PublishDiagnosticsParams{
		URI:         uri.URI(old.ClientURI),
		Diagnostics: []protocol.Diagnostic{},
	})
	if err != nil {
		d.s.log.Debug("publishDiagnostics failed", "err", err)
		return
	}
	p.count++
}

// settingsChanged reruns diagnostics for the snapshots that new settings
// (or configs, or providers) produced; in pull mode it asks the client to
// pull again. The refresh is a request, so it is sent off the read loop,
// which must stay free to read the answer.
func (d *diagnostics) settingsChanged(fresh []*Snapshot) {
	if d.s.caps.pullDiagnostics {
		if d.s.caps.diagnosticRefresh {
			d.s.goSafe("diagnostic refresh", func() {
				if err := d.s.client.DiagnosticRefresh(d.s.ctx); err != nil {
					d.s.log.Debug("diagnostic refresh failed", "err", err)
				}
			})
		}
		return
	}
	for _, snap := range fresh {
		d.changed(snap)
	}
}

// stop cancels pending timers; no phase starts afterwards.
func (d *diagnostics) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	for uri, t := range d.timers {
		t.Stop()
		delete(d.timers, uri)
	}
}
