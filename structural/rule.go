package structural

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/evgrep/evgrep/syntax"
)

// Rule is one rule of an ast-grep rule file: an id, the language, what it
// reports (message, severity) and the rule that selects nodes.
type Rule struct {
	ID       string
	Lang     *Lang
	Message  string
	Severity string
	root     Matcher
	// constraints restrict what a metavariable may bind to.
	constraints map[string]Matcher
	literals    []string
}

// match implements Matcher: the rule, then its constraints on the
// captures.
func (r *Rule) match(t *syntax.Tree, i int32, e *env) bool {
	m := e.mark()
	if !r.root.match(t, i, e) {
		return false
	}
	for name, c := range r.constraints {
		b := e.lookup(name, false)
		if b == nil {
			continue
		}
		m2 := e.mark()
		ok := c.match(t, b.nodes[0], e)
		e.undo(m2)
		if !ok {
			e.undo(m)
			return false
		}
	}
	return true
}

func (r *Rule) kinds() []uint16 { return r.root.kinds() }

// Literals are texts every match of the rule contains (those of the
// patterns the rule requires), for prefiltering files.
func (r *Rule) Literals() []string { return r.literals }

// ParseRules reads one or more YAML documents, each an ast-grep rule with
// the keys id, language, rule (required), message, severity, constraints;
// a rule object has the keys pattern, kind, regex, inside, has, precedes,
// follows (with stopBy: neighbor, end or a rule), all, any and not. Any
// other key is an error naming it.
func ParseRules(data []byte) ([]*Rule, error) {
	if len(data) > MaxRuleFile {
		return nil, fmt.Errorf("rule file is %d bytes, over the %d KiB cap", len(data), MaxRuleFile>>10)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*Rule
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rule file: %v", err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		if len(out) >= MaxRules {
			return nil, fmt.Errorf("rule file holds more than %d rules", MaxRules)
		}
		r, err := parseRuleDoc(doc.Content[0])
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errors.New("rule file holds no rule")
	}
	return out, nil
}

// mapping returns the key/value pairs of a YAML mapping node.
func mapping(n *yaml.Node, what string) ([][2]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: %s must be a mapping", n.Line, what)
	}
	var kv [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		kv = append(kv, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	return kv, nil
}

func scalar(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("line %d: %s must be a string", n.Line, key)
	}
	return n.Value, nil
}

func parseRuleDoc(n *yaml.Node) (*Rule, error) {
	kv, err := mapping(n, "a rule document")
	if err != nil {
		return nil, err
	}
	r := &Rule{Severity: "hint"}
	var ruleNode, consNode *yaml.Node
	for _, p := range kv {
		k, v := p[0].Value, p[1]
		switch k {
		case "id", "language", "message", "severity":
			s, err := scalar(v, k)
			if err != nil {
				return nil, err
			}
			switch k {
			case "id":
				r.ID = s
			case "language":
				if r.Lang, err = LookupLang(s); err != nil {
					return nil, fmt.Errorf("line %d: %v", v.Line, err)
				}
			case "message":
				r.Message = s
			case "severity":
				switch s {
				case "hint", "info", "warning", "error", "off":
				default:
					return nil, fmt.Errorf("line %d: severity %q: expected hint, info, warning, error or off", v.Line, s)
				}
				r.Severity = s
			}
		case "rule":
			ruleNode = v
		case "constraints":
			consNode = v
		default:
			return nil, fmt.Errorf("line %d: unknown key %q in a rule document (known: id, language, rule, message, severity, constraints)", p[0].Line, k)
		}
	}
	switch {
	case r.ID == "":
		return nil, fmt.Errorf("line %d: a rule needs an id", n.Line)
	case r.Lang == nil:
		return nil, fmt.Errorf("line %d: rule %q needs a language", n.Line, r.ID)
	case ruleNode == nil:
		return nil, fmt.Errorf("line %d: rule %q needs a rule", n.Line, r.ID)
	}
	rp := &ruleParser{lang: r.Lang}
	if r.root, err = rp.object(ruleNode, 0); err != nil {
		return nil, fmt.Errorf("rule %q: %v", r.ID, err)
	}
	r.literals = rp.required(ruleNode)
	if consNode != nil {
		ckv, err := mapping(consNode, "constraints")
		if err != nil {
			return nil, err
		}
		r.constraints = map[string]Matcher{}
		for _, p := range ckv {
			m, err := rp.object(p[1], 1)
			if err != nil {
				return nil, fmt.Errorf("rule %q: constraint %s: %v", r.ID, p[0].Value, err)
			}
			r.constraints[p[0].Value] = m
		}
	}
	return r, nil
}

type ruleParser struct{ lang *Lang }

// object parses a rule object: every key given must hold (in the order
// atomic, relational, composite).
func (rp *ruleParser) object(n *yaml.Node, depth int) (Matcher, error) {
	if depth > MaxRuleDepth {
		return nil, fmt.Errorf("line %d: rules nested deeper than %d", n.Line, MaxRuleDepth)
	}
	kv, err := mapping(n, "a rule")
	if err != nil {
		return nil, err
	}
	order := map[string]int{"pattern": 0, "kind": 1, "regex": 2, "inside": 3, "has": 4, "precedes": 5, "follows": 6, "all": 7, "any": 8, "not": 9}
	sort.SliceStable(kv, func(i, j int) bool { return order[kv[i][0].Value] < order[kv[j][0].Value] })
	var parts []Matcher
	for _, p := range kv {
		k, v := p[0].Value, p[1]
		var m Matcher
		switch k {
		case "pattern":
			s, err := scalar(v, k)
			if err != nil {
				return nil, err
			}
			if m, err = CompilePattern(rp.lang, s); err != nil {
				return nil, fmt.Errorf("line %d: %v", v.Line, err)
			}
		case "kind":
			s, err := scalar(v, k)
			if err != nil {
				return nil, err
			}
			if m, err = NewKindMatcher(rp.lang, s); err != nil {
				return nil, fmt.Errorf("line %d: %v", v.Line, err)
			}
		case "regex":
			s, err := scalar(v, k)
			if err != nil {
				return nil, err
			}
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, fmt.Errorf("line %d: regex: %v", v.Line, err)
			}
			m = regexMatcher{re}
		case "inside", "has", "precedes", "follows":
			if m, err = rp.relation(k, v, depth); err != nil {
				return nil, err
			}
		case "all", "any":
			if v.Kind != yaml.SequenceNode {
				return nil, fmt.Errorf("line %d: %s must be a list of rules", v.Line, k)
			}
			var subs []Matcher
			for _, c := range v.Content {
				s, err := rp.object(c, depth+1)
				if err != nil {
					return nil, err
				}
				subs = append(subs, s)
			}
			if k == "all" {
				m = allOf(subs)
			} else {
				m = anyOf(subs)
			}
		case "not":
			s, err := rp.object(v, depth+1)
			if err != nil {
				return nil, err
			}
			m = notOf{s}
		default:
			return nil, fmt.Errorf("line %d: unknown key %q in a rule (known: pattern, kind, regex, inside, has, precedes, follows, all, any, not)", p[0].Line, k)
		}
		parts = append(parts, m)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("line %d: an empty rule", n.Line)
	}
	return allOf(parts), nil
}

// relation parses inside/has/precedes/follows: a rule object plus stopBy.
func (rp *ruleParser) relation(k string, v *yaml.Node, depth int) (Matcher, error) {
	kv, err := mapping(v, k)
	if err != nil {
		return nil, err
	}
	rel := &relational{op: k}
	inner := &yaml.Node{Kind: yaml.MappingNode, Line: v.Line}
	for _, p := range kv {
		switch p[0].Value {
		case "stopBy":
			if p[1].Kind == yaml.ScalarNode {
				switch p[1].Value {
				case "neighbor":
				case "end":
					rel.toEnd = true
				default:
					return nil, fmt.Errorf("line %d: stopBy %q: expected neighbor, end or a rule", p[1].Line, p[1].Value)
				}
				continue
			}
			if rel.stop, err = rp.object(p[1], depth+1); err != nil {
				return nil, err
			}
		case "field":
			return nil, fmt.Errorf("line %d: %s.field is not supported", p[0].Line, k)
		default:
			inner.Content = append(inner.Content, p[0], p[1])
		}
	}
	if rel.sub, err = rp.object(inner, depth+1); err != nil {
		return nil, err
	}
	return rel, nil
}

// required are the literals of the patterns every match must satisfy.
func (rp *ruleParser) required(n *yaml.Node) []string {
	var out []string
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch k {
		case "pattern":
			if p, err := CompilePattern(rp.lang, v.Value); err == nil {
				out = append(out, p.Literals()...)
			}
		case "all":
			for _, c := range v.Content {
				out = append(out, rp.required(c)...)
			}
		}
	}
	sortLongestFirst(out)
	return out
}

// regexMatcher matches nodes whose text the regex finds a match in.
type regexMatcher struct{ re *regexp.Regexp }

func (r regexMatcher) match(t *syntax.Tree, i int32, e *env) bool {
	e.budget--
	return r.re.Match(t.Text(i))
}
func (r regexMatcher) kinds() []uint16 { return nil }

// anyOf matches when one of its rules does (the first one's bindings).
type anyOf []Matcher

func (a anyOf) match(t *syntax.Tree, i int32, e *env) bool {
	for _, x := range a {
		if x.match(t, i, e) {
			return true
		}
	}
	return false
}

func (a anyOf) kinds() []uint16 {
	var out []uint16
	for _, x := range a {
		ks := x.kinds()
		if ks == nil {
			return nil
		}
		out = append(out, ks...)
	}
	return out
}

// notOf matches when its rule does not (binding nothing).
type notOf struct{ m Matcher }

func (n notOf) match(t *syntax.Tree, i int32, e *env) bool {
	m := e.mark()
	ok := n.m.match(t, i, e)
	e.undo(m)
	return !ok
}
func (n notOf) kinds() []uint16 { return nil }

// relational is inside, has, precedes or follows: a node related to the
// candidate matches sub; by default only the nearest (the parent, a
// direct child, the next or previous sibling), with stopBy end all of
// them, with a stopBy rule up to and including the first that matches it.
type relational struct {
	op    string
	sub   Matcher
	toEnd bool
	stop  Matcher
}

func (r *relational) kinds() []uint16 { return nil }

func (r *relational) match(t *syntax.Tree, i int32, e *env) bool {
	try := func(j int32) (found, stop bool) {
		e.budget--
		if e.budget < 0 {
			return false, true
		}
		if r.sub.match(t, j, e) {
			return true, true
		}
		if r.stop != nil {
			m := e.mark()
			s := r.stop.match(t, j, e)
			e.undo(m)
			return false, s
		}
		return false, !r.toEnd
	}
	switch r.op {
	case "inside":
		for p := t.Nodes[i].Parent; p >= 0; p = t.Nodes[p].Parent {
			if f, s := try(p); f || s {
				return f
			}
		}
	case "has":
		if !r.toEnd && r.stop == nil {
			for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
				if f, _ := try(c); f {
					return true
				}
			}
			return false
		}
		// Pre-order over the descendants; a stop node's own subtree is
		// not entered.
		stack := []int32{}
		for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
			stack = append(stack, c)
		}
		for k, j := 0, len(stack)-1; k < j; k, j = k+1, j-1 {
			stack[k], stack[j] = stack[j], stack[k]
		}
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f, s := try(j)
			if f {
				return true
			}
			if s && r.stop != nil || e.budget < 0 {
				continue
			}
			var kids []int32
			for c := t.FirstChild(j); c >= 0; c = t.Nodes[c].Next {
				kids = append(kids, c)
			}
			for k := len(kids) - 1; k >= 0; k-- {
				stack = append(stack, kids[k])
			}
		}
	case "precedes":
		for s := t.Nodes[i].Next; s >= 0; s = t.Nodes[s].Next {
			if blankToken(t, s) {
				continue
			}
			if f, st := try(s); f || st {
				return f
			}
		}
	case "follows":
		p := t.Nodes[i].Parent
		if p < 0 {
			return false
		}
		var prev []int32
		for c := t.FirstChild(p); c >= 0 && c != i; c = t.Nodes[c].Next {
			if !blankToken(t, c) {
				prev = append(prev, c)
			}
		}
		for k := len(prev) - 1; k >= 0; k-- {
			if f, st := try(prev[k]); f || st {
				return f
			}
		}
	}
	return false
}

// blankToken: an anonymous token of white space only (Go's newline
// terminator), which ast-grep's grammars leave out of the tree. Every other
// sibling is a neighbor for precedes and follows, anonymous ones too: with
// stopBy neighbor a separator (Go's `;`, a `,`) stands between two nodes.
func blankToken(t *syntax.Tree, i int32) bool {
	if t.Nodes[i].Named() || t.Nodes[i].NumChildren != 0 {
		return false
	}
	return len(bytes.TrimSpace(t.Text(i))) == 0
}

// FindRules returns the matches of every rule (each with its Rule id),
// ordered by position and then by the rules' order.
func FindRules(t *syntax.Tree, rules []*Rule) ([]Match, error) {
	var out []Match
	var first error
	for _, r := range rules {
		ms, err := FindAll(t, r)
		if err != nil && first == nil {
			first = err
		}
		for k := range ms {
			ms[k].Rule = r.ID
		}
		out = append(out, ms...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End > out[j].End
	})
	return out, first
}
