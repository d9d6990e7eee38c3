package framework

import (
	"context"
	"errors"
	"fmt"
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

	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
	"github.com/newstack-cloud/bluelink/libs/blueprint/resourcehelpers"
	"github.com/newstack-cloud/bluelink/libs/blueprint/transform"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/plugin"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/pluginservicev1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/providerserverv1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/transformerserverv1"

	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
)

// servicePortEnv tells a launched plugin where the host's plugin service
// listens.
const servicePortEnv = "BLUELINK_BUILD_ENGINE_PLUGIN_SERVICE_PORT"

// Options are the budgets of Describe.
type Options struct {
	LaunchTimeout, CallTimeout time.Duration
	Log                        *slog.Logger // the plugins' output (nil: discarded)
}

// Describe launches each target in turn with the host's plugin service
// and asks what it offers; every process is gone when it returns. One
// outcome per target, in order: a failed one has Error set.
func Describe(ctx context.Context, targets []pluginhost.Target, o Options) []pluginhost.Described {
	o = o.withDefaults()
	out := make([]pluginhost.Described, len(targets))
	for i, t := range targets {
		out[i] = pluginhost.Described{Target: t}
	}
	if len(targets) == 0 {
		return out
	}
	h, err := startHost(o)
	if err != nil {
		for i := range out {
			out[i].Error = fmt.Sprintf("starting the plugin service: %v", err)
		}
		return out
	}
	defer h.close()
	for i, t := range targets {
		p, err := h.read(ctx, t)
		if err != nil {
			out[i].Error = err.Error()
			continue
		}
		out[i].Namespace, out[i].Provider, out[i].Schemas, out[i].Transform = p.Namespace, p.Provider, p.Schemas, p.Transform
	}
	return out
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

func (h *host) start(t pluginhost.Target) (*process, error) {
	cmd := exec.Command(t.Path)
	cmd.Dir = filepath.Dir(t.Path)
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
func (h *host) read(ctx context.Context, t pluginhost.Target) (*described, error) {
	var p *described
	err := h.run(ctx, t, "being asked what it offers", func(c context.Context, client any) (err error) {
		switch t.Kind {
		case pluginhost.KindTransformer:
			tr, ok := client.(transform.SpecTransformer)
			if !ok {
				return errors.New("registered, but is not a transformer")
			}
			p, err = describeTransformer(c, tr, h.o.CallTimeout)
		default:
			prov, ok := client.(provider.Provider)
			if !ok {
				return errors.New("registered, but is not a provider")
			}
			p, err = describe(c, prov, h.o.CallTimeout)
		}
		return err
	})
	return p, err
}

// pluginType is the plugin service's name for a target's kind.
func pluginType(k pluginhost.Kind) pluginservicev1.PluginType {
	if k == pluginhost.KindTransformer {
		return pluginservicev1.PluginType_PLUGIN_TYPE_TRANSFORMER
	}
	return pluginservicev1.PluginType_PLUGIN_TYPE_PROVIDER
}

// run launches one plugin, waits for it to register and calls f with
// its client (doing says what f does, for the message when the plugin
// dies meanwhile); the process is gone when run returns.
func (h *host) run(ctx context.Context, t pluginhost.Target, doing string, f func(ctx context.Context, client any) error) error {
	proc, err := h.start(t)
	if err != nil {
		return fmt.Errorf("launching: %w", err)
	}
	defer proc.kill()
	defer func() {
		if out := strings.TrimSpace(proc.out.String()); out != "" {
			h.o.Log.Info("plugin output", "plugin", t.ID, "output", out)
		}
	}()
	inst, err := h.waitRegistered(ctx, t, proc)
	if err != nil {
		return err
	}
	defer func() { _ = h.manager.DeregisterPlugin(pluginType(t.Kind), t.ID) }()
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
	if err := f(callCtx, inst.Client); err != nil {
		// A plugin that died mid-call breaks the connection a moment
		// before its exit is seen: wait for that moment.
		select {
		case <-proc.exited:
			return fmt.Errorf("exited while %s (%v)%s", doing, proc.err, proc.out.lastLine())
		case <-time.After(200 * time.Millisecond):
		}
		return err
	}
	return nil
}

// waitRegistered waits for the plugin to register with the service, for
// at most the launch timeout; a plugin that exits first fails at once.
func (h *host) waitRegistered(ctx context.Context, t pluginhost.Target, proc *process) (*pluginservicev1.PluginInstance, error) {
	deadline := time.NewTimer(h.o.LaunchTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if inst := h.manager.GetPlugin(pluginType(t.Kind), t.ID); inst != nil {
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
