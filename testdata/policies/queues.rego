# No queue without a dead-letter queue: a message that keeps failing must
# land somewhere instead of blocking its consumers. A redrive policy only
# known after deploy is given the benefit of the doubt.
package policies.queues

warn contains finding if {
	some r in input.resources
	r.type == "aws/sqs/queue"
	not r.spec.redrivePolicy
	not redrive_unknown(r)
	finding := {
		"msg": sprintf("queue %s has no dead-letter queue (spec.redrivePolicy)", [r.name]),
		"resource": r.name,
		"path": "spec",
	}
}

redrive_unknown(r) if {
	some p in r.unknowns
	startswith(p, "spec.redrivePolicy")
}
