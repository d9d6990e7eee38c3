package registry

import (
	"strings"
	"unicode"
)

// ResourceTypeName converts a CloudFormation type name to the blueprint
// form: AWS::Lambda::Function becomes aws/lambda/function. The provider
// and service segments are lower-cased whole (AWS::DynamoDB::Table is
// aws/dynamodb/table, as blueprints write it); the resource segment is
// lowerCamelCase with leading acronyms folded (AWS::RDS::DBInstance is
// aws/rds/dbInstance, AWS::ApiGateway::RestApi is aws/apigateway/restApi).
// A name already in blueprint form (celerity/handlerConfig, as the
// built-in Celerity schemas write their typeName) is kept as written; any
// other name that is not three ::-separated segments is returned
// lower-cased with :: replaced by /.
func ResourceTypeName(cfn string) string {
	if strings.Contains(cfn, "/") && !strings.Contains(cfn, "::") {
		return cfn
	}
	parts := strings.Split(cfn, "::")
	for i, p := range parts {
		if i == len(parts)-1 && len(parts) >= 3 {
			parts[i] = LowerCamel(p)
		} else {
			parts[i] = strings.ToLower(p)
		}
	}
	return strings.Join(parts, "/")
}

// LowerCamel converts a CloudFormation property name to the blueprint
// form: FunctionName becomes functionName. A leading run of capitals is an
// acronym and is lower-cased as a whole, except for its last letter when
// that starts the next word (VPCId is vpcId, DBInstanceIdentifier is
// dbInstanceIdentifier, SSESpecification is sseSpecification); an acronym
// followed by a digit or a plural "s" stays whole (S3Bucket is s3Bucket,
// IPV6Enabled is ipv6Enabled, CNAMEs is cnames). Names already in
// lowerCamelCase are unchanged.
func LowerCamel(name string) string {
	rs := []rune(name)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	switch {
	case n == 0:
		return name
	case n == len(rs):
		return strings.ToLower(name)
	case n == 1:
		// One capital starts an ordinary word.
	case unicode.IsLower(rs[n]):
		pluralAcronym := rs[n] == 's' && (n+1 == len(rs) || !unicode.IsLower(rs[n+1]))
		if pluralAcronym {
			n++
		} else {
			n-- // the last capital begins the next word
		}
	}
	for i := 0; i < n; i++ {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}
