// Command testplugin is a Bluelink provider plugin built on the official
// plugin framework's SDK, for the plugin host's tests only: it registers
// with the host named by BLUELINK_BUILD_ENGINE_PLUGIN_SERVICE_PORT and
// serves the acme provider (two resource types, a data source, a link
// type with annotations, a custom variable type, a function). Installed
// under transformers/ rather than providers/, it is the testx
// transformer instead (transformer.go). A file named "mode"
// beside the executable makes it misbehave: "crash" exits before
// registering, "hang" never answers the listing of resource types,
// "exit" dies on that call, "lie" describes a resource type with a
// schema that has no type.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/newstack-cloud/bluelink/libs/blueprint/core"
	"github.com/newstack-cloud/bluelink/libs/blueprint/function"
	"github.com/newstack-cloud/bluelink/libs/blueprint/provider"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/plugin"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/pluginservicev1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/providerserverv1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/sdk/pluginutils"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/sdk/providerv1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/sdk/transformerv1"
	"github.com/newstack-cloud/bluelink/libs/plugin-framework/transformerserverv1"
)

func main() {
	exe, err := os.Executable()
	if err != nil {
		fail(err)
	}
	dir := filepath.Dir(exe)
	mode := ""
	if b, err := os.ReadFile(filepath.Join(dir, "mode")); err == nil {
		mode = strings.TrimSpace(string(b))
	}
	if mode == "crash" {
		fmt.Fprintln(os.Stderr, "testplugin: crashing at start, as asked")
		os.Exit(3)
	}
	// The layout is .../{providers|transformers}/{namespace}/{name}/{version}/plugin.
	version := filepath.Base(dir)
	name := filepath.Base(filepath.Dir(dir))
	ns := filepath.Base(filepath.Dir(filepath.Dir(dir)))
	kind := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(dir))))
	id := ns + "/" + name

	client, closeClient, err := pluginservicev1.NewEnvServiceClient()
	if err != nil {
		fail(err)
	}
	defer closeClient()
	hostInfo := pluginutils.NewHostInfoContainer()
	config := plugin.ServePluginConfiguration{
		ID:              id,
		ProtocolVersion: providerserverv1.ProtocolVersion,
		PluginMetadata: &pluginservicev1.PluginMetadata{
			PluginVersion: version,
			DisplayName:   "Acme",
		},
	}
	var stop func()
	if kind == "transformers" {
		config.ProtocolVersion = transformerserverv1.ProtocolVersion
		config.PluginMetadata.DisplayName = "Testx"
		server := transformerv1.NewTransformerPlugin(newTransformer(mode), hostInfo, client)
		stop, err = plugin.ServeTransformerV1(context.Background(), server, client, hostInfo, config)
	} else {
		server := providerv1.NewProviderPlugin(newProvider(name, mode), hostInfo, client)
		stop, err = plugin.ServeProviderV1(context.Background(), server, client, hostInfo, config)
	}
	if err != nil {
		fail(err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	stop()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "testplugin:", err)
	os.Exit(1)
}

// misbehaving wraps the provider definition to hang or die on the
// listing of resource types.
type misbehaving struct {
	*providerv1.ProviderPluginDefinition
	mode string
}

func (m *misbehaving) ListResourceTypes(ctx context.Context) ([]string, error) {
	switch m.mode {
	case "hang":
		select {} // never answers
	case "exit":
		os.Exit(4)
	}
	return m.ProviderPluginDefinition.ListResourceTypes(ctx)
}

func newProvider(ns, mode string) provider.Provider {
	widget := &provider.ResourceDefinitionsSchema{
		Type:     provider.ResourceDefinitionsSchemaTypeObject,
		Required: []string{"name"},
		Attributes: map[string]*provider.ResourceDefinitionsSchema{
			"name": {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "The widget's name.", MinLength: 3, MaxLength: 20},
			"size": {Type: provider.ResourceDefinitionsSchemaTypeInteger, Description: "How many sprockets it has.",
				Minimum: core.ScalarFromInt(1), Maximum: core.ScalarFromInt(10)},
			"mode": {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "How it runs.",
				AllowedValues: []*core.MappingNode{core.MappingNodeFromString("fast"), core.MappingNodeFromString("slow")}},
			"tags":   {Type: provider.ResourceDefinitionsSchemaTypeMap, MapValues: &provider.ResourceDefinitionsSchema{Type: provider.ResourceDefinitionsSchemaTypeString}},
			"ports":  {Type: provider.ResourceDefinitionsSchemaTypeArray, Items: &provider.ResourceDefinitionsSchema{Type: provider.ResourceDefinitionsSchemaTypeInteger}},
			"id":     {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "The widget's id, set by Acme.", Computed: true},
			"url":    {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "Where it answers; Acme picks one when omitted.", ComputedWhenOmitted: true},
			"drives": {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "The gadget it drives: a reference here links them.", ActivatesLinkOnReference: true},
		},
	}
	if mode == "lie" {
		widget = &provider.ResourceDefinitionsSchema{Attributes: map[string]*provider.ResourceDefinitionsSchema{"name": nil}}
	}
	gadget := &provider.ResourceDefinitionsSchema{
		Type: provider.ResourceDefinitionsSchemaTypeObject,
		Attributes: map[string]*provider.ResourceDefinitionsSchema{
			"label": {Type: provider.ResourceDefinitionsSchemaTypeString, Description: "The gadget's label."},
		},
	}
	def := &providerv1.ProviderPluginDefinition{
		ProviderNamespace: ns,
		Resources: map[string]provider.Resource{
			ns + "/widget": &providerv1.ResourceDefinition{Type: ns + "/widget", Label: "Acme Widget", Schema: widget, IDField: "id",
				PlainTextSummary: "An Acme widget.", FormattedDescription: "An **Acme** widget: the provider's own documentation."},
			ns + "/gadget": &providerv1.ResourceDefinition{Type: ns + "/gadget", Label: "Acme Gadget", Schema: gadget,
				FormattedDescription: "An **Acme** gadget."},
		},
		Functions: map[string]provider.Function{
			ns + "_sprocket": &providerv1.FunctionDefinition{
				Definition: &function.Definition{
					Name:                 ns + "_sprocket",
					Summary:              "Names a sprocket.",
					FormattedDescription: "Names the sprocket of a widget: the provider's own documentation.",
					Parameters: []function.Parameter{
						&function.ScalarParameter{Name: "widget", Type: &function.ValueTypeDefinitionScalar{Type: function.ValueTypeString}, Description: "The widget's name."},
						&function.ScalarParameter{Name: "size", Type: &function.ValueTypeDefinitionScalar{Type: function.ValueTypeInt64}, Description: "Its size.", Optional: true},
					},
					Return: &function.ScalarReturn{Type: &function.ValueTypeDefinitionScalar{Type: function.ValueTypeString}, Description: "The sprocket's name."},
				},
			},
		},
		Links: map[string]provider.Link{
			core.LinkType(ns+"/widget", ns+"/gadget"): &providerv1.LinkDefinition{
				ResourceTypeA:        ns + "/widget",
				ResourceTypeB:        ns + "/gadget",
				FormattedDescription: "Lets the widget drive the gadget.",
				CardinalityB:         provider.LinkCardinality{Max: 1},
				Provides:             []provider.LinkCapability{{Name: ns + ".gadget/driven", Resource: provider.LinkPriorityResourceB}},
				Requires:             []provider.LinkCapability{{Name: ns + ".widget/powered", Resource: provider.LinkPriorityResourceA, MustExist: true}},
				AnnotationDefinitions: map[string]*provider.LinkAnnotationDefinition{
					ns + "/widget::" + ns + ".widget.gadget.accessType": {
						Name: ns + ".widget.gadget.accessType", Type: core.ScalarTypeString,
						Description:   "What the widget may do with the gadget.",
						DefaultValue:  core.ScalarFromString("read"),
						AllowedValues: []*core.ScalarValue{core.ScalarFromString("read"), core.ScalarFromString("write")},
						AppliesTo:     provider.LinkAnnotationResourceA,
					},
				},
			},
		},
	}
	return &misbehaving{ProviderPluginDefinition: def, mode: mode}
}
