package mcpserver

import (
	"reflect"
	"strings"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolDescription says what the tool answers and which form of request
// to send when (at most maxDescriptionChars: it is read on every turn).
const toolDescription = `Search a source tree (ripgrep regex syntax and ignore rules) and get bounded, exact evidence: a status line with exact totals, then a count-ranked file summary or numbered match lines "path:line:cols {match #N} text".
Which call when:
- A new question: {pattern}, narrowed with path, paths, glob, exclude. A broad result comes as a summary, a small one as all its lines. Lines are matched one at a time as rg --crlf does ($ before a \r\n line end; no \r or \n in patterns).
- The matching lines: {pattern, mode:"matches", limit}; context (0-20) adds lines around each.
- The next page: {cursor} from the previous answer. It never searches again and keeps every option.
- From a summary: {cursor:summaryCursor, paths:[1-20 of its files]} lists those files' lines, numbered as in the summary; mode:"matches" lists all from #1. Each answer ends with its next calls as exact requests.
- The code around matches: {mode:"inspect", cursor, matchIndices:[1-5 match numbers]}, or {mode:"inspect", path, line}, or {mode:"inspect", targets:[{path,line}, up to 5]}. It shows the whole enclosing declaration; a long one continues with the returned cursor.
- The structure of files: {mode:"outline", path or paths}; items:"exports" for the public surface only.
- Who uses a symbol, by syntax role: {mode:"impact", path, line} or {mode:"impact", symbol}.
- A file's imports and importers, or its test files: {mode:"imports"|"tests", path}.
- Code for a question: {mode:"rank", query}.
- Several literals in one pass: {terms:[2-64], match:"any"|"all"|"none"}.
- A Git commit, or only lines changed since one: add rev or changedSince to a search.
- Code by shape (ast-grep patterns, $A one node, $$$A many): {mode:"structural", pattern, lang}; rewrite gives a diff and a preview token, apply with it writes.`

// modes are the values of agent.Request.Mode.
var modes = []string{agent.ModeAuto, agent.ModeSummary, agent.ModeMatches, agent.ModeInspect, agent.ModeOutline,
	agent.ModeImpact, agent.ModeImports, agent.ModeTests, agent.ModeRank, agent.ModeStructural}

// searchTool is the search tool as tools/list shows it.
func searchTool() *mcp.Tool {
	in := schemaOf(reflect.TypeFor[agent.Request]())
	props := in["properties"].(map[string]any)
	set := func(field string, kv ...any) {
		p := props[field].(map[string]any)
		for i := 0; i+1 < len(kv); i += 2 {
			p[kv[i].(string)] = kv[i+1]
		}
	}
	set("mode", "enum", modes)
	set("budget", "enum", agent.Budgets())
	set("items", "enum", agent.ItemsValues())
	set("match", "enum", agent.MatchValues())
	set("terms", "minItems", agent.MinTerms, "maxItems", agent.MaxTerms)
	set("limit", "minimum", 1, "maximum", maxLimit)
	set("parseBudget", "minimum", 1, "maximum", 2000)
	set("context", "minimum", 0, "maximum", maxContext)
	set("line", "minimum", 1, "maximum", maxLine)
	set("matchIndex", "minimum", 1, "maximum", maxLine)
	set("matchIndices", "minItems", 1, "maxItems", maxInspectBatch)
	props["matchIndices"].(map[string]any)["items"] = map[string]any{"type": "integer", "minimum": 1, "maximum": maxLine}
	set("targets", "minItems", 1, "maxItems", maxInspectBatch)
	target := props["targets"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)
	target["line"].(map[string]any)["minimum"] = 1
	target["line"].(map[string]any)["maximum"] = maxLine
	return &mcp.Tool{
		Name:         ToolName,
		Description:  toolDescription,
		InputSchema:  in,
		OutputSchema: outputSchemaOf(reflect.TypeFor[agent.Details]()),
		// The tool reads files under the search root, and a structural
		// rewrite with apply:true writes them (existing files, replaced
		// whole): not read-only, destructive, not idempotent.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: new(true), IdempotentHint: false, OpenWorldHint: new(false)},
	}
}

var (
	stringListType = reflect.TypeFor[agent.StringList]()
	requestType    = reflect.TypeFor[agent.Request]()
	targetType     = reflect.TypeFor[agent.Target]()
)

// schemaOf returns the JSON Schema of values of t as encoding/json writes
// and reads them: a struct is an object of its json fields, described by
// their `jsonschema` tags, with additionalProperties false; a field is
// required unless omitempty can leave it out; a slice, map or pointer that
// can be written as null (no omitempty) admits null. agent.StringList is a
// string or an array of strings.
func schemaOf(t reflect.Type) map[string]any { return (*schemaBuilder)(nil).of(t) }

// outputSchemaOf is schemaOf with each struct type below the root written
// once, in $defs, and named by $ref wherever it occurs (the details hold
// requests, matches and files in several places): tools/list stays small.
func outputSchemaOf(t reflect.Type) map[string]any {
	b := &schemaBuilder{defs: map[string]any{}}
	s := b.of(t)
	if len(b.defs) > 0 {
		s["$defs"] = b.defs
	}
	return s
}

// schemaBuilder writes schemas; with defs, the struct types below the root
// go there.
type schemaBuilder struct {
	defs  map[string]any
	depth int
	// plain counts the input types being written into the output schema
	// (a next call's request): their descriptions are the input schema's.
	plain int
}

func (b *schemaBuilder) of(t reflect.Type) map[string]any {
	if t == stringListType {
		return map[string]any{"type": []string{"string", "array"}, "items": map[string]any{"type": "string"}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return b.of(t.Elem())
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
		return map[string]any{"type": "array", "items": b.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": b.of(t.Elem())}
	case reflect.Struct:
		name := t.Name()
		if b != nil && b.defs != nil && b.depth > 0 && name != "" {
			if _, ok := b.defs[name]; !ok {
				b.defs[name] = map[string]any{} // taken: a type that holds itself
				b.defs[name] = b.structOf(t)
			}
			return map[string]any{"$ref": "#/$defs/" + name}
		}
		return b.structOf(t)
	}
	return map[string]any{} // interfaces: anything
}

// structOf is the schema of struct type t: an object of its json fields.
func (b *schemaBuilder) structOf(t reflect.Type) map[string]any {
	if b != nil {
		b.depth++
		defer func() { b.depth-- }()
		if b.defs != nil && (t == requestType || t == targetType) {
			b.plain++
			defer func() { b.plain-- }()
		}
	}
	props := map[string]any{}
	required := []string{}
	b.addFields(t, props, &required)
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// addFields adds the json fields of struct type t (embedded structs
// without a json name are flattened, as encoding/json does).
func (b *schemaBuilder) addFields(t reflect.Type, props map[string]any, required *[]string) {
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
				b.addFields(ft, props, required)
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
		s := b.of(f.Type)
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if !omitEmpty {
				addNull(s) // nil is written as null
			}
		}
		if d := f.Tag.Get("jsonschema"); d != "" && (b == nil || b.plain == 0) {
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
