package mcpserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/evgrep/evgrep/internal/agent"
)

// toolList is the tools/list result, built (by reflection over the agent
// types) on first use only, so a plain search never pays for it.
var toolList = sync.OnceValue(func() json.RawMessage {
	type tool struct {
		Name         string         `json:"name"`
		Description  string         `json:"description"`
		InputSchema  map[string]any `json:"inputSchema"`
		OutputSchema map[string]any `json:"outputSchema"`
		Annotations  map[string]any `json:"annotations"`
	}
	b, err := json.Marshal(map[string][]tool{"tools": {{
		Name:         ToolName,
		Description:  toolDescription,
		InputSchema:  schemaOf(reflect.TypeFor[agent.Request]()),
		OutputSchema: schemaOf(reflect.TypeFor[agent.Details]()),
		// The tool only reads files under the search root.
		Annotations: map[string]any{"readOnlyHint": true, "openWorldHint": false},
	}}})
	if err != nil {
		panic(err) // the types are fixed: TestSchema fails first
	}
	return b
})

var stringListType = reflect.TypeFor[agent.StringList]()

// schemaOf returns the JSON Schema of values of t as encoding/json writes
// and reads them: a struct is an object of its json fields, described by
// their `jsonschema` tags, with additionalProperties false; a field is
// required unless omitempty can leave it out; a slice, map or pointer that
// can be written as null (no omitempty) admits null. agent.StringList is a
// string or an array of strings.
func schemaOf(t reflect.Type) map[string]any {
	if t == stringListType {
		return map[string]any{"type": []string{"string", "array"}, "items": map[string]any{"type": "string"}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem())
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string"} // base64
		}
		return map[string]any{"type": "array", "items": schemaOf(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		addFields(t, props, &required)
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	return map[string]any{} // interfaces: anything
}

// addFields adds the json fields of struct type t (embedded structs
// without a json name are flattened, as encoding/json does).
func addFields(t reflect.Type, props map[string]any, required *[]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(ft, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omitEmpty := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		s := schemaOf(f.Type)
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if !omitEmpty {
				addNull(s) // nil is written as null
			}
		}
		if d := f.Tag.Get("jsonschema"); d != "" {
			s["description"] = d
		}
		props[name] = s
		if !omitEmpty || f.Type.Kind() == reflect.Struct && !strings.Contains(opts, "omitzero") {
			*required = append(*required, name)
		}
	}
}

// addNull lets schema s (of a type) also admit null.
func addNull(s map[string]any) {
	switch t := s["type"].(type) {
	case string:
		s["type"] = []string{"null", t}
	case []string:
		s["type"] = append([]string{"null"}, t...)
	}
}
