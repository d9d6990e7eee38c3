# Every resource says who owns it: an "owner" label in its metadata.
package policies.owner

deny contains finding if {
	some r in input.resources
	not r.metadata.labels.owner
	finding := {
		"msg": sprintf("%s has no owner label", [r.name]),
		"resource": r.name,
		"path": "metadata.labels",
	}
}
