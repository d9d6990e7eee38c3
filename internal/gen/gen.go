// Package gen generates realistic, valid blueprints of any size for
// benchmarks and load tests: variables, values, data sources, resources
// whose spec fields reference each other through ${..} substitutions, a few
// function calls, and exports. Output is deterministic.
package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Blueprint returns a blueprint with nResources resources in format
// "yaml", "json" or "bp" (the blueprint language; anything else is
// treated as "yaml").
func Blueprint(nResources int, format string) []byte {
	doc := build(nResources)
	if format == "bp" {
		return writeBP(doc)
	}
	if format == "json" {
		var buf bytes.Buffer
		writeJSON(&buf, doc, 0)
		buf.WriteByte('\n')
		return buf.Bytes()
	}
	var buf bytes.Buffer
	writeYAML(&buf, doc, 0)
	return buf.Bytes()
}

// kv is an ordered mapping entry; the document is built from []kv, []any
// and strings/ints/bools so both writers keep the same order.
type kv struct {
	k string
	v any
}

var kinds = []struct{ typ, nameField string }{
	{"aws/lambda/function", "functionName"},
	{"aws/dynamodb/table", "tableName"},
	{"aws/s3/bucket", "bucketName"},
	{"aws/sqs/queue", "queueName"},
}

// build returns a blueprint that checks clean against the built-in AWS
// provider: every spec field exists in its CloudFormation schema,
// references only point backwards (no cycles), and each function links to
// the tables, buckets and queues of its group of four.
func build(n int) []kv {
	variables := []kv{
		{"env", []kv{{"type", "string"}, {"description", "The deployment environment."}, {"default", "staging"}, {"allowedValues", []any{"staging", "production"}}}},
		{"region", []kv{{"type", "aws/region"}, {"description", "Region to deploy to."}, {"default", "eu-west-1"}}},
		{"memory", []kv{{"type", "integer"}, {"default", 512}}},
		{"debug", []kv{{"type", "boolean"}, {"default", false}}},
		{"roleArn", []kv{{"type", "string"}, {"default", "arn:aws:iam::123456789012:role/app"}}},
	}
	values := []kv{
		{"prefix", []kv{{"type", "string"}, {"value", "${join(list(variables.env, \"app\"), \"-\")}"}}},
		{"tags", []kv{{"type", "array"}, {"value", "${list(variables.env, \"team:platform\")}"}}},
	}
	datasources := []kv{
		{"network", []kv{
			{"type", "aws/vpc"},
			{"description", "The shared network."},
			{"filter", []kv{{"field", "tags"}, {"operator", "has key"}, {"search", "${variables.env}-vpc"}}},
			{"exports", []kv{{"vpc", []kv{{"type", "string"}, {"aliasFor", "vpcId"}}}, {"subnetIds", []kv{{"type", "array"}}}}},
		}},
	}
	var resources []kv
	for i := 0; i < n; i++ {
		kind := kinds[i%len(kinds)]
		name := "r" + strconv.Itoa(i)
		group := "g" + strconv.Itoa(i/len(kinds))
		tags := []any{[]kv{{"key", "env"}, {"value", "${variables.env}"}}}
		if i > 0 {
			prev := "r" + strconv.Itoa(i-1)
			tags = append(tags, []kv{{"key", "previous"}, {"value", "${resources." + prev + ".spec." + kinds[(i-1)%len(kinds)].nameField + "}"}})
		}
		spec := []kv{
			{kind.nameField, fmt.Sprintf("${values.prefix}-%s-%d", strings.ReplaceAll(kind.typ[4:], "/", "-"), i)},
		}
		labels := []kv{{"app", "orders"}, {"group", group}}
		res := []kv{
			{"type", kind.typ},
			{"description", fmt.Sprintf("Resource %d of the generated blueprint.", i)},
		}
		switch i % len(kinds) {
		case 0:
			env := []kv{{"ENV", "${variables.env}"}, {"REGION", "${variables.region}"}, {"DEBUG", "${if(variables.debug, \"1\", \"0\")}"}}
			if i >= len(kinds) {
				env = append(env, kv{"PREVIOUS_TABLE", "${resources.r" + strconv.Itoa(i-3) + ".spec.tableName}"})
			}
			spec = append(spec,
				kv{"role", "${variables.roleArn}"},
				kv{"handler", "index.handler"},
				kv{"memorySize", "${variables.memory}"},
				kv{"runtime", "nodejs20.x"},
				kv{"timeout", 30},
				kv{"environment", []kv{{"variables", env}}},
				kv{"code", []kv{{"zipFile", "exports.handler = async () => {\n  console.log(\"starting ${variables.env}\");\n};\n"}}},
				kv{"tags", tags})
			res = append(res, kv{"linkSelector", []kv{{"byLabel", []kv{{"group", group}}}}})
			labels = labels[:1]
		case 1:
			spec = append(spec,
				kv{"billingMode", "PAY_PER_REQUEST"},
				kv{"attributeDefinitions", []any{[]kv{{"attributeName", "id"}, {"attributeType", "S"}}}},
				kv{"keySchema", []any{[]kv{{"attributeName", "id"}, {"keyType", "HASH"}}}},
				kv{"tags", tags})
		case 2:
			spec = append(spec, kv{"versioningConfiguration", []kv{{"status", "Enabled"}}}, kv{"tags", tags})
		case 3:
			spec = append(spec, kv{"visibilityTimeout", 45}, kv{"delaySeconds", "${len(datasources.network.subnetIds)}"}, kv{"tags", tags})
		}
		res = append(res,
			kv{"metadata", []kv{{"displayName", fmt.Sprintf("Resource %d", i)}, {"labels", labels}}},
			kv{"spec", spec})
		if i%10 == 9 {
			res = append(res, kv{"condition", "${eq(variables.env, \"production\")}"})
		}
		resources = append(resources, kv{name, res})
	}
	exports := []kv{{"envName", []kv{{"type", "string"}, {"field", "variables.env"}}}}
	if n > 0 {
		exports = append(exports, kv{"lastName", []kv{{"type", "string"}, {"field", "resources.r" + strconv.Itoa(n-1) + ".spec." + kinds[(n-1)%len(kinds)].nameField}}})
	}
	return []kv{
		{"version", "2023-04-20"},
		{"transform", "celerity-2023-04-20"},
		{"variables", variables},
		{"values", values},
		{"datasources", datasources},
		{"resources", resources},
		{"exports", exports},
	}
}

func writeJSON(buf *bytes.Buffer, v any, depth int) {
	ind := strings.Repeat("  ", depth+1)
	switch v := v.(type) {
	case []kv:
		buf.WriteString("{")
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("\n" + ind)
			jsonString(buf, e.k)
			buf.WriteString(": ")
			writeJSON(buf, e.v, depth+1)
		}
		buf.WriteString("\n" + strings.Repeat("  ", depth) + "}")
	case []any:
		buf.WriteString("[")
		for i, e := range v {
			if i > 0 {
				buf.WriteString(", ")
			}
			writeJSON(buf, e, depth+1)
		}
		buf.WriteString("]")
	case string:
		jsonString(buf, v)
	default:
		fmt.Fprint(buf, v)
	}
}

func jsonString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

func writeYAML(buf *bytes.Buffer, v []kv, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, e := range v {
		buf.WriteString(ind + e.k + ":")
		writeYAMLValue(buf, e.v, depth)
	}
}

func writeYAMLValue(buf *bytes.Buffer, v any, depth int) {
	ind := strings.Repeat("  ", depth+1)
	switch v := v.(type) {
	case []kv:
		if len(v) == 0 {
			buf.WriteString(" {}\n")
			return
		}
		buf.WriteByte('\n')
		writeYAML(buf, v, depth+1)
	case []any:
		if len(v) == 0 {
			buf.WriteString(" []\n")
			return
		}
		buf.WriteByte('\n')
		for _, e := range v {
			if m, ok := e.([]kv); ok {
				// A mapping item: the first key on the dash line.
				buf.WriteString(ind + "- " + m[0].k + ":")
				writeYAMLValue(buf, m[0].v, depth+2)
				writeYAML(buf, m[1:], depth+2)
				continue
			}
			buf.WriteString(ind + "-")
			writeYAMLValue(buf, e, depth+1)
		}
	case string:
		switch {
		case strings.Contains(v, "\n"):
			buf.WriteString(" |\n")
			for _, line := range strings.Split(strings.TrimSuffix(v, "\n"), "\n") {
				buf.WriteString(ind + line + "\n")
			}
		case strings.ContainsAny(v, "\"'#:") || strings.HasPrefix(v, "$") && strings.Contains(v, "\""):
			buf.WriteByte(' ')
			jsonString(buf, v) // a valid double-quoted YAML scalar
			buf.WriteByte('\n')
		case v == "2023-04-20" || strings.Contains(v, " ") && v[0] != '$':
			buf.WriteString(" '" + v + "'\n")
		default:
			buf.WriteString(" " + v + "\n")
		}
	default:
		fmt.Fprintf(buf, " %v\n", v)
	}
}
