// Package structural matches syntax trees against code patterns with
// ast-grep's pattern language: a pattern is a code snippet parsed by the
// language's grammar, in which `$NAME` stands for one node, `$$$NAME` for a
// list of nodes (as few as possible), `$_` and `$$$` for the same without
// capture, and a metavariable used twice must bind to equal code. Patterns
// match nodes with ast-grep's default "smart" strictness: every node of the
// pattern must be matched, while anonymous nodes of the code (trailing
// commas, optional keywords) may be skipped. Rules (rule.go) combine
// patterns, kinds and regexes with relational and logical operators;
// rewrite.go substitutes captures into a template.
//
// The package parses through package syntax (tree-sitter over cgo); in a
// build without cgo every language lookup fails with ErrNoCgo. It reads no
// files and knows nothing of flags or printing.
package structural

import (
	"errors"

	"github.com/evgrep/evgrep/syntax"
)

// Errors of the package.
var (
	// ErrNoCgo: structural search needs the tree-sitter grammars, which a
	// build with CGO_ENABLED=0 lacks.
	ErrNoCgo = errors.New("structural search needs a build with cgo (tree-sitter grammars); this binary was built with CGO_ENABLED=0")
	// ErrTooComplex: matching one file took more than MaxSteps comparisons.
	ErrTooComplex = errors.New("pattern too complex for this file (more than 50,000,000 node comparisons)")
	// ErrTooManyMatches: one file has more than MaxMatchesPerFile matches;
	// the first ones are kept.
	ErrTooManyMatches = errors.New("more than 100,000 matches in this file; only the first 100,000 are kept")
)

// Match is one matched node.
type Match struct {
	// Node is the matched node's index in the tree.
	Node int32
	// Start and End are its byte range in the source.
	Start, End int
	// Vars are the captured metavariables, sorted by name.
	Vars []Capture
	// Rule is the id of the rule that matched (rule files only).
	Rule string
	// Fixed is what a rule with transforms or a fix adds (nil for other
	// matches, so that they cost nothing more).
	Fixed *Fixed
}

// Fixed is what a rule with transforms or a fix adds to its match.
type Fixed struct {
	// Derived are the values of the rule's transforms, in its order.
	Derived []Derived
	// Range is what the rule's fix replaces (the match, widened by
	// expandStart and expandEnd); zero when the rule has no fix.
	Range Span
}

// Capture is the binding of one metavariable.
type Capture struct {
	Name string
	// Multi is set for a `$$$NAME` list.
	Multi bool
	// Nodes are the bound nodes (one for `$NAME`; a list, possibly empty,
	// for `$$$NAME`).
	Nodes []int32
	// Start and End are the byte range from the first bound node's start
	// to the last one's end (both -1 for an empty list).
	Start, End int
	// List holds, for a `$$$NAME` list, the byte ranges of its named
	// nodes (what ast-grep reports of a list), so that a capture can be
	// rendered without the tree.
	List []Span
}

// Span is a byte range of the source.
type Span struct{ Start, End int }

// Text is the captured source.
func (c *Capture) Text(t *syntax.Tree) string {
	return string(c.Bytes(t.Src))
}

// Bytes is the captured source within src (the tree's source), not
// copied.
func (c *Capture) Bytes(src []byte) []byte {
	if c.Start < 0 {
		return nil
	}
	return src[c.Start:c.End]
}

// Matcher decides whether a node matches, binding metavariables in env.
// Pattern, KindMatcher and the rules are Matchers.
type Matcher interface {
	// match reports whether node i of t matches; on failure env is left
	// as it was.
	match(t *syntax.Tree, i int32, env *env) bool
	// kinds returns the node kinds a match can have (nil: any).
	kinds() []uint16
}

// FindAll returns every node of t that m matches, in pre-order (a match
// inside another match is reported too, as ast-grep does), with its
// captures. It stops with ErrTooComplex past MaxSteps comparisons, and
// with ErrTooManyMatches at a match past MaxMatchesPerFile, keeping the
// matches found so far.
func FindAll(t *syntax.Tree, m Matcher) ([]Match, error) {
	var out []Match
	e := &env{t: t, budget: MaxSteps}
	ks := m.kinds()
	var want map[uint16]bool
	if ks != nil {
		want = make(map[uint16]bool, len(ks))
		for _, k := range ks {
			want[k] = true
		}
	}
	for i := range t.Nodes {
		if want != nil && !want[t.Nodes[i].Kind] {
			continue
		}
		e.reset()
		if m.match(t, int32(i), e) {
			n := &t.Nodes[i]
			if len(out) >= MaxMatchesPerFile {
				return out, ErrTooManyMatches
			}
			out = append(out, Match{Node: int32(i), Start: int(n.Start), End: int(n.End), Vars: e.captures()})
		}
		if e.budget < 0 {
			return out, ErrTooComplex
		}
	}
	return out, nil
}
