// Package pluginhost hosts the official Bluelink plugins (providers and
// transformers built on
// github.com/newstack-cloud/bluelink/libs/plugin-framework, installed
// with `bluelink plugins install`) behind our provider registry: their
// resource types, data sources, custom variable types, link types and
// functions, a transformer's abstract types and transform name, are read
// once, converted to the registry's own inputs (a resource schema per
// type, a provider file per plugin; docs/providers.md) and cached on
// disk per plugin version, so a later run reads the cache and launches
// nothing. Transform (and Runner, which keeps the answers by blueprint
// text) runs a transformer over one blueprint through the helper, each
// time: the answer is the transformed blueprint as JSON and the
// abstract resource each concrete one came from.
//
// Discovery (Discover) follows the deploy engine's layout: executables
// named "plugin" under {root}/providers/[{host}/]{namespace}/{name}/{version}/
// (and transformers/ likewise) for each root of the plugin path
// (BLUELINK_DEPLOY_ENGINE_PLUGIN_PATH).
// Plugins not in the cache are described by the plugin host executable,
// blueprint-ls-plugins (package framework below, the only code linking
// the plugin framework and gRPC, so that blueprint-ls starts as fast
// without plugins as before them): it serves the framework's plugin
// service on a loopback port chosen by the system, starts each plugin
// with that port in BLUELINK_BUILD_ENGINE_PLUGIN_SERVICE_PORT, and talks
// to the plugin once it has registered, through the framework's gRPC
// client. Targets go to it as JSON on its standard input, descriptions
// come back on its standard output.
//
// Invariants:
//   - A plugin is a program the user installed; nothing is downloaded and
//     the only network traffic is on 127.0.0.1 with the plugins this
//     package started.
//   - A plugin costs at most its launch timeout plus one call timeout per
//     question; one that crashes, hangs, dies or answers nonsense is a
//     Problem (one per plugin) and never a panic or a hang of the caller.
//     Every process started is killed and reaped before Load returns.
//   - Load never fails as a whole for one plugin: the others still load.
//     The helper itself is killed past the sum of its plugins' budgets.
package pluginhost
