package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var sgTypes = []string{"aws/ec2/securityGroup", "aws/ec2/securityGroupIngress"}

// ingressRules returns a security group's ingress rules, or the
// standalone ingress resource's own spec as one.
func (s *subject) ingressRules() []field {
	if s.res.Type == "aws/ec2/securityGroupIngress" {
		return []field{{v: s.res.FullSpec(), state: present}}
	}
	var out []field
	for _, f := range s.get("securityGroupIngress[*]") {
		if f.state == present {
			out = append(out, f)
		}
	}
	return out
}

// openToWorld reports whether an ingress rule admits any IPv4 or IPv6
// address.
func openToWorld(r field) (tri, field) {
	res := no
	var at field
	for _, k := range []string{"cidrIp", "cidrIpv6"} {
		f := lookup(r.v, []string{k}, r.path)[0]
		switch f.state {
		case unknown:
			if res == no {
				res = maybe
			}
		case present:
			if s, _ := strOf(f.v); s == "0.0.0.0/0" || s == "::/0" {
				return yes, f
			}
		}
	}
	return res, at
}

// portsOf reads an ingress rule's protocol and port range; all is set
// for protocol -1 (every port), known is false when unknown.
func portsOf(r field) (from, to int, all, known bool) {
	p := lookup(r.v, []string{"ipProtocol"}, r.path)[0]
	if p.state != present {
		return 0, 0, false, p.state == absent
	}
	proto, _ := strOf(p.v)
	if proto == "-1" || strings.EqualFold(proto, "all") {
		return 0, 65535, true, true
	}
	if !strings.EqualFold(proto, "tcp") && proto != "6" && !strings.EqualFold(proto, "udp") && proto != "17" {
		return 0, 0, false, true
	}
	fp := lookup(r.v, []string{"fromPort"}, r.path)[0]
	tp := lookup(r.v, []string{"toPort"}, r.path)[0]
	if fp.state == unknown || tp.state == unknown {
		return 0, 0, false, false
	}
	f, fok := numOf(fp.v)
	t, tok := numOf(tp.v)
	if fp.state == absent || tp.state == absent || !fok || !tok || f < 0 || t < 0 {
		return 0, 65535, true, true // no range: every port
	}
	return int(f), int(t), false, true
}

// worldPorts reports every world-open ingress rule admitting a port for
// which bad is true.
func worldPorts(what string, bad func(s *subject, from, to int, all bool) (int, bool)) func(*subject) {
	return func(s *subject) {
		for _, r := range s.ingressRules() {
			open, cidr := openToWorld(r)
			if open != yes {
				continue
			}
			from, to, all, known := portsOf(r)
			if !known || (from == 0 && to == 0 && !all) {
				continue
			}
			if port, ok := bad(s, from, to, all); ok {
				s.fail(cidr, "%s admits %s (port %d) from anywhere", rulePath(r), what, port)
			}
		}
	}
}

func rulePath(r field) string {
	if len(r.path) == 0 {
		return "the ingress rule"
	}
	return "spec." + pathText(r.path)
}

func inRange(ports []int, from, to int) (int, bool) {
	for _, p := range ports {
		if p >= from && p <= to {
			return p, true
		}
	}
	return 0, false
}

func paramPorts(s *subject, name string) []int {
	var out []int
	for _, p := range s.paramList(name) {
		if n, err := strconv.Atoi(p); err == nil {
			out = append(out, n)
		}
	}
	return out
}

const sgBase = "groupDescription: web\n"

var (
	_ = define(&Rule{
		ID: "sg-no-ssh-from-internet", Title: "Security groups do not admit SSH from the internet",
		Types: sgTypes, Severity: source.Error, Set: Security,
		Equivalents: []string{"INCOMING_SSH_DISABLED"},
		Rationale:   "Port 22 open to 0.0.0.0/0 invites brute-force and exploit traffic from the whole internet.",
		Fix:         "Restrict cidrIp to your network or a bastion's address, or use Session Manager and close the port.",
		Bad:         []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 22, toPort: 22, cidrIp: 0.0.0.0/0}]", sgBase + "securityGroupIngress: [{ipProtocol: '-1', cidrIpv6: '::/0'}]"},
		Good:        []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 22, toPort: 22, cidrIp: 10.0.0.0/8}]", sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 443, toPort: 443, cidrIp: 0.0.0.0/0}]"},
		check: worldPorts("SSH", func(_ *subject, from, to int, _ bool) (int, bool) {
			return inRange([]int{22}, from, to)
		}),
	})
	_ = define(&Rule{
		ID: "sg-restricted-common-ports", Title: "Security groups do not admit high-risk ports from the internet",
		Types: sgTypes, Severity: source.Error, Set: Security,
		Params:    []Param{{Name: "ports", Default: "20,21,3389,3306,4333", Doc: "the ports that must not be open to the internet (AWS Config's defaults; add 5432, 1433, 6379, 27017 and the like for your databases)"}},
		Rationale: "Remote desktop, FTP and database ports open to the internet expose services that are meant to stay private.",
		Fix:       "Restrict cidrIp to the networks that need the port, or reach the service through a private network.",
		Bad:       []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 3389, toPort: 3389, cidrIp: 0.0.0.0/0}]", sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 3000, toPort: 3400, cidrIp: 0.0.0.0/0}]"},
		Good:      []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 3306, toPort: 3306, cidrIp: 10.0.0.0/16}]"},
		check: worldPorts("a high-risk port", func(s *subject, from, to int, _ bool) (int, bool) {
			return inRange(paramPorts(s, "ports"), from, to)
		}),
	})
	_ = define(&Rule{
		ID: "sg-open-only-authorized-ports", Title: "Security groups open only authorized ports to the internet",
		Types: sgTypes, Severity: source.Warning, Set: Security,
		Equivalents: []string{"VPC_SG_OPEN_ONLY_TO_AUTHORIZED_PORTS"},
		Params:      []Param{{Name: "authorizedPorts", Default: "80,443", Doc: "the ports that may be open to 0.0.0.0/0"}},
		Rationale:   "Anything reachable from the whole internet should be a deliberate, short list (usually the web ports).",
		Fix:         "Restrict the rule's cidrIp, or add the port to authorizedPorts if it is meant to be public.",
		Bad:         []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 8080, toPort: 8080, cidrIp: 0.0.0.0/0}]"},
		Good:        []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 443, toPort: 443, cidrIp: 0.0.0.0/0}, {ipProtocol: tcp, fromPort: 8080, toPort: 8080, cidrIp: 10.0.0.0/8}]"},
		check: worldPorts("an unauthorized port", func(s *subject, from, to int, _ bool) (int, bool) {
			ok := paramPorts(s, "authorizedPorts")
			for p := from; p <= to; p++ {
				allowed := false
				for _, a := range ok {
					if a == p {
						allowed = true
					}
				}
				if !allowed {
					return p, true
				}
			}
			return 0, false
		}),
	})
	_ = define(&Rule{
		ID: "sg-no-all-traffic-from-internet", Title: "Security groups do not admit all traffic from the internet",
		Types: sgTypes, Severity: source.Error, Set: Security,
		Rationale: "Protocol -1 (or every port) from 0.0.0.0/0 exposes every service on the instances.",
		Fix:       "Admit only the protocols and ports needed, from the networks that need them.",
		Bad:       []string{sgBase + "securityGroupIngress: [{ipProtocol: '-1', cidrIp: 0.0.0.0/0}]", sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 0, toPort: 65535, cidrIp: 0.0.0.0/0}]"},
		Good:      []string{sgBase + "securityGroupIngress: [{ipProtocol: '-1', cidrIp: 10.0.0.0/8}]"},
		check: worldPorts("all traffic", func(_ *subject, from, to int, all bool) (int, bool) {
			return from, all || from <= 1 && to >= 65535
		}),
	})
	_ = define(&Rule{
		ID: "sg-rule-description", Title: "Security group rules say what they are for",
		Types: []string{"aws/ec2/securityGroup"}, Severity: source.Hint, Set: Security,
		Rationale: "A description on each rule is what lets a reviewer tell a deliberate opening from a leftover one.",
		Fix:       "Add description to each securityGroupIngress and securityGroupEgress rule.",
		Bad:       []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 443, toPort: 443, cidrIp: 10.0.0.0/8}]"},
		Good:      []string{sgBase + "securityGroupIngress: [{ipProtocol: tcp, fromPort: 443, toPort: 443, cidrIp: 10.0.0.0/8, description: internal HTTPS}]"},
		check: func(s *subject) {
			for _, p := range []string{"securityGroupIngress[*]", "securityGroupEgress[*]"} {
				for _, r := range s.get(p) {
					if r.state != present {
						continue
					}
					if d := lookup(r.v, []string{"description"}, r.path)[0]; d.state == absent {
						s.fail(r, "%s has no description", rulePath(r))
					}
				}
			}
		},
	})

	_ = define(&Rule{
		ID: "ec2-instance-no-public-ip", Title: "EC2 instances get no public IP address",
		Types: []string{"aws/ec2/instance"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EC2_INSTANCE_NO_PUBLIC_IP"},
		Rationale:   "An instance with a public address is one security group mistake away from the internet; put public endpoints behind a load balancer.",
		Fix:         "Set associatePublicIpAddress to false on the network interfaces and place the instance in a private subnet.",
		Bad:         []string{"imageId: ami-12345678\nnetworkInterfaces: [{deviceIndex: '0', associatePublicIpAddress: true, subnetId: subnet-1}]"},
		Good:        []string{"imageId: ami-12345678\nnetworkInterfaces: [{deviceIndex: '0', associatePublicIpAddress: false, subnetId: subnet-1}]"},
		check:       needFalse("networkInterfaces[*].associatePublicIpAddress"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ec2-instance-detailed-monitoring", Title: "EC2 instances have detailed monitoring",
		Types: []string{"aws/ec2/instance"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"EC2_INSTANCE_DETAILED_MONITORING_ENABLED"},
		Rationale:   "One-minute metrics let alarms and scaling react in time; the basic five-minute ones often do not.",
		Fix:         "Set monitoring to true.",
		Bad:         []string{"imageId: ami-12345678", "imageId: ami-12345678\nmonitoring: false"},
		Good:        []string{"imageId: ami-12345678\nmonitoring: true"},
		check:       needTrue("monitoring"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ec2-instance-in-vpc", Title: "EC2 instances run in a VPC subnet",
		Types: []string{"aws/ec2/instance"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"EC2_INSTANCES_IN_VPC"},
		Rationale:   "Naming the subnet makes the instance's network placement (and so its exposure) explicit.",
		Fix:         "Set subnetId, or networkInterfaces with a subnetId.",
		Bad:         []string{"imageId: ami-12345678"},
		Good:        []string{"imageId: ami-12345678\nsubnetId: subnet-1", "imageId: ami-12345678\nnetworkInterfaces: [{deviceIndex: '0', subnetId: subnet-1}]"},
		check: func(s *subject) {
			a, b := s.one("subnetId"), s.one("networkInterfaces")
			if a.state == absent && b.state == absent {
				s.failMissing(a, "spec.subnetId")
			}
		},
	})
	_ = define(&Rule{
		ID: "ec2-instance-profile-attached", Title: "EC2 instances have an instance profile",
		Types: []string{"aws/ec2/instance"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"EC2_INSTANCE_PROFILE_ATTACHED"},
		Rationale:   "An instance profile gives the instance short-lived role credentials, so no access keys are copied onto it.",
		Fix:         "Set iamInstanceProfile to an instance profile with the permissions the instance needs.",
		Bad:         []string{"imageId: ami-12345678"},
		Good:        []string{"imageId: ami-12345678\niamInstanceProfile: app"},
		check:       needSet("iamInstanceProfile"),
	})
	_ = define(&Rule{
		ID: "ec2-instance-ebs-optimized", Title: "EC2 instances are EBS-optimized",
		Types: []string{"aws/ec2/instance"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"EBS_OPTIMIZED_INSTANCE"},
		Rationale:   "EBS optimization gives volume traffic its own bandwidth, so disk and network do not starve each other.",
		Fix:         "Set ebsOptimized to true.",
		Bad:         []string{"imageId: ami-12345678\nebsOptimized: false"},
		Good:        []string{"imageId: ami-12345678\nebsOptimized: true"},
		check:       needTrue("ebsOptimized"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ec2-instance-ebs-encrypted", Title: "EC2 instances' EBS volumes are encrypted",
		Types: []string{"aws/ec2/instance"}, Severity: source.Warning, Set: Security,
		Rationale: "Unencrypted volumes and their snapshots expose data to anyone who can copy or share them.",
		Fix:       "Set blockDeviceMappings[*].ebs.encrypted to true.",
		Bad:       []string{"imageId: ami-12345678\nblockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 20}}]"},
		Good:      []string{"imageId: ami-12345678\nblockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 20, encrypted: true}}]"},
		check: func(s *subject) {
			for _, m := range s.get("blockDeviceMappings[*]") {
				if m.state == present && lookup(m.v, []string{"ebs"}, m.path)[0].state == present {
					for _, f := range lookup(m.v, []string{"ebs", "encrypted"}, m.path) {
						if f.state == absent {
							s.failMissing(f, fullPath(f))
						} else if b, ok := boolOf(f.v); f.state == present && ok && !b {
							s.fail(f, "spec.%s is false", pathText(f.path))
						}
					}
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "ec2-volume-encrypted", Title: "EBS volumes are encrypted",
		Types: []string{"aws/ec2/volume"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ENCRYPTED_VOLUMES"},
		Rationale:   "Unencrypted volumes and their snapshots expose data to anyone who can copy or share them.",
		Fix:         "Set encrypted to true (and kmsKeyId to your key).",
		Bad:         []string{"availabilityZone: eu-west-1a\nsize: 10", "availabilityZone: eu-west-1a\nsize: 10\nencrypted: false"},
		Good:        []string{"availabilityZone: eu-west-1a\nsize: 10\nencrypted: true", "availabilityZone: eu-west-1a\nsize: 10\nkmsKeyId: arn:aws:kms:eu-west-1:123456789012:key/k"},
		// A volume given a KMS key is encrypted with it (Guard's
		// ENCRYPTED_VOLUMES passes either).
		check: func(s *subject) {
			if s.one("kmsKeyId").state == absent {
				needTrue("encrypted")(s)
			}
		},
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "ec2-launch-template-imdsv2", Title: "Launch templates require IMDSv2",
		Types: []string{"aws/ec2/launchTemplate"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EC2_IMDSV2_CHECK"},
		Rationale:   "IMDSv1 answers any request from the instance, so a server-side request forgery bug can read the instance's role credentials; IMDSv2 requires a session token.",
		Fix:         "Set launchTemplateData.metadataOptions.httpTokens to required.",
		Bad:         []string{"launchTemplateData: {imageId: ami-12345678}", "launchTemplateData: {metadataOptions: {httpTokens: optional}}"},
		Good:        []string{"launchTemplateData: {metadataOptions: {httpTokens: required}}"},
		check:       needIn("launchTemplateData.metadataOptions.httpTokens", false, "required"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ec2-launch-template-no-public-ip", Title: "Launch templates give no public IP address",
		Types: []string{"aws/ec2/launchTemplate"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EC2_LAUNCH_TEMPLATE_PUBLIC_IP_DISABLED"},
		Rationale:   "Every instance launched from the template would get an internet-routable address.",
		Fix:         "Set associatePublicIpAddress to false in launchTemplateData.networkInterfaces.",
		Bad:         []string{"launchTemplateData: {networkInterfaces: [{deviceIndex: 0, associatePublicIpAddress: true}]}"},
		Good:        []string{"launchTemplateData: {networkInterfaces: [{deviceIndex: 0, associatePublicIpAddress: false}]}"},
		check:       needFalse("launchTemplateData.networkInterfaces[*].associatePublicIpAddress"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ec2-subnet-no-auto-public-ip", Title: "Subnets do not give instances public IP addresses by default",
		Types: []string{"aws/ec2/subnet"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"SUBNET_AUTO_ASSIGN_PUBLIC_IP_DISABLED"},
		Rationale:   "With mapPublicIpOnLaunch every instance started in the subnet is internet-addressable unless someone remembers to opt out.",
		Fix:         "Set mapPublicIpOnLaunch to false; give public addresses only to load balancers and NAT gateways.",
		Bad:         []string{"vpcId: vpc-1\ncidrBlock: 10.0.0.0/24\nmapPublicIpOnLaunch: true"},
		Good:        []string{"vpcId: vpc-1\ncidrBlock: 10.0.0.0/24\nmapPublicIpOnLaunch: false", "vpcId: vpc-1\ncidrBlock: 10.0.0.0/24"},
		check:       needFalse("mapPublicIpOnLaunch"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ec2-transit-gateway-no-auto-accept", Title: "Transit gateways do not accept shared attachments automatically",
		Types: []string{"aws/ec2/transitGateway"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EC2_TRANSIT_GATEWAY_AUTO_VPC_ATTACH_DISABLED"},
		Rationale:   "Auto-accept lets any account the gateway is shared with attach its VPC to your network without review.",
		Fix:         "Set autoAcceptSharedAttachments to disable.",
		Bad:         []string{"autoAcceptSharedAttachments: enable"},
		Good:        []string{"autoAcceptSharedAttachments: disable", "{}"},
		check:       needNotIn("autoAcceptSharedAttachments", "enable"),
	})
	_ = define(&Rule{
		ID: "autoscaling-launch-config-no-public-ip", Title: "Auto Scaling launch configurations give no public IP address",
		Types: []string{"aws/autoscaling/launchConfiguration"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"AUTOSCALING_LAUNCH_CONFIG_PUBLIC_IP_DISABLED"},
		Rationale:   "Every instance the group launches would be internet-addressable.",
		Fix:         "Set associatePublicIpAddress to false.",
		Bad:         []string{"imageId: ami-1\ninstanceType: t3.micro\nassociatePublicIpAddress: true"},
		Good:        []string{"imageId: ami-1\ninstanceType: t3.micro\nassociatePublicIpAddress: false"},
		// Not set, the subnet's mapPublicIpOnLaunch decides: Guard's
		// AUTOSCALING_LAUNCH_CONFIG_PUBLIC_IP_DISABLED wants it written.
		check:      needBool("associatePublicIpAddress", false, false),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "autoscaling-launch-config-imdsv2", Title: "Auto Scaling launch configurations require IMDSv2",
		Types: []string{"aws/autoscaling/launchConfiguration"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"AUTOSCALING_LAUNCHCONFIG_REQUIRES_IMDSV2"},
		Rationale:   "IMDSv1 lets a server-side request forgery bug read the instance's role credentials.",
		Fix:         "Set metadataOptions.httpTokens to required.",
		Bad:         []string{"imageId: ami-1\ninstanceType: t3.micro", "imageId: ami-1\ninstanceType: t3.micro\nmetadataOptions: {httpTokens: optional}"},
		Good:        []string{"imageId: ami-1\ninstanceType: t3.micro\nmetadataOptions: {httpTokens: required}"},
		check:       needIn("metadataOptions.httpTokens", false, "required"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "autoscaling-group-elb-health-check", Title: "Auto Scaling groups behind a load balancer use its health checks",
		Types: []string{"aws/autoscaling/autoScalingGroup"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"AUTOSCALING_GROUP_ELB_HEALTHCHECK_REQUIRED"},
		Rationale:   "With EC2 health checks an instance that stopped serving but still runs is never replaced.",
		Fix:         "Set healthCheckType to ELB.",
		Bad:         []string{"minSize: '1'\nmaxSize: '2'\ntargetGroupARNs: [arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/t/1]"},
		Good:        []string{"minSize: '1'\nmaxSize: '2'\ntargetGroupARNs: [arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/t/1]\nhealthCheckType: ELB", "minSize: '1'\nmaxSize: '2'"},
		check: func(s *subject) {
			attached := func(p string) bool { f := s.one(p); return f.state == present && !empty(f.v) }
			if !attached("targetGroupARNs") && !attached("loadBalancerNames") {
				return
			}
			needIn("healthCheckType", false, "ELB")(s)
		},
	})
	_ = define(&Rule{
		ID: "autoscaling-group-multiple-az", Title: "Auto Scaling groups span several availability zones",
		Types: []string{"aws/autoscaling/autoScalingGroup"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"AUTOSCALING_MULTIPLE_AZ"},
		Rationale:   "A group in one zone goes down with the zone.",
		Fix:         "List subnets in at least two zones in vpcZoneIdentifier (or two availabilityZones).",
		Bad:         []string{"minSize: '1'\nmaxSize: '2'\nvpcZoneIdentifier: [subnet-1]"},
		Good:        []string{"minSize: '1'\nmaxSize: '2'\nvpcZoneIdentifier: [subnet-1, subnet-2]"},
		check: func(s *subject) {
			for _, p := range []string{"vpcZoneIdentifier", "availabilityZones"} {
				f := s.one(p)
				if f.state == unknown || f.v.HasUnknown() {
					return
				}
				if f.state == present {
					if f.v.Len() < 2 {
						s.fail(f, "spec.%s lists %s", p, fmt.Sprint(f.v.Len(), " zone or subnet"))
					}
					return
				}
			}
		},
	})
)
