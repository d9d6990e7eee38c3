// Package resschema checks CloudFormation resource schemas (the provider
// schemas users write into a providers directory) against the Resource
// Provider Definition meta-schema published by
// aws-cloudformation/cloudformation-resource-schema (embedded under
// meta/, Apache-2.0), and against the rules of the specification the
// meta-schema cannot express: JSON pointers that must name a property,
// $refs that must resolve (cycles of bare references reported, never
// followed forever), array-only keywords, propertyTransform expressions.
//
// Check reads package syntax's tree, so every diagnostic has the exact
// range of the value (or key) it is about. Validator errors carry their
// instance location as a JSON pointer; locate maps it onto the tree.
// Keywords lists the meta-schema's keywords, at the top level and inside
// a property, for completion and hover.
package resschema
