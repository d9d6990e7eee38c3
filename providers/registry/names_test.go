package registry

import "testing"

func TestResourceTypeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"AWS::Lambda::Function", "aws/lambda/function"},
		{"AWS::EC2::VPC", "aws/ec2/vpc"},
		{"AWS::DynamoDB::Table", "aws/dynamodb/table"},
		{"AWS::SecretsManager::Secret", "aws/secretsmanager/secret"},
		{"AWS::ApiGateway::RestApi", "aws/apigateway/restApi"},
		{"AWS::ElastiCache::CacheCluster", "aws/elasticache/cacheCluster"},
		{"AWS::RDS::DBInstance", "aws/rds/dbInstance"},
		{"AWS::EC2::SecurityGroup", "aws/ec2/securityGroup"},
		{"AWS::Lambda::EventSourceMapping", "aws/lambda/eventSourceMapping"},
		{"AWS::ApiGatewayV2::Api", "aws/apigatewayv2/api"},
		{"Initech::TPS::Report", "initech/tps/report"},
		{"celerity/handlerConfig", "celerity/handlerConfig"},
	}
	for _, tt := range tests {
		if got := ResourceTypeName(tt.in); got != tt.want {
			t.Errorf("ResourceTypeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLowerCamel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"FunctionName", "functionName"},
		{"DBInstanceIdentifier", "dbInstanceIdentifier"},
		{"VPCId", "vpcId"},
		{"SSESpecification", "sseSpecification"},
		{"VPC", "vpc"},
		{"S3Bucket", "s3Bucket"},
		{"S3Key", "s3Key"},
		{"IPV6Enabled", "ipv6Enabled"},
		{"KMSMasterKeyId", "kmsMasterKeyId"},
		{"CNAMEs", "cnames"},
		{"URI", "uri"},
		{"HTTPSPort", "httpsPort"},
		{"ETag", "eTag"},
		{"Arn", "arn"},
		{"deadLetterTargetArn", "deadLetterTargetArn"},
		{"A", "a"},
		{"", ""},
		{"Ipv6CidrBlock", "ipv6CidrBlock"},
		{"DNSName", "dnsName"},
		{"DBName", "dbName"},
	}
	for _, tt := range tests {
		if got := LowerCamel(tt.in); got != tt.want {
			t.Errorf("LowerCamel(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
