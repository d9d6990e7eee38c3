package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bpcore "github.com/newstack-cloud/bluelink/libs/blueprint/core"
	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
	"github.com/newstack-cloud/bluelink/libs/blueprint/resourcehelpers"
	"github.com/newstack-cloud/bluelink/libs/blueprint/transform"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/plugin"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/pluginservicev1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/providerserverv1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/transformerserverv1"
	"github.com/spf13/afero"
)

// PathEnv is the environment variable naming the plugin roots, the one
// the deploy engine reads.
const PathEnv = "BLUELINK_DEPLOY_ENGINE_PLUGIN_PATH"

// servicePortEnv tells a launched plugin where the host's plugin service
// listens.
const servicePortEnv = "BLUELINK_BUILD_ENGINE_PLUGIN_SERVICE_PORT"

// Default budgets.
const (
	DefaultLaunchTimeout = 5 * time.Second
	DefaultCallTimeout   = 3 * time.Second
)

// Options configure Load.
type Options struct {
	// Path is the plugin path: roots separated by os.PathListSeparator.
	Path string
	// LaunchTimeout bounds the wait for a plugin to register; CallTimeout
	// each question asked of it (zero: the defaults).
	LaunchTimeout, CallTimeout time.Duration
	// CacheDir holds the answers per plugin version; empty: no cache.
	CacheDir string
	// Log receives the plugins' output and the host's progress (nil:
	// discarded).
	Log *slog.Logger
}

// Plugin is what one provider plugin offers, in the registry's formats.
type Plugin struct {
	ID      string // {namespace}/{name}, or {host}/{namespace}/{name}
	Version string
	Path    string // the executable
	// Namespace is the provider's (the first segment of its types).
	Namespace string
	// Provider is a provider file (docs/providers.md).
	Provider []byte
	// Schemas are resource schemas by type name.
	Schemas map[string][]byte
	// Cached says the answers came from the cache, without a launch.
	Cached bool
}

// Problem is a plugin that could not be used, and why.
type Problem struct {
	ID, Path string
	Err      error
}

func (p Problem) Error() string { return fmt.Sprintf("plugin %s (%s): %v", p.ID, p.Path, p.Err) }

// Result is what Load found.
type Result struct {
	Plugins  []*Plugin
	Problems []Problem
}

// Load discovers the provider plugins on o.Path and reads what each
// offers: from the cache when this version was read before, otherwise by
// launching it. Transformer plugins are found and skipped.
func Load(ctx context.Context, o Options) *Result {
	if o.LaunchTimeout <= 0 {
		o.LaunchTimeout = DefaultLaunchTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	res := &Result{}
	if strings.TrimSpace(o.Path) == "" {
		return res
	}
	var found []*plugin.PluginPathInfo
	for _, root := range filepath.SplitList(o.Path) {
		if root == "" {
			continue
		}
		if _, err := os.Stat(root); err != nil {
			res.Problems = append(res.Problems, Problem{ID: "(plugin path)", Path: root, Err: err})
			continue
		}
		infos, err := plugin.DiscoverPlugins(root, afero.NewOsFs(), bpcore.NewNopLogger())
		if err != nil {
			res.Problems = append(res.Problems, Problem{ID: "(plugin path)", Path: root, Err: err})
			continue
		}
		found = append(found, infos...)
	}
	var launch []*plugin.PluginPathInfo
	for _, info := range found {
		if info.PluginType != "provider" {
			o.Log.Info("plugin host: skipping a plugin that is not a provider", "plugin", info.ID, "type", info.PluginType)
			continue
		}
		if p := readCache(o.CacheDir, info); p != nil {
			res.Plugins = append(res.Plugins, p)
			continue
		}
		launch = append(launch, info)
	}
	if len(launch) == 0 {
		return res
	}
	h, err := startHost(o)
	if err != nil {
		for _, info := range launch {
			res.Problems = append(res.Problems, Problem{ID: info.ID, Path: info.AbsolutePath, Err: fmt.Errorf("starting the plugin service: %w", err)})
		}
		return res
	}
	defer h.close()
	for _, info := range launch {
		p, err := h.read(ctx, info)
		if err != nil {
			res.Problems = append(res.Problems, Problem{ID: info.ID, Path: info.AbsolutePath, Err: err})
			continue
		}
		writeCache(o.CacheDir, info, p, o.Log)
		res.Plugins = append(res.Plugins, p)
	}
	return res
}

// host is the plugin service the launched plugins register with.
type host struct {
	o        Options
	id       string
	listener net.Listener
	manager  pluginservicev1.Manager
	stop     func()
}

func startHost(o Options) (*host, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &host{o: o, id: "blueprint-ls-" + strconv.Itoa(os.Getpid()), listener: l}
	h.manager = pluginservicev1.NewManager(map[pluginservicev1.PluginType]string{
		pluginservicev1.PluginType_PLUGIN_TYPE_PROVIDER:    providerserverv1.ProtocolVersion,
		pluginservicev1.PluginType_PLUGIN_TYPE_TRANSFORMER: transformerserverv1.ProtocolVersion,
	}, plugin.CreatePluginInstance, h.id)
	// Plugins may call each other's functions through the host; none
	// are served here (validation only), so the registries are empty.
	providers := map[string]provider.Provider{}
	resources := resourcehelpers.NewRegistry(providers, map[string]transform.SpecTransformer{}, time.Second, nil, validationParams())
	service := pluginservicev1.NewServiceServer(h.manager, provider.NewFunctionRegistry(providers), resources, h.id)
	stop, err := pluginservicev1.NewServer(service, pluginservicev1.WithListener(&quietListener{Listener: l})).Serve()
	if err != nil {
		l.Close()
		return nil, err
	}
	h.stop = stop
	return h, nil
}

func (h *host) close() {
	h.manager.Close()
	if h.stop != nil {
		h.stop()
	}
	h.listener.Close()
}

// quietListener ignores the first Close: the framework's service closes
// its listener before it stops the gRPC server, which then logs the
// closed listener as a failure to serve; the server's own Stop closes it
// second, after which Serve returns quietly.
type quietListener struct {
	net.Listener
	closes atomic.Int32
}

func (l *quietListener) Close() error {
	if l.closes.Add(1) == 1 {
		return nil
	}
	return l.Listener.Close()
}

// process is a launched plugin: killed and reaped by kill.
type process struct {
	cmd    *exec.Cmd
	exited chan struct{}
	err    error // the exit status, once exited is closed
	out    *tail
}

func (h *host) start(info *plugin.PluginPathInfo) (*process, error) {
	cmd := exec.Command(info.AbsolutePath)
	cmd.Dir = filepath.Dir(info.AbsolutePath)
	cmd.Env = append(os.Environ(), servicePortEnv+"="+strconv.Itoa(h.listener.Addr().(*net.TCPAddr).Port))
	p := &process{cmd: cmd, exited: make(chan struct{}), out: &tail{max: 2048}}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *process) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// read launches one plugin, waits for it to register and asks what it
// offers; the process is gone when read returns.
func (h *host) read(ctx context.Context, info *plugin.PluginPathInfo) (*Plugin, error) {
	proc, err := h.start(info)
	if err != nil {
		return nil, fmt.Errorf("launching: %w", err)
	}
	defer proc.kill()
	defer func() {
		if out := strings.TrimSpace(proc.out.String()); out != "" {
			h.o.Log.Info("plugin output", "plugin", info.ID, "output", out)
		}
	}()
	inst, err := h.waitRegistered(ctx, info, proc)
	if err != nil {
		return nil, err
	}
	defer func() { _ = h.manager.DeregisterPlugin(pluginservicev1.PluginType_PLUGIN_TYPE_PROVIDER, info.ID) }()
	prov, ok := inst.Client.(provider.Provider)
	if !ok {
		return nil, errors.New("registered, but is not a provider")
	}
	// A call the plugin dies during ends at once, not at its timeout.
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-proc.exited:
			cancel()
		case <-callCtx.Done():
		}
	}()
	p, err := describe(callCtx, prov, h.o.CallTimeout)
	if err != nil {
		// A plugin that died mid-call breaks the connection a moment
		// before its exit is seen: wait for that moment.
		select {
		case <-proc.exited:
			return nil, fmt.Errorf("exited while being asked what it offers (%v)%s", proc.err, proc.out.lastLine())
		case <-time.After(200 * time.Millisecond):
		}
		return nil, err
	}
	p.ID, p.Version, p.Path = info.ID, info.Version, info.AbsolutePath
	return p, nil
}

// waitRegistered waits for the plugin to register with the service, for
// at most the launch timeout; a plugin that exits first fails at once.
func (h *host) waitRegistered(ctx context.Context, info *plugin.PluginPathInfo, proc *process) (*pluginservicev1.PluginInstance, error) {
	deadline := time.NewTimer(h.o.LaunchTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if inst := h.manager.GetPlugin(pluginservicev1.PluginType_PLUGIN_TYPE_PROVIDER, info.ID); inst != nil {
			return inst, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-proc.exited:
			return nil, fmt.Errorf("exited before registering with the host (%v)%s", proc.err, proc.out.lastLine())
		case <-deadline.C:
			return nil, fmt.Errorf("did not register with the host within %v; gave up", h.o.LaunchTimeout)
		case <-tick.C:
		}
	}
}

// tail keeps the last max bytes a plugin wrote.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// lastLine returns ": <the last line the plugin wrote>", or "".
func (t *tail) lastLine() string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + s
}
