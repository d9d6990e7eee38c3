package rules

import (
	"regexp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var lbV2 = []string{"aws/elasticloadbalancingv2/loadBalancer"}

// acmCertificateARN matches an ACM certificate's ARN (an IAM server
// certificate's is arn:aws:iam::...:server-certificate/...).
var acmCertificateARN = regexp.MustCompile(`^arn:aws[a-z0-9-]*:acm:[a-z0-9-]+:\d{12}:certificate/[\w-]{1,64}$`)

// lbAttr checks the load balancer attribute key: its value must be one
// of want; absentOK says the default is fine. onlyFor limits the check to
// load balancer types (application, network, gateway; unset means
// application).
func lbAttr(key string, absentOK bool, onlyFor []string, want ...string) func(*subject) {
	return func(s *subject) {
		if onlyFor != nil {
			t := s.one("type")
			if t.state == unknown {
				return
			}
			v := "application"
			if t.state == present {
				v, _ = strOf(t.v)
			}
			if !containsFold(onlyFor, v) {
				return
			}
		}
		for _, a := range s.get("loadBalancerAttributes[*]") {
			if a.state == unknown {
				return
			}
			if a.state != present {
				continue
			}
			k := lookup(a.v, []string{"key"}, a.path)[0]
			if k.state == unknown {
				return
			}
			if kv, _ := strOf(k.v); kv != key {
				continue
			}
			v := lookup(a.v, []string{"value"}, a.path)[0]
			if v.state == unknown {
				return
			}
			if vv, ok := strOf(v.v); ok && !containsFold(want, vv) {
				s.fail(v, "load balancer attribute %s is %s, want %s", key, describe(v.v), orList(want))
			}
			return
		}
		if !absentOK {
			s.failMissing(s.one("loadBalancerAttributes"), "the "+key+" attribute of spec.loadBalancerAttributes")
		}
	}
}

func attrs(kv ...string) string {
	out := "loadBalancerAttributes: ["
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			out += ", "
		}
		out += "{key: " + kv[i] + ", value: '" + kv[i+1] + "'}"
	}
	return out + "]"
}

const listenerBase = "loadBalancerArn: arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/a/1\n"

var (
	_ = define(&Rule{
		ID: "alb-drop-invalid-headers", Title: "Application load balancers drop invalid HTTP headers",
		Types: lbV2, Severity: source.Information, Set: Security,
		Equivalents: []string{"ALB_HTTP_DROP_INVALID_HEADER_ENABLED"},
		Rationale:   "Passing malformed headers through enables request smuggling against the targets.",
		Fix:         "Set the attribute routing.http.drop_invalid_header_fields.enabled to true.",
		Bad:         []string{"type: application", attrs("routing.http.drop_invalid_header_fields.enabled", "false")},
		Good:        []string{attrs("routing.http.drop_invalid_header_fields.enabled", "true"), "type: network"},
		check:       lbAttr("routing.http.drop_invalid_header_fields.enabled", false, []string{"application"}, "true"),
	})
	_ = define(&Rule{
		ID: "alb-desync-mitigation", Title: "Application load balancers mitigate HTTP desync",
		Types: lbV2, Severity: source.Information, Set: Security,
		Equivalents: []string{"ALB_DESYNC_MODE_CHECK"},
		Rationale:   "The monitor mode lets ambiguous requests (request smuggling) through to the targets.",
		Fix:         "Set routing.http.desync_mitigation_mode to defensive or strictest.",
		Bad:         []string{attrs("routing.http.desync_mitigation_mode", "monitor")},
		Good:        []string{"type: application", attrs("routing.http.desync_mitigation_mode", "strictest")},
		check:       lbAttr("routing.http.desync_mitigation_mode", true, []string{"application"}, "defensive", "strictest"),
	})
	_ = define(&Rule{
		ID: "elb-deletion-protection", Title: "Load balancers have deletion protection",
		Types: lbV2, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"ELB_DELETION_PROTECTION_ENABLED"},
		Rationale:   "Deleting a load balancer takes the service off the air and frees its DNS name.",
		Fix:         "Set the attribute deletion_protection.enabled to true.",
		Bad:         []string{"type: application", attrs("deletion_protection.enabled", "false")},
		Good:        []string{attrs("deletion_protection.enabled", "true")},
		check:       lbAttr("deletion_protection.enabled", false, nil, "true"),
	})
	_ = define(&Rule{
		ID: "elb-access-logs", Title: "Load balancers write access logs",
		Types: lbV2, Severity: source.Information, Set: Security,
		Rationale: "Access logs record every request (client, path, status), needed to investigate abuse.",
		Fix:       "Set the attributes access_logs.s3.enabled to true and access_logs.s3.bucket.",
		Bad:       []string{"type: application", attrs("access_logs.s3.enabled", "false")},
		Good:      []string{attrs("access_logs.s3.enabled", "true", "access_logs.s3.bucket", "logs")},
		check:     lbAttr("access_logs.s3.enabled", false, nil, "true"),
	})
	_ = define(&Rule{
		ID: "nlb-cross-zone", Title: "Network load balancers balance across zones",
		Types: lbV2, Severity: source.Hint, Set: Reliability,
		Rationale: "Without cross-zone balancing a zone with fewer healthy targets gets the same share of traffic.",
		Fix:       "Set the attribute load_balancing.cross_zone.enabled to true.",
		Bad:       []string{"type: network", "type: network\n" + attrs("load_balancing.cross_zone.enabled", "false")},
		Good:      []string{"type: network\n" + attrs("load_balancing.cross_zone.enabled", "true"), "type: application"},
		check:     lbAttr("load_balancing.cross_zone.enabled", false, []string{"network", "gateway"}, "true"),
	})
	_ = define(&Rule{
		ID: "alb-internal-or-waf", Title: "Load balancers are internal unless meant to be public",
		Types: lbV2, Severity: source.Hint, Set: Security,
		Rationale: "The default scheme is internet-facing; internal services should say internal.",
		Fix:       "Set scheme to internal, or to internet-facing on purpose (and put WAF in front).",
		Bad:       []string{"type: application"},
		Good:      []string{"scheme: internal", "scheme: internet-facing"},
		check:     needSet("scheme"),
	})
	_ = define(&Rule{
		ID: "alb-http-to-https-redirect", Title: "HTTP listeners redirect to HTTPS",
		Types: []string{"aws/elasticloadbalancingv2/listener"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ALB_HTTP_TO_HTTPS_REDIRECTION_CHECK"},
		Rationale:   "Serving over plain HTTP sends cookies and data unencrypted.",
		Fix:         "Make the HTTP listener's default action a redirect with protocol HTTPS.",
		Bad:         []string{listenerBase + "protocol: HTTP\nport: 80\ndefaultActions: [{type: forward, targetGroupArn: tg}]"},
		Good:        []string{listenerBase + "protocol: HTTP\nport: 80\ndefaultActions: [{type: redirect, redirectConfig: {protocol: HTTPS, port: '443', statusCode: HTTP_301}}]"},
		check: when("protocol", "", []string{"HTTP"}, func(s *subject) {
			for _, a := range s.get("defaultActions[*]") {
				if a.state != present {
					return
				}
				t := lookup(a.v, []string{"type"}, a.path)[0]
				p := lookup(a.v, []string{"redirectConfig", "protocol"}, a.path)[0]
				if t.state == unknown || p.state == unknown {
					return
				}
				tv, _ := strOf(t.v)
				pv, _ := strOf(p.v)
				if tv == "redirect" && pv == "HTTPS" || tv == "fixed-response" {
					continue
				}
				s.fail(t, "spec.%s serves HTTP without redirecting to HTTPS", pathText(a.path))
			}
		}),
	})
	_ = define(&Rule{
		ID: "elbv2-listener-certificate", Title: "HTTPS and TLS listeners have an ACM certificate",
		Types: []string{"aws/elasticloadbalancingv2/listener"}, Severity: source.Error, Set: Security,
		Equivalents: []string{"ELBV2_ACM_CERTIFICATE_REQUIRED"},
		Rationale:   "An HTTPS or TLS listener cannot serve without a certificate; ACM certificates renew themselves.",
		Fix:         "Set certificates to an ACM certificate ARN.",
		Bad:         []string{listenerBase + "protocol: HTTPS\nport: 443\ndefaultActions: [{type: forward, targetGroupArn: tg}]", listenerBase + "protocol: HTTPS\nport: 443\ncertificates: [{certificateArn: 'arn:aws:iam::123456789012:server-certificate/c'}]\ndefaultActions: [{type: forward, targetGroupArn: tg}]"},
		Good:        []string{listenerBase + "protocol: HTTPS\nport: 443\ncertificates: [{certificateArn: arn:aws:acm:eu-west-1:123456789012:certificate/c}]\ndefaultActions: [{type: forward, targetGroupArn: tg}]"},
		check: when("protocol", "", []string{"HTTPS", "TLS"}, func(s *subject) {
			needSet("certificates")(s)
			for _, f := range s.get("certificates[*].certificateArn") {
				if v, ok := strOf(f.v); f.state == present && ok && !acmCertificateARN.MatchString(v) {
					s.fail(f, "spec.%s is not an ACM certificate", pathText(f.path))
				}
			}
		}),
	})
	_ = define(&Rule{
		ID: "elbv2-listener-tls-policy", Title: "HTTPS and TLS listeners use a TLS 1.2+ security policy",
		Types: []string{"aws/elasticloadbalancingv2/listener"}, Severity: source.Warning, Set: Security,
		Params:    []Param{{Name: "weak", Default: "ELBSecurityPolicy-2015-05,ELBSecurityPolicy-2016-08,ELBSecurityPolicy-TLS-1-0-2015-04,ELBSecurityPolicy-TLS-1-1-2017-01,ELBSecurityPolicy-FS-2018-06,ELBSecurityPolicy-FS-1-1-2019-08", Doc: "security policies that allow TLS 1.0 or 1.1"}},
		Rationale: "Policies allowing TLS 1.0 and 1.1 accept ciphers with known weaknesses.",
		Fix:       "Set sslPolicy to ELBSecurityPolicy-TLS13-1-2-2021-06 (or another TLS 1.2+ policy).",
		Bad:       []string{listenerBase + "protocol: HTTPS\nport: 443\nsslPolicy: ELBSecurityPolicy-2016-08\ndefaultActions: [{type: forward, targetGroupArn: tg}]"},
		Good:      []string{listenerBase + "protocol: HTTPS\nport: 443\nsslPolicy: ELBSecurityPolicy-TLS13-1-2-2021-06\ndefaultActions: [{type: forward, targetGroupArn: tg}]"},
		check: func(s *subject) {
			for _, f := range s.get("sslPolicy") {
				if v, ok := strOf(f.v); f.state == present && ok && containsFold(s.paramList("weak"), v) {
					s.fail(f, "spec.sslPolicy %s allows TLS before 1.2", describe(f.v))
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "elb-classic-https-listeners", Title: "Classic load balancers listen with HTTPS or SSL only",
		Types: []string{"aws/elasticloadbalancing/loadBalancer"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ELB_TLS_HTTPS_LISTENERS_ONLY"},
		Rationale:   "HTTP and TCP listeners carry traffic unencrypted.",
		Fix:         "Use protocol HTTPS or SSL with a certificate.",
		Bad:         []string{"listeners: [{loadBalancerPort: '80', instancePort: '80', protocol: HTTP}]"},
		Good:        []string{"listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS, sslCertificateId: c}]"},
		check:       needIn("listeners[*].protocol", false, "HTTPS", "SSL"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "elb-classic-logging", Title: "Classic load balancers write access logs",
		Types: []string{"aws/elasticloadbalancing/loadBalancer"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"ELB_LOGGING_ENABLED"},
		Rationale:   "Access logs record every request, needed to investigate abuse.",
		Fix:         "Set accessLoggingPolicy.enabled to true with an S3 bucket.",
		Bad:         []string{"listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS}]", "listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS}]\naccessLoggingPolicy: {enabled: false, s3BucketName: logs}"},
		Good:        []string{"listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS}]\naccessLoggingPolicy: {enabled: true, s3BucketName: logs}"},
		check:       needTrue("accessLoggingPolicy.enabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "elb-classic-cross-zone", Title: "Classic load balancers balance across zones",
		Types: []string{"aws/elasticloadbalancing/loadBalancer"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"ELB_CROSS_ZONE_LOAD_BALANCING_ENABLED"},
		Rationale:   "Without cross-zone balancing a zone with fewer instances gets the same share of traffic.",
		Fix:         "Set crossZone to true.",
		Bad:         []string{"listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS}]", "listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS}]\ncrossZone: false"},
		Good:        []string{"listeners: [{loadBalancerPort: '443', instancePort: '80', protocol: HTTPS}]\ncrossZone: true"},
		check:       needTrue("crossZone"),
		hasQuickFx:  true,
	})

	_ = define(&Rule{
		ID: "apigw-execution-logging", Title: "API Gateway stages log execution",
		Types: []string{"aws/apigateway/stage"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"API_GW_EXECUTION_LOGGING_ENABLED"},
		Rationale:   "Execution logs show authorizer decisions, integration errors and latencies per request.",
		Fix:         "Set methodSettings [{httpMethod: '*', resourcePath: '/*', loggingLevel: ERROR or INFO}].",
		Bad:         []string{stageBase, stageBase + "methodSettings: [{httpMethod: '*', resourcePath: '/*', loggingLevel: 'OFF'}]"},
		Good:        []string{stageBase + "methodSettings: [{httpMethod: '*', resourcePath: '/*', loggingLevel: ERROR}]"},
		check:       needIn("methodSettings[*].loggingLevel", false, "ERROR", "INFO"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "apigw-cache-encrypted", Title: "API Gateway stages cache every method, encrypted",
		Types: []string{"aws/apigateway/stage"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"API_GW_CACHE_ENABLED_AND_ENCRYPTED"},
		Rationale:   "Cached responses may hold personal data; an unencrypted cache stores them in plain text.",
		Fix:         "Set cachingEnabled and cacheDataEncrypted to true on each method setting.",
		Bad:         []string{stageBase + "cacheClusterEnabled: true\nmethodSettings: [{httpMethod: '*', resourcePath: '/*', cachingEnabled: true}]", stageBase + "methodSettings: [{httpMethod: '*', resourcePath: '/*', cachingEnabled: false, cacheDataEncrypted: true}]"},
		Good:        []string{stageBase + "cacheClusterEnabled: true\nmethodSettings: [{httpMethod: '*', resourcePath: '/*', cachingEnabled: true, cacheDataEncrypted: true}]", stageBase},
		// Guard's API_GW_CACHE_ENABLED_AND_ENCRYPTED: every method
		// setting caches, and encrypts what it caches.
		check:      ifSet("methodSettings", all(needTrue("methodSettings[*].cachingEnabled"), needTrue("methodSettings[*].cacheDataEncrypted"))),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "apigw-xray-tracing", Title: "API Gateway stages trace with X-Ray",
		Types: []string{"aws/apigateway/stage"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"API_GW_XRAY_ENABLED"},
		Rationale:   "Tracing shows where a request's latency and errors come from across the integration.",
		Fix:         "Set tracingEnabled to true.",
		Bad:         []string{stageBase, stageBase + "tracingEnabled: false"},
		Good:        []string{stageBase + "tracingEnabled: true"},
		check:       needTrue("tracingEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "apigw-client-certificate", Title: "API Gateway stages authenticate to their backend with a client certificate",
		Types: []string{"aws/apigateway/stage"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"API_GW_SSL_ENABLED"},
		Rationale:   "A client certificate lets the backend verify that requests come from API Gateway.",
		Fix:         "Set clientCertificateId.",
		Bad:         []string{stageBase},
		Good:        []string{stageBase + "clientCertificateId: cert1"},
		check:       needSet("clientCertificateId"),
	})
	_ = define(&Rule{
		ID: "apigw-access-logs", Title: "API Gateway stages write access logs",
		Types: []string{"aws/apigateway/stage"}, Severity: source.Information, Set: Security,
		Rationale: "Access logs record who called which route and with what result.",
		Fix:       "Set accessLogSetting.destinationArn (and format).",
		Bad:       []string{stageBase},
		Good:      []string{stageBase + "accessLogSetting: {destinationArn: 'arn:aws:logs:eu-west-1:123456789012:log-group:api', format: '$context.requestId'}"},
		check:     needSet("accessLogSetting.destinationArn"),
	})
	_ = define(&Rule{
		ID: "apigw-endpoint-type", Title: "API Gateway REST APIs are regional or private",
		Types: []string{"aws/apigateway/restApi"}, Severity: source.Hint, Set: Security,
		Params:    []Param{{Name: "types", Default: "REGIONAL,PRIVATE", Doc: "the allowed endpoint types"}},
		Rationale: "Edge-optimized is the default; regional and private endpoints keep traffic where WAF and VPC controls apply.",
		Fix:       "Set endpointConfiguration.types to [REGIONAL] or [PRIVATE].",
		Bad:       []string{"name: api", "name: api\nendpointConfiguration: {types: [EDGE]}"},
		Good:      []string{"name: api\nendpointConfiguration: {types: [REGIONAL]}"},
		check: func(s *subject) {
			for _, f := range s.get("endpointConfiguration.types[*]") {
				switch f.state {
				case absent:
					s.failMissing(f, fullPath(f))
				case present:
					if v, ok := strOf(f.v); ok && !containsFold(s.paramList("types"), v) {
						s.fail(f, "spec.%s is %s", pathText(f.path), describe(f.v))
					}
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "apigw-method-authorization", Title: "API Gateway methods require authorization",
		Types: []string{"aws/apigateway/method"}, Severity: source.Warning, Set: Security,
		Rationale: "A method with authorizationType NONE can be called by anyone who finds the URL.",
		Fix:       "Set authorizationType to AWS_IAM, COGNITO_USER_POOLS or CUSTOM (OPTIONS preflight methods are exempt).",
		Bad:       []string{"restApiId: a\nresourceId: r\nhttpMethod: GET\nauthorizationType: NONE"},
		Good:      []string{"restApiId: a\nresourceId: r\nhttpMethod: GET\nauthorizationType: AWS_IAM", "restApiId: a\nresourceId: r\nhttpMethod: OPTIONS\nauthorizationType: NONE"},
		check: func(s *subject) {
			if m := s.one("httpMethod"); m.state != present {
				return
			} else if v, _ := strOf(m.v); v == "OPTIONS" {
				return
			}
			needNotIn("authorizationType", "NONE")(s)
		},
	})
	_ = define(&Rule{
		ID: "apigwv2-access-logs", Title: "API Gateway v2 stages write access logs",
		Types: []string{"aws/apigatewayv2/stage"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"API_GWV2_ACCESS_LOGS_ENABLED"},
		Rationale:   "Access logs record who called which route and with what result.",
		Fix:         "Set accessLogSettings.destinationArn (and format).",
		Bad:         []string{"apiId: a\nstageName: prod", "apiId: a\nstageName: prod\naccessLogSettings: {destinationArn: 'arn:aws:logs:eu-west-1:123456789012:log-group:api'}"},
		Good:        []string{"apiId: a\nstageName: prod\naccessLogSettings: {destinationArn: 'arn:aws:logs:eu-west-1:123456789012:log-group:api', format: '$context.requestId'}"},
		check:       all(needString("accessLogSettings.destinationArn"), needString("accessLogSettings.format")),
	})
	_ = define(&Rule{
		ID: "apigwv2-route-authorization", Title: "API Gateway v2 routes require authorization",
		Types: []string{"aws/apigatewayv2/route"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"API_GWV2_AUTHORIZATION_TYPE_CONFIGURED"},
		Rationale:   "A route with no authorization can be called by anyone.",
		Fix:         "Set authorizationType to AWS_IAM, JWT or CUSTOM.",
		Bad:         []string{"apiId: a\nrouteKey: GET /orders", "apiId: a\nrouteKey: GET /orders\nauthorizationType: NONE"},
		Good:        []string{"apiId: a\nrouteKey: GET /orders\nauthorizationType: JWT\nauthorizerId: au"},
		check:       needIn("authorizationType", false, "AWS_IAM", "JWT", "CUSTOM"),
		hasQuickFx:  true,
	})
)

const stageBase = "restApiId: a\nstageName: prod\n"
