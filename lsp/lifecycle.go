package lsp

import (
	"context"
	"encoding/json"
	"log/slog"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/project"
)

// initialize answers the initialize request from its raw params, so that
// no capability shape a client sends can make it fail.
func (s *server) initialize(raw []byte) (any, error) {
	s.caps = parseClientCaps(raw)
	s.enc = negotiateEncoding(s.caps.encodings)
	s.files.setFolders(s.caps.folders)
	s.session.setFolders(s.caps.folders)
	if st, problems := parseSettings(s.caps.initializationOptions); st != nil || problems != nil {
		for _, p := range problems {
			s.log.Warn(p)
		}
		s.initOpts = st
		_, errs := s.session.setSettings((&Settings{}).merge(st))
		s.reportProviderProblems(errs)
		s.loadPlugins()
	}
	s.state.Store(stateInitialized)
	s.log.Info("initialize", "client", s.caps.name, "positionEncoding", s.enc.String(),
		"pullDiagnostics", s.caps.pullDiagnostics, "configuration", s.caps.configuration)

	res := &protocol.InitializeResult{
		Capabilities: s.serverCapabilities(),
		ServerInfo:   protocol.ServerInfo{Name: "blueprint-ls"},
	}
	if s.opts.Version != "" {
		res.ServerInfo.Version = protocol.NewOptional(s.opts.Version)
	}
	return res, nil
}

func (s *server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	if s.caps.configuration {
		s.goSafe("fetch configuration", s.fetchConfiguration)
	}
	if s.caps.watchRegistration {
		s.goSafe("register file watchers", s.registerWatchers)
	}
	return nil
}

// watchedGlobs are the files whose changes matter: blueprints (children,
// workspace symbols), provider schemas and project configs (a dot file,
// which some clients' "*" does not match).
var watchedGlobs = []string{"**/*.{yaml,yml,json,jsonc,bp,blueprint}", "**/" + project.FileName}

// registerWatchers asks the client to report changes to watchedGlobs. It
// runs off the read loop: the answer arrives through it.
func (s *server) registerWatchers() {
	var watchers []protocol.FileSystemWatcher
	for _, g := range watchedGlobs {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: protocol.Pattern(g)})
	}
	opts, err := protocol.Marshal(protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers})
	if err != nil {
		s.log.Error("encoding watcher registration", "err", err)
		return
	}
	err = s.client.RegisterCapability(s.ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "blueprint-watched-files", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
	}}})
	if err != nil {
		s.log.Warn("registering file watchers failed", "err", err)
	}
}

func (s *server) Shutdown(ctx context.Context) error {
	s.state.Store(stateShutdown)
	s.shutdown.Store(true)
	return nil
}

// exit ends the session; run returns once the connection has drained.
func (s *server) exit() {
	s.exitOnce.Do(func() { close(s.exited) })
}

func (s *server) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// didChangeConfiguration takes settings pushed with the notification, or,
// when the client answers workspace/configuration, asks for them (the
// pushed payload is then often empty).
func (s *server) didChangeConfiguration(raw []byte) {
	if s.caps.configuration {
		s.goSafe("fetch configuration", s.fetchConfiguration)
		return
	}
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	_ = json.Unmarshal(raw, &p) // a malformed payload carries no settings
	st, problems := parseSettings(p.Settings)
	for _, pr := range problems {
		s.logClient(slog.LevelWarn, pr)
	}
	if st != nil {
		s.applySettings(st)
	}
}

// fetchConfiguration asks the client for the "blueprint" section. It runs
// off the read loop: the answer arrives through it.
func (s *server) fetchConfiguration() {
	section := settingsSection
	res, err := s.client.Configuration(s.ctx, &protocol.ConfigurationParams{
		Items: []protocol.ConfigurationItem{{Section: &section}},
	})
	if err != nil {
		s.log.Warn("workspace/configuration failed", "err", err)
		return
	}
	if len(res) == 0 {
		return
	}
	st, problems := parseSettings(res[0])
	for _, pr := range problems {
		s.logClient(slog.LevelWarn, pr)
	}
	if st != nil {
		s.applySettings(st)
	}
}

// applySettings layers st over the initializationOptions and reanalyses
// every open document under the result.
func (s *server) applySettings(st *Settings) {
	next := (&Settings{}).merge(s.initOpts).merge(st)
	fresh, errs := s.session.setSettings(next)
	s.reportProviderProblems(append(errs, s.session.takeProblems()...))
	s.log.Info("settings changed", "documents", len(fresh))
	s.diags.settingsChanged(fresh)
	s.loadPlugins()
}

// reportProviderProblems shows provider directories that failed to load:
// the user asked for them, so a silent log line would not do.
func (s *server) reportProviderProblems(errs []error) {
	for _, err := range errs {
		msg := "blueprint-ls: provider directory not loaded: " + err.Error()
		s.log.Warn(msg)
		if s.client == nil {
			continue
		}
		if err := s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg}); err != nil {
			s.log.Debug("showMessage failed", "err", err)
		}
	}
}
