package agent

import (
	"reflect"
	"slices"
	"strings"
)

// modeFields declare the query of each analysis: the request fields (by
// their JSON names) that it takes. Request is the one wire type of the
// one tool, so a query is the Request restricted to its mode's fields;
// after the mode's own checks (ranges, forms, combinations), Validate
// refuses any other field that is set, so that no mode quietly ignores a
// field another mode reads. A cursor request without a mode is checked
// as a search's (its snapshot's analysis then decides, in page).
var modeFields = map[string][]string{
	modeSearch:     {"mode", "pattern", "path", "paths", "glob", "exclude", "literal", "ignoreCase", "hidden", "context", "limit", "cursor", "budget", "rev", "changedSince"},
	modeTerms:      {"mode", "terms", "match", "path", "paths", "glob", "exclude", "ignoreCase", "hidden"},
	ModeInspect:    {"mode", "path", "line", "matchIndex", "matchIndices", "targets", "cursor", "hidden"},
	ModeOutline:    {"mode", "path", "paths", "glob", "exclude", "hidden", "items", "cursor"},
	ModeStructural: {"mode", "pattern", "kind", "lang", "path", "paths", "glob", "exclude", "hidden", "limit", "cursor", "rewrite", "apply", "preview"},
	ModeImpact:     {"mode", "path", "line", "symbol", "paths", "glob", "exclude", "hidden", "parseBudget", "cursor"},
	ModeImports:    {"mode", "path", "hidden", "cursor"},
	ModeTests:      {"mode", "path", "hidden", "cursor"},
	ModeRank:       {"mode", "query", "related", "path", "paths", "glob", "exclude", "hidden", "limit", "cursor"},
}

// The query kinds of modeFields that are not a mode name.
const (
	modeSearch = "search"
	modeTerms  = "terms"
)

// queryKind is the modeFields entry a request is checked against.
func (r *Request) queryKind() string {
	search := r.Mode == "" || r.Mode == ModeAuto || r.Mode == ModeSummary || r.Mode == ModeMatches
	switch {
	case !search:
		return r.Mode // a mode named is the query's kind, whatever else is set
	case len(r.Terms) > 0 || r.Match != "":
		return modeTerms
	case r.Query != "" || r.Related != nil:
		return ModeRank
	}
	return modeSearch
}

// requestFields are the JSON names of Request's fields, by field index.
var requestFields = func() []string {
	t := reflect.TypeFor[Request]()
	names := make([]string, t.NumField())
	for i := range names {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names[i] = name
	}
	return names
}()

// checkModeFields refuses a set field that the request's mode does not
// take, naming the fields it takes.
func (r *Request) checkModeFields() error {
	kind := r.queryKind()
	allowed, ok := modeFields[kind]
	if !ok {
		return nil // an unknown mode: Validate names the modes
	}
	v := reflect.ValueOf(r).Elem()
	var extra []string
	for i, name := range requestFields {
		if name == "" || name == "-" || v.Field(i).IsZero() {
			continue
		}
		if !slices.Contains(allowed, name) {
			extra = append(extra, name)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	what := "mode " + kind
	switch kind {
	case modeSearch:
		what = "a search (mode auto, summary or matches)"
	case modeTerms:
		what = "a multi-term search (terms)"
	}
	return invalid("%s does not take %s: it takes %s", what, strings.Join(extra, ", "), strings.Join(allowed, ", "))
}
