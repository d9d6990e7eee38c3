package pluginhost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// HelperName is the plugin host's own executable: the one program that
// links the plugin framework (gRPC), so that blueprint-ls itself starts
// as fast without plugins as before them.
const HelperName = "blueprint-ls-plugins"

// HelperEnv names the helper explicitly (tests, unusual installs).
const HelperEnv = "BLUEPRINT_LS_PLUGIN_HOST"

// Options configure Load.
type Options struct {
	// Path is the plugin path: roots separated by os.PathListSeparator.
	Path string
	// LaunchTimeout bounds the wait for a plugin to register; CallTimeout
	// each question asked of it (zero: the defaults).
	LaunchTimeout, CallTimeout time.Duration
	// CacheDir holds the answers per plugin version; empty: no cache.
	CacheDir string
	// Helper is the helper executable (empty: $BLUEPRINT_LS_PLUGIN_HOST,
	// else blueprint-ls-plugins beside the running executable, else on
	// $PATH).
	Helper string
	// Log receives the host's progress (nil: discarded).
	Log *slog.Logger
}

// Load discovers the provider plugins on o.Path and reads what each
// offers: from the cache when this version was read before, otherwise
// through the helper, which launches them. It never fails as a whole:
// each plugin that cannot be used is a Problem.
func Load(ctx context.Context, o Options) *Result {
	o = o.withDefaults()
	res := &Result{}
	targets, problems := Discover(o.Path)
	res.Problems = problems
	var launch []Target
	for _, t := range targets {
		if p := readCache(o.CacheDir, t); p != nil {
			res.Plugins = append(res.Plugins, p)
			continue
		}
		launch = append(launch, t)
	}
	if len(launch) == 0 {
		return res
	}
	described, err := runHelper(ctx, o, launch)
	if err != nil {
		for _, t := range launch {
			res.Problems = append(res.Problems, Problem{ID: t.ID, Path: t.Path, Err: err})
		}
		return res
	}
	for _, d := range described {
		if d.Error != "" {
			res.Problems = append(res.Problems, Problem{ID: d.ID, Path: d.Path, Err: errors.New(d.Error)})
			continue
		}
		p := &Plugin{Described: d}
		writeCache(o.CacheDir, d.Target, p, o.Log)
		res.Plugins = append(res.Plugins, p)
	}
	return res
}

func (o Options) withDefaults() Options {
	if o.LaunchTimeout <= 0 {
		o.LaunchTimeout = DefaultLaunchTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// helperPath finds the helper executable.
func helperPath(o Options) (string, error) {
	if o.Helper != "" {
		return o.Helper, nil
	}
	if h := os.Getenv(HelperEnv); h != "" {
		return h, nil
	}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), HelperName)
		if info, err := os.Stat(beside); err == nil && !info.IsDir() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the plugin host %s is not installed beside blueprint-ls or on $PATH (go install github.com/blueprint-ls/blueprint-ls/cmd/%s)", HelperName, HelperName)
}

// runHelper asks the helper to describe targets: the targets as JSON on
// its standard input, their descriptions on its standard output. The
// helper gets the plugins' budgets and a margin; past that it is killed.
func runHelper(ctx context.Context, o Options, targets []Target) ([]Described, error) {
	// Each plugin: its launch, and a few dozen questions at most before
	// the helper gives up on it by itself.
	budget := time.Duration(len(targets))*(o.LaunchTimeout+4*o.CallTimeout) + 5*time.Second
	var described []Described
	helper, err := callHelper(ctx, o, "describe", budget, targets, &described)
	if err != nil {
		return nil, err
	}
	if len(described) != len(targets) {
		return nil, fmt.Errorf("the plugin host %s answered what is not a description of %d plugins", helper, len(targets))
	}
	for i := range described {
		// The answer names the targets it was given, in order.
		if described[i].Target != targets[i] {
			return nil, fmt.Errorf("the plugin host %s answered for other plugins than it was asked about", helper)
		}
	}
	return described, nil
}

// callHelper runs the helper's command with in as JSON on its standard
// input and decodes its standard output into out; past budget the helper
// is killed. It returns the helper's path.
func callHelper(ctx context.Context, o Options, command string, budget time.Duration, in, out any) (string, error) {
	helper, err := helperPath(o)
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(in)
	if err != nil {
		return helper, err
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	cmd := exec.CommandContext(ctx, helper, command,
		"-launch-timeout", o.LaunchTimeout.String(), "-call-timeout", o.CallTimeout.String())
	// Cancelled, the helper is interrupted first, so that it kills the
	// plugins it launched; a second later it is killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.Stdin = bytes.NewReader(data)
	var stdout, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return helper, fmt.Errorf("the plugin host %s did not finish within %v; gave up", helper, budget)
		}
		return helper, fmt.Errorf("the plugin host %s failed: %v%s", helper, err, lastLine(errb.String()))
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		return helper, fmt.Errorf("the plugin host %s answered what is not JSON: %v", helper, err)
	}
	o.Log.Info("plugin host: "+command, "log", strings.TrimSpace(errb.String()))
	return helper, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + s
}
