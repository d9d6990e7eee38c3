package catalog

import (
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	recs := []Record{
		{Name: "aws/sqs/queue", TypeName: "AWS::SQS::Queue", Schema: []byte(`{"typeName":"AWS::SQS::Queue","properties":{}}`)},
		{Name: "aws/lambda/function", TypeName: "AWS::Lambda::Function", Schema: []byte(`{"typeName":"AWS::Lambda::Function"}`), Doc: []byte(`{"description":"A function."}`)},
	}
	dict := Dictionary([][]byte{recs[0].Schema, recs[1].Schema}, 1024)
	index, data, err := Build(recs, dict)
	if err != nil {
		t.Fatal(err)
	}
	index2, data2, _ := Build([]Record{recs[1], recs[0]}, dict)
	if string(index) != string(index2) || string(data) != string(data2) {
		t.Error("output depends on the order of the records")
	}
	c, err := Open(string(index), string(dict), string(data))
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 2 || c.Entry(0).Name != "aws/lambda/function" || c.Entry(1).TypeName != "AWS::SQS::Queue" {
		t.Fatalf("entries: %+v %+v", c.Entry(0), c.Entry(1))
	}
	for i, want := range []Record{recs[1], recs[0]} {
		got, err := c.Schema(i)
		if err != nil || string(got) != string(want.Schema) {
			t.Errorf("schema %d = %q, %v", i, got, err)
		}
		doc, err := c.Doc(i)
		if err != nil || string(doc) != string(want.Doc) {
			t.Errorf("doc %d = %q, %v", i, doc, err)
		}
	}
	if i, ok := c.Find("aws/sqs/queue"); !ok || i != 1 {
		t.Errorf("Find = %d, %v", i, ok)
	}
	if _, ok := c.Find("aws/sqs/queues"); ok {
		t.Error("found a missing name")
	}
}

func TestBuildRejects(t *testing.T) {
	for name, recs := range map[string][]Record{
		"duplicate": {{Name: "a/b/c", TypeName: "A::B::C", Schema: []byte("{}")}, {Name: "a/b/c", TypeName: "A::B::c", Schema: []byte("{}")}},
		"tab":       {{Name: "a/b\t/c", TypeName: "A::B::C", Schema: []byte("{}")}},
		"empty":     {{Name: "", TypeName: "A::B::C", Schema: []byte("{}")}},
	} {
		if _, _, err := Build(recs, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestOpenRejectsBrokenIndex(t *testing.T) {
	for _, tc := range []struct{ name, index, want string }{
		{"empty", "", "empty"},
		{"version", "# blueprint-ls catalog v9\n", "unknown format"},
		{"fields", header + "\na/b/c\tA::B::C\t0\t1\n", "want 6"},
		{"number", header + "\na/b/c\tA::B::C\t0\tx\t0\t0\n", "not an offset"},
		{"past", header + "\na/b/c\tA::B::C\t0\t99\t0\t0\n", "past the data"},
		{"order", header + "\nb/b/c\tB::B::C\t0\t1\t0\t0\na/b/c\tA::B::C\t0\t1\t0\t0\n", "out of order"},
	} {
		_, err := Open(tc.index, "", "xx")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestCorruptStreamIsAnError(t *testing.T) {
	c, err := Open(header+"\na/b/c\tA::B::C\t0\t2\t0\t0\n", "", "\xff\xff")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Schema(0); err == nil {
		t.Error("corrupt stream decompressed")
	}
}

func TestDictionaryPrefersSharedText(t *testing.T) {
	shared := `{"additionalProperties":false,"type":"object"}`
	docs := [][]byte{[]byte(shared + "one-of-a-kind-text-aaaaaaaaaaaa"), []byte(shared + "another-unique-text-bbbbbbbbbbb"), []byte(shared)}
	d := Dictionary(docs, 1024)
	if !strings.Contains(string(d), `"additionalProperties":`) || !strings.Contains(string(d), `"type":"object"`) {
		t.Errorf("dictionary %q lacks the shared text", d)
	}
	if strings.Contains(string(d), "one-of-a-kind") {
		t.Errorf("dictionary %q holds text of one document", d)
	}
}
