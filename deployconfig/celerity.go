package deployconfig

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/funcs"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// targetProviders maps a Celerity deploy target to the provider
// namespace that deploys it.
var targetProviders = map[string]string{
	"aws": "aws", "aws-serverless": "aws",
	"gcloud": "gcloud", "gcloud-serverless": "gcloud",
	"azure": "azure", "azure-serverless": "azure",
}

// transformerPrefixes are the deploy target config keys that configure
// the Celerity transformer (per resource kind) rather than the provider,
// by provider namespace. They keep their dotted names; the provider's
// own keys lose the namespace prefix.
var transformerPrefixes = map[string][]string{
	"aws":    {"aws.sqs.", "aws.sns.", "aws.dynamodb.", "aws.s3.", "aws.lambda.", "aws.apigateway.", "aws.ecs.", "aws.eks."},
	"gcloud": {"gcloud.pubsub.", "gcloud.cloudfunctions.", "gcloud.cloudrun.", "gcloud.firestore.", "gcloud.storage."},
	"azure":  {"azure.servicebus.", "azure.functions.", "azure.container.", "azure.cosmosdb.", "azure.storage."},
}

// celerity converts Celerity's authoring format to the canonical one, as
// the Celerity CLI does before it calls the deploy engine: the deploy
// target picks the provider; its config is split between the provider
// and the celerity transformer; the target's name, the app's name and
// environment become context variables.
func (p *parser) celerity(top *syntax.Mapping) {
	c := p.c
	c.ContextVariables = Values{}
	var target *syntax.Entry
	var appName *syntax.Scalar
	for _, e := range top.Entries {
		switch e.Key.Value {
		case "appName":
			appName, _ = e.Value.(*syntax.Scalar)
		case "deployTarget":
			target = e
		case "contextVariables":
			c.ContextVariables = p.values(e)
			if c.ContextVariables == nil {
				c.ContextVariables = Values{}
			}
		case "blueprintVariables":
			c.BlueprintVariables = p.values(e)
		}
	}
	if target == nil {
		p.errorf(top.Rng, "the Celerity deploy configuration has no deployTarget")
		return
	}
	tm := p.object(target)
	if tm == nil {
		return
	}
	var name, appEnv *syntax.Scalar
	var config *syntax.Entry
	for _, e := range tm.Entries {
		switch e.Key.Value {
		case "name":
			name, _ = e.Value.(*syntax.Scalar)
		case "appEnv":
			appEnv, _ = e.Value.(*syntax.Scalar)
		case "config":
			config = e
		}
	}
	if name == nil || name.Value == "" {
		p.errorf(target.Key.Rng, "deployTarget has no name (aws, aws-serverless, gcloud, gcloud-serverless, azure, azure-serverless)")
		return
	}
	ns, ok := targetProviders[name.Value]
	if !ok {
		p.errorf(name.Rng, "deploy target %q is not one Celerity deploys to (aws, aws-serverless, gcloud, gcloud-serverless, azure, azure-serverless)", name.Value)
		return
	}
	provider, transformer := Values{}, Values{}
	if config != nil {
		for k, v := range p.values(config) {
			if hasPrefix(k, transformerPrefixes[ns]) {
				transformer[k] = v
				continue
			}
			provider[strings.TrimPrefix(k, ns+".")] = v
		}
	}
	c.Providers = map[string]Values{ns: provider}
	c.Transformers = map[string]Values{"celerity": transformer}
	c.ContextVariables["deployTarget"] = Value{Value: funcs.String(name.Value), Range: name.Rng}
	if appName != nil && appName.Value != "" {
		c.ContextVariables["celerity.appName"] = Value{Value: funcs.String(appName.Value), Range: appName.Rng}
	}
	if appEnv != nil && appEnv.Value != "" {
		c.ContextVariables["appEnv"] = Value{Value: funcs.String(appEnv.Value), Range: appEnv.Rng}
	}
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
