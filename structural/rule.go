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
	// Fix, when set, is the rule's fix (rule files' `fix`).
	Fix *Fix
	// constraints restrict what a metavariable may bind to.
	constraints map[string]Matcher
	literals    []string
	transforms  []transform
	// rewriters are the document's rewriters (the rewrite transform).
	rewriters rewriterSet
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
	var ruleNode, consNode, utilsNode, transformNode, fixNode, rewritersNode *yaml.Node
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
		case "utils":
			utilsNode = v
		case "transform":
			transformNode = v
		case "fix":
			fixNode = v
		case "rewriters":
			rewritersNode = v
		case "note", "url", "metadata":
			// Shown by ast-grep's reports, not used to match.
		default:
			return nil, fmt.Errorf("line %d: unknown key %q in a rule document (known: id, language, rule, message, severity, constraints, utils, transform, fix, rewriters, note, url, metadata)", p[0].Line, k)
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
	rp := &ruleParser{lang: r.Lang, utils: map[string]*yaml.Node{}, compiled: map[string]*utilRef{}}
	if utilsNode != nil {
		ukv, err := mapping(utilsNode, "utils")
		if err != nil {
			return nil, err
		}
		for _, p := range ukv {
			rp.utils[p[0].Value] = p[1]
		}
		// Every utility compiles, used or not (ast-grep checks them all).
		for _, p := range ukv {
			if _, err := rp.utility(p[0].Value, p[0].Line, 0); err != nil {
				return nil, fmt.Errorf("rule %q: %v", r.ID, err)
			}
		}
	}
	if r.root, err = rp.object(ruleNode, 0); err != nil {
		return nil, fmt.Errorf("rule %q: %v", r.ID, err)
	}
	r.literals = rp.required(ruleNode)
	if consNode != nil {
		if r.constraints, err = rp.constraints(consNode); err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.ID, err)
		}
	}
	r.rewriters = rewriterSet{}
	if rewritersNode != nil {
		if err := rp.parseRewriters(rewritersNode, r.Lang, r.rewriters); err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.ID, err)
		}
	}
	if transformNode != nil {
		if r.transforms, err = parseTransforms(transformNode); err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.ID, err)
		}
	}
	for _, x := range append([]*Rule{r}, rewriterList(r.rewriters)...) {
		if err := checkRewriters(x.transforms, r.rewriters); err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.ID, err)
		}
	}
	if fixNode != nil {
		if r.Fix, err = rp.parseFix(fixNode); err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.ID, err)
		}
	}
	return r, nil
}

// constraints reads a rule's constraints: a rule per metavariable.
func (rp *ruleParser) constraints(n *yaml.Node) (map[string]Matcher, error) {
	ckv, err := mapping(n, "constraints")
	if err != nil {
		return nil, err
	}
	out := map[string]Matcher{}
	for _, p := range ckv {
		m, err := rp.object(p[1], 1)
		if err != nil {
			return nil, fmt.Errorf("constraint %s: %v", p[0].Value, err)
		}
		out[p[0].Value] = m
	}
	return out, nil
}

// rewriterList are the rewriters of a set.
func rewriterList(reg rewriterSet) []*Rule {
	var out []*Rule
	for _, r := range reg {
		out = append(out, r)
	}
	return out
}

// ruleParser compiles the rules of one document.
type ruleParser struct {
	lang *Lang
	// utils are the document's utility rules by name, compiled on first
	// use (matches).
	utils    map[string]*yaml.Node
	compiled map[string]*utilRef
	// path are the utilities being compiled since the last relational
	// rule (a cycle among them would never end).
	path []string
}

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
	order := map[string]int{"pattern": 0, "kind": 1, "regex": 2, "nthChild": 3, "range": 4, "inside": 5, "has": 6, "precedes": 7, "follows": 8, "all": 9, "any": 10, "not": 11, "matches": 12}
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
		case "nthChild":
			if m, err = rp.parseNth(v, depth); err != nil {
				return nil, err
			}
		case "range":
			if m, err = parseRange(v); err != nil {
				return nil, err
			}
		case "matches":
			s, err := scalar(v, k)
			if err != nil {
				return nil, err
			}
			if m, err = rp.utility(s, v.Line, depth); err != nil {
				return nil, err
			}
		case "inside", "has", "precedes", "follows":
			saved := rp.path
			rp.path = nil
			m, err = rp.relation(k, v, depth)
			rp.path = saved
			if err != nil {
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
			return nil, fmt.Errorf("line %d: unknown key %q in a rule (known: pattern, kind, regex, nthChild, range, inside, has, precedes, follows, all, any, not, matches)", p[0].Line, k)
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
			if k != "has" && k != "inside" {
				return nil, fmt.Errorf("line %d: field is only for has and inside, not %s", p[0].Line, k)
			}
			s, err := scalar(p[1], "field")
			if err != nil {
				return nil, err
			}
			id, ok := syntax.FieldID(rp.lang.Name, s)
			if !ok {
				return nil, fmt.Errorf("line %d: %s has no field %q", p[1].Line, rp.lang.Name, s)
			}
			rel.field = id
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
			if r.Fix != nil || len(r.transforms) > 0 {
				ms[k].Fixed = &Fixed{Derived: r.derive(t, &ms[k], ms[k].Vars)}
			}
			if r.Fix != nil {
				ms[k].Fixed.Range = r.Fix.fixRange(t, &ms[k])
			}
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
