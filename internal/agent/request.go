// Package agent is evgrep's answer to coding agents: one JSON request in,
// bounded evidence out (exact totals, a count-ranked file summary, numbered
// match lines, cursors that work in the next process). It implements the
// "Agent contract" of DESIGN.md on top of the engine packages; the CLI
// (--agent) and the MCP server are thin adapters around Handle.
package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/snapshot"
)

// Request is one agent call. Unknown fields are an error.
type Request struct {
	Pattern      string     `json:"pattern,omitempty" jsonschema:"the regular expression (rg syntax) or, with literal, the text to find"`
	Path         string     `json:"path,omitempty" jsonschema:"the search root (default: the current directory)"`
	Paths        StringList `json:"paths,omitempty" jsonschema:"sub-paths of the root to search (files or folders); with a cursor, 1-20 files of its search to select"`
	Glob         StringList `json:"glob,omitempty" jsonschema:"include globs, rg -g syntax"`
	Exclude      StringList `json:"exclude,omitempty" jsonschema:"exclude globs"`
	Literal      bool       `json:"literal,omitempty" jsonschema:"treat pattern as a literal string"`
	IgnoreCase   *bool      `json:"ignoreCase,omitempty" jsonschema:"true: ignore case; false: match case; omitted: smart case (ignore case unless the pattern has an uppercase letter)"`
	Hidden       *bool      `json:"hidden,omitempty" jsonschema:"search hidden files (default true)"`
	Context      *int       `json:"context,omitempty" jsonschema:"lines of context around each match line, 0-20"`
	Limit        *int       `json:"limit,omitempty" jsonschema:"match lines per page, 1-100"`
	Mode         string     `json:"mode,omitempty" jsonschema:"auto, summary, matches, inspect, outline, impact, imports, tests, rank or structural (ast-grep patterns: pattern, lang, kind, rewrite)"`
	Line         int        `json:"line,omitempty" jsonschema:"inspect: 1-based line in path"`
	MatchIndex   int        `json:"matchIndex,omitempty" jsonschema:"inspect: match number from a previous answer (with cursor)"`
	MatchIndices []int      `json:"matchIndices,omitempty" jsonschema:"inspect: 1-5 match numbers (with cursor)"`
	Targets      []Target   `json:"targets,omitempty" jsonschema:"inspect: 1-5 {path,line} targets"`
	Cursor       string     `json:"cursor,omitempty" jsonschema:"cursor from a previous answer, to page on"`
	Items        string     `json:"items,omitempty" jsonschema:"outline: all (default) or exports (the public surface only)"`
	Budget       string     `json:"budget,omitempty" jsonschema:"the host's context budget: full (about 2000 tokens), tight (1000) or critical (500); shortens an implicit auto answer only"`
	Lang         string     `json:"lang,omitempty" jsonschema:"structural: the language of pattern and kind (go, python, rust, javascript, typescript, tsx, java, c, cpp, ruby, ...)"`
	Kind         string     `json:"kind,omitempty" jsonschema:"structural: only syntax nodes of this kind (tree-sitter's name, e.g. call_expression)"`
	Rewrite      string     `json:"rewrite,omitempty" jsonschema:"structural: a template that replaces each match ($A and $$$A substituted); the answer is a unified diff and a preview token"`
	Apply        bool       `json:"apply,omitempty" jsonschema:"structural: write the rewrite; needs preview, the token of the rewrite answer with the same arguments"`
	Preview      string     `json:"preview,omitempty" jsonschema:"structural: the preview token from the rewrite answer (with apply)"`
	Symbol       string     `json:"symbol,omitempty" jsonschema:"impact: the symbol's name (its last dotted or :: part is searched), instead of path+line"`
	ParseBudget  *int       `json:"parseBudget,omitempty" jsonschema:"impact: files parsed at most, 1-2000 (default 200)"`
	Terms        []string   `json:"terms,omitempty" jsonschema:"multi-term search: 2-64 distinct literal terms (one line, at most 256 bytes each) searched in one pass instead of pattern; exact per-term counts, occurrences paged by term, path, byte"`
	Match        string     `json:"match,omitempty" jsonschema:"with terms, the files kept: any (default: a term occurs), all (every term occurs) or none (no term occurs: the files are listed)"`
	Rev          string     `json:"rev,omitempty" jsonschema:"search the files of this Git commit (a commit-ish: HEAD~3, a branch, a tag, a hash) instead of the working tree"`
	ChangedSince string     `json:"changedSince,omitempty" jsonschema:"keep only matches in lines added or changed since this Git commit (untracked files count as added)"`
	Query        string     `json:"query,omitempty" jsonschema:"rank: a natural-language or symbol query; the best-matching code chunks come first"`
	Related      *Target    `json:"related,omitempty" jsonschema:"rank: {path,line} of a chunk; the chunks most similar to it come first"`

	// budgetChars is the character budget of the answer when Budget
	// applies (an implicit auto search), else 0.
	budgetChars int
	// full asks an analysis for every item in one answer (HandleFull).
	full bool
}

// Budget values (Request.Budget) and what each allows, in estimated
// tokens (characters/4).
const (
	BudgetFull     = "full"
	BudgetTight    = "tight"
	BudgetCritical = "critical"
)

// Budgets lists the values of Request.Budget.
func Budgets() []string { return []string{BudgetFull, BudgetTight, BudgetCritical} }

// Items values (Request.Items, mode outline).
const (
	ItemsAll     = "all"
	ItemsExports = "exports"
)

// ItemsValues lists the values of Request.Items.
func ItemsValues() []string { return []string{ItemsAll, ItemsExports} }

// budgetTokens is the estimated token budget of a Budget value.
func budgetTokens(b string) int {
	switch b {
	case BudgetFull:
		return budgetFullTokens
	case BudgetTight:
		return budgetTightTokens
	case BudgetCritical:
		return budgetCriticalTokens
	}
	return 0
}

// Target is one inspect target.
type Target struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// StringList accepts a string or an array of strings.
type StringList []string

// UnmarshalJSON implements json.Unmarshaler.
func (s *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = StringList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("expected a string or an array of strings")
	}
	*s = many
	return nil
}

// Modes.
const (
	ModeAuto    = "auto"
	ModeSummary = "summary"
	ModeMatches = "matches"
	ModeInspect = "inspect"
	ModeOutline = "outline"
	// ModeStructural is ast-grep's pattern search (structural.go).
	ModeStructural = "structural"
	ModeImpact     = "impact"
	ModeImports    = "imports"
	ModeTests      = "tests"
	ModeRank       = "rank"
)

// Error codes of requests (cursor codes come from the snapshot package).
const (
	CodeInvalidRequest = "E_REQUEST_INVALID"
	CodePathForbidden  = "E_PATH_FORBIDDEN"
	CodePathMissing    = "E_PATH_NOT_FOUND"
	CodePattern        = "E_PATTERN_INVALID"
	CodeSourceChanged  = "E_SOURCE_CHANGED"
	CodeCancelled      = "E_CANCELLED"
)

// Error is an agent-facing failure with a stable code.
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

func invalid(format string, a ...any) error {
	return &Error{Code: CodeInvalidRequest, Msg: fmt.Sprintf(format, a...)}
}

// ParseRequest decodes one request strictly: unknown fields, field names
// in another case, fields given twice, trailing data and wrong types are
// errors.
func ParseRequest(data []byte) (*Request, error) {
	if err := checkKeys(data, reflect.TypeFor[Request]()); err != nil {
		return nil, invalid("request is not a valid JSON object of known fields: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Request
	if err := dec.Decode(&r); err != nil {
		return nil, invalid("request is not a valid JSON object of known fields: %v", err)
	}
	if dec.More() {
		return nil, invalid("trailing data after the request object")
	}
	r.decodeNames()
	return &r, r.Validate()
}

// Validate checks ranges and combinations of fields, then that every
// field set is one the request's mode takes (modeFields).
func (r *Request) Validate() error {
	if err := r.validate(); err != nil {
		return err
	}
	return r.checkModeFields()
}

// validate is each mode's own checks of ranges, forms and combinations.
func (r *Request) validate() error {
	if len(r.Terms) > 0 || r.Match != "" {
		return r.validateTerms()
	}
	switch r.Mode {
	case ModeStructural:
		return r.validateStructural()
	case "", ModeAuto, ModeSummary, ModeMatches, ModeInspect, ModeOutline, ModeRank:
	case ModeImpact:
		return r.validateAnalysis()
	case ModeImports, ModeTests:
		return r.validateNav()
	default:
		return invalid("mode %q: expected auto, summary, matches, inspect, outline, impact, imports, tests, rank or structural", shorten(r.Mode, 64))
	}
	if r.Mode == ModeRank || r.Query != "" || r.Related != nil {
		return r.validateRank()
	}
	if r.Symbol != "" || r.ParseBudget != nil {
		return invalid("symbol and parseBudget belong to mode impact")
	}
	if r.Lang != "" || r.Kind != "" || r.Rewrite != "" || r.Apply || r.Preview != "" {
		return invalid("lang, kind, rewrite, apply and preview belong to mode structural")
	}
	if r.Budget != "" && budgetTokens(r.Budget) == 0 {
		return invalid("budget %q: expected full, tight or critical", r.Budget)
	}
	switch r.Items {
	case "", ItemsAll, ItemsExports:
		if r.Items != "" && r.Mode != ModeOutline {
			return invalid("items applies to mode outline")
		}
	default:
		return invalid("items %q: expected all or exports", r.Items)
	}
	if r.Context != nil && (*r.Context < 0 || *r.Context > maxContext) {
		return invalid("context %d: expected 0-%d", *r.Context, maxContext)
	}
	if r.Limit != nil && (*r.Limit < 1 || *r.Limit > maxLimit) {
		return invalid("limit %d: expected 1-%d", *r.Limit, maxLimit)
	}
	if err := r.validateGit(); err != nil {
		return err
	}
	inspectish := r.Line != 0 || r.MatchIndex != 0 || len(r.MatchIndices) > 0 || len(r.Targets) > 0
	switch r.Mode {
	case ModeInspect:
		return r.validateInspect()
	case ModeOutline:
		if r.Pattern != "" || inspectish || r.Limit != nil || r.Context != nil {
			return invalid("mode outline takes path, paths, hidden, items and cursor only")
		}
		return nil
	}
	if inspectish {
		return invalid("line, matchIndex, matchIndices and targets belong to mode inspect")
	}
	if r.Cursor == "" && r.Pattern == "" {
		return invalid("pattern is required (or a cursor to page on)")
	}
	if r.Mode == ModeSummary && r.Context != nil && *r.Context > 0 {
		return invalid("context applies to mode matches (or auto), not summary")
	}
	if r.Cursor != "" && len(r.Paths) > 0 {
		if r.Mode == ModeSummary {
			return invalid("paths with a cursor select files for their match lines: mode matches (or no mode), not summary")
		}
		if len(r.Paths) > maxSelect {
			return invalid("paths with a cursor selects 1-%d files", maxSelect)
		}
	}
	return nil
}

// validateInspect accepts exactly one of the inspect forms: path+line,
// cursor+matchIndex, cursor+matchIndices (1-5), targets (1-5).
func (r *Request) validateInspect() error {
	if r.Pattern != "" || len(r.Glob) > 0 || len(r.Exclude) > 0 || r.Context != nil || r.Limit != nil || len(r.Paths) > 0 {
		return invalid("mode inspect does not search: pattern, paths, glob, exclude, context and limit do not apply")
	}
	forms := 0
	if r.Cursor != "" {
		forms++
		if (r.MatchIndex == 0) == (len(r.MatchIndices) == 0) {
			return invalid("inspect with a cursor takes matchIndex or matchIndices (one of them)")
		}
		if len(r.MatchIndices) > maxInspectBatch {
			return invalid("matchIndices takes 1-%d match numbers", maxInspectBatch)
		}
		for _, n := range append([]int{r.MatchIndex}, r.MatchIndices...) {
			if n < 0 {
				return invalid("match numbers start at 1")
			}
		}
	} else if r.MatchIndex != 0 || len(r.MatchIndices) > 0 {
		return invalid("matchIndex and matchIndices need the cursor of the search they come from")
	}
	if len(r.Targets) > 0 {
		forms++
		if len(r.Targets) > maxInspectBatch {
			return invalid("targets takes 1-%d {path,line} entries", maxInspectBatch)
		}
		for _, t := range r.Targets {
			if t.Path == "" || t.Line < 1 {
				return invalid("each target needs a path and a line (1-based)")
			}
		}
	}
	if r.Line != 0 {
		forms++
		if r.Path == "" || r.Line < 1 {
			return invalid("inspect by line needs path (a file) and line (1-based)")
		}
	}
	if forms != 1 {
		return invalid("inspect takes exactly one of: path+line, cursor+matchIndex, cursor+matchIndices, targets")
	}
	return nil
}

func (r *Request) hidden() bool { return r.Hidden == nil || *r.Hidden }

func (r *Request) limit() int {
	if r.Limit == nil {
		return defaultLimit
	}
	return *r.Limit
}

func (r *Request) context() int {
	if r.Context == nil {
		return 0
	}
	return *r.Context
}

// caseMode is the matcher's case mode: smart case unless ignoreCase is
// given (as rg -S, -i, -s).
func (r *Request) caseMode() matcher.CaseMode {
	switch {
	case r.IgnoreCase == nil:
		return matcher.Smart
	case *r.IgnoreCase:
		return matcher.Insensitive
	}
	return matcher.Sensitive
}

// caseOption encodes the case mode for the snapshot's options.
func (r *Request) caseOption() string {
	if r.IgnoreCase == nil {
		return "smart"
	}
	return fmt.Sprint(*r.IgnoreCase)
}

// searchMeta is the snapshot metadata of a search under root: the request
// fields that define the search make its fingerprint, so a cursor cannot
// be replayed with other options. Answer-shaping fields (mode, limit,
// context) are not included.
func (r *Request) searchMeta(root string) snapshot.Meta {
	o := map[string]string{
		"pattern":    r.Pattern,
		"literal":    fmt.Sprint(r.Literal),
		"ignoreCase": r.caseOption(),
		"hidden":     fmt.Sprint(r.hidden()),
	}
	// Only when given, so that other searches keep their fingerprints.
	if r.Rev != "" {
		o["rev"] = r.Rev
	}
	if r.ChangedSince != "" {
		o["changedSince"] = r.ChangedSince
	}
	return snapshot.Meta{Root: root, Analysis: snapshot.AnalysisSearch, Options: o, Lists: r.scopeLists(), Created: time.Now()}
}

// scopeLists are the list fields of a request's scope, as snapshot lists.
func (r *Request) scopeLists() map[string][]string {
	return map[string][]string{"glob": slices.Clone(r.Glob), "exclude": slices.Clone(r.Exclude), "paths": slices.Clone(r.Paths)}
}

// checkRestated refuses a cursor request that restates a search option
// (pattern, literal, ignoreCase, hidden, glob, exclude) with another value
// than the cursor's search. With a cursor, paths select files instead.
func (r *Request) checkRestated(m snapshot.Meta) error {
	mine := r.searchMeta(m.Root)
	opts := m.Options
	differs := func(k string) bool { return mine.Options[k] != opts[k] }
	listDiffers := func(k string) bool { return !slices.Equal(mine.Lists[k], m.Lists[k]) }
	if r.Pattern != "" && differs("pattern") || r.Literal && differs("literal") ||
		r.IgnoreCase != nil && differs("ignoreCase") || r.Hidden != nil && differs("hidden") ||
		len(r.Glob) > 0 && listDiffers("glob") || len(r.Exclude) > 0 && listDiffers("exclude") ||
		r.Rev != "" && differs("rev") || r.ChangedSince != "" && differs("changedSince") {
		return &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: "the request's options differ from the cursor's search"}
	}
	return nil
}

// requestOf rebuilds the search request from a snapshot's options: the
// exact request of a new search with the same options (see nextSearch).
func requestOf(snap *snapshot.Snapshot) Request {
	o := snap.Meta.Options
	r := Request{Pattern: o["pattern"], Path: snap.Meta.Root, Literal: o["literal"] == "true", Rev: o["rev"], ChangedSince: o["changedSince"]}
	switch o["ignoreCase"] {
	case "true", "false":
		v := o["ignoreCase"] == "true"
		r.IgnoreCase = &v
	}
	if o["hidden"] == "false" {
		v := false
		r.Hidden = &v
	}
	for k, dst := range map[string]*StringList{"glob": &r.Glob, "exclude": &r.Exclude, "paths": &r.Paths} {
		if v := snap.Meta.Lists[k]; len(v) > 0 {
			*dst = slices.Clone(v)
		}
	}
	return r
}

// validateGit checks rev and changedSince: one at a time, on a search.
func (r *Request) validateGit() error {
	if r.Rev == "" && r.ChangedSince == "" {
		return nil
	}
	if r.Rev != "" && r.ChangedSince != "" {
		return invalid("rev and changedSince cannot be used together")
	}
	if r.Mode == ModeInspect || r.Mode == ModeOutline {
		return invalid("rev and changedSince apply to searches, not to mode %s", r.Mode)
	}
	for _, v := range []string{r.Rev, r.ChangedSince} {
		if len(v) > maxRevisionBytes {
			return invalid("rev and changedSince take a commit-ish of at most %d bytes", maxRevisionBytes)
		}
	}
	return nil
}
