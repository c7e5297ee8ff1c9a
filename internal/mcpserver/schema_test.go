package mcpserver

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/agent"
)

type listedTool struct {
	Name         string         `json:"name"`
	Description  string         `json:"description"`
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema"`
	Annotations  struct {
		ReadOnlyHint    *bool `json:"readOnlyHint"`
		DestructiveHint *bool `json:"destructiveHint"`
	} `json:"annotations"`
}

func listedTools(t *testing.T) []listedTool {
	t.Helper()
	b, err := json.Marshal(searchTool())
	if err != nil {
		t.Fatal(err)
	}
	var tool listedTool
	if err := json.Unmarshal(b, &tool); err != nil {
		t.Fatal(err)
	}
	return []listedTool{tool}
}

// jsonFields returns the json names and jsonschema tags of struct t's fields.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "-" && name != "" {
			out[name] = f
		}
	}
	return out
}

// TestSchema: the input schema has every json field of agent.Request with
// its description and type; the output schema every field of
// agent.Details.
func TestSchema(t *testing.T) {
	tools := listedTools(t)
	if len(tools) != 1 || tools[0].Name != ToolName || tools[0].Description != toolDescription {
		t.Fatalf("tools: %+v", tools)
	}
	// Finding 11 of the seam issue: apply:true writes files, so the tool
	// is neither read-only nor harmless.
	if ro := tools[0].Annotations.ReadOnlyHint; ro != nil && *ro {
		t.Fatal("the search tool is marked read-only, but a rewrite with apply writes files")
	}
	if d := tools[0].Annotations.DestructiveHint; d == nil || !*d {
		t.Fatal("the search tool is not marked destructive (apply replaces files)")
	}
	in := tools[0].InputSchema
	props, _ := in["properties"].(map[string]any)
	if in["type"] != "object" || in["additionalProperties"] != false || in["required"] != nil {
		t.Fatalf("input schema: %v", in)
	}
	fields := jsonFields(reflect.TypeFor[agent.Request]())
	if len(fields) < 10 || len(props) != len(fields) {
		t.Fatalf("%d properties for %d fields of agent.Request", len(props), len(fields))
	}
	for name, f := range fields {
		p, ok := props[name].(map[string]any)
		if !ok {
			t.Errorf("field %s of agent.Request is not in the input schema", name)
			continue
		}
		if d := f.Tag.Get("jsonschema"); d == "" || p["description"] != d {
			t.Errorf("%s: description %q, tag %q", name, p["description"], d)
		}
		var want any
		switch f.Type {
		case reflect.TypeFor[agent.StringList]():
			want = []any{"string", "array"}
		case reflect.TypeFor[string]():
			want = "string"
		case reflect.TypeFor[bool](), reflect.TypeFor[*bool]():
			want = "boolean"
		case reflect.TypeFor[int](), reflect.TypeFor[*int]():
			want = "integer"
		case reflect.TypeFor[*agent.Target]():
			want = "object"
		default:
			want = "array"
		}
		if !reflect.DeepEqual(p["type"], want) {
			t.Errorf("%s: type %v, want %v", name, p["type"], want)
		}
	}
	out := tools[0].OutputSchema
	oprops, _ := out["properties"].(map[string]any)
	if out["type"] != "object" || !slices.Equal(anyStrings(out["required"]), []string{"status"}) {
		t.Fatalf("output schema: %v", out)
	}
	for name := range jsonFields(reflect.TypeFor[agent.Details]()) {
		if oprops[name] == nil {
			t.Errorf("field %s of agent.Details is not in the output schema", name)
		}
	}
}

func anyStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, s := range l {
		str, _ := s.(string)
		out = append(out, str)
	}
	return out
}

// TestInputSchemaValidates: the input schema, as a JSON Schema validator
// reads it, takes what the agent takes and refuses what it refuses.
func TestInputSchemaValidates(t *testing.T) {
	rs := resolve(t, listedTools(t)[0].InputSchema)
	cases := []struct {
		args string
		ok   bool
	}{
		{`{"pattern":"x"}`, true},
		{`{"pattern":"x","paths":"a"}`, true},
		{`{"pattern":"x","paths":["a","b"],"glob":"*.go","exclude":["vendor"]}`, true},
		{`{"pattern":"x","hidden":false,"context":2,"limit":5,"literal":true,"ignoreCase":true}`, true},
		{`{"mode":"inspect","targets":[{"path":"a.go","line":3}]}`, true},
		{`{"mode":"inspect","cursor":"c","matchIndices":[1,2]}`, true},
		{`{"pattern":"x","bogus":1}`, false},
		{`{"pattern":"x","limit":"5"}`, false},
		{`{"pattern":"x","paths":[1]}`, false},
		{`{"pattern":"x","paths":{"a":1}}`, false},
		{`{"mode":"inspect","targets":[{"path":"a.go"}]}`, false},
		{`{"mode":"inspect","targets":[{"path":"a.go","line":3,"x":1}]}`, false},
	}
	for _, tc := range cases {
		var v any
		if err := json.Unmarshal([]byte(tc.args), &v); err != nil {
			t.Fatal(err)
		}
		err := rs.Validate(v)
		if (err == nil) != tc.ok {
			t.Errorf("%s: validation error %v, want ok=%v", tc.args, err, tc.ok)
		}
		// The agent agrees on the field names and types.
		if _, perr := agent.ParseRequest([]byte(tc.args)); tc.ok && perr != nil && strings.Contains(perr.Error(), "known fields") {
			t.Errorf("%s: the schema takes it, the agent does not: %v", tc.args, perr)
		}
	}
}

type embedded struct {
	E int `json:"e"`
}

type sample struct {
	embedded
	A  []int          `json:"a"`
	B  []int          `json:"b,omitempty"`
	C  *string        `json:"c"`
	D  *string        `json:"d,omitempty"`
	S  struct{}       `json:"s,omitempty"`
	M  map[string]int `json:"m,omitempty"`
	X  int            `json:"-"`
	y  int
	N  float64
	Bs []byte `json:"bs"`
}

// TestSchemaOf: schemaOf follows encoding/json's rules for names, null and
// omitted fields.
func TestSchemaOf(t *testing.T) {
	got, err := json.Marshal(schemaOf(reflect.TypeFor[sample]()))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{` +
		`"N":{"type":"number"},` +
		`"a":{"items":{"type":"integer"},"type":["null","array"]},` +
		`"b":{"items":{"type":"integer"},"type":"array"},` +
		`"bs":{"type":["null","string"]},` +
		`"c":{"type":["null","string"]},` +
		`"d":{"type":"string"},` +
		`"e":{"type":"integer"},` +
		`"m":{"additionalProperties":{"type":"integer"},"type":"object"},` +
		`"s":{"additionalProperties":false,"properties":{},"type":"object"}},` +
		`"required":["e","a","c","s","N","bs"],"type":"object"}`
	if string(got) != want {
		t.Fatalf("schema\n got %s\nwant %s", got, want)
	}
	_ = sample{}.y
}

// TestDescription: the tool description names every form of call and
// stays under maxDescriptionChars.
func TestDescription(t *testing.T) {
	if n := len([]rune(toolDescription)); n >= maxDescriptionChars {
		t.Fatalf("description is %d characters, bound %d", n, maxDescriptionChars)
	}
	for _, form := range []string{"{pattern}", `mode:"matches"`, "{cursor}", `mode:"inspect", cursor, matchIndices`, `mode:"inspect", path, line`, "targets", `mode:"outline"`, "context"} {
		if !strings.Contains(toolDescription, form) {
			t.Errorf("the description does not say when to send %s", form)
		}
	}
}

// TestSchemaBounds: the input schema states the enum of mode and the
// bounds of limit, context, line, matchIndex, matchIndices and targets,
// and the agent agrees with each bound: values at the bounds pass both, a
// value the schema refuses the agent refuses too (but a line past 2^31-1,
// which the agent takes and finds no such line).
func TestSchemaBounds(t *testing.T) {
	rs := resolve(t, listedTools(t)[0].InputSchema)
	props := listedTools(t)[0].InputSchema["properties"].(map[string]any)
	if enum := anyStrings(props["mode"].(map[string]any)["enum"]); !slices.Equal(enum, []string{"auto", "summary", "matches", "inspect", "outline", "impact", "imports", "tests", "rank", "structural"}) {
		t.Fatalf("mode enum %v", enum)
	}
	cases := []struct {
		args string
		ok   bool
	}{
		{`{"pattern":"x","mode":"matches"}`, true},
		{`{"pattern":"x","mode":"grep"}`, false},
		{`{"mode":"impact","symbol":"x","parseBudget":2000}`, true},
		{`{"mode":"impact","symbol":"x","parseBudget":2001}`, false},
		{`{"mode":"impact","symbol":"x","parseBudget":0}`, false},
		{`{"pattern":"x","budget":"critical"}`, true},
		{`{"pattern":"x","budget":"huge"}`, false},
		{`{"mode":"outline","items":"exports"}`, true},
		{`{"mode":"outline","items":"public"}`, false},
		{`{"terms":["a","b"]}`, true},
		{`{"terms":["a"]}`, false},
		{`{"terms":["a","b"],"match":"none"}`, true},
		{`{"terms":["a","b"],"match":"some"}`, false},
		{`{"pattern":"x","limit":1}`, true},
		{`{"pattern":"x","limit":100}`, true},
		{`{"pattern":"x","limit":0}`, false},
		{`{"pattern":"x","limit":101}`, false},
		{`{"pattern":"x","context":0}`, true},
		{`{"pattern":"x","context":20}`, true},
		{`{"pattern":"x","context":-1}`, false},
		{`{"pattern":"x","context":21}`, false},
		{`{"mode":"inspect","path":"a.go","line":1}`, true},
		{`{"mode":"inspect","path":"a.go","line":-1}`, false},
		{`{"mode":"inspect","path":"a.go","line":2147483648}`, false},
		{`{"mode":"inspect","cursor":"c","matchIndex":1}`, true},
		{`{"mode":"inspect","cursor":"c","matchIndex":-3}`, false},
		{`{"mode":"inspect","cursor":"c","matchIndices":[1,2,3,4,5]}`, true},
		{`{"mode":"inspect","cursor":"c","matchIndices":[1,2,3,4,5,6]}`, false},
		{`{"mode":"inspect","cursor":"c","matchIndices":[-1]}`, false},
		{`{"mode":"inspect","targets":[{"path":"a","line":1},{"path":"a","line":2},{"path":"a","line":3},{"path":"a","line":4},{"path":"a","line":5}]}`, true},
		{`{"mode":"inspect","targets":[{"path":"a","line":1},{"path":"a","line":2},{"path":"a","line":3},{"path":"a","line":4},{"path":"a","line":5},{"path":"a","line":6}]}`, false},
		{`{"mode":"inspect","targets":[{"path":"a","line":0}]}`, false},
		{`{"mode":"inspect","targets":[]}`, false},
	}
	for _, tc := range cases {
		var v any
		if err := json.Unmarshal([]byte(tc.args), &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); (err == nil) != tc.ok {
			t.Errorf("%s: schema validation error %v, want ok=%v", tc.args, err, tc.ok)
		}
		_, perr := agent.ParseRequest([]byte(tc.args))
		if tc.ok && perr != nil {
			t.Errorf("%s: the schema takes it, the agent does not: %v", tc.args, perr)
		}
		if !tc.ok && perr == nil && !strings.Contains(tc.args, "2147483648") {
			t.Errorf("%s: the schema refuses it, the agent takes it", tc.args)
		}
	}
}

// TestToolListSmall (a minor finding of the seam issue: tools/list was
// 28 KB, 21 KB of it the output schema): the output schema writes each
// struct type once ($defs) and a next call's request without the input
// schema's descriptions; the listed tool stays within 20 KiB.
func TestToolListSmall(t *testing.T) {
	b, err := json.Marshal(searchTool())
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 20<<10 {
		t.Errorf("the listed tool is %d bytes", len(b))
	}
	out := searchTool().OutputSchema.(map[string]any)
	if _, ok := out["$defs"].(map[string]any)["Request"]; !ok {
		t.Errorf("no $defs.Request in the output schema")
	}
}
